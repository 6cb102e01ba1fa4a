import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Linter as LinterType } from 'eslint';
import { workerData } from 'node:worker_threads';
import type { CacheKind } from '../../runtime/cache.js';
import { runCachedScript } from '../../runtime/code-cache.js';

const LINT_CACHE: CacheKind = 'lint';

/** What a lint thread uses of ESLint, from the bundle scripts/build-lint-bundle.mjs makes. */
export interface EslintParts {
  readonly Linter: typeof LinterType;
  readonly FlatConfigArray:
    (new (c: LinterType.Config[]) => LinterType.Config[] & { normalizeSync?: () => void }) | null;
  readonly globals: Record<string, Record<string, boolean | 'readonly' | 'writable'>>;
  /** Writes a V8 code cache for the bundle once the thread has linted a file (so it holds what linting compiled). */
  readonly keepCodeCache: () => void;
}

// src/adapters/analysis and dist/adapters/analysis are both three levels under the package root.
const BUNDLE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'dist', 'vendor', 'eslint-linter.cjs');

/**
 * ESLint for a lint thread: the bundle run from the V8 code cache kept in the grader's cache (`lint/` under the pool's
 * `cacheDir`, handed to its threads as workerData; by the bundle's hash, node's version and flags), which spares each
 * thread's start resolving, reading and compiling ≈ 150 modules (bench/README.md). Without the bundle (a checkout not
 * built), ESLint's own modules.
 */
export function loadEslint(): EslintParts {
  let source: string;
  try {
    source = readFileSync(BUNDLE, 'utf8');
  } catch {
    return fromPackages();
  }
  const root = (workerData as { cacheDir?: string | null } | null)?.cacheDir;
  const hash = createHash('sha256')
    .update(source)
    .update(process.version)
    .update(process.execArgv.join(' '))
    .digest('hex')
    .slice(0, 24);
  const bundle = runCachedScript<Omit<EslintParts, 'keepCodeCache'>>(
    BUNDLE,
    source,
    root ? join(root, LINT_CACHE, `eslint-${hash}.bin`) : null,
  );
  return { ...bundle.exports, keepCodeCache: () => void bundle.keep() };
}

function fromPackages(): EslintParts {
  const req = createRequire(import.meta.url);
  const dir = dirname(req.resolve('eslint/package.json'));
  return {
    Linter: (req(join(dir, 'lib', 'universal.js')) as { Linter: typeof LinterType }).Linter,
    FlatConfigArray: (req(join(dir, 'lib', 'config', 'flat-config-array.js')) as Pick<EslintParts, 'FlatConfigArray'>)
      .FlatConfigArray,
    globals: req('globals') as EslintParts['globals'],
    keepCodeCache: () => undefined,
  };
}
