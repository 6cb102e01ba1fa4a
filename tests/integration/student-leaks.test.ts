// The leak check (issue 33): every student-facing artifact — the student page and JSON (unreleased and
// released), Gradescope's and PrairieLearn's results.json, the feedback of the LMS import files — for the
// samples (submissions/ × rubrics/, given visible, hidden and after_due tests) and for hostile cases, graded
// for real by the CLI, must hold nothing of a hidden test: no run of its file's text, no name, no expected
// value, no frame into the tests or the grader. Formatting cannot hide a leak
// (the check folds escapes, entities, case and whitespace). `EVIGRADE_LEAKY_PROJECTION=1` swaps in a leaky
// projection, and the first test then fails; the last block shows the check catching each leaky build.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { ReportSchema, type Report, type TestResult } from '../../src/domain/report.js';
import { StudentReportSchema, type StudentReport } from '../../src/domain/student.js';
import { gradescopeResults, prairielearnResults } from '../../src/report/exports.js';
import { writeStudentViews, type Projection } from '../../src/report/student-write.js';
import { gradebookRows } from '../../src/stages/lms/gradebook.js';
import { studentView } from '../../src/stages/student/student-view.js';
import { artifactText, findLeaks, secretsOf, type Leak } from '../leak-check.js';
import { ROOT } from '../helpers.js';

const BIN = join(ROOT, 'bin', 'evigrade.js');
// A folder to reuse between runs while working on this test (the CLI keeps reports it already made).
const WORK = process.env.EVIGRADE_LEAKS_WORK ?? mkdtempSync(join(tmpdir(), 'evigrade-leaks-'));

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { timeout: 170_000, env: { ...process.env, CI: 'true' } }, (e, o, s) =>
      resolve({ code: e ? ((e as { code?: number }).code ?? 1) : 0, stdout: o, stderr: s }),
    );
  });
}

/** What each sample rubric shows: one visible test, its edge cases after the due date, the rest hidden. */
const SAMPLE_POLICY: Record<string, string> = {
  leap: `visibility:\n  "A leap year > year divisible by 400 is leap year": visible\n  "A leap year > edge cases": { show: after_due, title: "an edge case" }\nhint:\n  "A leap year > year divisible by 100, not divisible by 400 in common year": "Centuries are special."\n`,
  'word-count': `visibility:\n  "countWords > counts multiple occurrences": visible\n  "countWords > edge cases": after_due\n`,
  'matrix-sum': `visibility:\n  "matrix sums > sums every element": visible\n  "matrix sums > edge cases": after_due\n`,
  temperature: `visibility:\n  "convert > edge cases": after_due\n`,
  'bank-account': `visibility:\n  "bank_account_test.py::BankAccountTest::test_deposit_and_withdraw": visible\n  test_bank_edge.py: after_due\nhint:\n  bank_account_test.py: "Read the statement's error messages again."\n`,
};

// Hostile cases: hidden tests full of distinctive strings, and submissions that fail them every way.
const JS_HIDDEN = `const { lookup } = require('./solution');
describe('vault', () => {
  test('opens with the zebra plum combination', () => {
    expect(lookup('zebra')).toBe('PLUM-SECRET-4471');
  });
  test('rejects the quartz lantern key', () => {
    expect(lookup('quartz-lantern')).toEqual({ ok: false, reason: 'NO-SUCH-KEY-9313' });
  });
  test('stays quick on the marathon input', () => {
    expect(lookup('marathon-walrus')).toBe('FINISHED-WALRUS-77');
  });
});
`;
const JS_VISIBLE = `const { lookup } = require('./solution');
test('known key apple gives its value', () => {
  expect(lookup('apple')).toBe('RED-FRUIT');
});
`;
const JS_SUBMISSIONS: Record<string, string> = {
  'wrong.js': "exports.lookup = (k) => 'nope ' + k;\n",
  'throws.js': "exports.lookup = (k) => { throw new Error('boom at ' + k); };\n",
  'loops.js':
    "exports.lookup = (k) => {\n  if (k === 'marathon-walrus') for (;;) {}\n  return k === 'apple' ? 'RED-FRUIT' : 'x';\n};\n",
  'syntax.js': 'exports.lookup = (k) => {{ ;\n',
  // Returns its own stack: frames through the tests and the harness, as the visible test's "Received".
  'stack.js': 'exports.lookup = (k) => new Error(String(k)).stack;\n',
  'passes.js':
    "const T = { apple: 'RED-FRUIT', zebra: 'PLUM-SECRET-4471', 'marathon-walrus': 'FINISHED-WALRUS-77' };\nexports.lookup = (k) => (k in T ? T[k] : { ok: false, reason: 'NO-SUCH-KEY-9313' });\n",
};
const PY_HIDDEN = `from solution import lookup


def test_zebra_plum_combination():
    assert lookup("zebra") == "PLUM-SECRET-4471"


def test_quartz_lantern_key():
    assert lookup("quartz-lantern") == {"ok": False, "reason": "NO-SUCH-KEY-9313"}
`;
const PY_VISIBLE = `from solution import lookup


def test_known_key_apple():
    assert lookup("apple") == "RED-FRUIT"
`;
const PY_SUBMISSIONS: Record<string, string> = {
  'wrong.py': 'def lookup(k):\n    return "nope " + k\n',
  'syntax.py': 'def lookup(k):\n    return (\n',
  'raises.py': 'def lookup(k):\n    raise ValueError("boom at " + k)\n',
  'loops.py': 'def lookup(k):\n    while k != "apple":\n        pass\n    return "RED-FRUIT"\n',
};

function hostileRubric(lang: 'javascript' | 'python'): { dir: string; subs: string } {
  const dir = join(WORK, `hostile-${lang}`);
  const py = lang === 'python';
  const [hidden, visible] = py ? ['test_vault.py', 'test_visible.py'] : ['vault.test.js', 'visible.test.js'];
  mkdirSync(join(dir, 'tests'), { recursive: true });
  writeFileSync(join(dir, 'tests', hidden), py ? PY_HIDDEN : JS_HIDDEN);
  writeFileSync(join(dir, 'tests', visible), py ? PY_VISIBLE : JS_VISIBLE);
  writeFileSync(
    join(dir, 'rubric.yaml'),
    [
      `id: hostile-${lang === 'python' ? 'py' : 'js'}`,
      'title: Vault',
      `language: ${lang}`,
      'statement: Write lookup(key) returning the value stored for a key.',
      'entry: ./solution',
      `tests:\n  - tests/${hidden}\n  - tests/${visible}`,
      'limits:\n  timeout_ms: 4000\n  test_timeout_ms: 1500',
      `visibility:\n  ${visible}: visible`,
      `hint:\n  "${py ? 'test_vault.py::test_zebra_plum_combination' : 'vault > opens with the zebra plum combination'}": "Keys are case-sensitive."`,
      '',
    ].join('\n'),
  );
  const subs = join(WORK, `hostile-${lang}-subs`);
  mkdirSync(subs, { recursive: true });
  for (const [n, c] of Object.entries(py ? PY_SUBMISSIONS : JS_SUBMISSIONS)) writeFileSync(join(subs, n), c);
  return { dir, subs };
}

interface Batch {
  readonly name: string;
  readonly reports: Report[];
  readonly testFiles: { name: string; source: string }[];
  readonly statement: string;
}
const batches: Batch[] = [];

async function gradeBatch(name: string, rubricDir: string, subs: string): Promise<void> {
  const out = join(WORK, `${name}-out`);
  const r = await cli(['grade', subs, '--rubric', join(rubricDir, 'rubric.yaml'), '--out', out, '--no-llm']);
  expect([r.code, r.stderr.slice(0, 600)]).toEqual([0, expect.any(String)]);
  const spec = parseYaml(readFileSync(join(rubricDir, 'rubric.yaml'), 'utf8')) as {
    tests: string[];
    statement: string;
  };
  const reports = readdirSync(out)
    .filter((f) => f.endsWith('.json') && f !== 'summary.json')
    .map((f) => ReportSchema.parse(JSON.parse(readFileSync(join(out, f), 'utf8'))));
  const testFiles = spec.tests.map((p) => ({ name: basename(p), source: readFileSync(join(rubricDir, p), 'utf8') }));
  batches.push({ name, reports, testFiles, statement: spec.statement });
}

beforeAll(async () => {
  for (const id of Object.keys(SAMPLE_POLICY)) {
    const dir = join(WORK, `rubric-${id}`);
    cpSync(join(ROOT, 'rubrics', id), dir, { recursive: true });
    writeFileSync(join(dir, 'rubric.yaml'), `${readFileSync(join(dir, 'rubric.yaml'), 'utf8')}${SAMPLE_POLICY[id]}`);
    await gradeBatch(id, dir, join(ROOT, 'submissions', id));
  }
  for (const lang of ['javascript', 'python'] as const) {
    const h = hostileRubric(lang);
    await gradeBatch(`hostile-${lang}`, h.dir, h.subs);
  }
}, 900_000);

const LEAKY = process.env.EVIGRADE_LEAKY_PROJECTION === '1';
/** Leaky builds: each projection puts one forbidden thing back, in a different disguise. */
const LEAKS: Record<string, Projection> = {
  'the message of a hidden test': (r, o) => {
    const v = studentView(r, o);
    return { ...v, tests: v.tests.map((t, i) => ({ ...t, message: (r.tests[i] as TestResult).message })) };
  },
  "a hidden test's name, upper-cased and re-spaced": (r, o) => {
    const v = studentView(r, o);
    return {
      ...v,
      tests: v.tests.map((t, i) => ({
        ...t,
        title: (r.tests[i] as TestResult).name.toUpperCase().split(' ').join('\n  '),
      })),
    };
  },
  'the evidence items, as the judge saw them': (r, o) => {
    const v = studentView(r, o);
    return { ...v, notice: JSON.stringify(r.evidence.items.filter((e) => e.kind === 'test')) };
  },
};
const projection: Projection = LEAKY ? (LEAKS['the message of a hidden test'] as Projection) : studentView;

type Artifact = { name: string; text: string; hidden: (t: TestResult) => boolean };
const shownUnreleased = (t: TestResult) => t.student?.visibility !== 'visible';
const hiddenOnly = (t: TestResult) => (t.student?.visibility ?? 'hidden') === 'hidden';

/** Every student-facing artifact of a batch, written to disk by the code that writes them for students. */
async function artifacts(b: Batch, project: Projection): Promise<Map<string, Artifact[]>> {
  const byId = new Map<string, Artifact[]>();
  for (const [release, hidden] of [
    [false, shownUnreleased],
    [true, hiddenOnly],
  ] as const) {
    const dir = join(WORK, `${b.name}-students-${release}-${project === studentView ? 'real' : 'leaky'}`);
    await writeStudentViews(dir, b.reports, { release, now: new Date(0) }, project);
    for (const r of b.reports)
      for (const ext of ['json', 'html']) {
        const file = join(dir, `${r.submission.id}.${ext}`);
        const list = byId.get(r.submission.id) ?? [];
        list.push({
          name: `${basename(dir)}/${basename(file)}`,
          text: artifactText(file, readFileSync(file, 'utf8')),
          hidden,
        });
        byId.set(r.submission.id, list);
      }
  }
  for (const r of b.reports) {
    const list = byId.get(r.submission.id) as Artifact[];
    const gs = JSON.stringify(gradescopeResults(r, 20));
    const pl = JSON.stringify(prairielearnResults(r));
    list.push({ name: 'gradescope/results.json', text: artifactText('.json', gs), hidden: hiddenOnly });
    list.push({ name: 'prairielearn/results.json', text: artifactText('.json', pl), hidden: shownUnreleased });
  }
  // The feedback comment of every LMS import file (Canvas, Moodle's feedback files, Blackboard).
  for (const row of gradebookRows(b.reports, null, 20))
    byId.get(row.submission as string)?.push({ name: 'lms feedback', text: row.feedback, hidden: shownUnreleased });
  return byId;
}

async function leaksOf(b: Batch, project: Projection): Promise<string[]> {
  const found: string[] = [];
  const byId = await artifacts(b, project);
  for (const r of b.reports)
    for (const a of byId.get(r.submission.id) ?? []) {
      const leaks: Leak[] = findLeaks(a.text, secretsOf(r, b.testFiles, a.hidden, b.statement));
      for (const l of leaks) found.push(`${b.name}/${r.submission.id} ${a.name}: ${l.kind} ${l.what}`);
    }
  return found;
}

describe('student artifacts leak nothing of the hidden tests', () => {
  it(`samples and hostile cases, every artifact${LEAKY ? ' (LEAKY PROJECTION: this must fail)' : ''}`, async () => {
    expect(batches.map((b) => [b.name, b.reports.length])).toEqual([
      ['leap', 7],
      ['word-count', 7],
      ['matrix-sum', 7],
      ['temperature', 3],
      ['bank-account', 4],
      ['hostile-javascript', 6],
      ['hostile-python', 4],
    ]);
    const found: string[] = [];
    for (const b of batches) found.push(...(await leaksOf(b, projection)));
    expect(found).toEqual([]);
  });

  it('the check is not vacuous: the hidden tests are there to leak, and the visible ones do show their failures', async () => {
    const js = batches.find((b) => b.name === 'hostile-javascript') as Batch;
    const wrong = js.reports.find((r) => r.submission.id === 'wrong') as Report;
    const secrets = secretsOf(wrong, js.testFiles, shownUnreleased, js.statement);
    expect([secrets.sources.map((s) => s.name), secrets.names.slice(0, 2), secrets.expected]).toEqual([
      ['vault.test.js'],
      ['vault > opens with the zebra plum combination', 'vault'],
      ['"PLUM-SECRET-4471"', '{"ok": false, "reason": "NO-SUCH-KEY-9313"}', '"FINISHED-WALRUS-77"'],
    ]);
    const view = StudentReportSchema.parse(
      JSON.parse(readFileSync(join(WORK, 'hostile-javascript-students-false-real', 'wrong.json'), 'utf8')),
    );
    expect(view.tests.map((t) => [t.title, t.shown, t.status, t.message?.split('\n').slice(0, 3), t.hint])).toEqual([
      ['hidden test 1', 'hidden', 'failed', undefined, 'Keys are case-sensitive.'],
      ['hidden test 2', 'hidden', 'failed', undefined, null],
      ['hidden test 3', 'hidden', 'failed', undefined, null],
      [
        'known key apple gives its value',
        'visible',
        'failed',
        ['Error: expect(received).toBe(expected) // Object.is equality', '', 'Expected: "RED-FRUIT"'],
        null,
      ],
    ]);
  });
});

describe('the leak check fails on a deliberately leaky build', () => {
  const KINDS: Record<string, string[]> = {
    'the message of a hidden test': ['expected', 'internals', 'name', 'source'],
    "a hidden test's name, upper-cased and re-spaced": ['expected', 'name', 'source'],
    'the evidence items, as the judge saw them': ['expected', 'internals', 'name', 'source'],
  };
  it.each(Object.entries(LEAKS))('%s', async (label, leaky) => {
    const found: string[] = [];
    for (const b of batches.filter((x) =>
      ['leap', 'bank-account', 'hostile-javascript', 'hostile-python'].includes(x.name),
    ))
      found.push(...(await leaksOf(b, leaky)));
    // Each kind of leak the build lets through is named, in the hostile cases of both languages.
    const kinds = [...new Set(found.map((f) => (f.split(': ')[1] as string).split(' ')[0]))].sort();
    expect(kinds).toEqual(KINDS[label]);
    for (const lang of ['hostile-javascript/', 'hostile-python/'])
      expect(found.filter((f) => f.startsWith(lang)).length).toBeGreaterThan(0);
  });
});

export type { StudentReport };
