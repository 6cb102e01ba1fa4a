// Evigrade against real pytest (Debian's python3-pytest 7.2.1), per test: status and message. The corpus
// and what pytest said of it are in tests/python-agreement (recorded by its record.py); here each
// exercise's hidden tests are collected once in the sandbox and every variant is graded as a submission.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/domain/report.js';
import { collectExpected } from '../../src/engine.js';
import {
  analysisPool,
  firstBackend,
  gradeLocally,
  inlineRubric,
  inlineSubmission,
  ROOT,
  sandboxFor,
} from '../helpers.js';

const CORPUS = join(ROOT, 'tests', 'python-agreement');
interface Recorded {
  readonly collectErrors: readonly { file: string; message: string }[];
  readonly tests: Readonly<Record<string, { outcome: string; message: string }>>;
}
const expected = JSON.parse(readFileSync(join(CORPUS, 'expected.json'), 'utf8')) as Record<string, Recorded>;
const exercises = [...new Set(Object.keys(expected).map((k) => k.split('/')[0] as string))].sort();

/** As record.py writes messages: the submission's directory as <dir>, memory addresses (ours: `0x…n`) as 0x…. */
const normalise = (s: string): string => s.replaceAll('/job/sub', '<dir>').replace(/0x(?:[0-9a-fA-F]+|…\d+)/g, '0x…');
/** A collection error as the recorder words it: its last "E   " line. */
const lastELine = (s: string): string =>
  s
    .split('\n')
    .filter((l) => l.startsWith('E   '))
    .map((l) => l.slice(4).trim())
    .at(-1) ??
  s.trim().split('\n').at(-1) ??
  '';

const tally = { tests: 0, agreeing: 0, submissions: 0, agreeingSubmissions: 0 };

/** Where our report and pytest's record differ, one line each (empty when they agree exactly). */
function differences(report: Report, rec: Recorded): string[] {
  const out: string[] = [];
  const broken = new Map(rec.collectErrors.map((e) => [e.file, e.message]));
  for (const t of report.tests) {
    const file = t.name.split('::')[0] as string;
    if (broken.has(file)) {
      // A submission that does not load is one student error (issue 31): each test says so and the load_error
      // flag carries the error (its wording is checked in load-errors.test.ts); pytest reports a collection error.
      const loadError = report.flags.some((f) => f.code === 'submission.load_error');
      const ok =
        t.status === 'error' &&
        (normalise(lastELine(t.message)) === broken.get(file) ||
          (loadError && t.message.startsWith('not run: the submission did not load')));
      if (!ok)
        out.push(
          `${t.name}: ${t.status} "${normalise(lastELine(t.message))}" vs collection error "${broken.get(file)}"`,
        );
      continue;
    }
    const want = rec.tests[t.name];
    if (!want) {
      out.push(`${t.name}: not in pytest's record`);
      continue;
    }
    if (t.status !== want.outcome || normalise(t.message) !== want.message)
      out.push(`${t.name}: ${t.status} "${normalise(t.message)}" vs pytest ${want.outcome} "${want.message}"`);
  }
  for (const name of Object.keys(rec.tests))
    if (!report.tests.some((t) => t.name === name)) out.push(`${name}: pytest ran it, Evigrade did not`);
  return out;
}

afterAll(() => {
  console.log(
    `Python agreement with pytest 7.2.1: ${tally.agreeing}/${tally.tests} tests, ${tally.agreeingSubmissions}/${tally.submissions} submissions exactly (${exercises.length} exercises)`,
  );
});

describe.each(exercises)('agreement with real pytest: %s', (exercise) => {
  const dir = join(CORPUS, exercise);
  const testFiles = readdirSync(dir)
    .filter((f) => f.endsWith('.py'))
    .sort();
  const variants = readdirSync(join(dir, 'solutions')).sort();
  const module = (readdirSync(join(dir, 'solutions', 'reference')).find((f) => f.endsWith('.py')) as string).replace(
    /\.py$/,
    '',
  );
  const rubric = inlineRubric(Object.fromEntries(testFiles.map((f) => [f, readFileSync(join(dir, f), 'utf8')])), {
    language: 'python',
    entry: `./${module}`,
    limits: { timeout_ms: 30_000, test_timeout_ms: 5000 },
  });
  let collected: Awaited<ReturnType<typeof collectExpected>> | null = null;

  it.each(variants)(
    '%s',
    async (variant) => {
      const sandbox = await sandboxFor(await firstBackend());
      collected ??= await collectExpected(rubric, sandbox);
      const sdir = join(dir, 'solutions', variant);
      const files = Object.fromEntries(readdirSync(sdir).map((f) => [f, readFileSync(join(sdir, f), 'utf8')]));
      const report = await gradeLocally(inlineSubmission(files, variant), rubric, collected, {
        sandbox,
        analysis: analysisPool(),
        now: () => new Date(0),
        tools: {},
        maxResumes: 2,
      });
      const diff = differences(report, expected[`${exercise}/${variant}`] as Recorded);
      tally.tests += report.tests.length;
      tally.agreeing += report.tests.filter((t) => !diff.some((d) => d.startsWith(`${t.name}: `))).length;
      tally.submissions += 1;
      tally.agreeingSubmissions += diff.length === 0 ? 1 : 0;
      expect(diff).toEqual([]);
      // Real code, right and wrong, attempts nothing at run time: no false accusation (sandbox/python/attempts.py).
      expect(report.flags.filter((f) => f.code.startsWith('sandbox.attempt.'))).toEqual([]);
      // Style and complexity are measured (ruff, tree-sitter) for every variant; the one that does not parse
      // scores 0 on complexity, and its parse error is a style finding. (Before Python analysis both were unmeasured.)
      const analysis = (report.scores.unmeasured ?? []).filter(
        (u) => u.criterion === 'style' || u.criterion === 'complexity',
      );
      expect(analysis).toEqual(
        variant === 'syntax_error'
          ? [{ criterion: 'complexity', reason: `scored 0: ${module}.py does not parse` }]
          : [],
      );
    },
    180_000,
  );
});
