import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { Linter } from 'eslint';
import globals from 'globals';
import { DEFAULT_LINT_RULES, TS_OFF_RULES, type LintSpec } from '../../domain/lint.js';

import type { TSESTree } from '@typescript-eslint/typescript-estree';
import type { LintMessage } from '../../domain/analysis.js';

const linter = new Linter({ configType: 'flat' });

// ESLint turns a plain config array into a normalised FlatConfigArray on every
// verify (schema-validating every rule's options). Handing it one already
// normalised, and a canonical file name per extension so its per-file config
// cache hits, halves the cost of linting a small file. The class is internal
// to ESLint (pinned by the lockfile); without it we fall back to plain arrays.
type ConfigLike = Linter.Config[] & { normalizeSync?: () => void };
const FlatConfigArray = loadFlatConfigArray();
function loadFlatConfigArray(): (new (c: Linter.Config[]) => ConfigLike) | null {
  try {
    const req = createRequire(import.meta.url);
    const dir = dirname(req.resolve('eslint/package.json'));
    return (
      req(join(dir, 'lib', 'config', 'flat-config-array.js')) as {
        FlatConfigArray: new (c: Linter.Config[]) => ConfigLike;
      }
    ).FlatConfigArray;
  } catch {
    return null;
  }
}
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

function config(file: string, code: string, spec: LintSpec): ConfigLike {
  const ts = isTypeScript(file);
  prepareParser(file);
  const sourceType = file.endsWith('.cjs')
    ? 'commonjs'
    : file.endsWith('.mjs') || ESM_SYNTAX.test(code)
      ? 'module'
      : 'commonjs';
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

function build(ts: boolean, sourceType: 'module' | 'commonjs', spec: LintSpec): Linter.Config[] {
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
 * Lints one file with ESLint's in-process Linter (never a CLI per file).
 * Inline `eslint-disable` comments are ignored: a student cannot switch the
 * grader's rules off. A parse error comes back as a `parse-error` message.
 */
export function lintFile(file: string, code: string, spec: LintSpec): LintMessage[] {
  return lintWithAst(file, code, spec).messages;
}

/** Lint messages plus the AST ESLint parsed (absent when the file does not parse), for the metrics walk. */
export function lintWithAst(
  file: string,
  code: string,
  spec: LintSpec,
): { messages: LintMessage[]; ast: TSESTree.Program | null } {
  const raw = linter.verify(code, config(file, code, spec), { filename: canonicalName(file) });
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
