import type { Database } from 'better-sqlite3';

/**
 * The offline search index: FTS5 over the current version of every object (rowid = objects.oid),
 * title weighted above body in the bm25 rank, prefix indexes for type-ahead queries.
 * `store_meta` holds small settings, e.g. which revision of the search text the index was built
 * with (the store rebuilds the index when the collection descriptors change what they index).
 * Objects already stored are indexed by that rebuild on the next writable open.
 */
export const version = 3;
export const name = 'search-index';

export function up(db: Database): void {
  db.exec(`
    CREATE TABLE store_meta (
      key   TEXT PRIMARY KEY,
      value TEXT NOT NULL
    ) WITHOUT ROWID;

    CREATE VIRTUAL TABLE search_index USING fts5(
      title,
      body,
      tokenize = 'unicode61 remove_diacritics 2',
      prefix = '2 3 4'
    );
    INSERT INTO search_index(search_index, rank) VALUES ('rank', 'bm25(8.0, 1.0)');
  `);
}

export default { version, name, up };
