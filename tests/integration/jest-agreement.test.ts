// Evigrade's per-test results against real Jest's (recorded by tests/agreement/record.mjs) on exercises
// written in the style of exercism's JavaScript track, with reference solutions and realistic wrong ones:
// classes with private fields and getters, custom and ES5-style errors, thrown strings, callbacks and jest.fn,
// mutated arguments, Dates, async code with resolves/rejects, done callbacks, per-test timeouts, .each (arrays
// and tagged tables), xtest, test.skip and test.todo, ES modules and CommonJS, default exports, implicit globals
// and their ReferenceErrors, an export after code on its line, top-level await, unhandled rejections, custom matchers
// (expect.extend) used directly and as asymmetric matchers inside other matchers.
// Jest "failed" is any of failed/error/timeout here; "pending" is skipped, "todo" is skipped with message "todo".
// A submission on which Evigrade differs from Jest (by design, or known and not fixed) is listed in DELIBERATE with the reason and the
// statuses Evigrade gives instead (asserted exactly, counted apart from the agreement figure).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/domain/report.js';
import { firstBackend, gradeInline, inlineRubric, ROOT } from '../helpers.js';

const DIR = join(ROOT, 'tests', 'agreement');
const EXERCISES = readdirSync(DIR, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();
const CONCURRENCY = 3;

type JestStatus = 'passed' | 'failed' | 'pending' | 'todo';
interface Recorded {
  jest: string;
  spec: string;
  results: Record<string, Record<string, JestStatus>>;
  suiteFailed?: Record<string, string>;
}

const ours = (t: Report['tests'][number]): string =>
  t.status === 'passed' ? 'passed' : t.status === 'skipped' ? (t.message === 'todo' ? 'todo' : 'pending') : 'failed';

const recorded = new Map(
  EXERCISES.map((slug) => [slug, JSON.parse(readFileSync(join(DIR, slug, 'jest-results.json'), 'utf8')) as Recorded]),
);
const cases = EXERCISES.flatMap((slug) =>
  Object.keys(recorded.get(slug)?.results ?? {}).map((variant) => ({ slug, variant })),
);
const graded = new Map<string, Record<string, string>>();
/** Each test's whole result as Evigrade reported it: printed beside a disagreement, so a rare one explains itself. */
const reported = new Map<string, Report['tests']>();
const flagged = new Map<string, string[]>();

const FAILED_BY_STRICT = [
  'lists them in order',
  'includes both ends',
  'has one entry per leap year',
  'contains the turn of the millennium',
  'calling it twice gives the same answer',
];
const EDGES = 'values made on both sides of the realm boundary';
const DELIBERATE: Record<
  string,
  { why: string; evigrade: (jest: Record<string, string>, reference: Record<string, string>) => Record<string, string> }
> = {
  'leap/implicit-global': {
    why: 'student code runs strict (issue 12, class 4): assigning an undeclared variable is a ReferenceError; Jest 30 runs a CommonJS file sloppy (Jest 29 with Babel ran it strict, as we do)',
    evigrade: (jest) => ({
      ...jest,
      ...Object.fromEntries(FAILED_BY_STRICT.map((t) => [`leap years in a range > ${t}`, 'failed'])),
    }),
  },
  // After lockdown, Error.prototype.constructor is ses's shared Error, not the start realm's global Error the test
  // names: `new Error().constructor === Error` is false even for an error the test itself makes (toBeInstanceOf,
  // toThrow(Error), toStrictEqual and the name are unaffected). Known, not fixed.
  'realm-edges/reference': {
    why: "ses: an error's inherited constructor is the shared Error, not the tests' global Error",
    evigrade: (jest) => ({ ...jest, [`${EDGES} > constructor is Error`]: 'failed' }),
  },
  // RegExp.$1/lastMatch/input are removed in the Compartment: in the start realm they would show the submission
  // the last string the tests or expect matched (expected values).
  'realm-edges/old-school': {
    why: 'RegExp legacy statics are absent for student code (they would leak what the tests matched)',
    evigrade: (jest) => ({
      ...jest,
      [`${EDGES} > constructor is Error`]: 'failed',
      [`${EDGES} > legacy RegExp statics`]: 'failed',
    }),
  },
  'promises/top-level-await': {
    why: "Node runs top-level await in an ES module and so do we; Babel's CommonJS output cannot, so Jest's suite fails to run",
    evigrade: (_jest, reference) => reference,
  },
};

async function gradeAll(): Promise<void> {
  const backend = await firstBackend();
  const rubrics = new Map(
    EXERCISES.map((slug) => {
      const spec = recorded.get(slug)?.spec ?? '';
      return [slug, inlineRubric({ [spec]: readFileSync(join(DIR, slug, spec), 'utf8') }, { entry: `./${slug}` })];
    }),
  );
  const queue = [...cases];
  const worker = async (): Promise<void> => {
    for (let c = queue.shift(); c; c = queue.shift()) {
      const source = readFileSync(join(DIR, c.slug, 'solutions', `${c.variant}.js`), 'utf8');
      const report = await gradeInline(backend, rubrics.get(c.slug) as never, { [`${c.slug}.js`]: source });
      graded.set(`${c.slug}/${c.variant}`, Object.fromEntries(report.tests.map((t) => [t.name, ours(t)])));
      reported.set(`${c.slug}/${c.variant}`, report.tests);
      flagged.set(
        `${c.slug}/${c.variant}`,
        report.flags.map((f) => f.code).filter((code) => code.startsWith('tampering.')),
      );
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

beforeAll(gradeAll, 600_000);

const tally = { tests: 0, agreed: 0, submissions: 0, exact: 0, deliberate: 0 };

describe.each(EXERCISES)('agreement with real Jest: %s', (slug) => {
  it.each(Object.keys(recorded.get(slug)?.results ?? {}))('%s: every test as Jest reported it', (variant) => {
    const jest = recorded.get(slug)?.results[variant] ?? {};
    const evigrade = graded.get(`${slug}/${variant}`) ?? {};
    // No false accusation (issue 30): honest or merely wrong code, getters, private fields, cycles included.
    expect(flagged.get(`${slug}/${variant}`)).toEqual([]);
    const deliberate = DELIBERATE[`${slug}/${variant}`];
    if (deliberate) {
      tally.deliberate += 1;
      expect(evigrade).toEqual(deliberate.evigrade(jest, recorded.get(slug)?.results.reference ?? {}));
      expect(evigrade).not.toEqual(jest);
      return;
    }
    const names = Object.keys(jest);
    tally.tests += names.length;
    tally.agreed += names.filter((n) => evigrade[n] === jest[n]).length;
    tally.submissions += 1;
    if (JSON.stringify(evigrade) === JSON.stringify(jest)) tally.exact += 1;
    else {
      const differing = (reported.get(`${slug}/${variant}`) ?? []).filter((t) => evigrade[t.name] !== jest[t.name]);
      console.log(`${slug}/${variant} differs from Jest:\n${JSON.stringify(differing, null, 2)}`);
    }
    expect(evigrade).toEqual(jest);
  });
});

describe('agreement figure', () => {
  it('is 100% of tests and submissions', () => {
    const jestVersions = [...new Set([...recorded.values()].map((r) => r.jest))].join(', ');
    console.log(
      `Jest agreement (Jest ${jestVersions}): ${tally.agreed}/${tally.tests} tests, ${tally.exact}/${tally.submissions} submissions exactly (${EXERCISES.length} exercises); ${tally.deliberate} submissions differ as DELIBERATE lists (by design or known)`,
    );
    expect(tally.submissions + tally.deliberate).toBe(cases.length);
    expect(tally.deliberate).toBe(Object.keys(DELIBERATE).length);
    expect(cases.length).toBeGreaterThanOrEqual(36);
    expect([tally.agreed, tally.exact]).toEqual([tally.tests, tally.submissions]);
  });
});
