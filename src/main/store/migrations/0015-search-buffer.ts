import type { Database } from 'better-sqlite3';

/**
 * The search index's write buffer at 16 MiB (FTS5's `hashsize`, 1 MiB by default): FTS5 holds the
 * entries of a transaction in it and writes a segment each time it fills. A sync writes its search
 * entries 20,000 objects at a time (SyncWriter.searchBatch); with the default buffer each batch
 * made a dozen small segments that FTS5 then merged again and again, about a third of the index's
 * cost in a first sync. FTS5 keeps the setting in the index's own config table.
 */
export const version = 15;
export const name = 'search-buffer';

/** The buffer's size in bytes. */
export const SEARCH_BUFFER_BYTES = 16 * 1024 * 1024;

export function up(db: Database): void {
  // A literal: FTS5 takes only an integer, and a bound JavaScript number arrives as a real.
  db.exec(`INSERT INTO search_index (search_index, rank) VALUES ('hashsize', ${SEARCH_BUFFER_BYTES})`);
}

export default { version, name, up };
