import type { Database } from 'better-sqlite3';

/**
 * Search that stays fast on a million objects:
 * - the index gains a `facets` column: one token per filterable column value and one for the
 *   collection, spelled so that no typed word can match them (see search.ts); filters become index
 *   lookups instead of reads of every match;
 * - `search_terms`: the distinct tokens of the index with the number of objects holding each, so a
 *   typed prefix is expanded to the words it starts (a streaming OR) instead of FTS5 merging every
 *   matching posting list up front, and the cost of a bm25 ranking is known before it is asked for.
 * Ranking weights are given in each query (bm25 per column). The index is rebuilt from the stored
 * objects on the next writable open.
 */
export const version = 4;
export const name = 'search-facets';

export function up(db: Database): void {
  db.exec(`
    DROP TABLE search_index;
    CREATE VIRTUAL TABLE search_index USING fts5(
      title,
      body,
      facets,
      tokenize = 'unicode61 remove_diacritics 2',
      prefix = '2 3 4'
    );
    CREATE TABLE search_terms (term TEXT PRIMARY KEY, docs INTEGER NOT NULL) WITHOUT ROWID;
    DELETE FROM store_meta WHERE key = 'search_text_revision';
  `);
}

export default { version, name, up };
