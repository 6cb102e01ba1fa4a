import type { Report } from '../domain/report.js';

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

/** Gradescope autograder `results.json` (documented schema: score, output, tests[{score, max_score, status, name, output, visibility}]). */
export function gradescopeResults(r: Report, maxPoints = 10): Record<string, unknown> {
  const scale = maxPoints / 10;
  return {
    score: Math.round(r.scores.final * scale * 100) / 100,
    execution_time: Math.round((r.timings.totalMs ?? 0) / 1000),
    output: `${studentSummary(r)} Evidence hash ${r.evidence.hash}.`,
    output_format: 'text',
    visibility: 'after_due_date',
    stdout_visibility: 'hidden',
    extra_data: {
      evigrade: {
        schemaVersion: r.schemaVersion,
        rubric: r.rubric,
        flags: r.flags.map((f) => f.code),
        deterministic: r.scores.deterministic,
      },
    },
    tests: r.tests.map((t) => ({
      score: t.status === 'passed' ? t.weight : 0,
      max_score: t.weight,
      status: t.status === 'passed' ? 'passed' : 'failed',
      name: t.name,
      name_format: 'text',
      number: t.id,
      output: t.status === 'passed' ? '' : `${t.status}: ${t.message}`.slice(0, 4000),
      output_format: 'text',
      tags: t.edgeCase ? ['edge_case'] : [],
      visibility: 'after_due_date',
    })),
  };
}

/** PrairieLearn external grader `results.json` (gradable, score 0–1, message, output, tests[{name, points, max_points, output, message}]). */
export function prairielearnResults(r: Report): Record<string, unknown> {
  return {
    gradable: r.status !== 'error',
    score: Math.round((r.scores.final / 10) * 10_000) / 10_000,
    message: studentSummary(r),
    output: r.flags.map((f) => `${f.severity} ${f.code}: ${f.message}`).join('\n'),
    images: [],
    tests: r.tests.map((t) => ({
      name: t.name,
      description: `${t.id} in ${t.file}${t.edgeCase ? ' (edge case)' : ''}`,
      points: t.status === 'passed' ? t.weight : 0,
      max_points: t.weight,
      message: t.status,
      output: t.message.slice(0, 4000),
      images: [],
    })),
  };
}
