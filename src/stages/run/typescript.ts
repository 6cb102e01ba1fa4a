import { createRequire } from 'node:module';
import type * as TS from 'typescript';

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
  sourceMap: false,
  inlineSourceMap: false,
  removeComments: false,
});

/**
 * Type-strips one TypeScript file for running. Running never waits for type
 * checking (type errors are evidence of their own); output keeps line breaks
 * close to the source so stack traces stay readable.
 */
export function transpileForJob(path: string, code: string): { path: string; code: string } {
  const out = ts().transpileModule(code, { compilerOptions: options(), fileName: path, reportDiagnostics: false });
  return { path: jsName(path), code: out.outputText };
}
