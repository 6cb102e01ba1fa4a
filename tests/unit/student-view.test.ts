// The student view (issue 33): a pure projection of a report under its policy, and a visible test's message
// without the grader's frames. On a committed report graded for real (tests/fixtures/report-page).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReportSchema, type Report, type TestResult } from '../../src/domain/report.js';
import { StudentReportSchema } from '../../src/domain/student.js';
import { renderStudentHtml } from '../../src/report/student-html.js';
import { studentMessage } from '../../src/stages/student/student-text.js';
import { isReleased, studentView } from '../../src/stages/student/student-view.js';
import { ROOT } from '../helpers.js';

const BOB = ReportSchema.parse(
  JSON.parse(readFileSync(join(ROOT, 'tests', 'fixtures', 'report-page', 'leap', 'partial-bob.json'), 'utf8')),
);
const withPolicy = (edit: (r: Report) => void): Report => {
  const r = structuredClone(BOB);
  edit(r);
  return ReportSchema.parse(r);
};
const test = (r: Report, id: string): TestResult => r.tests.find((t) => t.id === id) as TestResult;

const HIDDEN_3 = {
  number: 3,
  title: 'hidden test 3',
  shown: 'hidden',
  status: 'passed',
  points: 1,
  maxPoints: 1,
  message: null,
  hint: null,
  output: null,
};

describe('studentView', () => {
  it('with no policy (an older report, or a rubric that sets none) every test is hidden: titles and outcomes only', () => {
    const v = studentView(BOB, { released: false });
    expect(StudentReportSchema.parse(v)).toEqual(v);
    expect(v.tests.slice(2, 5)).toEqual([
      HIDDEN_3,
      {
        number: 4,
        title: 'hidden test 4',
        shown: 'hidden',
        status: 'failed',
        points: 0,
        maxPoints: 1,
        message: null,
        hint: null,
        output: null,
      },
      {
        number: 5,
        title: 'hidden test 5',
        shown: 'hidden',
        status: 'passed',
        points: 2,
        maxPoints: 2,
        message: null,
        hint: null,
        output: null,
      },
    ]);
    expect([v.scores?.final, v.scoresWithheld, v.notice, v.comments, v.events]).toEqual([
      BOB.scores.final,
      null,
      null,
      null,
      [],
    ]);
    expect(v.functions.map((f) => [f.file, f.name])).toEqual([['leap.js', 'isLeap']]);
  });

  it('a visible test shows its name and diff (frames reduced to the student’s own lines); a hint shows only on a failure', () => {
    const r = withPolicy((x) => {
      test(x, 'T4').student = { visibility: 'visible', hint: 'Centuries are special.' };
      test(x, 'T3').student = { visibility: 'hidden', title: 'a plain leap year', hint: 'never shown: it passed' };
    });
    const v = studentView(r, { released: false });
    expect(v.tests[2]).toEqual({ ...HIDDEN_3, title: 'a plain leap year' });
    expect(v.tests[3]).toEqual({
      number: 4,
      title: test(r, 'T4').name,
      shown: 'visible',
      status: 'failed',
      points: 0,
      maxPoints: 1,
      message: 'Error: expect(received).toBe(expected) // Object.is equality\n\nExpected: false\nReceived: true',
      hint: 'Centuries are special.',
      output: null,
    });
  });

  it('a visible test shows what it printed (frames reduced); a hidden one never; output quoting a hidden test is withheld', () => {
    const printed = { stdout: 'checking 1900\nat isLeap (/job/sub/leap.js:3:9)\n', stderr: 'warn\n', truncated: true };
    const r = withPolicy((x) => {
      test(x, 'T4').student = { visibility: 'visible' };
      test(x, 'T4').output = printed;
      test(x, 'T3').output = { stdout: 'secret from a hidden test\n', stderr: '', truncated: false };
      test(x, 'T5').student = { visibility: 'visible' };
      // Printed during a visible test: the name of a hidden one (T6's), kept from when it ran.
      test(x, 'T5').output = { stdout: `saw: ${test(x, 'T6').name}\n`, stderr: '', truncated: false };
    });
    const v = studentView(r, { released: false });
    expect([v.tests[2]?.output, v.tests[3]?.output, v.tests[4]?.output]).toEqual([
      null,
      { stdout: 'checking 1900\n  at leap.js:3', stderr: 'warn', truncated: true, withheld: null },
      {
        stdout: '',
        stderr: '',
        truncated: false,
        withheld: 'This test’s output is not shown: it quotes a hidden test.',
      },
    ]);
    const html = renderStudentHtml(v);
    expect(html).toContain(
      '<div class="printed"><p class="out-label">Your output</p><pre class="out">checking 1900\n  at leap.js:3</pre><p class="out-label">Your error output</p><pre class="out">warn</pre><p class="meta">Only the start of its output is kept.</p></div>',
    );
    expect([html.includes('secret from a hidden test'), html.includes(`saw: ${test(r, 'T6').name}`)]).toEqual([
      false,
      false,
    ]);
  });

  it('after_due: hidden, and every score withheld, until released; then visible (hide_total: never keeps the scores)', () => {
    const r = withPolicy((x) => {
      test(x, 'T10').student = { visibility: 'after_due' };
    });
    const before = studentView(r, { released: false });
    const after = studentView(r, { released: true });
    expect([before.scores, before.scoresWithheld, before.tests[9]?.title, before.tests[9]?.points]).toEqual([
      null,
      'Scores are shown once the tests released after the due date are released.',
      'hidden test 10',
      null,
    ]);
    expect([after.scores?.final, after.scoresWithheld, after.tests[9]?.title, after.tests[9]?.message]).toEqual([
      BOB.scores.final,
      null,
      test(r, 'T10').name,
      'Error: expect(received).toBe(expected) // Object.is equality\n\nExpected: false\nReceived: true',
    ]);
    const never = withPolicy((x) => {
      test(x, 'T10').student = { visibility: 'after_due' };
      x.rubric.student = { hide_total: 'never' };
    });
    expect(studentView(never, { released: false }).scores?.final).toBe(BOB.scores.final);
  });

  it('the release date decides, or the instructor’s --release', () => {
    const r = withPolicy((x) => {
      x.rubric.student = { hide_total: 'while_unreleased', release_at: '2026-12-01T09:00:00Z' };
    });
    expect([
      isReleased(r, false, new Date('2026-12-01T08:59:59Z')),
      isReleased(r, false, new Date('2026-12-01T09:00:00Z')),
      isReleased(BOB, false, new Date('2099-01-01T00:00:00Z')),
      isReleased(BOB, true, new Date(0)),
    ]).toEqual([false, true, false, true]);
  });

  it("the reviewer's comments: only when blended, unflagged, and quoting no hidden test", () => {
    const answered = (summary: string, flags: Report['flags'] = []) =>
      withPolicy((x) => {
        x.judge = {
          ...x.judge,
          status: 'answered',
          output: {
            scores: { correctness: 7, edge_cases: 7, style: 8, complexity: 8 },
            claims: [{ criterion: 'style', polarity: 'strength', text: 'Clear names.', evidence: ['C1'] }],
            confidence: 0.7,
            insufficient_evidence: false,
            summary,
          },
        };
        x.scores.blend.applied = flags.length === 0;
        x.flags = flags;
      });
    const ok = studentView(answered('A tidy solution that misses the century rule.'), { released: false });
    expect([ok.comments, ok.commentsWithheld]).toEqual([
      {
        summary: 'A tidy solution that misses the century rule.',
        points: [{ polarity: 'strength', text: 'Clear names.' }],
      },
      null,
    ]);
    const quoting = answered(`It fails “${test(BOB, 'T4').path.at(-1) as string}”.`);
    expect(studentView(quoting, { released: false }).commentsWithheld).toBe(
      'The reviewer’s comments mention hidden tests.',
    );
    const flagged = answered('Fine.', [
      { code: 'judge.contradicted_claim', severity: 'warning', message: 'x', evidence: ['T4'] },
    ]);
    expect(studentView(flagged, { released: false }).commentsWithheld).toBe(
      'The reviewer’s comments were not confirmed by the evidence.',
    );
  });

  it('a rejected submission reads its intake reason; a grader error says nothing of the grader', () => {
    const rejected = withPolicy((x) => {
      x.status = 'rejected';
      x.errors = [{ code: 'INTAKE_BINARY', message: '"photo.png" (graded as leap.js) is binary' }];
    });
    const failed = withPolicy((x) => {
      x.status = 'error';
      x.errors = [{ code: 'SANDBOX_FAILED', message: 'bwrap: cannot open /var/lib/evigrade/cgroup/job-7' }];
    });
    expect([
      studentView(rejected, { released: false }).notice,
      studentView(rejected, { released: false }).scores,
    ]).toEqual(['Not graded: "photo.png" (graded as leap.js) is binary', null]);
    const f = studentView(failed, { released: false });
    expect([f.notice, JSON.stringify(f).includes('bwrap')]).toEqual([
      'Not graded: the grader could not finish. Your instructor can see why; it will be graded again.',
      false,
    ]);
  });

  it('the page is static: no script, every string escaped', () => {
    const r = withPolicy((x) => {
      test(x, 'T4').student = { visibility: 'visible', hint: '<script>alert(1)</script> & \u202e' };
    });
    const html = renderStudentHtml(studentView(r, { released: false }));
    expect([html.includes('<script'), html.includes('&#60;script&#62;alert(1)'), html.includes('\u202e')]).toEqual([
      false,
      true,
      false,
    ]);
  });
});

describe('studentMessage', () => {
  const own = new Set(['leap.js', 'solution.py']);
  it.each([
    [
      "Node frames: the student's kept as file:line, the tests' and the harness' dropped, also inside Jest's diff",
      'Error: boom\n    at isLeap (file:///job/sub/leap.js:3:9)\n    at /job/sub/leap.spec.js:7:12\n    at /evigrade/harness.cjs:76:832\n+   at new Promise (<anonymous>)\n+   at f (/job/sub/leap.js:1:2)',
      'Error: boom\n  at leap.js:3\n+   at leap.js:1',
    ],
    [
      "pytest's long traceback: frames outside the student's files go with the source lines under them",
      '/usr/lib/python3/dist-packages/_pytest/python.py:618: in _importtestmodule\n    mod = import_path(self.path)\ntest_vault.py:1: in <module>\n    from solution import lookup\n<frozen importlib._bootstrap>:1178: in _find_and_load\n    ???\nsolution.py:2: in lookup\n    return k / 0\nE   ZeroDivisionError: division by zero',
      'solution.py:2: in lookup\n    return k / 0\nE   ZeroDivisionError: division by zero',
    ],
    [
      "Python's traceback: File lines into the tests dropped with their source line",
      'Traceback (most recent call last):\n  File "/job/sub/test_x.py", line 4, in test_a\n    assert lookup("zebra") == "PLUM"\n  File "/job/sub/solution.py", line 2, in lookup\n    raise ValueError(k)\nValueError: zebra',
      'Traceback (most recent call last):\n  at solution.py:2\n    raise ValueError(k)\nValueError: zebra',
    ],
    ['escape sequences and control characters', 'Expected: 1\u001b[31m\nReceived: 2\u0007', 'Expected: 1\nReceived: 2'],
  ])('%s', (_what, message, expected) => {
    expect(studentMessage(message, own)).toBe(expected);
  });
});
