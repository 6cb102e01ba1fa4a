// A hidden ES-module test file reaches every job already rewritten to the CommonJS body the harness runs, made
// once per rubric by the harness's own rewriter (sandbox/harness/esm-to-cjs.cjs): each job then skips acorn's
// load and parse of the tests (≈ 2 ms of a 65 ms job, bench/README.md). The tests are trusted; so is the rewrite.
// A command may hand in the rewrite it kept from an earlier run (adapters/fs/rewrite-cache.ts, keepJobTest).
import { createRequire } from 'node:module';
import type { HarnessTest } from '../../domain/sandbox.js';
import type { TestFile } from '../../domain/rubric.js';

export type Rewrite = NonNullable<HarnessTest['cjs']>;
const { testAsCommonJs } = createRequire(import.meta.url)('../../../sandbox/harness/esm-to-cjs.cjs') as {
  testAsCommonJs: (name: string, source: string) => Rewrite | null;
};

const made = new WeakMap<TestFile, HarnessTest>();

/** The CommonJS rewrite of a JavaScript test file as the harness would make it (null: it runs as it is). */
export const rewriteOf = (t: TestFile): Rewrite | null => testAsCommonJs(t.jobName, t.jobSource);

/** Hands jobTest the rewrite of `t` made earlier (the same rewriter's, for this very name and source). */
export function keepJobTest(t: TestFile, cjs: Rewrite | null): void {
  made.set(t, { name: t.jobName, source: t.jobSource, cjs });
}

/** A rubric's test file as a job's payload carries it (JavaScript: with its CommonJS rewrite, null if it has none). */
export function jobTest(t: TestFile, javascript: boolean): HarnessTest {
  if (!javascript) return { name: t.jobName, source: t.jobSource };
  let test = made.get(t);
  if (!test) {
    test = { name: t.jobName, source: t.jobSource, cjs: rewriteOf(t) };
    made.set(t, test);
  }
  return test;
}
