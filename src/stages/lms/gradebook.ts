import type { LmsTarget } from '../../domain/lms.js';
import type { Report } from '../../domain/report.js';
import { cell } from '../score/summary.js';
import { studentView } from '../student/student-view.js';
import { CANVAS_IDENTITY, canvasGradeColumn, canvasIdentity, type RosterEntry } from './roster.js';

/** One row of an import file: a graded (or rejected) submission, or a roster student with none. */
export interface GradeRow {
  readonly userId: string;
  readonly name: string;
  /** Scaled to --max-points; null when there is nothing to import (missing, or a grader error to re-run). */
  readonly points: number | null;
  readonly status: 'graded' | 'rejected' | 'error' | 'missing';
  readonly feedback: string;
  readonly submission: string | null;
  readonly extra: Readonly<Record<string, string>>;
}

export interface Gradebook {
  readonly title: string;
  /** The roster's header row as read (`--roster`), so its columns are written back exactly; empty without one. */
  readonly rosterHeader: readonly string[];
  readonly maxPoints: number;
  readonly rows: readonly GradeRow[];
}

/**
 * The feedback comment students read in their LMS: built from the student view (stages/student), so it says
 * no more than the student page — never a hidden test's name or message, a flag's detail or the blend's basis
 * (which can name the grader's configuration). The points are the instructor's import, whatever the policy.
 */
function feedback(r: Report, maxPoints: number, points: number | null): string {
  if (r.status === 'error')
    return `Not graded: a grader error (${r.errors.map((e) => e.code).join(', ')}); it will be graded again.`;
  if (r.status === 'rejected') return `Not graded: ${r.errors.map((e) => e.message).join('; ')}`;
  const view = studentView(r, { released: false });
  const passed = view.tests.filter((t) => t.status === 'passed').length;
  const notes = view.tests
    .filter((t) => t.hint !== null || (t.message !== null && t.shown === 'visible'))
    .map((t) => `Test ${t.number} (${t.title}): ${t.status}${t.hint === null ? '' : `. Hint: ${t.hint}`}`);
  return [
    `${points}/${maxPoints}: ${passed} of ${view.tests.length} tests passed.`,
    ...view.events.map((e) => e.text),
    ...notes,
    `Evidence ${r.evidence.hash}.`,
  ].join('\n');
}

/**
 * The rows of an import file: one per student. The latest report wins when
 * `--attempts all` left several; roster names replace the download's, and
 * roster students with no report get a "missing" row rather than silence.
 */
export function gradebookRows(
  reports: readonly Report[],
  roster: readonly RosterEntry[] | null,
  maxPoints: number,
): GradeRow[] {
  const byUser = new Map<string, GradeRow>();
  const sorted = [...reports].sort(
    (a, b) =>
      (a.submission.lms?.attempt ?? 0) - (b.submission.lms?.attempt ?? 0) ||
      (a.submission.id < b.submission.id ? -1 : 1),
  );
  const known = new Map((roster ?? []).map((s) => [s.userId, s]));
  for (const r of sorted) {
    const userId = r.submission.lms?.userId ?? r.submission.id;
    const points = r.status === 'error' ? null : Math.round(r.scores.final * maxPoints * 10) / 100;
    const who = known.get(userId);
    byUser.set(userId, {
      userId,
      name: who?.name || r.submission.lms?.name || r.submission.name || r.submission.id,
      points,
      status: r.status,
      feedback: feedback(r, maxPoints, points),
      submission: r.submission.id,
      extra: who?.extra ?? {},
    });
  }
  for (const s of roster ?? []) {
    if (!byUser.has(s.userId))
      byUser.set(s.userId, {
        userId: s.userId,
        name: s.name,
        points: null,
        status: 'missing',
        feedback: 'No submission.',
        submission: null,
        extra: s.extra,
      });
  }
  return [...byUser.values()].sort((a, b) => a.name.localeCompare(b.name) || (a.userId < b.userId ? -1 : 1));
}

const line = (cells: readonly (string | number | null)[]): string => cells.map(cell).join(',');
const csv = (header: readonly string[], rows: readonly (readonly (string | number | null)[])[]): string =>
  `${[line(header), ...rows.map(line)].join('\r\n')}\r\n`;

/** "Seán O'Brien" → ["O'Brien", "Seán"]; "O'Brien, Seán" (Canvas's order) → the same. */
function lastFirst(name: string): [string, string] {
  if (name.includes(',')) {
    const [last, first] = name.split(',', 2).map((s) => s.trim());
    return [last ?? '', first ?? ''];
  }
  const parts = name.trim().split(/\s+/);
  return [parts.pop() ?? '', parts.join(' ')];
}

// Canvas gradebook import: Student, ID (Canvas user id, the key), SIS User ID, SIS Login ID, Section — or the
// roster's own identity columns, as read — then the assignment's column under the roster's own header for it
// (`Title (id)`); the "Points Possible" row is optional. Canvas takes no feedback here.
function canvasCsv(g: Gradebook): string {
  const fromRoster = canvasIdentity(g.rosterHeader);
  const identity = fromRoster.length > 0 ? fromRoster : [...CANVAS_IDENTITY];
  const value = (r: GradeRow, c: string): string =>
    c === 'Student' ? r.name : c === 'ID' ? r.userId : (r.extra[c] ?? '');
  const rows = g.rows.map((r) => [...identity.map((c) => value(r, c)), r.points]);
  const possible = ['Points Possible', ...identity.slice(1).map(() => ''), g.maxPoints];
  return csv([...identity, canvasGradeColumn(g.rosterHeader, g.title)], [possible, ...rows]);
}

// Moodle "Upload grading worksheet": matched on Identifier ("Participant <id>", the id in the download's
// folder names); Grade and Feedback comments are imported.
function moodleCsv(g: Gradebook): string {
  const status = {
    graded: 'Submitted for grading',
    rejected: 'Submitted for grading',
    error: 'Submitted for grading',
    missing: 'No submission',
  } as const;
  const rows = g.rows.map((r) => [
    `Participant ${r.userId}`,
    r.name,
    r.extra['Email address'] ?? r.extra.Email ?? '',
    status[r.status],
    r.points,
    g.maxPoints,
    'Yes',
    '',
    '',
    r.feedback,
  ]);
  return csv(
    [
      'Identifier',
      'Full name',
      'Email address',
      'Status',
      'Grade',
      'Maximum Grade',
      'Grade can be changed',
      'Last modified (submission)',
      'Last modified (grade)',
      'Feedback comments',
    ],
    rows,
  );
}

// Blackboard "Work Offline > Upload": keyed on Username; a column header without "|<id>" creates the column.
function blackboardCsv(g: Gradebook): string {
  const rows = g.rows.map((r) => {
    const [last, first] = r.extra['Last Name']
      ? [r.extra['Last Name'], r.extra['First Name'] ?? '']
      : lastFirst(r.name);
    return [
      last,
      first,
      r.userId,
      r.extra['Student ID'] ?? '',
      '',
      'Yes',
      r.points,
      r.status === 'graded' ? '' : r.status,
      'PLAIN_TEXT',
      r.feedback,
      'PLAIN_TEXT',
    ];
  });
  return csv(
    [
      'Last Name',
      'First Name',
      'Username',
      'Student ID',
      'Last Access',
      'Availability',
      `${g.title} [Total Pts: ${g.maxPoints} Score]`,
      'Grading Notes',
      'Notes Format',
      'Feedback to Learner',
      'Feedback Format',
    ],
    rows,
  );
}

function plainCsv(g: Gradebook): string {
  return csv(
    ['user_id', 'name', 'submission', 'status', 'points', 'max_points', 'feedback'],
    g.rows.map((r) => [r.userId, r.name, r.submission ?? '', r.status, r.points, g.maxPoints, r.feedback]),
  );
}

/** Each target's import file: its name and text. Exhaustive: a new target is one function and one line. */
export const GRADEBOOK_WRITERS = {
  canvas: { file: 'canvas-grades.csv', write: canvasCsv },
  moodle: { file: 'moodle-grading-worksheet.csv', write: moodleCsv },
  blackboard: { file: 'blackboard-offline-upload.csv', write: blackboardCsv },
  csv: { file: 'lms-grades.csv', write: plainCsv },
} as const satisfies Record<LmsTarget, { file: string; write: (g: Gradebook) => string }>;
