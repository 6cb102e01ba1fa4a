import { createRequire } from 'node:module';
import { extname } from 'node:path';
import type { Linter } from 'eslint';
import { DEFAULT_LINT_RULES, TS_OFF_RULES } from '../../domain/lint-rules.js';
import type { LintSpec } from '../../domain/lint.js';
import { loadEslint } from './eslint-bundle.js';

import type { TSESTree } from '@typescript-eslint/typescript-estree';
import type { LintMessage } from '../../domain/analysis.js';
import type { AnalysisView } from '../../stages/analysis/analysis-view.js';

// ESLint's Linter alone (its browser entry: the package's main also loads the CLI's config loader, file enumeration
// and formatters, which a lint thread never uses), from one bundle with a V8 code cache (eslint-bundle.ts).
const eslint = loadEslint();
const globals = eslint.globals;
const linter = new eslint.Linter({ configType: 'flat' });

// ESLint turns a plain config array into a normalised FlatConfigArray on every
// verify (schema-validating every rule's options). Handing it one already
// normalised, and a canonical file name per extension so its per-file config
// cache hits, halves the cost of linting a small file. The class is internal
// to ESLint (pinned by the lockfile); without it we fall back to plain arrays.
type ConfigLike = Linter.Config[] & { normalizeSync?: () => void };
const FlatConfigArray = eslint.FlatConfigArray;
// The TypeScript parser loads TypeScript (~0.5 s of CPU): loaded for the first TypeScript file only.
let tsParser: Linter.Parser | null = null;
/** Loads what linting `file` needs beyond ESLint itself (the TypeScript parser for a TypeScript file). */
export function prepareParser(file: string): void {
  if (isTypeScript(file)) tsParser ??= createRequire(import.meta.url)('@typescript-eslint/parser') as Linter.Parser;
}
const canonicalName = (file: string): string => `input${extname(file) || '.js'}`;
const ESM_SYNTAX = /^\s*(import\s*[\w*{'"$]|export\s+)/m;
export const isTypeScript = (file: string): boolean => /\.(ts|mts|cts)$/.test(file);

// ESLint validates a config's rule options (ajv) each time it meets a new
// config object; reusing the object per (rubric spec, module kind, language)
// makes that a one-off cost per worker.
const configs = new Map<string, ConfigLike>();

type SourceType = 'module' | 'commonjs';

/** The module kind a file's extension or its first statements settle; null when only a parse can (see lintWithAst). */
function settledKind(file: string, code: string): SourceType | null {
  if (file.endsWith('.cjs')) return 'commonjs';
  if (file.endsWith('.mjs') || ESM_SYNTAX.test(code)) return 'module';
  return /\b(?:import|export|await)\b/.test(code) ? null : 'commonjs';
}

function config(file: string, spec: LintSpec, sourceType: SourceType): ConfigLike {
  const ts = isTypeScript(file);
  prepareParser(file);
  const key = `${ts}|${sourceType}|${JSON.stringify(spec)}`;
  let found = configs.get(key);
  if (!found) {
    found = build(ts, sourceType, spec) as ConfigLike;
    if (FlatConfigArray) {
      found = new FlatConfigArray(found);
      found.normalizeSync?.();
    }
    if (configs.size > 64) configs.clear();
    configs.set(key, found);
  }
  return found;
}

function build(ts: boolean, sourceType: SourceType, spec: LintSpec): Linter.Config[] {
  const rules: Linter.RulesRecord = {
    ...(DEFAULT_LINT_RULES as Linter.RulesRecord),
    ...(spec.rules as Linter.RulesRecord),
  };
  if (ts) for (const r of TS_OFF_RULES) rules[r] = 'off';
  const extra = Object.fromEntries(spec.globals.map((g) => [g, 'readonly' as const]));
  return [
    {
      files: ['**/*.js', '**/*.mjs', '**/*.cjs', '**/*.ts', '**/*.mts', '**/*.cts'],
      languageOptions: {
        ecmaVersion: 'latest',
        sourceType,
        globals: { ...globals.node, ...(sourceType === 'commonjs' ? globals.commonjs : {}), ...extra },
        ...(ts ? { parser: tsParser as Linter.Parser } : {}),
      },
      linterOptions: { reportUnusedDisableDirectives: 'off', noInlineConfig: true },
      rules,
    },
  ];
}

/**
 * Lints one file with ESLint's in-process Linter (never a CLI per file). It reads the analysis view, where no
 * comment says anything, and `noInlineConfig` stays on besides: a student cannot switch the grader's rules off.
 * A parse error comes back as a `parse-error` message.
 */
export function lintFile(file: string, code: AnalysisView, spec: LintSpec): LintMessage[] {
  return lintWithAst(file, code, spec).messages;
}

/** Lint messages plus the AST ESLint parsed (absent when the file does not parse), for the metrics walk. */
export function lintWithAst(
  file: string,
  code: AnalysisView,
  spec: LintSpec,
): { messages: LintMessage[]; ast: TSESTree.Program | null } {
  const verify = (kind: SourceType): Linter.LintMessage[] =>
    linter.verify(code, config(file, spec, kind), { filename: canonicalName(file) });
  const settled = settledKind(file, code);
  let raw = verify(settled ?? 'commonjs');
  // Node's rule for an ambiguous .js file, as the harness applies it (realm.cjs formatOf): CommonJS unless only a
  // module parse accepts it (an `export` after other code on its line, `import.meta`, top-level await). Without it
  // a module the tests run fine would be graded a parse error.
  if (settled === null && raw.some((m) => m.fatal)) {
    const asModule = verify('module');
    if (!asModule.some((m) => m.fatal)) raw = asModule;
  }
  eslint.keepCodeCache(); // once per thread that had none: it now holds what this first file compiled
  const fatal = raw.some((m) => m.fatal);
  const ast = fatal ? null : (linter.getSourceCode().ast as unknown as TSESTree.Program);
  return { messages: toMessages(raw), ast };
}

function toMessages(messages: Linter.LintMessage[]): LintMessage[] {
  return messages.map((m) => ({
    // A message without a rule is either the parser failing or ESLint noting an ignored inline directive.
    rule: m.ruleId ? `eslint/${m.ruleId}` : m.fatal ? 'parse-error' : 'analysis.inline_config_ignored',
    severity: m.fatal || m.severity === 2 ? 'error' : 'warning',
    line: m.line ?? 1,
    column: m.column ?? 1,
    message: m.message,
  }));
}
