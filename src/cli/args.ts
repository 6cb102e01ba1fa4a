import { parseArgs } from 'node:util';
import { EvigradeError } from '../domain/errors.js';
import type { SandboxChoice } from '../adapters/sandbox/registry.js';
import { ATTEMPT_CHOICES, LMS_SYSTEMS, LMS_TARGETS, SANDBOX_CHOICES } from '../domain/choices.js';
import {
  COMMAND_DECLS,
  GRADE,
  AUDIT,
  CHECK_RUBRIC,
  HISTORY,
  REPORT,
  SERVE,
  VERIFY,
  WORKER,
  type CommandDecl,
  type CommandName,
} from './commands.js';
import { JudgeSpecSchema, type JudgeSpec } from '../domain/judge.js';
import type { AttemptChoice, LmsSystem, LmsTarget } from '../domain/lms.js';

export interface GradeArgs {
  readonly submissions: string;
  readonly rubric: string;
  readonly out: string;
  readonly concurrency: number;
  readonly sandbox: SandboxChoice;
  readonly force: boolean;
  readonly noLlm: boolean;
  readonly config: string | null;
  /** From repeated --judge-endpoint URL --judge-model NAME pairs; null when none given. */
  readonly judges: JudgeSpec[] | null;
  /** --queue redis://…: grade on `evigrade worker`s; null: the config or in-process. */
  readonly queueUrl: string | null;
  /** --db postgres://… or a folder: record every grading in the history; null: the config or files only. */
  readonly db: string | null;
  /** --from: read the path as this LMS's download (a .zip path alone means auto); null: a submissions folder. */
  readonly from: LmsSystem | 'auto' | null;
  /** --attempts: the latest attempt per student (default) or every attempt as its own submission. */
  readonly attempts: AttemptChoice;
  /** --log json: machine logs (pino JSON lines) on stderr, in place of the progress bar; null: none. */
  readonly log: LogFormat | null;
  /** --allow-failing-reference: grade the class although the rubric's reference fails its tests (said in the log). */
  readonly allowFailingReference: boolean;
}

export const LOG_FORMATS = ['json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

const usage = (msg: string): never => {
  throw new EvigradeError('USAGE', msg);
};

/** A command's arguments, read against its declaration (cli/commands.ts): the values typed as declared. */
function parse<O extends CommandDecl['options']>(argv: string[], decl: { readonly options: O }) {
  try {
    return parseArgs({ args: argv, options: decl.options, allowPositionals: true, strict: true });
  } catch (e) {
    return usage((e as Error).message);
  }
}

/** The usage line of a command, as its --help prints it. */
const usageOf = (name: CommandName): string =>
  `usage: evigrade ${name} ${COMMAND_DECLS[name].usage} (evigrade ${name} --help)`;

export function parseGradeArgs(argv: string[], defaultConcurrency: number): GradeArgs {
  const { values, positionals } = parse(argv, GRADE);
  const [submissions, ...extra] = positionals;
  if (submissions === undefined || extra.length > 0) return usage(usageOf('grade'));
  const { rubric, out } = values;
  if (rubric === undefined) return usage('grade: --rubric <rubric.yaml> is required');
  if (out === undefined) return usage('grade: --out <dir> is required');
  const concurrency = values.concurrency === undefined ? defaultConcurrency : Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 256)
    usage(`grade: --concurrency must be an integer from 1 to 256, got "${String(values.concurrency)}"`);
  return {
    submissions,
    rubric,
    out,
    concurrency,
    sandbox: sandboxChoice(values.sandbox, values['unsafe-no-sandbox'] === true),
    force: values.force === true,
    allowFailingReference: values['allow-failing-reference'] === true,
    noLlm: values['no-llm'] === true,
    config: values.config ?? null,
    judges: judgeFlags(values['judge-endpoint'], values['judge-model']),
    queueUrl: queueUrl('grade', values.queue),
    db: values.db ?? null,
    ...lmsFlags(submissions, values.from, values.attempts),
    log: logFormat('grade', values.log),
  };
}

function logFormat(cmd: string, value: unknown): LogFormat | null {
  if (value === undefined) return null;
  const known = LOG_FORMATS.find((f) => f === value);
  return known ?? usage(`${cmd}: --log must be one of ${LOG_FORMATS.join(', ')}, got "${String(value)}"`);
}

function lmsFlags(
  path: string,
  from: string | undefined,
  attempts: string | undefined,
): { from: LmsSystem | 'auto' | null; attempts: AttemptChoice } {
  const system =
    from === undefined
      ? /\.zip$/i.test(path)
        ? 'auto'
        : null
      : oneOf('grade: --from', [...LMS_SYSTEMS, 'auto'], from);
  const each = attempts === undefined ? 'latest' : oneOf('grade: --attempts', ATTEMPT_CHOICES, attempts);
  if (system === null && attempts !== undefined) usage('grade: --attempts applies to an LMS download (--from)');
  return { from: system, attempts: each };
}

/** --queue takes a redis:// URL (the wait list of `serve` is --backlog). */
function queueUrl(cmd: string, v: string | undefined): string | null {
  if (v === undefined) return null;
  const s = String(v);
  if (/^\d+$/.test(s))
    usage(`${cmd}: --queue now takes a redis:// URL; the number of waiting places is --backlog ${s}`);
  if (!/^rediss?:\/\//.test(s)) usage(`${cmd}: --queue must be a redis:// or rediss:// URL`);
  return s;
}

/** --judge-endpoint URL --judge-model NAME, repeatable: the i-th model goes with the i-th endpoint. */
export function judgeFlags(endpoints: string[] | undefined, models: string[] | undefined): JudgeSpec[] | null {
  if (!endpoints?.length && !models?.length) return null;
  if (endpoints === undefined || models === undefined || endpoints.length !== models.length)
    return usage('--judge-endpoint and --judge-model come in pairs (one model per endpoint)');
  return endpoints.map((endpointUrl, i) => {
    const parsed = JudgeSpecSchema.safeParse({ endpointUrl, model: models[i] });
    if (!parsed.success)
      return usage(
        `--judge-endpoint ${endpointUrl}: ${parsed.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ')}`,
      );
    return parsed.data;
  });
}

export function sandboxChoice(value: string | undefined, unsafe: boolean): SandboxChoice {
  if (unsafe) {
    if (value !== undefined) usage('--unsafe-no-sandbox cannot be combined with --sandbox');
    return 'unsafe';
  }
  return oneOf('--sandbox', SANDBOX_CHOICES, value ?? process.env.EVIGRADE_SANDBOX ?? 'auto');
}

export function parseCheckArgs(argv: string[]): { rubric: string; sandbox: SandboxChoice; audit: boolean } {
  const { values, positionals } = parse(argv, CHECK_RUBRIC);
  // check-rubric grades the reference deterministically: no judge is asked.
  const [rubric, ...extra] = positionals;
  if (rubric === undefined || extra.length > 0) return usage(usageOf('check-rubric'));
  const audit = values.audit === true;
  // An audit runs mutants of the reference: never without a sandbox.
  if (audit && values['unsafe-no-sandbox'] === true) usage('--audit cannot be combined with --unsafe-no-sandbox');
  return {
    rubric,
    sandbox: sandboxChoice(values.sandbox, values['unsafe-no-sandbox'] === true),
    audit,
  };
}

export interface AuditArgs {
  readonly rubric: string;
  readonly out: string;
  readonly concurrency: number;
  readonly sandbox: SandboxChoice;
}

/** `evigrade audit <rubric.yaml> --out <dir>`: no --unsafe-no-sandbox (the mutants are code nobody reviewed). */
export function parseAuditArgs(argv: string[], cores: number): AuditArgs {
  const { values, positionals } = parse(argv, AUDIT);
  const [rubric, ...extra] = positionals;
  if (rubric === undefined || extra.length > 0 || values.out === undefined) return usage(usageOf('audit'));
  return {
    rubric,
    out: values.out,
    concurrency: intArg('concurrency', values.concurrency, cores, 1, 64),
    sandbox: sandboxChoice(values.sandbox, false),
  };
}

export interface ServeArgs {
  readonly port: number;
  readonly host: string;
  readonly rubrics: string;
  readonly data: string;
  readonly concurrency: number;
  readonly backlog: number;
  readonly queueUrl: string | null;
  readonly sandbox: SandboxChoice;
  readonly noLlm: boolean;
  readonly config: string | null;
  readonly judges: JudgeSpec[] | null;
  /** --db: record every grading in the history (and serve it); null: the config or none. */
  readonly db: string | null;
}

const intArg = (name: string, v: string | undefined, dflt: number, min: number, max: number): number => {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max)
    usage(`--${name} must be an integer from ${min} to ${max}, got "${String(v)}"`);
  return n;
};

export function parseServeArgs(argv: string[], defaultConcurrency: number): ServeArgs {
  const { values, positionals } = parse(argv, SERVE);
  const { rubrics } = values;
  if (positionals.length || rubrics === undefined) return usage(usageOf('serve'));
  const concurrency = intArg('concurrency', values.concurrency, defaultConcurrency, 1, 256);
  return {
    port: intArg('port', values.port, 8080, 0, 65535),
    host: values.host ?? '127.0.0.1',
    rubrics,
    data: values.data ?? '.evigrade-data',
    concurrency,
    backlog: intArg('backlog', values.backlog, concurrency * 4, 0, 100_000),
    queueUrl: queueUrl('serve', values.queue),
    sandbox: sandboxChoice(values.sandbox, values['unsafe-no-sandbox'] === true),
    noLlm: values['no-llm'] === true,
    config: values.config ?? null,
    judges: judgeFlags(values['judge-endpoint'], values['judge-model']),
    db: values.db ?? null,
  };
}

export interface WorkerArgs {
  readonly queueUrl: string | null;
  readonly concurrency: number;
  readonly sandbox: SandboxChoice;
  readonly config: string | null;
}

export function parseWorkerArgs(argv: string[], defaultConcurrency: number): WorkerArgs {
  const { values, positionals } = parse(argv, WORKER);
  if (positionals.length) return usage(usageOf('worker'));
  return {
    queueUrl: queueUrl('worker', values.queue),
    concurrency: intArg('concurrency', values.concurrency, defaultConcurrency, 1, 256),
    // A worker never runs jobs unsandboxed: --unsafe-no-sandbox is not offered here.
    sandbox: sandboxChoice(values.sandbox, false),
    config: values.config ?? null,
  };
}

export function parseReportArgs(argv: string[]): {
  outDir: string;
  maxPoints: number;
  to: LmsTarget | null;
  roster: string | null;
  students: { out: string; release: boolean } | null;
} {
  const { values, positionals } = parse(argv, REPORT);
  const [outDir, ...extra] = positionals;
  if (outDir === undefined || extra.length > 0) return usage(usageOf('report'));
  if (values.for !== undefined && values.for !== 'students')
    usage(`report: --for takes "students", got "${values.for}"`);
  if ((values.for === 'students') !== (values.out !== undefined))
    usage(
      'report: --for students and --out <student-dir> go together (the student pages are written to <student-dir>)',
    );
  if (values.release && values.for === undefined)
    usage('report: --release goes with --for students (it releases the after_due tests in the student pages)');
  const to = values.to === undefined ? null : oneOf('report: --to', LMS_TARGETS, values.to);
  if (values.roster !== undefined && to === null)
    usage('report: --roster goes with --to (it adds the students with no submission to the import file)');
  return {
    outDir,
    maxPoints: intArg('max-points', values['max-points'], 10, 1, 100_000),
    to,
    roster: values.roster ?? null,
    students: values.out === undefined ? null : { out: values.out, release: values.release === true },
  };
}

export function parseVerifyArgs(argv: string[]): {
  report: string;
  rubric: string | null;
  submission: string | null;
  sandbox: SandboxChoice;
} {
  const { values, positionals } = parse(argv, VERIFY);
  const [report, ...extra] = positionals;
  if (report === undefined || extra.length > 0) return usage(usageOf('verify'));
  if ((values.rubric === undefined) !== (values.submission === undefined))
    usage('verify: --rubric and --submission go together (they re-run the deterministic part)');
  return {
    report,
    rubric: values.rubric ?? null,
    submission: values.submission ?? null,
    sandbox: sandboxChoice(values.sandbox, false),
  };
}

export interface HistoryArgs {
  readonly db: string | null;
  readonly config: string | null;
  readonly rubric: string | null;
  readonly submission: string | null;
  readonly flag: string | null;
  /** Only gradings carrying any flag. */
  readonly flagged: boolean;
  readonly verify: boolean;
  /** Two grading ids to compare. */
  readonly diff: readonly [number, number] | null;
  /** List the stored batches. */
  readonly batches: boolean;
  /** A stored batch to write back as files into `out`. */
  readonly export: string | null;
  readonly out: string | null;
}

export function parseHistoryArgs(argv: string[]): HistoryArgs {
  const { values, positionals } = parse(argv, HISTORY);
  if (positionals.length > 0) usage(`history: unexpected argument "${positionals[0]}" (${usageOf('history')})`);
  if ((values.export === undefined) !== (values.out === undefined))
    usage('history: --export BATCH and --out DIR go together');
  return {
    db: values.db ?? null,
    config: values.config ?? null,
    rubric: values.rubric ?? null,
    submission: values.submission ?? null,
    flag: values.flag ?? null,
    flagged: values.flagged === true,
    verify: values.verify === true,
    diff: values.diff === undefined ? null : diffIds(values.diff),
    batches: values.batches === true,
    export: values.export ?? null,
    out: values.out ?? null,
  };
}

/** --diff A --diff B: two grading ids. */
function diffIds(diff: readonly string[]): readonly [number, number] {
  const [a, b, ...more] = diff.map(Number);
  if (a === undefined || b === undefined || more.length > 0 || ![a, b].every((n) => Number.isInteger(n) && n > 0))
    return usage(`history: --diff takes two grading ids (--diff 3 --diff 7), got ${diff.join(', ')}`);
  return [a, b];
}

/** `value` if it is one of `choices`, typed as one; else a usage error naming them. */
function oneOf<T extends string>(what: string, choices: readonly T[], value: string): T {
  const found = choices.find((c) => c === value);
  return found ?? usage(`${what} must be one of ${choices.join(', ')}, got "${value}"`);
}
