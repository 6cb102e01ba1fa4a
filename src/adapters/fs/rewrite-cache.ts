import { readFileSync } from 'node:fs';
import { keepCacheEntry } from '../../runtime/atomic.js';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { LANGUAGES } from '../../domain/languages.js';
import type { Rubric } from '../../domain/rubric.js';
import { keepJobTest, rewriteOf } from '../../stages/run/test-rewrite.js';
import { sha256 } from '../../util/hash.js';

// The CommonJS rewrite of a rubric's ES-module test files (stages/run/test-rewrite.ts), kept on disk between runs: made
// by acorn, whose first parse in a process costs ≈ 9–14 ms of CPU (its code compiled cold), paid by every command
// that grades a rubric before this. Kept by the rewriter's own source and acorn's version (a changed rewriter never
// reads an old entry), the test's job name and source. The grader's cache directory is never reachable from a job;
// an entry that does not validate is made again and overwritten; one that cannot be written costs the next run a parse.

const RewriteSchema = z
  .object({ code: z.string(), imports: z.array(z.string()), script: z.boolean().optional() })
  .strict()
  .nullable();
const EntrySchema = z.object({ cjs: RewriteSchema }).strict();

const here = dirname(fileURLToPath(import.meta.url));
let rewriterHash: string | null = null;
/** What shapes every rewrite besides the test itself: the rewriter's source and the acorn it parses with. */
function rewriter(): string {
  if (rewriterHash === null) {
    // src/adapters/fs and dist/adapters/fs are both three levels under the package root.
    const root = join(here, '..', '..', '..');
    const source = readFileSync(join(root, 'sandbox', 'harness', 'esm-to-cjs.cjs'));
    const acorn = (createRequire(join(root, 'package.json'))('acorn/package.json') as { version: string }).version;
    rewriterHash = sha256(Buffer.concat([source, Buffer.from(`|acorn ${acorn}`)]));
  }
  return rewriterHash;
}

/**
 * Every JavaScript test file of `rubric` with its rewrite read from `dir` (or made and kept there), so that the jobs'
 * payloads (stages/run/test-rewrite.ts jobTest) carry it without a parse in this process. Synchronous: a few small files,
 * read once per command. Python rubrics have nothing to rewrite.
 */
export function primeTestRewrites(dir: string, rubric: Rubric): void {
  if (LANGUAGES[rubric.spec.language].runtime === 'python') return;
  for (const t of rubric.tests) {
    const file = join(dir, `${sha256([rewriter(), t.jobName, t.jobSource].join('\0')).slice(0, 32)}.json`);
    const kept = readEntry(file);
    if (kept !== undefined) {
      keepJobTest(t, kept);
      continue;
    }
    const made = rewriteOf(t);
    keepJobTest(t, made);
    // A cache entry we cannot keep only costs the next run its parse.
    keepCacheEntry(file, JSON.stringify({ cjs: made }));
  }
}

function readEntry(file: string): z.infer<typeof RewriteSchema> | undefined {
  try {
    const parsed = EntrySchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data.cjs : undefined;
  } catch {
    return undefined;
  }
}
