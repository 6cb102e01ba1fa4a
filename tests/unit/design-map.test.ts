// DESIGN.md is a map a newcomer reads whole: short, and every part it names has its document under docs/, linked
// from it. Links between these documents must lead somewhere.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.js';

const DOCS = join(ROOT, 'docs');
const read = (file: string): string => readFileSync(file, 'utf8');

/** The relative targets of a Markdown document's links (anchors and web addresses left out). */
export function linkTargets(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => (m[1] as string).split('#')[0] as string)
    .filter((t) => t !== '' && !/^[a-z]+:/i.test(t));
}

describe('the design map', () => {
  const design = read(join(ROOT, 'DESIGN.md'));
  const docs = readdirSync(DOCS).filter((f) => f.endsWith('.md'));

  it('stays a twenty-minute read (30 KB at most)', () => {
    expect(Buffer.byteLength(design)).toBeLessThanOrEqual(30 * 1024);
  });

  it('links every document under docs/, and each links back to it', () => {
    expect(docs.filter((f) => !linkTargets(design).includes(`docs/${f}`))).toEqual([]);
    expect(docs.filter((f) => !linkTargets(read(join(DOCS, f))).includes('../DESIGN.md'))).toEqual([]);
  });

  it('has no link, in DESIGN.md or docs/, to a file that does not exist', () => {
    const broken = [join(ROOT, 'DESIGN.md'), ...docs.map((f) => join(DOCS, f))].flatMap((file) =>
      linkTargets(read(file))
        .filter((t) => !existsSync(join(dirname(file), t)))
        .map((t) => `${relative(ROOT, file)} → ${t}`),
    );
    expect(broken).toEqual([]);
  });

  it('reads link targets as Markdown does: relative files, without anchors or web addresses', () => {
    expect(linkTargets('[a](docs/a.md) [b](b.md#part) [c](https://x.org/c.md) [d](#here) `[e](e.md)`')).toEqual([
      'docs/a.md',
      'b.md',
      'e.md',
    ]);
  });
});
