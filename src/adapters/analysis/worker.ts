// Piscina worker: lint and AST metrics for one file. Runs in a worker thread
// so a pathological file costs one thread (killed on timeout), never the grader.
import type { LintSpec } from '../../domain/lint.js';
import type { FileAnalysis } from '../../domain/analysis.js';
import { measure, measureAst, ParseFailure } from '../../stages/metrics.js';
import { lintWithAst } from './lint.js';
import { typecheck } from './typecheck.js';

/** Named task for piscina (`name: 'typecheckTask'`): the whole submission at once. */
export function typecheckTask(files: readonly { path: string; code: string }[]): ReturnType<typeof typecheck> {
  return typecheck(files);
}

export interface AnalysisTask {
  readonly file: string;
  readonly code: string;
  readonly spec: LintSpec;
}

export default function analyse(task: AnalysisTask): FileAnalysis {
  const { messages: lint, ast } = lintWithAst(task.file, task.code, task.spec);
  try {
    // One parse serves both: the metrics walk reuses ESLint's AST when there is one.
    const metrics = ast ? measureAst(task.file, task.code, ast) : measure(task.file, task.code);
    return { file: task.file, lint, metrics, skipped: null };
  } catch (e) {
    if (!(e instanceof ParseFailure)) throw e;
    const parse = lint.some((m) => m.rule === 'parse-error')
      ? lint
      : [...lint, { rule: 'parse-error', severity: 'error' as const, line: (e as ParseFailure).line, column: (e as ParseFailure).column, message: (e as Error).message }];
    return { file: task.file, lint: parse, metrics: null, skipped: 'parse_error' };
  }
}
