import type { EvidenceItem, LintItem, Report, SandboxEvent, TestResult } from '../../domain/report.js';
import { StudentReportSchema, type StudentReport, type StudentTest } from '../../domain/student.js';
import type { TestPolicy } from '../../domain/visibility.js';
import { quotesHidden, studentMessage } from './student-text.js';

/**
 * The student view of a report: a projection that builds a new object field by field from what the policy
 * allows (allow-list), never a copy of the report with the forbidden parts deleted, so a field added to
 * the report later reaches no student until someone adds it here. Pure: report + release state → view.
 */
export interface StudentViewOptions {
  /** Whether `after_due` tests are released (the rubric's release date passed, or the instructor said so). */
  readonly released: boolean;
}

export /**
 * Whether a report's `after_due` tests are released: the instructor said so (`--release`), or the rubric's
 * `student.release_at` has passed at `now` (the clock is the caller's).
 */
function isReleased(r: Report, release: boolean, now: Date): boolean {
  const at = r.rubric.student?.release_at;
  return release || (at !== undefined && Date.parse(at) <= now.getTime());
}

const HIDDEN: TestPolicy = { visibility: 'hidden' };
const policyOf = (t: TestResult): TestPolicy => t.student ?? HIDDEN;
const isShown = (p: TestPolicy, released: boolean): boolean =>
  p.visibility === 'visible' || (p.visibility === 'after_due' && released);

/** What a student is told of what stopped their code: fixed words per event kind, never the event's detail. */
const EVENT_TEXT: Record<SandboxEvent['event'], string | null> = {
  timeout: 'Your code ran past its time limit and was stopped.',
  memory_limit: 'Your code used more memory than allowed and was stopped.',
  output_limit: 'Your code printed more than allowed; the rest of its output was dropped.',
  pids_limit: 'Your code started more processes or threads than allowed.',
  crash: 'The process running your code crashed.',
  incomplete: 'Your code stopped the test run before every test had finished.',
  tampering:
    'Your code interfered with the tests; those results were not trusted. Your instructor can see the details.',
  process_exit: 'Your code tried to exit the process while the tests ran.',
  blocked_module: 'Your code loaded a module that is not available here.',
  resumed: null,
  load_error: 'Your code did not load: see the error in your own file below.',
  attempt:
    'Your code tried to reach something outside its own folder (files, the environment, other processes or the network); the sandbox kept it from anything but its own.',
};

function scoresWithheld(r: Report, released: boolean): string | null {
  const hideTotal = r.rubric.student?.hide_total ?? 'while_unreleased';
  if (hideTotal === 'never' || released) return null;
  const waiting = r.tests.some((t) => policyOf(t).visibility === 'after_due' && t.status !== 'skipped');
  return waiting ? 'Scores are shown once the tests released after the due date are released.' : null;
}

function projectTest(
  t: TestResult,
  i: number,
  r: Report,
  released: boolean,
  withheld: boolean,
  files: ReadonlySet<string>,
  hidden: readonly TestResult[],
): StudentTest {
  const p = policyOf(t);
  const shown = isShown(p, released);
  const failed = t.status !== 'passed' && t.status !== 'skipped';
  const counted = !withheld && t.status !== 'skipped';
  return {
    number: i + 1,
    title: shown ? t.name : (p.title ?? `hidden test ${i + 1}`),
    shown: shown ? 'visible' : 'hidden',
    status: t.status,
    points: counted ? (t.status === 'passed' ? t.weight : 0) : null,
    maxPoints: counted ? t.weight : null,
    message: shown && failed && r.status === 'graded' ? studentMessage(t.message, files) : null,
    hint: failed && p.hint !== undefined ? p.hint : null,
    output: shown ? ownOutput(t, files, hidden) : null,
  };
}

/**
 * A visible test's prints for its student, as its failure message is treated (frames into anything but their own
 * files removed). Code can keep what hidden tests gave or told it and print it during a visible test: output that
 * quotes a hidden test (its name, a group title, a line of its failure message — where expected values are) is
 * withheld, with a sentence saying so.
 */
function ownOutput(t: TestResult, files: ReadonlySet<string>, hidden: readonly TestResult[]): StudentTest['output'] {
  if (!t.output) return null;
  const stdout = studentMessage(t.output.stdout, files);
  const stderr = studentMessage(t.output.stderr, files);
  if (!stdout && !stderr) return null;
  if (quotesHidden(`${stdout}\n${stderr}`, hidden) || quotesHidden(t.output.stdout + t.output.stderr, hidden))
    return {
      stdout: '',
      stderr: '',
      truncated: false,
      withheld: 'This test’s output is not shown: it quotes a hidden test.',
    };
  return { stdout, stderr, truncated: t.output.truncated, withheld: null };
}

const ownLint = (items: readonly EvidenceItem[], files: ReadonlySet<string>) =>
  items
    .filter((i): i is LintItem => i.kind === 'lint' && files.has(i.file))
    .map((i) => ({
      file: i.file,
      line: i.line,
      column: i.column,
      rule: i.rule,
      severity: i.severity,
      message: i.message,
    }));

const ownFunctions = (items: readonly EvidenceItem[], files: ReadonlySet<string>) =>
  items.flatMap((i) =>
    i.kind === 'complexity' && i.rule === 'function' && 'cyclomatic' in i && files.has(i.file)
      ? [
          {
            file: i.file,
            name: i.name,
            line: i.line,
            cyclomatic: i.cyclomatic,
            maxLoopNesting: i.maxLoopNesting,
            overLimit: i.overLimit,
          },
        ]
      : [],
  );

function events(r: Report): StudentReport['events'] {
  const seen = new Set<string>();
  const out: StudentReport['events'] = [];
  for (const e of r.sandbox.violations) {
    const text = EVENT_TEXT[e.event];
    if (text === null || seen.has(e.event)) continue;
    seen.add(e.event);
    out.push({ kind: e.event, text });
  }
  return out;
}

/** The reviewer's words: only when it answered, its scores entered the grade, no audit flag fired, and it quotes nothing hidden. */
function comments(r: Report, hidden: readonly TestResult[]): Pick<StudentReport, 'comments' | 'commentsWithheld'> {
  const out = r.judge.output;
  if (r.judge.status !== 'answered' || out === null) return { comments: null, commentsWithheld: null };
  if (!r.scores.blend.applied || r.flags.some((f) => f.code.startsWith('judge.')))
    return { comments: null, commentsWithheld: 'The reviewer’s comments were not confirmed by the evidence.' };
  const texts = [out.summary, ...out.claims.map((c) => c.text)];
  if (texts.some((t) => quotesHidden(t, hidden)))
    return { comments: null, commentsWithheld: 'The reviewer’s comments mention hidden tests.' };
  return {
    comments: { summary: out.summary, points: out.claims.map((c) => ({ polarity: c.polarity, text: c.text })) },
    commentsWithheld: null,
  };
}

function notice(r: Report): string | null {
  if (r.status === 'graded') return null;
  if (r.status === 'rejected')
    // Intake errors are about the student's own files (their names, sizes, kinds): nothing of the grader.
    return `Not graded: ${r.errors
      .filter((e) => e.code.startsWith('INTAKE_'))
      .map((e) => e.message)
      .join('; ')}`;
  return 'Not graded: the grader could not finish. Your instructor can see why; it will be graded again.';
}

export function studentView(r: Report, opts: StudentViewOptions): StudentReport {
  const files = new Set(r.submission.files.map((f) => f.path));
  const withheld = scoresWithheld(r, opts.released);
  const d = r.scores.deterministic;
  const hidden = r.tests.filter((t) => !isShown(policyOf(t), opts.released));
  const view: StudentReport = {
    kind: 'evigrade-student-report',
    schemaVersion: 1,
    assignment: { title: r.rubric.title },
    submission: {
      id: r.submission.id,
      ...(r.submission.name !== undefined && { name: r.submission.name }),
      files: [...files],
    },
    status: r.status,
    notice: notice(r),
    scores:
      withheld !== null || r.status !== 'graded'
        ? null
        : {
            final: r.scores.final,
            correctness: d.correctness,
            edge_cases: d.edge_cases,
            style: d.style,
            complexity: d.complexity,
          },
    scoresWithheld: withheld,
    tests: r.tests.map((t, i) => projectTest(t, i, r, opts.released, withheld !== null, files, hidden)),
    events: events(r),
    lint: ownLint(r.evidence.items, files),
    functions: ownFunctions(r.evidence.items, files),
    ...comments(r, hidden),
  };
  return StudentReportSchema.parse(view);
}
