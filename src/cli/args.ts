import { parseArgs, type ParseArgsConfig } from 'node:util';
import { EvigradeError } from '../domain/errors.js';
import { SANDBOX_CHOICES, type SandboxChoice } from '../adapters/sandbox/registry.js';

export interface GradeArgs {
  readonly submissions: string;
  readonly rubric: string;
  readonly out: string;
  readonly concurrency: number;
  readonly sandbox: SandboxChoice;
  readonly force: boolean;
  readonly noLlm: boolean;
}

const usage = (msg: string): never => {
  throw new EvigradeError('USAGE', msg);
};

function parse(argv: string[], options: NonNullable<ParseArgsConfig['options']>): { values: Record<string, unknown>; positionals: string[] } {
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
  });
  if (positionals.length !== 1) usage('usage: evigrade grade <submissions-dir> --rubric <rubric.yaml> --out <dir> [--concurrency N] [--sandbox auto|bwrap|unshare] [--force]');
  const rubric = values.rubric;
  const out = values.out;
  if (typeof rubric !== 'string') usage('grade: --rubric <rubric.yaml> is required');
  if (typeof out !== 'string') usage('grade: --out <dir> is required');
  const concurrency = values.concurrency === undefined ? defaultConcurrency : Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 256) usage(`grade: --concurrency must be an integer from 1 to 256, got "${String(values.concurrency)}"`);
  return {
    submissions: positionals[0] as string,
    rubric: rubric as string,
    out: out as string,
    concurrency,
    sandbox: sandboxChoice(values.sandbox, values['unsafe-no-sandbox'] === true),
    force: values.force === true,
    noLlm: values['no-llm'] === true,
  };
}

export function sandboxChoice(value: unknown, unsafe: boolean): SandboxChoice {
  if (unsafe) {
    if (value !== undefined) usage('--unsafe-no-sandbox cannot be combined with --sandbox');
    return 'unsafe';
  }
  const v = value ?? process.env.EVIGRADE_SANDBOX ?? 'auto';
  if (!(SANDBOX_CHOICES as readonly unknown[]).includes(v)) usage(`--sandbox must be one of ${SANDBOX_CHOICES.join(', ')} (docker is not built yet), got "${String(v)}"`);
  return v as SandboxChoice;
}

export function parseCheckArgs(argv: string[]): { rubric: string; sandbox: SandboxChoice } {
  const { values, positionals } = parse(argv, { sandbox: { type: 'string' }, 'unsafe-no-sandbox': { type: 'boolean' } });
  if (positionals.length !== 1) usage('usage: evigrade check-rubric <rubric.yaml> [--sandbox auto|bwrap|unshare]');
  return { rubric: positionals[0] as string, sandbox: sandboxChoice(values.sandbox, values['unsafe-no-sandbox'] === true) };
}
