import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import type { LintMessage } from '../../domain/analysis.js';

const require = createRequire(import.meta.url);
const TYPES_ROOT = join(dirname(require.resolve('@types/node/package.json')), '..');
/** Type errors are evidence "with their own limits": at most this many per submission. */
export const MAX_TYPE_ERRORS = 50;
const ROOT = '/submission/';

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

// Library and @types files parse once per worker and are shared by every program after.
const libCache = new Map<string, ts.SourceFile | undefined>();

function host(files: ReadonlyMap<string, string>): ts.CompilerHost {
  const base = ts.createCompilerHost(OPTIONS);
  return {
    ...base,
    fileExists: (f) => files.has(f) || (!f.startsWith(ROOT) && base.fileExists(f)),
    readFile: (f) => files.get(f) ?? (f.startsWith(ROOT) ? undefined : base.readFile(f)),
    getSourceFile: (f, lang) => {
      const own = files.get(f);
      if (own !== undefined) return ts.createSourceFile(f, own, lang, true);
      if (f.startsWith(ROOT)) return undefined;
      if (!libCache.has(f)) libCache.set(f, base.getSourceFile(f, lang));
      return libCache.get(f);
    },
    writeFile: () => undefined,
    getCurrentDirectory: () => ROOT,
  };
}

/** Type-checks a TypeScript submission (strict); its errors come back as findings per file. */
export function typecheck(files: readonly { path: string; code: string }[]): { file: string; lint: LintMessage[] }[] {
  const map = new Map(files.map((f) => [ROOT + f.path, f.code]));
  const roots = [...map.keys()].filter((f) => /\.(m|c)?ts$/.test(f));
  const program = ts.createProgram(roots, OPTIONS, host(map));
  const diags = [...program.getSyntacticDiagnostics(), ...program.getSemanticDiagnostics()].filter((d) => d.file?.fileName.startsWith(ROOT));
  const out = new Map<string, LintMessage[]>();
  for (const d of diags.slice(0, MAX_TYPE_ERRORS)) {
    const file = (d.file as ts.SourceFile).fileName.slice(ROOT.length);
    const pos = d.start !== undefined ? (d.file as ts.SourceFile).getLineAndCharacterOfPosition(d.start) : { line: 0, character: 0 };
    const list = out.get(file) ?? [];
    list.push({ rule: `typescript/TS${d.code}`, severity: 'error', line: pos.line + 1, column: pos.character + 1, message: ts.flattenDiagnosticMessageText(d.messageText, '\n') });
    out.set(file, list);
  }
  return [...out.entries()].map(([file, lint]) => ({ file, lint }));
}
