// One declaration per command: its arguments, every option with what it means, and the summary lines. The parser
// (cli/args.ts) reads its options from here, typed; `evigrade <command> --help` and `evigrade --help` print from here.
// Data only, zod-free: `--help` loads nothing else.
import { ATTEMPT_CHOICES, LMS_SYSTEMS, LMS_TARGETS, SANDBOX_CHOICES } from '../domain/choices.js';

export interface OptionDecl {
  readonly type: 'string' | 'boolean';
  readonly multiple?: boolean;
  /** What the value is, as usage shows it (`N`, `<dir>`, or the choices). */
  readonly arg?: string;
  readonly describe: string;
}

export interface CommandDecl {
  /** What follows the command's name: its positional arguments and required options. */
  readonly usage: string;
  readonly summary: string;
  readonly options: Readonly<Record<string, OptionDecl>>;
  /** Lines printed after the options. */
  readonly notes?: readonly string[];
}

const oneOf = (choices: readonly string[]): string => choices.join('|');

const SANDBOX = {
  type: 'string',
  arg: oneOf(SANDBOX_CHOICES),
  describe: 'the sandbox backend (default: EVIGRADE_SANDBOX, else auto: the strongest isolation available)',
} as const;
const UNSAFE = {
  type: 'boolean',
  describe: 'run jobs without any isolation: trusted code only (logged loudly; not with --sandbox)',
} as const;
const CONFIG = {
  type: 'string',
  arg: '<evigrade.config.yaml>',
  describe: 'the configuration file (judges, queue, store…)',
} as const;
const QUEUE = {
  type: 'string',
  arg: 'redis://host:port',
  describe: 'grade on `evigrade worker` processes through this Redis (or queue.url in the config, or EVIGRADE_QUEUE)',
} as const;
const DB = {
  type: 'string',
  arg: '<postgres://…|folder>',
  describe: 'the grading history and store: a Postgres URL, or a folder for the embedded one (or EVIGRADE_DB)',
} as const;
const CONCURRENCY = {
  type: 'string',
  arg: 'N',
  describe: 'submissions graded at once, 1 to 256 (default: the core count)',
} as const;
const JUDGE = {
  'no-llm': { type: 'boolean', describe: 'grade deterministically: no judge is asked' },
  'judge-endpoint': {
    type: 'string',
    multiple: true,
    arg: 'URL',
    describe: 'an OpenAI-compatible judge server; repeat, each with its --judge-model, for a fallback chain',
  },
  'judge-model': {
    type: 'string',
    multiple: true,
    arg: 'NAME',
    describe: 'the model of the --judge-endpoint before it',
  },
} as const;

export const GRADE = {
  usage: '<submissions-dir|download.zip> --rubric <rubric.yaml> --out <dir>',
  summary: 'grade a folder (one file or folder per student) or an LMS download; write a report per submission',
  options: {
    rubric: { type: 'string', arg: '<rubric.yaml>', describe: 'the rubric (required)' },
    out: { type: 'string', arg: '<dir>', describe: 'where reports, summary.json and grades.csv go (required)' },
    from: {
      type: 'string',
      arg: oneOf([...LMS_SYSTEMS, 'auto']),
      describe: 'read the path as this LMS bulk download (a .zip path alone means auto)',
    },
    attempts: {
      type: 'string',
      arg: oneOf(ATTEMPT_CHOICES),
      describe: "with --from: each student's latest attempt (default), or every attempt as its own submission",
    },
    concurrency: CONCURRENCY,
    sandbox: SANDBOX,
    'unsafe-no-sandbox': UNSAFE,
    force: { type: 'boolean', describe: 'grade again the submissions whose reports are already there' },
    ...JUDGE,
    config: CONFIG,
    queue: QUEUE,
    db: DB,
    'allow-failing-reference': {
      type: 'boolean',
      describe: "grade the class even though the rubric's reference fails its hidden tests (said in the log)",
    },
    log: {
      type: 'string',
      arg: 'json',
      describe:
        'machine logs: one JSON line per event on stderr, in place of the progress bar (the summary stays on stdout)',
    },
  },
} as const satisfies CommandDecl;

export const CHECK_RUBRIC = {
  usage: '<rubric.yaml>',
  summary: 'validate a rubric, collect its hidden tests and check its reference solution passes them all',
  options: {
    sandbox: SANDBOX,
    'unsafe-no-sandbox': UNSAFE,
    audit: {
      type: 'boolean',
      describe: 'also audit the hidden tests: the mutation score and the top survivors (never unsandboxed)',
    },
  },
} as const satisfies CommandDecl;

export const AUDIT = {
  usage: '<rubric.yaml> --out <dir>',
  summary:
    "audit a rubric's hidden tests: run them on mutants of the reference, list the wrong programs they accept and the tests that flake",
  options: {
    out: {
      type: 'string',
      arg: '<dir>',
      describe: 'where audit.json, audit.html and mutation-report.json go (required)',
    },
    concurrency: CONCURRENCY,
    sandbox: SANDBOX,
  },
} as const satisfies CommandDecl;

export const SANDBOX_BUILD = {
  usage: 'build',
  summary: 'import the Docker image from the job root file system',
  options: {},
} as const satisfies CommandDecl;

export const REPORT = {
  usage: '<out-dir>',
  summary: 'render report.html from a folder of reports, or write an LMS gradebook import',
  options: {
    'max-points': { type: 'string', arg: 'N', describe: 'points a perfect grade is worth in the import (default 10)' },
    to: { type: 'string', arg: oneOf(LMS_TARGETS), describe: 'write the import file of this gradebook' },
    roster: {
      type: 'string',
      arg: '<roster.csv>',
      describe: 'with --to: add a row for each student with no submission',
    },
    for: { type: 'string', arg: 'students', describe: 'with --out: write a page and a JSON per student' },
    out: { type: 'string', arg: '<student-dir>', describe: 'with --for students: where the student pages go' },
    release: { type: 'boolean', describe: 'with --for students: release the after_due tests in the student pages' },
  },
} as const satisfies CommandDecl;

export const VERIFY = {
  usage: '<report.json|out-dir>',
  summary:
    'recompute a report (or every report of a batch folder, its summary.json and grades.csv) from its own evidence; with --rubric and --submission, re-run its inputs too',
  options: {
    rubric: { type: 'string', arg: '<rubric.yaml>', describe: 'with --submission: re-run the deterministic part' },
    submission: { type: 'string', arg: '<path>', describe: 'with --rubric: the submission the report graded' },
    sandbox: SANDBOX,
  },
  notes: [
    'evigrade verify --history --db <postgres://…|folder>   checks the grading history instead (history --verify)',
  ],
} as const satisfies CommandDecl;

export const SERVE = {
  usage: '--port N --rubrics <dir>',
  summary: 'the HTTP service: POST /grade, batches, history, OpenAPI',
  options: {
    port: { type: 'string', arg: 'N', describe: 'the port, 0 to 65535 (default 8080)' },
    host: { type: 'string', arg: 'H', describe: 'the address to listen on (default 127.0.0.1)' },
    rubrics: { type: 'string', arg: '<dir>', describe: 'the folder of rubrics it serves (required)' },
    data: { type: 'string', arg: '<dir>', describe: 'where batches are kept without --db (default .evigrade-data)' },
    concurrency: CONCURRENCY,
    backlog: {
      type: 'string',
      arg: 'N',
      describe: 'interactive requests that may wait for a slot (default 4 × concurrency)',
    },
    queue: QUEUE,
    sandbox: SANDBOX,
    'unsafe-no-sandbox': UNSAFE,
    ...JUDGE,
    config: CONFIG,
    db: DB,
  },
} as const satisfies CommandDecl;

export const WORKER = {
  usage: '--queue redis://host:port',
  summary: 'take grading jobs from the queue (never without an isolating sandbox)',
  options: {
    queue: { ...QUEUE, describe: 'the Redis the submitters queue jobs on (or queue.url in the config)' },
    concurrency: CONCURRENCY,
    sandbox: SANDBOX,
    config: CONFIG,
  },
} as const satisfies CommandDecl;

export const HISTORY = {
  usage: '--db <postgres://…|folder>',
  summary: 'list, check and export the grading history',
  options: {
    db: DB,
    config: CONFIG,
    rubric: { type: 'string', arg: 'ID', describe: 'only gradings of this rubric' },
    submission: { type: 'string', arg: 'ID', describe: 'only gradings of this submission' },
    flag: { type: 'string', arg: 'CODE', describe: 'only gradings carrying this flag' },
    flagged: { type: 'boolean', describe: 'only gradings carrying any flag' },
    verify: {
      type: 'boolean',
      describe: 'recompute every report hash, row hash and chain link (exit 6 on a difference)',
    },
    diff: { type: 'string', multiple: true, arg: 'A --diff B', describe: 'compare two gradings by id' },
    batches: { type: 'boolean', describe: 'list the stored batches' },
    export: { type: 'string', arg: 'BATCH', describe: 'with --out: write a stored batch back as files' },
    out: { type: 'string', arg: '<dir>', describe: 'with --export: where' },
  },
} as const satisfies CommandDecl;

export const OVERRIDE = {
  usage: '<out-dir> --submission ID --item ID --applies yes|no --why TEXT',
  summary: "record an instructor's decision on one rubric item; the report, summary and grades are written again",
  options: {
    submission: { type: 'string', arg: 'ID', describe: 'the submission (its report file name; required)' },
    item: { type: 'string', arg: 'ID', describe: 'the rubric item (required)' },
    applies: { type: 'string', arg: 'yes|no', describe: 'whether the item applies (required)' },
    why: { type: 'string', arg: 'TEXT', describe: 'the reason, kept with the decision (required)' },
    by: { type: 'string', arg: 'WHO', describe: 'who decided (default: the user running the command)' },
    db: DB,
  },
} as const satisfies CommandDecl;

/** Every command, in the order `--help` lists them. */
export const COMMAND_DECLS = {
  grade: GRADE,
  'check-rubric': CHECK_RUBRIC,
  audit: AUDIT,
  sandbox: SANDBOX_BUILD,
  report: REPORT,
  verify: VERIFY,
  serve: SERVE,
  worker: WORKER,
  history: HISTORY,
  override: OVERRIDE,
} as const satisfies Record<string, CommandDecl>;

export type CommandName = keyof typeof COMMAND_DECLS;

const flag = (name: string, o: OptionDecl): string => `--${name}${o.type === 'string' ? ` ${o.arg ?? 'VALUE'}` : ''}`;

/** `evigrade <command> --help`: the usage line, then every option with what it means. */
export function commandHelp(name: CommandName): string {
  const d: CommandDecl = COMMAND_DECLS[name];
  const opts = Object.entries(d.options).map(([n, o]) => [flag(n, o), o.describe] as const);
  const width = Math.max(0, ...opts.map(([f]) => f.length));
  return [
    'usage:',
    `  evigrade ${name} ${d.usage}`.trimEnd(),
    '',
    `${d.summary}.`,
    ...(opts.length ? ['', 'options:', ...opts.map(([f, why]) => `  ${f.padEnd(width)}  ${why}`)] : []),
    ...(d.notes?.length ? ['', ...d.notes] : []),
    '',
  ].join('\n');
}

/** `evigrade --help`'s list: each command's usage and summary. */
export const commandsOverview = (): string =>
  Object.entries(COMMAND_DECLS)
    .map(([name, d]: [string, CommandDecl]) => `  evigrade ${name} ${d.usage}\n        ${d.summary}`)
    .join('\n');
