// Ruff's rules for student Python, mirroring `DEFAULT_LINT_RULES` for ESLint: code that is probably wrong
// at `error` (weight 3), code that is harder to read than it needs to be at `warn` (weight 1). Keys are ruff
// selectors (a full code such as `E711`, or a prefix such as `E7` or `F`); a finding takes the level of the
// longest selector that matches its code. Pure layout (line length, whitespace) is not graded.
import type { LintSpec } from './lint.js';

type Level = 'off' | 'warn' | 'error';

export const DEFAULT_RUFF_RULES: Readonly<Record<string, Level>> = {
  // correctness: pyflakes (undefined names, bad format strings, break outside a loop, …)
  F: 'error',
  E9: 'error', // the file cannot be read
  E711: 'error', // `== None`
  E721: 'error', // `type(x) == T`
  E722: 'error', // bare `except:` also catches KeyboardInterrupt and SystemExit
  W605: 'error', // invalid escape sequence
  B0: 'error', // flake8-bugbear: mutable defaults, loop variables in closures, `return` in `finally`, …
  PLE: 'error', // pylint errors
  PLR0124: 'error', // `a == a`
  PLW0127: 'error', // `x = x`
  // taste
  F401: 'warn', // unused import
  F403: 'warn', // `from m import *`
  F405: 'warn', // a name that may come from a star import
  F541: 'warn', // f-string without placeholders
  F841: 'warn', // unused local variable
  F842: 'warn', // unused annotated local
  E101: 'warn',
  E4: 'warn', // import placement
  E7: 'warn', // statements: several on one line, `not x in y`, lambda assignment, ambiguous names, …
  E712: 'warn', // `== True`
  B007: 'warn', // unused loop variable
  B008: 'warn', // call in a default argument
  B009: 'warn',
  B010: 'warn',
  B013: 'warn',
  B014: 'warn',
  B019: 'warn',
  B017: 'off', // `assertRaises(Exception)`: a test-code rule
  B024: 'off', // abstract-class conventions
  B027: 'off',
  B028: 'off', // `warnings.warn` stacklevel
  RET505: 'warn', // `else` after `return` (ESLint's no-else-return)
  PLR5501: 'warn', // `else: if` (no-lonely-if)
  PLR0913: 'warn', // more than 5 parameters (max-params)
  PLW0120: 'warn', // `else` on a loop without `break`
  PLW0603: 'warn', // `global`
  PLW2901: 'warn', // loop variable overwritten in the body (no-param-reassign)
  T100: 'warn', // a debugger left in (no-debugger)
};

/** A ruff selector: a rule code (`E711`, `PLR0913`) or a prefix of one (`E7`, `F`, `PLE`). `ALL` is not accepted. */
export const RUFF_SELECTOR = /^[A-Z]{1,4}[0-9]{0,4}$/;
export const isRuffSelector = (s: string): boolean => RUFF_SELECTOR.test(s) && s !== 'ALL';

/** The longest selector in `rules` that matches `code`, or null. */
function longestMatch(rules: Readonly<Record<string, unknown>>, code: string): string | null {
  let best: string | null = null;
  for (const sel of Object.keys(rules))
    if (code.startsWith(sel) && (best === null || sel.length > best.length)) best = sel;
  return best;
}

const levelOf = (v: unknown): Level => (Array.isArray(v) ? v[0] : v) as Level;

/**
 * The level of a finding's code: the rubric's longest matching selector when it names one (a rubric's `E7: off`
 * switches off every default E7xx rule, however specific), else the defaults' longest match, else off.
 */
export function ruffLevel(code: string, spec: LintSpec): Level {
  const own = longestMatch(spec.rules, code);
  if (own !== null) return levelOf(spec.rules[own]);
  const dflt = longestMatch(DEFAULT_RUFF_RULES, code);
  return dflt === null ? 'off' : (DEFAULT_RUFF_RULES[dflt] as Level);
}

/** What ruff is asked to check: every selector that could yield a finding at `warn` or `error`. */
export function ruffSelect(spec: LintSpec): string[] {
  const on = (rules: Readonly<Record<string, unknown>>): string[] =>
    Object.entries(rules)
      .filter(([, v]) => levelOf(v) !== 'off')
      .map(([k]) => k);
  return [...new Set([...on(DEFAULT_RUFF_RULES), ...on(spec.rules)])].sort();
}
