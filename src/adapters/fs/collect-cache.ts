import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ExpectedTestSchema, type ExpectedTest } from '../../domain/queue.js';
import { keepCacheEntry } from '../../runtime/atomic.js';

/**
 * The hidden tests' collection (one sandboxed run of the tests with a stub submission, ~0.15 s of CPU) kept
 * on disk under `key`, which the caller derives from everything that shapes it: the rubric's hash (spec and
 * test sources), the harness, the node version and the backend. A later run with the same key reads it back
 * instead of collecting again. Only a successful collection is kept; an entry that does not validate is
 * collected again and overwritten; a cache that cannot be written only costs the next run a collection.
 */
export async function cachedCollect(
  dir: string,
  key: string,
  collect: () => Promise<ExpectedTest[]>,
): Promise<ExpectedTest[]> {
  const file = join(dir, `${key}.json`);
  const kept = ExpectedTestSchema.array()
    .min(1)
    .safeParse(
      await readFile(file, 'utf8')
        .then((t) => JSON.parse(t) as unknown)
        .catch(() => null),
    );
  if (kept.success) return kept.data;
  const expected = await collect();
  keepCacheEntry(file, JSON.stringify(expected));
  return expected;
}
