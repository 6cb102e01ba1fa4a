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
  readonly skipped: 'too_large' | 'timeout' | 'failed' | 'parse_error' | null;
}
