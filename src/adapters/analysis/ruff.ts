// Ruff, in-process as WebAssembly (no Python or ruff binary on the grading host): style findings for Python.
// Ruff reads the analysis view (stages/analysis/analysis-view.ts), where every comment is silenced: ruff honours
// `# noqa`, and a student must not be able to switch the grader's rules off.
import { createRequire } from 'node:module';
import { ruffLevel, ruffSelect } from '../../domain/ruff.js';
import type { LintSpec } from '../../domain/lint.js';
import type { LintMessage } from '../../domain/analysis.js';
import type { AnalysisView } from '../../stages/analysis/analysis-view.js';

interface RuffDiagnostic {
  code: string | null;
  message: string;
  start_location: { row: number; column: number };
}
interface RuffWorkspace {
  check(code: string): RuffDiagnostic[];
}
interface RuffModule {
  Workspace: new (options: object, encoding: number) => RuffWorkspace;
  PositionEncoding: { Utf16: number };
}

/** Debian's python3 (the harness's interpreter) is 3.11: newer syntax is a syntax error there. */
export const RUFF_TARGET = 'py311';
let ruff: RuffModule | null = null;
const workspaces = new Map<string, RuffWorkspace>();

const req = createRequire(import.meta.url);
const load = (): RuffModule => (ruff ??= req('@astral-sh/ruff-wasm-nodejs') as RuffModule);

/**
 * A trap inside ruff (its parser overflowing the WebAssembly stack on a nesting bomb) leaves its instance's
 * memory inconsistent: the next check would read out of bounds. The instance is dropped and the next file
 * loads a fresh one (in `prepareRuff`, before that file's meter starts).
 */
function dropRuff(): void {
  delete req.cache[req.resolve('@astral-sh/ruff-wasm-nodejs')];
  ruff = null;
  workspaces.clear();
}

function workspace(spec: LintSpec): RuffWorkspace {
  const key = JSON.stringify(spec);
  let ws = workspaces.get(key);
  if (!ws) {
    const m = load();
    ws = new m.Workspace(
      {
        'target-version': RUFF_TARGET,
        builtins: spec.globals,
        lint: { select: ruffSelect(spec), 'dummy-variable-rgx': '^_' },
      },
      m.PositionEncoding.Utf16,
    );
    if (workspaces.size > 64) workspaces.clear();
    workspaces.set(key, ws);
  }
  return ws;
}

/**
 * Loads ruff and compiles its checks once per thread, outside any file's CPU budget: the module's load and
 * V8's compilation of the code the first check runs (≈ 0.4 s) are the grader's cost, not a file's.
 */
export function prepareRuff(spec: LintSpec): void {
  if (workspaces.has(JSON.stringify(spec))) return;
  workspace(spec).check('import os\n\ndef f(x=[]):\n    if x == None:\n        return [i for i in x if i]\n');
}

/** Ruff's findings on one file, as lint messages `ruff/<code>`; a file with syntax errors has one `parse-error`, its first. */
export function lintPython(code: AnalysisView, spec: LintSpec): LintMessage[] {
  const out: LintMessage[] = [];
  let syntax: LintMessage | null = null;
  let diagnostics: RuffDiagnostic[];
  try {
    diagnostics = workspace(spec).check(code);
  } catch (e) {
    dropRuff();
    // Ruff's Rust code keeps its own stack in linear memory: deep nesting overflows it as an out-of-bounds
    // access rather than V8's RangeError. Either way the file nests too deeply to analyse.
    if (e instanceof WebAssembly.RuntimeError && /out of bounds/.test(e.message))
      throw new RangeError(`ruff: ${e.message}`);
    throw e;
  }
  for (const d of diagnostics) {
    const at = { line: d.start_location.row, column: d.start_location.column };
    if (d.code === null || d.code === 'invalid-syntax') {
      // A file that does not parse is one finding (weight 30), as ESLint reports it: the first error.
      const m: LintMessage = { rule: 'parse-error', severity: 'error', ...at, message: d.message };
      if (!syntax || m.line < syntax.line || (m.line === syntax.line && m.column < syntax.column)) syntax = m;
      continue;
    }
    const level = ruffLevel(d.code, spec);
    if (level !== 'off')
      out.push({
        rule: `ruff/${d.code}`,
        severity: level === 'error' ? 'error' : 'warning',
        ...at,
        message: d.message,
      });
  }
  if (syntax) out.push(syntax);
  return out.sort((a, b) => a.line - b.line || a.column - b.column || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0));
}
