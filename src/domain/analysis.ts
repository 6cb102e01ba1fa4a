/** Facts measured about one submitted file by ESLint and the AST walker. */
export interface LintMessage {
  readonly rule: string;
  readonly severity: 'error' | 'warning';
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

export interface FunctionMetrics {
  name: string;
  line: number;
  endLine: number;
  cyclomatic: number;
  maxLoopNesting: number;
  recursive: boolean;
  lines: number;
  params: number;
}

export interface PolicyFinding {
  rule: string;
  line: number;
  column: number;
  message: string;
}

export interface FileMetrics {
  file: string;
  loc: number;
  functions: FunctionMetrics[];
  maxLoopNesting: number;
  maxCyclomatic: number;
  policy: PolicyFinding[];
}

export interface FileAnalysis {
  readonly file: string;
  readonly lint: readonly LintMessage[];
  readonly metrics: FileMetrics | null;
  /** Why the file could not be measured (lint then holds the analysis.* or parse-error message). */
  readonly skipped: Unmeasurable | null;
}

/**
 * Why the submission made a file unmeasurable: each is a property of the file itself (its size, its depth,
 * the CPU its analysis takes, the memory it needs), never of how busy the grader was.
 */
export const UNMEASURABLE = ['too_large', 'cpu_budget', 'out_of_memory', 'too_deep', 'parse_error'] as const;
export type Unmeasurable = (typeof UNMEASURABLE)[number];

/**
 * Every analyser the pool runs, by the prefix of its findings (`eslint/no-undef`, `typescript/TS2322`,
 * `ruff/F401`). Each reads the analysis view only (stages/analysis/analysis-view.ts); a new one is added here, and
 * tests/integration/analysis-directives.test.ts then requires a directive case for it.
 */
export const ANALYSERS = ['eslint', 'typescript', 'ruff'] as const;
export type Analyser = (typeof ANALYSERS)[number];
