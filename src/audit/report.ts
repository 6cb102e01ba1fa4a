// Pure: audit.json from the mutants, their verdicts, the reference's coverage and runs.
import { OPERATOR_CLASSES, type AuditMutant, type AuditReport, type OperatorClass } from '../domain/audit.js';
import type { Rubric } from '../domain/rubric.js';
import type { ExpectedTest } from '../domain/queue.js';
import type { Verdict } from './classify.js';
import type { MutantSite } from './sites.js';
import type { Searched } from './distinguish.js';

export interface Coverage {
  readonly measured: boolean;
  /** Executable lines per file, and those some hidden test ran (1-based). */
  readonly lines: Readonly<
    Record<string, { readonly executable: readonly number[]; readonly covered: readonly number[] }>
  >;
  readonly note: string;
}

export interface AuditInput {
  readonly rubric: Rubric;
  readonly sandbox: string;
  readonly tools: Record<string, string>;
  readonly now: Date;
  readonly expected: readonly ExpectedTest[];
  readonly sites: readonly MutantSite[];
  /** Per site, its verdict; null for an ignored one. */
  readonly verdicts: readonly (Verdict | null)[];
  readonly ignore: ReadonlyMap<string, string>;
  readonly coverage: Coverage;
  readonly flaky: AuditReport['flaky'];
  readonly reference: AuditReport['reference'];
  readonly timings: AuditReport['timings'];
  /** The search for inputs that tell survivors apart (distinguish.ts); absent: not searched. */
  readonly searched?: Searched;
}

function coveredAt(c: Coverage, file: string, line: number): boolean | null {
  if (!c.measured) return null;
  const f = c.lines[file];
  return f ? f.covered.includes(line) : null;
}

function mutantOf(m: MutantSite, v: Verdict | null, input: AuditInput): AuditMutant {
  const search = input.searched?.results.get(m.id);
  return {
    id: m.id,
    file: m.file,
    line: m.line,
    column: m.column,
    endLine: m.endLine,
    endColumn: m.endColumn,
    operator: m.operator,
    mutator: m.mutator,
    original: m.original,
    replacement: m.replacement,
    status: v ? v.status : 'ignored',
    killedBy: v ? v.killedBy : [],
    covered: coveredAt(input.coverage, m.file, m.line),
    possiblyEquivalent:
      v?.status !== 'survived' || !search || search.kind === 'unknown' ? null : search.kind === 'none',
    ...(v ? {} : { ignoredBecause: input.ignore.get(m.id) ?? '' }),
    ...(v?.detail ? { detail: v.detail } : {}),
  };
}

function byOperator(mutants: readonly AuditMutant[]): AuditReport['byOperator'] {
  return OPERATOR_CLASSES.flatMap((operator: OperatorClass) => {
    const of = mutants.filter((m) => m.operator === operator);
    if (of.length === 0) return [];
    const n = (s: string): number => of.filter((m) => m.status === s).length;
    return [{ operator, total: of.length, killed: n('killed'), survived: n('survived') }];
  });
}

function coverageFile(
  file: string,
  l: Coverage['lines'][string],
  mutants: readonly AuditMutant[],
): AuditReport['coverage']['files'][number] {
  const alive = new Set(mutants.filter((m) => m.file === file && m.status === 'survived').map((m) => m.line));
  return {
    file,
    linesTotal: l.executable.length,
    linesCovered: l.covered.length,
    uncovered: l.executable.filter((x) => !l.covered.includes(x)),
    survivedCovered: l.covered.filter((x) => alive.has(x)),
  };
}

export function buildAuditReport(input: AuditInput): AuditReport {
  const mutants = input.sites.map((m, i) => mutantOf(m, input.verdicts[i] ?? null, input));
  const n = (s: string): number => mutants.filter((m) => m.status === s).length;
  const killed = n('killed');
  const survived = n('survived');
  const cov = input.coverage;
  const files = Object.entries(cov.lines);
  const notes = [
    input.searched?.note ?? 'distinguishing inputs: not searched',
    'possiblyEquivalent: true when no input of the search told the survivor apart, false when one did, null when not searched or the search had no answer (a timeout, an error)',
  ];
  return {
    schemaVersion: 1,
    rubric: {
      id: input.rubric.spec.id,
      path: input.rubric.path,
      sha256: input.rubric.sha256,
      language: input.rubric.spec.language,
    },
    createdAt: input.now.toISOString(),
    sandbox: input.sandbox,
    tools: input.tools,
    score: killed + survived > 0 ? Math.round((killed / (killed + survived)) * 10_000) / 10_000 : null,
    counts: {
      total: mutants.length,
      killed,
      survived,
      timeout: n('timeout'),
      error: n('error'),
      ignored: n('ignored'),
    },
    byOperator: byOperator(mutants),
    reference: input.reference,
    mutants,
    uncovered: files.flatMap(([file, l]) =>
      l.executable.filter((x) => !l.covered.includes(x)).map((line) => ({ file, line })),
    ),
    coverage: {
      measured: cov.measured,
      linesTotal: files.reduce((s, [, l]) => s + l.executable.length, 0),
      linesCovered: files.reduce((s, [, l]) => s + l.covered.length, 0),
      files: files.map(([file, l]) => coverageFile(file, l, mutants)),
      note: cov.note,
    },
    flaky: input.flaky,
    distinguishing: [...(input.searched?.results.values() ?? [])].flatMap((r) => (r.kind === 'found' ? [r.found] : [])),
    timings: input.timings,
    notes,
  };
}
