// Published artefacts that must not drift from the code.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_TABLE } from '../../src/domain/errors.js';
import { EXIT_CODES, exitCodesMarkdown } from '../../src/domain/exit-codes.js';
import { reportJsonSchema, summaryJsonSchema, auditJsonSchema } from '../../src/domain/json-schema.js';
import { ROOT } from '../helpers.js';

describe('contracts', () => {
  it('DESIGN.md lists exactly the error table, with the same HTTP statuses and exit codes', () => {
    const design = readFileSync(join(ROOT, 'DESIGN.md'), 'utf8');
    const section = design.slice(design.indexOf('## Error codes'));
    const rows = [...section.matchAll(/^\| `([A-Z_0-9]+)` \| (\d+) \| (\d+) \|/gm)].map((m) => [
      m[1],
      Number(m[2]),
      Number(m[3]),
    ]);
    expect(rows).toEqual(Object.entries(ERROR_TABLE).map(([code, d]) => [code, d.http, d.exit]));
  });

  it('README.md and DESIGN.md show the exit-code table of the code (run `npm run docs`), and every error exits with one of its codes', () => {
    const block = (doc: string): string => {
      const text = readFileSync(join(ROOT, doc), 'utf8');
      return text
        .slice(
          text.indexOf('<!-- exit-codes:start -->') + '<!-- exit-codes:start -->'.length,
          text.indexOf('<!-- exit-codes:end -->'),
        )
        .trim();
    };
    expect(block('README.md')).toBe(exitCodesMarkdown());
    expect(block('DESIGN.md')).toBe(exitCodesMarkdown());
    expect(
      exitCodesMarkdown()
        .split('\n')
        .slice(2)
        .map((l) => Number(l.split(' | ')[0]?.slice(2))),
    ).toEqual([0, 1, 2, 3, 4, 5, 6, 70, 130]);
    const codes = new Set<number>(Object.values(EXIT_CODES).map((e) => e.code));
    expect(Object.entries(ERROR_TABLE).filter(([, d]) => !codes.has(d.exit))).toEqual([]);
  });

  it('schemas/*.schema.json are generated from the zod schemas (run `npm run schemas`)', () => {
    const read = (n: string) => JSON.parse(readFileSync(join(ROOT, 'schemas', n), 'utf8')) as unknown;
    expect(read('report.schema.json')).toEqual(reportJsonSchema());
    expect(read('summary.schema.json')).toEqual(summaryJsonSchema());
    expect(read('audit.schema.json')).toEqual(auditJsonSchema());
  });
});
