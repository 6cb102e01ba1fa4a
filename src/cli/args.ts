import { parseArgs, type ParseArgsConfig } from 'node:util';
import { EvigradeError } from '../domain/errors.js';
import { SANDBOX_CHOICES, type SandboxChoice } from '../adapters/sandbox/registry.js';
import { JudgeSpecSchema, type JudgeSpec } from '../domain/judge.js';
import { LMS_SYSTEMS, LMS_TARGETS, type AttemptChoice, type LmsSystem, type LmsTarget } from '../domain/lms.js';

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
  /** --allow-failing-reference: grade the class although the rubric's reference fails its tests (said in the log). */
  readonly allowFailingReference: boolean;
}

const usage = (msg: string): never => {
  throw new EvigradeError('USAGE', msg);
};

function parse(
  argv: string[],
  options: NonNullable<ParseArgsConfig['options']>,
): { values: Record<string, unknown>; positionals: string[] } {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    return usage((e as Error).message);
  }
}

export function parseGradeArgs(argv: string[], defaultConcurrency: number): GradeArgs {
  const { values, positionals } = parse(argv, {
    rubric: { type: 'string' },
    out: { type: 'string' },
    concurrency: { type: 'string' },
    sandbox: { type: 'string' },
    force: { type: 'boolean' },
    'no-llm': { type: 'boolean' },
    'unsafe-no-sandbox': { type: 'boolean' },
    config: { type: 'string' },
    'judge-endpoint': { type: 'string', multiple: true },
    'judge-model': { type: 'string', multiple: true },
    queue: { type: 'string' },
    db: { type: 'string' },
    from: { type: 'string' },
    attempts: { type: 'string' },
    'allow-failing-reference': { type: 'boolean' },
  });
  if (positionals.length !== 1)
    usage(
      'usage: evigrade grade <submissions-dir|archive.zip> [--from canvas|moodle|blackboard|gradescope|auto] [--attempts latest|all] --rubric <rubric.yaml> --out <dir> [--concurrency N] [--sandbox auto|docker|bwrap|unshare] [--force] [--queue redis://host:port] [--allow-failing-reference]',
    );
  const rubric = values.rubric;
  const out = values.out;
  if (typeof rubric !== 'string') usage('grade: --rubric <rubric.yaml> is required');
  if (typeof out !== 'string') usage('grade: --out <dir> is required');
  const concurrency = values.concurrency === undefined ? defaultConcurrency : Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 256)
    usage(`grade: --concurrency must be an integer from 1 to 256, got "${String(values.concurrency)}"`);
  return {
    submissions: positionals[0] as string,
    rubric: rubric as string,
    out: out as string,
    concurrency,
    sandbox: sandboxChoice(values.sandbox, values['unsafe-no-sandbox'] === true),
    force: values.force === true,
    allowFailingReference: values['allow-failing-reference'] === true,
    noLlm: values['no-llm'] === true,
    config: typeof values.config === 'string' ? values.config : null,
    judges: judgeFlags(values['judge-endpoint'] as string[] | undefined, values['judge-model'] as string[] | undefined),
    queueUrl: queueUrl('grade', values.queue),
    db: typeof values.db === 'string' ? values.db : null,
    ...lmsFlags(positionals[0] as string, values.from, values.attempts),
  };
}

function lmsFlags(
  path: string,
  from: unknown,
  attempts: unknown,
): { from: LmsSystem | 'auto' | null; attempts: AttemptChoice } {
  const choices = [...LMS_SYSTEMS, 'auto'];
  if (from !== undefined && !choices.includes(String(from)))
    usage(`grade: --from must be one of ${choices.join(', ')}, got "${String(from)}"`);
  if (attempts !== undefined && attempts !== 'latest' && attempts !== 'all')
    usage(`grade: --attempts must be latest or all, got "${String(attempts)}"`);
  const f = (from as LmsSystem | 'auto' | undefined) ?? (/\.zip$/i.test(path) ? 'auto' : null);
  if (f === null && attempts !== undefined) usage('grade: --attempts applies to an LMS download (--from)');
  return { from: f, attempts: (attempts as AttemptChoice | undefined) ?? 'latest' };
}

/** --queue takes a redis:// URL (the wait list of `serve` is --backlog). */
function queueUrl(cmd: string, v: unknown): string | null {
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
  if ((endpoints?.length ?? 0) !== (models?.length ?? 0))
    usage('--judge-endpoint and --judge-model come in pairs (one model per endpoint)');
  return (endpoints as string[]).map((endpointUrl, i) => {
    const parsed = JudgeSpecSchema.safeParse({ endpointUrl, model: (models as string[])[i] });
    if (!parsed.success)
      usage(
        `--judge-endpoint ${endpointUrl}: ${parsed.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ')}`,
      );
    return parsed.data as JudgeSpec;
  });
}

export function sandboxChoice(value: unknown, unsafe: boolean): SandboxChoice {
  if (unsafe) {
    if (value !== undefined) usage('--unsafe-no-sandbox cannot be combined with --sandbox');
    return 'unsafe';
  }
  const v = value ?? process.env.EVIGRADE_SANDBOX ?? 'auto';
  if (!(SANDBOX_CHOICES as readonly unknown[]).includes(v))
    usage(`--sandbox must be one of ${SANDBOX_CHOICES.join(', ')}, got "${String(v)}"`);
  return v as SandboxChoice;
}

export function parseCheckArgs(argv: string[]): { rubric: string; sandbox: SandboxChoice } {
  const { values, positionals } = parse(argv, {
    sandbox: { type: 'string' },
    'unsafe-no-sandbox': { type: 'boolean' },
  });
  // check-rubric grades the reference deterministically: no judge is asked.
  if (positionals.length !== 1)
    usage('usage: evigrade check-rubric <rubric.yaml> [--sandbox auto|docker|bwrap|unshare]');
  return {
    rubric: positionals[0] as string,
    sandbox: sandboxChoice(values.sandbox, values['unsafe-no-sandbox'] === true),
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

const intArg = (name: string, v: unknown, dflt: number, min: number, max: number): number => {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max)
    usage(`--${name} must be an integer from ${min} to ${max}, got "${String(v)}"`);
  return n;
};

export function parseServeArgs(argv: string[], defaultConcurrency: number): ServeArgs {
  const { values, positionals } = parse(argv, {
    port: { type: 'string' },
    host: { type: 'string' },
    rubrics: { type: 'string' },
    data: { type: 'string' },
    concurrency: { type: 'string' },
    backlog: { type: 'string' },
    queue: { type: 'string' },
    sandbox: { type: 'string' },
    'unsafe-no-sandbox': { type: 'boolean' },
    'no-llm': { type: 'boolean' },
    config: { type: 'string' },
    'judge-endpoint': { type: 'string', multiple: true },
    'judge-model': { type: 'string', multiple: true },
    db: { type: 'string' },
  });
  if (positionals.length || typeof values.rubrics !== 'string')
    usage(
      'usage: evigrade serve --port N --rubrics <dir> [--host 127.0.0.1] [--data <dir>] [--concurrency N] [--backlog N] [--queue redis://host:port]',
    );
  const concurrency = intArg('concurrency', values.concurrency, defaultConcurrency, 1, 256);
  return {
    port: intArg('port', values.port, 8080, 0, 65535),
    host: typeof values.host === 'string' ? values.host : '127.0.0.1',
    rubrics: values.rubrics as string,
    data: typeof values.data === 'string' ? values.data : '.evigrade-data',
    concurrency,
    backlog: intArg('backlog', values.backlog, concurrency * 4, 0, 100_000),
    queueUrl: queueUrl('serve', values.queue),
    sandbox: sandboxChoice(values.sandbox, values['unsafe-no-sandbox'] === true),
    noLlm: values['no-llm'] === true,
    config: typeof values.config === 'string' ? values.config : null,
    judges: judgeFlags(values['judge-endpoint'] as string[] | undefined, values['judge-model'] as string[] | undefined),
    db: typeof values.db === 'string' ? values.db : null,
  };
}

export interface WorkerArgs {
  readonly queueUrl: string | null;
  readonly concurrency: number;
  readonly sandbox: SandboxChoice;
  readonly config: string | null;
}

export function parseWorkerArgs(argv: string[], defaultConcurrency: number): WorkerArgs {
  const { values, positionals } = parse(argv, {
    queue: { type: 'string' },
    concurrency: { type: 'string' },
    sandbox: { type: 'string' },
    config: { type: 'string' },
  });
  if (positionals.length)
    usage(
      'usage: evigrade worker --queue redis://host:port [--concurrency N] [--sandbox auto|docker|bwrap|unshare] [--config file]',
    );
  return {
    queueUrl: queueUrl('worker', values.queue),
    concurrency: intArg('concurrency', values.concurrency, defaultConcurrency, 1, 256),
    // A worker never runs jobs unsandboxed: --unsafe-no-sandbox is not offered here.
    sandbox: sandboxChoice(values.sandbox, false),
    config: typeof values.config === 'string' ? values.config : null,
  };
}

export function parseReportArgs(argv: string[]): {
  outDir: string;
  maxPoints: number;
  to: LmsTarget | null;
  roster: string | null;
  students: { out: string; release: boolean } | null;
} {
  const { values, positionals } = parse(argv, {
    'max-points': { type: 'string' },
    to: { type: 'string' },
    roster: { type: 'string' },
    for: { type: 'string' },
    out: { type: 'string' },
    release: { type: 'boolean' },
  });
  if (positionals.length !== 1)
    usage(
      'usage: evigrade report <out-dir> [--max-points N] [--to canvas|moodle|blackboard|csv] [--roster roster.csv] [--for students --out <student-dir> [--release]]',
    );
  if (values.for !== undefined && values.for !== 'students')
    usage(`report: --for takes "students", got "${String(values.for)}"`);
  if ((values.for === 'students') !== (typeof values.out === 'string'))
    usage(
      'report: --for students and --out <student-dir> go together (the student pages are written to <student-dir>)',
    );
  if (values.release && values.for === undefined)
    usage('report: --release goes with --for students (it releases the after_due tests in the student pages)');
  if (values.to !== undefined && !(LMS_TARGETS as readonly unknown[]).includes(values.to))
    usage(`report: --to must be one of ${LMS_TARGETS.join(', ')}, got "${String(values.to)}"`);
  if (values.roster !== undefined && values.to === undefined)
    usage('report: --roster goes with --to (it adds the students with no submission to the import file)');
  return {
    outDir: positionals[0] as string,
    maxPoints: intArg('max-points', values['max-points'], 10, 1, 100_000),
    to: (values.to as LmsTarget | undefined) ?? null,
    roster: typeof values.roster === 'string' ? values.roster : null,
    students: typeof values.out === 'string' ? { out: values.out, release: values.release === true } : null,
  };
}

export function parseVerifyArgs(argv: string[]): {
  report: string;
  rubric: string | null;
  submission: string | null;
  sandbox: SandboxChoice;
} {
  const { values, positionals } = parse(argv, {
    rubric: { type: 'string' },
    submission: { type: 'string' },
    sandbox: { type: 'string' },
  });
  if (positionals.length !== 1)
    usage('usage: evigrade verify <report.json> [--rubric <rubric.yaml> --submission <path>]');
  if ((typeof values.rubric === 'string') !== (typeof values.submission === 'string'))
    usage('verify: --rubric and --submission go together (they re-run the deterministic part)');
  return {
    report: positionals[0] as string,
    rubric: typeof values.rubric === 'string' ? values.rubric : null,
    submission: typeof values.submission === 'string' ? values.submission : null,
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
  const { values, positionals } = parse(argv, {
    db: { type: 'string' },
    config: { type: 'string' },
    rubric: { type: 'string' },
    submission: { type: 'string' },
    flag: { type: 'string' },
    flagged: { type: 'boolean' },
    verify: { type: 'boolean' },
    diff: { type: 'string', multiple: true },
    batches: { type: 'boolean' },
    export: { type: 'string' },
    out: { type: 'string' },
  });
  if (positionals.length > 0)
    usage(
      `history: unexpected argument "${positionals[0]}" (usage: evigrade history --db <postgres://…|folder> [--rubric ID] [--submission ID] [--flag CODE] [--flagged] [--verify] [--diff A --diff B] [--batches] [--export BATCH --out DIR])`,
    );
  if ((typeof values.export === 'string') !== (typeof values.out === 'string'))
    usage('history: --export BATCH and --out DIR go together');
  const diff = values.diff as string[] | undefined;
  const ids = diff?.map(Number);
  if (ids && (ids.length !== 2 || !ids.every((n) => Number.isInteger(n) && n > 0)))
    usage(`history: --diff takes two grading ids (--diff 3 --diff 7), got ${diff?.join(', ')}`);
  const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
  return {
    db: str(values.db),
    config: str(values.config),
    rubric: str(values.rubric),
    submission: str(values.submission),
    flag: str(values.flag),
    flagged: values.flagged === true,
    verify: values.verify === true,
    diff: ids ? [ids[0] as number, ids[1] as number] : null,
    batches: values.batches === true,
    export: str(values.export),
    out: str(values.out),
  };
}
