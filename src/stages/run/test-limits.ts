// The rubric's `test_limits` resolved per collected test (the most specific selector wins, as for `visibility`):
// its own time limit travels in the payload (the harness times the test with it; the grader's watch stops it from
// outside past it), and tests with a memory limit of their own run in a job of their own with that limit. Pure.
import type { ExpectedTest } from '../../domain/queue.js';
import type { HarnessPayload } from '../../domain/sandbox.js';
import type { Limits, Rubric, TestLimit } from '../../domain/rubric.js';
import { mostSpecific, specificity } from '../../domain/selectors.js';

const nameOf = (t: ExpectedTest): string => t.path.join(' > ');

/** The rubric's file name of a job file (the selectors name files as the rubric lists them). */
const fileNames = (rubric: Rubric): Map<string, string> => new Map(rubric.tests.map((f) => [f.jobName, f.name]));

/** Each expected test's own limits, in order (an empty object for a test no selector names). */
export function testLimitsOf(rubric: Rubric, expected: readonly ExpectedTest[]): TestLimit[] {
  const map = rubric.spec.test_limits ?? {};
  const files = fileNames(rubric);
  const merged = (t: ExpectedTest): TestLimit => {
    const name = nameOf(t);
    const file = files.get(t.file) ?? t.file;
    // Time and memory are resolved apart: a group's memory and one test's time can both apply.
    const pick = (key: keyof TestLimit): number | undefined =>
      mostSpecific(
        Object.fromEntries(Object.entries(map).flatMap(([sel, l]) => (l[key] === undefined ? [] : [[sel, l[key]]]))),
        name,
        file,
        rubric.spec.tests,
      );
    const time_ms = pick('time_ms');
    const memory_mb = pick('memory_mb');
    return { ...(time_ms !== undefined && { time_ms }), ...(memory_mb !== undefined && { memory_mb }) };
  };
  return expected.map(merged);
}

/** The payload's `testTimeouts`: per job file and test index, the rubric's own time limit; undefined if none. */
export function payloadTimeouts(
  expected: readonly ExpectedTest[],
  limits: readonly TestLimit[],
): HarnessPayload['testTimeouts'] {
  const out: Record<string, Record<number, number>> = {};
  expected.forEach((t, i) => {
    const ms = limits[i]?.time_ms;
    if (ms !== undefined) (out[t.file] ??= {})[t.index] = ms;
  });
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Tests that share a memory limit, with the limits of the job they run in. */
export interface LimitGroup {
  readonly tests: readonly ExpectedTest[];
  readonly limits: Limits;
}

/**
 * The jobs a submission's tests run in: one with the rubric's limits for every test without a memory limit of its
 * own (first, as before), then one per distinct memory limit, in the order tests name them.
 */
export function limitGroups(
  expected: readonly ExpectedTest[],
  own: readonly TestLimit[],
  limits: Limits,
): LimitGroup[] {
  const byMemory = new Map<number, ExpectedTest[]>([[limits.memory_mb, []]]);
  expected.forEach((t, i) => {
    const mb = own[i]?.memory_mb ?? limits.memory_mb;
    byMemory.set(mb, [...(byMemory.get(mb) ?? []), t]);
  });
  return [...byMemory]
    .filter(([, tests]) => tests.length > 0)
    .map(([memory_mb, tests]) => ({ tests, limits: { ...limits, memory_mb } }));
}

/** Selectors of `test_limits` that name no collected test, group nor test file. */
export function unknownLimitSelectors(rubric: Rubric, expected: readonly ExpectedTest[]): string[] {
  const files = fileNames(rubric);
  return Object.keys(rubric.spec.test_limits ?? {}).flatMap((sel) =>
    expected.some((t) => specificity(sel, nameOf(t), files.get(t.file) ?? t.file, rubric.spec.tests) > 0)
      ? []
      : [`"${sel}" (in test_limits) matches no test, group or test file`],
  );
}
