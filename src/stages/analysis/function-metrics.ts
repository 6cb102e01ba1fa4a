import type { FileMetrics, FunctionMetrics, PolicyFinding } from '../../domain/analysis.js';

/** What both languages' walkers count for one function as they walk it. */
export interface WalkedFunction {
  name: string;
  line: number;
  endLine: number;
  params: number;
  cyclomatic: number;
  maxLoopNesting: number;
  recursive: boolean;
}

export const toMetrics = (fn: WalkedFunction): FunctionMetrics => ({
  name: fn.name,
  line: fn.line,
  endLine: fn.endLine,
  cyclomatic: fn.cyclomatic,
  maxLoopNesting: fn.maxLoopNesting,
  recursive: fn.recursive,
  lines: fn.endLine - fn.line + 1,
  params: fn.params,
});

/** A file's metrics from its functions (JavaScript, TypeScript and Python alike). */
export function fileMetrics(
  file: string,
  loc: number,
  fns: readonly WalkedFunction[],
  policy: PolicyFinding[],
): FileMetrics {
  const functions = fns.map(toMetrics);
  return {
    file,
    loc,
    functions,
    // reduce rather than Math.max(...xs): a file may hold more functions than the argument limit.
    maxLoopNesting: functions.reduce((m, f) => Math.max(m, f.maxLoopNesting), 0),
    maxCyclomatic: functions.reduce((m, f) => Math.max(m, f.cyclomatic), 1),
    policy,
  };
}
