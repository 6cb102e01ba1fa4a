// Piscina worker: lint and AST metrics for one file. Runs in a worker thread
// so a pathological file costs one thread (killed at its CPU budget), never the grader.
import type { LintSpec } from '../../domain/lint.js';
import type { FileAnalysis } from '../../domain/analysis.js';
import { measureAst, measureFile, ParseFailure } from '../../stages/analysis/metrics.js';
import { codeBytes } from '../../stages/analysis/strip-comments.js';
import type * as LintModule from './lint.js';
import { startMeter, type MeterSlot } from './meter.js';
import type { typecheck } from './typecheck.js';
import { parsePython, preparePythonParser, pythonParserReady } from './python-parser.js';
import { lintPython, prepareRuff } from './ruff.js';
import { blankComments, pythonCodeBytes, pythonTrivia } from '../../stages/analysis/python-source.js';
import type { AnalysisView } from '../../stages/analysis/analysis-view.js';
import { measurePython } from '../../stages/analysis/python-metrics.js';

// Tasks carry analysis views only (stages/analysis/analysis-view.ts), made by the pool: no analyser in a thread ever
// holds the submission's own text, so no in-band directive reaches one.
export interface TypecheckTask {
  readonly files: readonly { path: string; view: AnalysisView }[];
  readonly meter?: MeterSlot;
}

/**
 * Named task for piscina (`name: 'typecheckTask'`): the whole submission at once. The compiler is loaded on a
 * thread's first TypeScript task, before its meter starts: loading is the grader's cost, not the file's.
 */
export async function typecheckTask(task: TypecheckTask): Promise<ReturnType<typeof typecheck>> {
  const { typecheck: check } = await import('./typecheck.js');
  startMeter(task.meter);
  return check(task.files);
}

export interface AnalysisTask {
  readonly file: string;
  readonly view: AnalysisView;
  readonly spec: LintSpec;
  /** Code bytes (comments and blank lines excluded) above which the file is not parsed at all. */
  readonly maxCodeBytes: number;
  readonly meter?: MeterSlot;
}

const tooLarge = (task: AnalysisTask, size: number): FileAnalysis | null => {
  if (size <= task.maxCodeBytes) return null;
  const message = `not analysed: ${size} bytes of code (comments and blank lines excluded) is more than ${task.maxCodeBytes}`;
  return {
    file: task.file,
    lint: [{ rule: 'analysis.too_large', severity: 'warning', line: 1, column: 1, message }],
    metrics: null,
    skipped: 'too_large',
  };
};

// ESLint (≈ 135 ms of CPU to load, bundle and code cache included) is loaded by a thread's first JavaScript or
// TypeScript file, before that file's meter starts: a thread that analyses only Python never loads it.
let linter: typeof LintModule | null = null;

export default function analyse(task: AnalysisTask): FileAnalysis | Promise<FileAnalysis> {
  // Synchronous once the grammar or ESLint is loaded: piscina's worker waits for tasks with Atomics.wait, so a task
  // that yields to the event loop is resumed late (≈ 50 ms and 15 ms of CPU more per file, measured).
  if (task.file.endsWith('.py'))
    return pythonParserReady() ? analysePython(task) : preparePythonParser().then(() => analysePython(task));
  if (linter) return analyseScript(linter, task);
  return import('./lint.js').then((loaded) => analyseScript((linter = loaded), task));
}

function analyseScript({ lintWithAst, prepareParser }: typeof LintModule, task: AnalysisTask): FileAnalysis {
  prepareParser(task.file); // the TypeScript parser's first load is not the file's CPU
  startMeter(task.meter);
  const large = tooLarge(task, codeBytes(task.view));
  if (large) return large;
  const { messages: lint, ast } = lintWithAst(task.file, task.view, task.spec);
  try {
    // One parse serves both: the metrics walk reuses ESLint's AST when there is one.
    const metrics = ast ? measureAst(task.file, task.view, ast) : measureFile(task.file, task.view);
    return { file: task.file, lint, metrics, skipped: null };
  } catch (e) {
    if (!(e instanceof ParseFailure)) throw e;
    const parse = lint.some((m) => m.rule === 'parse-error')
      ? lint
      : [
          ...lint,
          {
            rule: 'parse-error',
            severity: 'error' as const,
            line: (e as ParseFailure).line,
            column: (e as ParseFailure).column,
            message: (e as Error).message,
          },
        ];
    return { file: task.file, lint: parse, metrics: null, skipped: 'parse_error' };
  }
}

/**
 * A Python file: ruff for style, tree-sitter's syntax tree for metrics. Both load (WebAssembly compilation
 * included) before the meter starts: a thread's first Python file is not charged for the grader's start-up.
 */
function analysePython(task: AnalysisTask): FileAnalysis {
  prepareRuff(task.spec);
  startMeter(task.meter);
  const trivia = pythonTrivia(task.view); // one scan serves the size limit, ruff's input and LOC
  const large = tooLarge(task, pythonCodeBytes(task.view, trivia));
  if (large) return large;
  const lint = lintPython(task.view, task.spec);
  // Ruff's parser decides whether the file parses (tree-sitter recovers from errors, and would measure anyway).
  if (lint.some((m) => m.rule === 'parse-error'))
    return { file: task.file, lint, metrics: null, skipped: 'parse_error' };
  const tree = parsePython(blankComments(task.view, trivia));
  try {
    return { file: task.file, lint, metrics: measurePython(task.file, task.view, tree, trivia), skipped: null };
  } finally {
    tree.delete();
  }
}
