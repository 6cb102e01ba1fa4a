import { Linter } from 'eslint';
import globals from 'globals';
import tsParser from '@typescript-eslint/parser';
import { DEFAULT_LINT_RULES, TS_OFF_RULES, type LintSpec } from '../../domain/lint.js';

import type { LintMessage } from '../../domain/analysis.js';

const linter = new Linter({ configType: 'flat' });
const ESM_SYNTAX = /^\s*(import\s*[\w*{'"$]|export\s+)/m;
export const isTypeScript = (file: string): boolean => /\.(ts|mts|cts)$/.test(file);

function config(file: string, code: string, spec: LintSpec): Linter.Config[] {
  const ts = isTypeScript(file);
  const sourceType = file.endsWith('.cjs') ? 'commonjs' : file.endsWith('.mjs') || ESM_SYNTAX.test(code) ? 'module' : 'commonjs';
  const rules: Linter.RulesRecord = { ...(DEFAULT_LINT_RULES as Linter.RulesRecord), ...(spec.rules as Linter.RulesRecord) };
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
  const messages = linter.verify(code, config(file, code, spec), { filename: file });
  return messages.map((m) => ({
    // A message without a rule is either the parser failing or ESLint noting an ignored inline directive.
    rule: m.ruleId ? `eslint/${m.ruleId}` : m.fatal ? 'parse-error' : 'analysis.inline_config_ignored',
    severity: m.fatal || m.severity === 2 ? 'error' : 'warning',
    line: m.line ?? 1,
    column: m.column ?? 1,
    message: m.message,
  }));
}
