import fs from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, posix } from 'node:path';
import ts from 'typescript';
import type { LintMessage } from '../../domain/analysis.js';
import type { AnalysisView } from '../../stages/analysis/analysis-view.js';

/** Type errors are evidence "with their own limits": at most this many per submission. */
export const MAX_TYPE_ERRORS = 50;
const ROOT = '/submission/';

// The compiler sees a virtual file system, never the host's: the submission (from memory) under
// /submission/, and the declaration files of TypeScript's lib, @types/node and undici-types (which
// @types/node imports) under /lib/. Every other path does not exist, so an import, a triple-slash
// reference or a `node_modules` lookup that names a host file finds nothing and reveals nothing.
const require = createRequire(import.meta.url);
const TS_LIB = dirname(require.resolve('typescript/lib/lib.d.ts'));
const NODE_TYPES = dirname(require.resolve('@types/node/package.json'));
const UNDICI_TYPES = dirname(createRequire(join(NODE_TYPES, 'package.json')).resolve('undici-types/package.json'));
const LIB_ROOT = '/lib/typescript';
const TYPES_ROOT = '/lib/node_modules/@types';

/** Virtual path → host path, for the library files only; listed once per worker, never by a submission. */
const libFiles = new Map<string, string>();
const dirs = new Set<string>(['/', '/lib', '/lib/node_modules']);

function addTree(real: string, virtual: string, keep: (name: string) => boolean, recurse: boolean): void {
  dirs.add(virtual);
  for (const e of fs.readdirSync(real, { withFileTypes: true })) {
    // Only regular files and directories of the installed packages: a symbolic link is never followed.
    if (e.isFile() && keep(e.name)) libFiles.set(posix.join(virtual, e.name), join(real, e.name));
    else if (recurse && e.isDirectory() && e.name !== 'node_modules')
      addTree(join(real, e.name), posix.join(virtual, e.name), keep, true);
  }
}
const declaration = (name: string): boolean => name.endsWith('.d.ts') || name === 'package.json';
addTree(TS_LIB, LIB_ROOT, (name) => /^lib\.[\w.]*d\.ts$/.test(name), false);
addTree(NODE_TYPES, `${TYPES_ROOT}/node`, declaration, true);
addTree(UNDICI_TYPES, '/lib/node_modules/undici-types', declaration, true);
dirs.add(TYPES_ROOT);

const OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.Preserve,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowImportingTsExtensions: true,
  allowJs: false,
  skipLibCheck: true,
  types: ['node'],
  typeRoots: [TYPES_ROOT],
};

// Library files parse once per worker and are shared by every program after.
const libCache = new Map<string, ts.SourceFile | undefined>();
const libText = (f: string): string | undefined => {
  const real = libFiles.get(f);
  return real === undefined ? undefined : fs.readFileSync(real, 'utf8');
};
const trim = (d: string): string => (d.length > 1 && d.endsWith('/') ? d.slice(0, -1) : d);

function host(files: ReadonlyMap<string, string>): ts.CompilerHost {
  const subDirs = new Set<string>();
  for (const f of files.keys()) for (let d = posix.dirname(f); d !== '/'; d = posix.dirname(d)) subDirs.add(d);
  const isDir = (d: string): boolean => dirs.has(trim(d)) || subDirs.has(trim(d));
  return {
    fileExists: (f) => files.has(f) || libFiles.has(f),
    readFile: (f) => files.get(f) ?? libText(f),
    directoryExists: isDir,
    getDirectories: (d) =>
      isDir(d)
        ? [...dirs, ...subDirs].filter((x) => posix.dirname(x) === trim(d) && x !== '/').map((x) => posix.basename(x))
        : [],
    readDirectory: () => [],
    realpath: (p) => p,
    getSourceFile: (f, lang) => {
      const own = files.get(f);
      if (own !== undefined) return ts.createSourceFile(f, own, lang, true);
      // A library's package.json serves module resolution (readFile) only, never as a JSON module.
      if (!f.endsWith('.d.ts') || !libFiles.has(f)) return undefined;
      if (!libCache.has(f)) libCache.set(f, ts.createSourceFile(f, libText(f) as string, lang, false));
      return libCache.get(f);
    },
    getDefaultLibFileName: (o) => posix.join(LIB_ROOT, ts.getDefaultLibFileName(o)),
    getDefaultLibLocation: () => LIB_ROOT,
    getEnvironmentVariable: () => undefined,
    writeFile: () => undefined,
    getCurrentDirectory: () => ROOT,
    getCanonicalFileName: (f) => f,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => '\n',
  };
}

/**
 * Type-checks a TypeScript submission (strict); its errors come back as findings per file. It reads analysis
 * views: `@ts-nocheck`, `@ts-ignore`, `@ts-expect-error` and `/// <reference>` are comments, and say nothing there.
 */
export function typecheck(
  files: readonly { path: string; view: AnalysisView }[],
): { file: string; lint: LintMessage[] }[] {
  const map = new Map<string, string>();
  for (const f of files) {
    const p = posix.join(ROOT, f.path);
    if (p.startsWith(ROOT)) map.set(p, f.view);
  }
  const roots = [...map.keys()].filter((f) => /\.(m|c)?ts$/.test(f));
  const program = ts.createProgram(roots, OPTIONS, host(map));
  const diags = [...program.getSyntacticDiagnostics(), ...program.getSemanticDiagnostics()].filter((d) =>
    d.file?.fileName.startsWith(ROOT),
  );
  const out = new Map<string, LintMessage[]>();
  for (const d of diags.slice(0, MAX_TYPE_ERRORS)) {
    const file = (d.file as ts.SourceFile).fileName.slice(ROOT.length);
    const pos =
      d.start !== undefined
        ? (d.file as ts.SourceFile).getLineAndCharacterOfPosition(d.start)
        : { line: 0, character: 0 };
    const list = out.get(file) ?? [];
    list.push({
      rule: `typescript/TS${d.code}`,
      severity: 'error',
      line: pos.line + 1,
      column: pos.character + 1,
      message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
    });
    out.set(file, list);
  }
  return [...out.entries()].map(([file, lint]) => ({ file, lint }));
}
