import type { Report } from '../domain/report.js';
import type { StudentTest } from '../domain/student.js';
import { studentView } from '../stages/student/student-view.js';

// Gradebook exports. Scores stay on Evigrade's 0–10 scale unless a maximum is given. Students read them:
// they show the tests, scores and messages about the submission, never the grader's configuration (the
// blend reason and basis can say "HF_TOKEN is not set"; a grader failure's message can name host paths).

const fmt = (v: number | null): string => (v === null ? 'not measured' : String(v));

/** What a student is told about the grade as a whole. */
export function studentSummary(r: Report): string {
  if (r.status === 'rejected') return `Not graded: ${r.errors.map((e) => e.message).join('; ')}`;
  if (r.status !== 'graded')
    return `Not graded: the grader could not finish (${r.errors.map((e) => e.code).join(', ')}); your instructor can see why.`;
  const d = r.scores.deterministic;
  const parts = `correctness ${fmt(d.correctness)}, edge cases ${fmt(d.edge_cases)}, style ${fmt(d.style)}, complexity ${fmt(d.complexity)}`;
  return `Final ${r.scores.final}/10 (${parts}${r.scores.blend.applied ? "; includes a reviewer's assessment" : ''}).`;
}

/** Gradescope's per-test visibility for a test's student policy: Gradescope itself releases `after_due` tests at its due date. */
const GRADESCOPE_VISIBILITY = { visible: 'visible', hidden: 'visible', after_due: 'after_due_date' } as const;

const testOutput = (t: StudentTest): string =>
  [t.message, t.hint === null ? null : `Hint: ${t.hint}`]
    .filter((x) => x !== null)
    .join('\n\n')
    .slice(0, 4000);

/**
 * Gradescope autograder `results.json` (documented schema: score, output, visibility, stdout_visibility,
 * tests[{score, max_score, status, name, number, output, tags, visibility}]), built from the student view:
 * a hidden test is listed under its neutral title with its outcome and no output (Gradescope's own `hidden`
 * would also hide the student's total, and is meant for tests worth zero); an `after_due` test is given in
 * full with `after_due_date`, which Gradescope shows only after the due date (and, for a graded test, hides
 * the total until then).
 */
export function gradescopeResults(r: Report, maxPoints = 10): Record<string, unknown> {
  const scale = maxPoints / 10;
  const view = studentView(r, { released: true });
  return {
    score: Math.round(r.scores.final * scale * 100) / 100,
    execution_time: Math.round((r.timings.totalMs ?? 0) / 1000),
    output: `${studentSummary(r)} Evidence hash ${r.evidence.hash}.`,
    output_format: 'text',
    visibility: 'visible',
    stdout_visibility: 'hidden',
    extra_data: {
      evigrade: {
        schemaVersion: r.schemaVersion,
        rubric: r.rubric,
        flags: r.flags.map((f) => f.code),
        deterministic: r.scores.deterministic,
      },
    },
    tests: view.tests.map((t, i) => {
      const test = r.tests[i] as Report['tests'][number];
      return {
        score: t.status === 'passed' ? test.weight : 0,
        max_score: test.weight,
        status: t.status === 'passed' ? 'passed' : 'failed',
        name: t.title,
        name_format: 'text',
        number: String(t.number),
        output:
          t.status === 'passed'
            ? ''
            : `${t.status}${t.shown === 'visible' || t.hint !== null ? `: ${testOutput(t)}` : ''}`,
        output_format: 'text',
        tags: test.edgeCase ? ['edge_case'] : [],
        visibility: GRADESCOPE_VISIBILITY[test.student?.visibility ?? 'hidden'],
      };
    }),
  };
}

/**
 * PrairieLearn external grader `results.json` (gradable, score 0–1, message, output, tests[{name, points,
 * max_points, output, message}]). PrairieLearn shows all of it to the student, so it is the student view:
 * `after_due` tests stay hidden unless released.
 */
export function prairielearnResults(r: Report, released = false): Record<string, unknown> {
  const view = studentView(r, { released });
  return {
    gradable: r.status !== 'error',
    score: Math.round((r.scores.final / 10) * 10_000) / 10_000,
    message: studentSummary(r),
    output: view.events.map((e) => e.text).join('\n'),
    images: [],
    tests: view.tests.map((t, i) => {
      const test = r.tests[i] as Report['tests'][number];
      return {
        name: t.title,
        description: `test ${t.number}${test.edgeCase ? ' (edge case)' : ''}`,
        points: t.status === 'passed' ? test.weight : 0,
        max_points: test.weight,
        message: t.status,
        output: testOutput(t),
        images: [],
      };
    }),
  };
}
