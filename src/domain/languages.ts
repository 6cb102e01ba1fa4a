// Every language a rubric may name, and what differs between them: one table, so a new language is a
// new row here (and its harness), never a scattered `language === '…'`.
import { isRuffSelector } from './ruff.js';

/** What runs the harness: Node (JavaScript, TypeScript) or Debian's python3 (Python), each in its own root. */
export type Runtime = 'node' | 'python';

export interface LanguageDef {
  /** What runs the hidden tests in the job. */
  readonly runtime: Runtime;
  /** The suffix an entry without one gets (`./leap` → `leap.py`). */
  readonly entrySuffix: string;
  /** The submission paths an entry resolves to, relative to the entry's base name. */
  readonly entrySuffixes: readonly string[];
  /** Whether a lint rule name is one this language's linter knows (the message names the linter). */
  readonly lintRule: { readonly test: (rule: string) => boolean; readonly linter: string };
  /** The submitted files lint and metrics analyse. */
  readonly analysable: RegExp;
}

const JS_SUFFIXES = ['', '.js', '.mjs', '.cjs', '.json', '/index.js', '/index.mjs', '/index.cjs'];
const JS_ANALYSABLE = /\.(c|m)?(js|ts)$/;
const TS_SUFFIXES = ['.ts', '.mts', '.cts', '/index.ts', '/index.mts', '/index.cts'];

export const LANGUAGES = {
  javascript: {
    runtime: 'node',
    entrySuffix: '.js',
    entrySuffixes: JS_SUFFIXES,
    lintRule: { test: () => true, linter: 'ESLint core' },
    analysable: JS_ANALYSABLE,
  },
  typescript: {
    runtime: 'node',
    entrySuffix: '.ts',
    entrySuffixes: [...JS_SUFFIXES, ...TS_SUFFIXES],
    lintRule: { test: () => true, linter: 'ESLint core' },
    analysable: JS_ANALYSABLE,
  },
  // The submission's module is imported by name (`from leap import leap_year`): a file or a package.
  python: {
    runtime: 'python',
    entrySuffix: '.py',
    entrySuffixes: ['.py', '/__init__.py'],
    lintRule: { test: isRuffSelector, linter: 'ruff' },
    analysable: /\.py$/,
  },
} as const satisfies Record<string, LanguageDef>;

export type Language = keyof typeof LANGUAGES;
export const LANGUAGE_NAMES = Object.keys(LANGUAGES) as [Language, ...Language[]];

export const languageOf = (name: string): LanguageDef =>
  LANGUAGES[(Object.hasOwn(LANGUAGES, name) ? name : 'javascript') as Language];
