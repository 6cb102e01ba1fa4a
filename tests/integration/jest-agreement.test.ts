// Evigrade's per-test results against real Jest's (recorded by tests/agreement/record.mjs) on exercises
// written in the style of exercism's JavaScript track, with reference solutions and realistic wrong ones:
// classes with private fields and getters, custom errors, callbacks and jest.fn, mutated arguments, Dates,
// async code with resolves/rejects, done callbacks, per-test timeouts, .each, xtest and test.todo,
// ES modules and CommonJS. Jest "failed" is any of failed/error/timeout here; "pending" and "todo" are skipped.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ProcessBackendId } from '../../src/adapters/sandbox/registry.js';
import type { Report } from '../../src/domain/report.js';
import { firstBackend, gradeInline, inlineRubric, ROOT } from '../helpers.js';

const DIR = join(ROOT, 'tests', 'agreement');
const EXERCISES = readdirSync(DIR, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();

interface Recorded { jest: string; spec: string; results: Record<string, Record<string, 'passed' | 'failed' | 'pending' | 'todo'>> }

const asJest = (status: Report['tests'][number]['status']): string =>
  status === 'passed' ? 'passed' : status === 'skipped' ? 'skipped' : 'failed';
const fromJest = (status: string): string => (status === 'pending' || status === 'todo' ? 'skipped' : status);

let backend: ProcessBackendId;
beforeAll(async () => {
  backend = await firstBackend();
});

const tally = { tests: 0, agreed: 0, submissions: 0, exact: 0 };

describe.each(EXERCISES)('agreement with real Jest: %s', (slug) => {
  const recorded = JSON.parse(readFileSync(join(DIR, slug, 'jest-results.json'), 'utf8')) as Recorded;
  const rubric = inlineRubric({ [recorded.spec]: readFileSync(join(DIR, slug, recorded.spec), 'utf8') }, { entry: `./${slug}` });

  it.each(Object.keys(recorded.results))('%s: every test as Jest reported it', async (variant) => {
    const source = readFileSync(join(DIR, slug, 'solutions', `${variant}.js`), 'utf8');
    const report = await gradeInline(backend, rubric, { [`${slug}.js`]: source });
    const ours = Object.fromEntries(report.tests.map((t) => [t.name, asJest(t.status)]));
    const jest = Object.fromEntries(Object.entries(recorded.results[variant] ?? {}).map(([n, s]) => [n, fromJest(s)]));
    const names = Object.keys(jest);
    tally.tests += names.length;
    tally.agreed += names.filter((n) => ours[n] === jest[n]).length;
    tally.submissions += 1;
    if (JSON.stringify(ours) === JSON.stringify(jest)) tally.exact += 1;
    expect(ours).toEqual(jest);
  }, 120_000);
});

describe('agreement figure', () => {
  it('is 100% of tests and submissions', () => {
    console.log(`Jest agreement: ${tally.agreed}/${tally.tests} tests, ${tally.exact}/${tally.submissions} submissions exactly`);
    expect(tally.submissions).toBeGreaterThanOrEqual(20);
    expect([tally.agreed, tally.exact]).toEqual([tally.tests, tally.submissions]);
  });
});
