import { createRequire } from 'node:module';
import type * as TS from 'typescript';
import { GREATEST_LOWER_BOUND, LEAST_UPPER_BOUND, TraceMap, originalPositionFor } from '@jridgewell/trace-mapping';

// TypeScript (≈ 9 MB of JavaScript) is loaded on the first TypeScript file, never for a JavaScript rubric.
let tsLib: typeof TS | null = null;
const ts = (): typeof TS => (tsLib ??= createRequire(import.meta.url)('typescript') as typeof TS);

const TS_EXT = /\.(m|c)?ts$/;
export const isTsFile = (path: string): boolean => TS_EXT.test(path) && !path.endsWith('.d.ts');
/** leap.ts → leap.js, util.mts → util.mjs: the name the job runs. */
export const jsName = (path: string): string =>
  path.replace(/\.(m|c)?ts$/, (_m, k: string | undefined) => `.${k ?? ''}js`);

const options = (): TS.CompilerOptions => ({
  target: ts().ScriptTarget.ES2022,
  // Keep import/export as written: the harness runs ESM and CommonJS alike.
  module: ts().ModuleKind.Preserve,
  rewriteRelativeImportExtensions: true,
  allowImportingTsExtensions: true,
  verbatimModuleSyntax: false,
  isolatedModules: true,
  // The map stays beside the code (never in it): only a rubric audit's coverage reads it (`sourceLines`).
  sourceMap: true,
  inlineSourceMap: false,
  removeComments: false,
});

/** The comment TypeScript appends when it emits a map: the job's code is the same with or without one. */
const MAP_COMMENT = /\/\/# sourceMappingURL=[^\n]*$/;

/**
 * Type-strips one TypeScript file for running. Running never waits for type
 * checking (type errors are evidence of their own); output keeps line breaks
 * close to the source so stack traces stay readable. `sourceMap` (v3 JSON) maps
 * the output back to the file as written.
 */
export function transpileForJob(path: string, code: string): { path: string; code: string; sourceMap: string } {
  const out = ts().transpileModule(code, { compilerOptions: options(), fileName: path, reportDiagnostics: false });
  return { path: jsName(path), code: out.outputText.replace(MAP_COMMENT, ''), sourceMap: out.sourceMapText ?? '' };
}

/**
 * Maps lines of the type-stripped JavaScript (1-based, as V8's coverage reports them) to the TypeScript source's
 * lines, through the transpile's source map. A line's statement starts at its first non-blank column, where
 * TypeScript's emitter puts a mapping; a line with no mapping (TypeScript's own helper code) has no source line and
 * is dropped. Sorted, without duplicates: two emitted lines of one source line are that one line.
 */
export function sourceLines(jsCode: string, sourceMap: string, jsLines: readonly number[]): number[] {
  const map = new TraceMap(sourceMap);
  const text = jsCode.split('\n');
  const out = new Set<number>();
  for (const line of jsLines) {
    const column = Math.max(0, (text[line - 1] ?? '').search(/\S/));
    const at = (bias: typeof GREATEST_LOWER_BOUND | typeof LEAST_UPPER_BOUND) =>
      originalPositionFor(map, { line, column, bias }).line;
    const original = at(GREATEST_LOWER_BOUND) ?? at(LEAST_UPPER_BOUND);
    if (original !== null) out.add(original);
  }
  return [...out].sort((a, b) => a - b);
}
