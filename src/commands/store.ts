// The store behind --db (a postgres:// URL, or a folder for the embedded Postgres): the grading history and the
// batches, over one connection pool (PGlite allows one opener per folder). Loaded only by commands that use it.
import type { BatchStore } from '../domain/batches.js';
import type { HistoryStore } from '../domain/history.js';

export interface Store {
  readonly label: string;
  /** Its `close` is the store's (closing the history alone would close the batches too). */
  readonly history: HistoryStore;
  readonly batches: BatchStore;
  close(): Promise<void>;
}

/** Opened and migrated before any work: a wrong database fails the command at once. */
export async function openStore(where: string): Promise<Store> {
  const [{ openMigrated, historyOver }, { batchesOver }] = await Promise.all([
    import('../adapters/store/history.js'),
    import('../adapters/store/batches.js'),
  ]);
  const sql = await openMigrated(where);
  return {
    label: sql.label,
    history: { ...historyOver(sql), close: async () => undefined },
    batches: batchesOver(sql),
    close: () => sql.close(),
  };
}
