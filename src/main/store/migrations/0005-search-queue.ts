import type { Database } from 'better-sqlite3';

/**
 * Objects whose search entry is still to be written. A sync stores each page (objects and
 * checkpoint) in one transaction and notes here which objects the search index must catch up on;
 * the index is then written in large batches, which costs a fraction of writing it page by page.
 * Whatever a crash leaves here is indexed when the store is next opened for writing.
 */
export const version = 5;
export const name = 'search-queue';

export function up(db: Database): void {
  db.exec('CREATE TABLE search_queue (oid INTEGER PRIMARY KEY)');
}

export default { version, name, up };
