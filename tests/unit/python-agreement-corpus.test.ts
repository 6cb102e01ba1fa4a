// The Python agreement corpus (tests/python-agreement) is well-formed and its recorded pytest results fit it:
// every solution has a record and every record a solution, references pass, wrong variants fail, every test the
// files define was recorded, and no message carries a run's memory address or temporary path. Reads files only:
// recording needs Python (record.py), checking what was recorded does not.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'python-agreement');
const OUTCOMES = ['passed', 'failed', 'error', 'skipped'] as const;

type Outcome = (typeof OUTCOMES)[number];
interface TestResult {
  outcome: Outcome;
  message: string;
}
interface Run {
  collectErrors: { file: string; message: string }[];
  tests: Record<string, TestResult>;
}

const raw = readFileSync(join(DIR, 'expected.json'), 'utf8');
const expected = JSON.parse(raw) as Record<string, Run>;
const exercises = readdirSync(DIR)
  .filter((d) => existsSync(join(DIR, d, 'solutions')))
  .sort();
const variantsOf = (slug: string): string[] => readdirSync(join(DIR, slug, 'solutions')).sort();
const source = (slug: string, file: string): string => readFileSync(join(DIR, slug, file), 'utf8');
const testFiles = (slug: string): string[] =>
  readdirSync(join(DIR, slug))
    .filter((f) => f.endsWith('.py'))
    .sort();
const results = (): [string, TestResult][] => Object.values(expected).flatMap((r) => Object.entries(r.tests));

/** JSON with every object's keys sorted, two-space indent: what record.py writes (json.dumps sort_keys, indent=2). */
function sortedJson(value: unknown): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
          )
        : v;
  return `${JSON.stringify(sort(value), null, 2)}\n`;
}

describe('Python agreement corpus', () => {
  it('has at least 12 exercises, each with its hidden tests, a reference and 3 to 5 wrong variants of one module', () => {
    expect(exercises.length).toBeGreaterThanOrEqual(12);
    for (const slug of exercises) {
      expect(testFiles(slug), slug).toContain(`${slug}_test.py`);
      expect(
        testFiles(slug).every((f) => f === `${slug}_test.py` || f === 'conftest.py'),
        slug,
      ).toBe(true);
      const variants = variantsOf(slug);
      expect(variants, slug).toContain('reference');
      expect(variants.length - 1, slug).toBeGreaterThanOrEqual(3);
      expect(variants.length - 1, slug).toBeLessThanOrEqual(5);
      for (const v of variants)
        expect(readdirSync(join(DIR, slug, 'solutions', v)), `${slug}/${v}`).toEqual([`${slug}.py`]);
    }
  });

  it('records exactly one run per (exercise, variant)', () => {
    const onDisk = exercises.flatMap((slug) => variantsOf(slug).map((v) => `${slug}/${v}`)).sort();
    expect(Object.keys(expected).sort()).toEqual(onDisk);
  });

  it('is written as record.py writes it (sorted keys), so re-recording shows only real changes', () => {
    expect(raw).toBe(sortedJson(expected));
  });

  it('has every reference pass every test it ran (skips aside, each skip reason from the test file)', () => {
    for (const slug of exercises) {
      const run = expected[`${slug}/reference`] as Run;
      const entries = Object.entries(run.tests);
      expect(run.collectErrors, slug).toEqual([]);
      expect(entries.filter(([, t]) => t.outcome === 'passed').length, slug).toBeGreaterThan(0);
      const tests = testFiles(slug)
        .map((f) => source(slug, f))
        .join('\n');
      for (const [id, t] of entries) {
        if (t.outcome === 'skipped') expect(tests, `${slug}: ${id}`).toContain(`"${t.message}"`);
        else expect(t, `${slug}: ${id}`).toEqual({ outcome: 'passed', message: '' });
      }
    }
  });

  it('has every test function of a test file among the reference run node ids, under that file', () => {
    for (const slug of exercises) {
      const file = `${slug}_test.py`;
      const ids = Object.keys((expected[`${slug}/reference`] as Run).tests);
      expect(
        ids.every((id) => id.startsWith(`${file}::`)),
        slug,
      ).toBe(true);
      const defined = [...source(slug, file).matchAll(/^\s*def (test_\w+)\(/gm)].map((m) => m[1] as string);
      expect(defined.length, slug).toBeGreaterThan(0);
      for (const name of defined)
        expect(
          ids.some((id) => id.endsWith(`::${name}`) || id.includes(`::${name}[`)),
          `${slug}: ${name}`,
        ).toBe(true);
    }
  });

  it('has every wrong variant fail: a collection error, or one test failed or in error, over the reference tests', () => {
    for (const slug of exercises) {
      const reference = Object.keys((expected[`${slug}/reference`] as Run).tests).sort();
      for (const v of variantsOf(slug).filter((x) => x !== 'reference')) {
        const run = expected[`${slug}/${v}`] as Run;
        if (run.collectErrors.length > 0) {
          // pytest stops at a collection error: the file's tests are not run, so none is recorded.
          expect(
            run.collectErrors.map((e) => e.file),
            `${slug}/${v}`,
          ).toEqual([`${slug}_test.py`]);
          expect(run.tests, `${slug}/${v}`).toEqual({});
          continue;
        }
        expect(Object.keys(run.tests).sort(), `${slug}/${v}`).toEqual(reference);
        expect(
          Object.values(run.tests).some((t) => t.outcome === 'failed' || t.outcome === 'error'),
          `${slug}/${v}`,
        ).toBe(true);
      }
    }
  });

  it('gives a message exactly when a test did not pass, with one of the four outcomes', () => {
    for (const [id, t] of results()) {
      expect(OUTCOMES, id).toContain(t.outcome);
      expect(t.message === '', id).toBe(t.outcome === 'passed');
    }
    for (const e of Object.values(expected).flatMap((r) => r.collectErrors))
      expect(e.message, e.file).toMatch(/^[\w.]+(Error|Exception|error): /);
  });

  it('normalises memory addresses and the run directory out of every message', () => {
    const messages = [
      ...results().map(([, t]) => t.message),
      ...Object.values(expected).flatMap((r) => r.collectErrors.map((e) => e.message)),
    ];
    const leaks = messages.filter((m) => /0x[0-9a-fA-F]+/.test(m) || /\/tmp\/|pyagree-/.test(m));
    expect(leaks).toEqual([]);
    // The normalised forms do occur, so the normalisation is exercised, not vacuous.
    expect(messages.some((m) => m.includes('0x…'))).toBe(true);
    expect(messages.some((m) => m.includes('<dir>/'))).toBe(true);
  });

  it('states in its README the totals expected.json holds', () => {
    const counts = Object.fromEntries(OUTCOMES.map((o) => [o, results().filter(([, t]) => t.outcome === o).length]));
    const collectErrors = Object.values(expected).filter((r) => r.collectErrors.length > 0).length;
    const line =
      `${exercises.length} exercises, ${Object.keys(expected).length} submissions, ${results().length} test results ` +
      `(${counts.passed} passed, ${counts.failed} failed, ${counts.error} error, ${counts.skipped} skipped), ` +
      `${collectErrors} submissions stopped by a collection error`;
    expect(readFileSync(join(DIR, 'README.md'), 'utf8')).toContain(line);
    expect(statSync(join(DIR, 'record.py')).isFile()).toBe(true);
  });
});
