import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import type { Linter as LinterType } from 'eslint';
import { workerData } from 'node:worker_threads';

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
 * ESLint for a lint thread: the bundle compiled through vm.Script with the V8 code cache kept in the grader's cache
 * directory (the pool's `cacheDir`, handed to its threads as workerData; by the bundle's hash, node's version and
 * flags: V8 rejects a cache made otherwise, and the bundle is then compiled from source as without one), which spares
 * each thread's start resolving, reading and compiling ≈ 150 modules (bench/README.md). Without the bundle (a
 * checkout not built), ESLint's own modules.
 */
export function loadEslint(): EslintParts {
  let source: string;
  try {
    source = readFileSync(BUNDLE, 'utf8');
  } catch {
    return fromPackages();
  }
  const dir = (workerData as { cacheDir?: string | null } | null)?.cacheDir;
  const hash = createHash('sha256')
    .update(source)
    .update(process.version)
    .update(process.execArgv.join(' '))
    .digest('hex')
    .slice(0, 24);
  const cacheFile = dir ? join(dir, 'lint', `eslint-${hash}.bin`) : null;
  let cachedData: Buffer | undefined;
  try {
    cachedData = cacheFile ? readFileSync(cacheFile) : undefined;
  } catch {
    cachedData = undefined;
  }
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: BUNDLE,
    ...(cachedData ? { cachedData } : {}),
  });
  const mod = { exports: {} as Omit<EslintParts, 'keepCodeCache'> };
  (script.runInThisContext() as (...a: unknown[]) => void)(
    mod.exports,
    createRequire(BUNDLE),
    mod,
    BUNDLE,
    dirname(BUNDLE),
  );
  let kept = cacheFile === null || (cachedData !== undefined && !script.cachedDataRejected);
  return {
    ...mod.exports,
    keepCodeCache: () => {
      if (kept || cacheFile === null) return;
      kept = true;
      writeAtomically(cacheFile, script.createCachedData());
    },
  };
}

function writeAtomically(file: string, data: Buffer): void {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(tmp, data, { mode: 0o600 });
    renameSync(tmp, file);
  } catch {
    // a cache we cannot keep only costs the next thread its compile
  }
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
