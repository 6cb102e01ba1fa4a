import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';
import { keepCacheEntry } from './atomic.js';

/** A CommonJS script run from a V8 code cache, and the means to keep one for the next process. */
export interface CachedScript<T> {
  readonly exports: T;
  /**
   * Writes the code cache of what the process has compiled so far, once, when there was none or V8 refused it (call
   * it late: the cache then holds the functions the work compiled, not only the top level). True if written.
   */
  keep(): boolean;
}

/**
 * Runs one CommonJS bundle (`file`, whose text is `source`) through vm.Script with the V8 code cache in `cacheFile`,
 * as node would run it with a module wrapper. Node 20 has no compile cache for modules; this spares each start the
 * bundle's parse and compile. V8 checks only a cache's source length and its own flags and version, so `cacheFile`'s
 * name must carry everything else that changes the source (its hash); a cache V8 refuses is compiled from source,
 * and one that cannot be read or written only costs a compile. `cacheFile` null: no cache.
 */
export function runCachedScript<T>(file: string, source: string, cacheFile: string | null): CachedScript<T> {
  let cachedData: Buffer | undefined;
  try {
    cachedData = cacheFile ? readFileSync(cacheFile) : undefined;
  } catch {
    cachedData = undefined;
  }
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  });
  const mod = { exports: {} as T };
  (script.runInThisContext() as (...a: unknown[]) => void)(mod.exports, createRequire(file), mod, file, dirname(file));
  let kept = cacheFile === null || (cachedData !== undefined && !script.cachedDataRejected);
  return {
    exports: mod.exports,
    keep: () => {
      if (kept || cacheFile === null) return false;
      kept = true;
      return keepCacheEntry(cacheFile, script.createCachedData());
    },
  };
}
