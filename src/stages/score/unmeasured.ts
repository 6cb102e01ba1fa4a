// Nothing is silently unmeasured: every criterion that carries weight but no measured score says why, in
// the report (`scores.unmeasured`, and a `score.unmeasured` flag when the submission caused it),
// summary.json, grades.csv and the HTML overview.
import type { Criteria } from '../../domain/rubric.js';
import type {
  DeterministicScores,
  EvidenceItem,
  FileItem,
  Flag,
  LintItem,
  TestResult,
  Unmeasured,
} from '../../domain/report.js';
import { blocksComplexity, blocksStyle, isFileItem, type UnmeasurablePolicy } from '../analysis/analysis-scores.js';

const BLOCKED_REASON: Record<NonNullable<FileItem['blocked']>, string> = {
  too_large: 'is too large to analyse',
  cpu_budget: 'takes more CPU time to analyse than the rubric allows',
  out_of_memory: 'needs more memory to analyse than analysis allows',
  too_deep: 'nests too deeply to analyse',
  parse_error: 'does not parse',
};

function testReason(tests: readonly TestResult[], edge: boolean): string {
  const mine = tests.filter((t) => t.edgeCase === edge);
  if (mine.length === 0) return edge ? 'the rubric names no edge-case test' : 'every test is an edge case';
  return 'every test that counts for it was skipped';
}

/** Why the analysis criteria lack a measured score: the files that blocked them, or no file at all. */
function analysisReason(
  files: readonly FileItem[],
  blocks: (f: FileItem) => boolean,
  policy: UnmeasurablePolicy,
): { reason: string; files: FileItem[] } {
  const blocked = files.filter(blocks);
  const what = blocked.map((f) => `${f.file} ${BLOCKED_REASON[f.blocked ?? 'parse_error']}`).join('; ');
  if (blocked.length && policy === 'zero') return { reason: `scored 0: ${what}`, files: blocked };
  if (blocked.length)
    return {
      reason: `not measured: ${what} (left out by the rubric's analysis.unmeasurable: exclude)`,
      files: blocked,
    };
  return {
    reason: files.length ? 'not measured: no file could be analysed' : 'not measured: no source file to analyse',
    files: [],
  };
}

export interface UnmeasuredResult {
  readonly unmeasured: Unmeasured[];
  /** One warning flag for them all when the submission caused any of them; none when only the rubric did. */
  readonly flag: Flag | null;
}

export function unmeasuredCriteria(
  det: DeterministicScores,
  criteria: Criteria,
  tests: readonly TestResult[],
  items: readonly EvidenceItem[],
  policy: UnmeasurablePolicy,
): UnmeasuredResult {
  const files = items.filter(isFileItem);
  const out: Unmeasured[] = [];
  const cited = new Set<string>();
  let bySubmission = false;
  if (det.correctness === null && criteria.correctness > 0)
    out.push({ criterion: 'correctness', reason: `not measured: ${testReason(tests, false)}` });
  if (det.edge_cases === null && criteria.edge_cases > 0)
    out.push({ criterion: 'edge_cases', reason: `not measured: ${testReason(tests, true)}` });
  for (const [criterion, blocks] of [
    ['style', blocksStyle],
    ['complexity', blocksComplexity],
  ] as const) {
    const blocked = policy === 'zero' && files.some(blocks);
    if (criteria[criterion] === 0 || (det[criterion] !== null && !blocked)) continue;
    const why = analysisReason(files, blocks, policy);
    out.push({ criterion, reason: why.reason });
    bySubmission = true;
    for (const f of why.files) cited.add(f.id);
  }
  // What the rubric leaves unmeasured (no edge-case test, skipped tests) is the same for every submission:
  // it is listed, and `check-rubric` says it once; a flag is for what this submission caused.
  if (!bySubmission) return { unmeasured: out, flag: null };
  const notes = items.filter(
    (i): i is LintItem =>
      i.kind === 'lint' &&
      (i.rule.startsWith('analysis.') || i.rule === 'parse-error') &&
      files.some((f) => cited.has(f.id) && f.file === i.file),
  );
  return {
    unmeasured: out,
    flag: {
      code: 'score.unmeasured',
      severity: 'warning',
      message: out.map((u) => `${u.criterion}: ${u.reason}`).join('; '),
      evidence: [...cited, ...notes.map((n) => n.id)],
    },
  };
}
