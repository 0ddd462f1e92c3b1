import type { Database } from 'better-sqlite3';
import { deflatedRaw, dictionaryOf } from '../raw-codec';

/**
 * A store no bigger than the JSON it holds:
 * - `raw_dictionaries`: one deflate dictionary per collection (see raw-codec.ts), and
 *   `object_versions.raw_dict`, the one a version's `raw` is deflated with (NULL: kept as text).
 *   Every version stored so far is deflated here, its collection's dictionary made from its first
 *   versions.
 * - The search index keeps no copy of the text it indexes (FTS5 contentless, with deletes by
 *   rowid): snippets are made from the hits' stored objects (search.ts). It is rebuilt from the
 *   stored objects on this open.
 * The file is vacuumed once after (store_meta `vacuum_pending`), so it shrinks on disk too.
 */
export const version = 12;
export const name = 'compact-store';

/** Versions read per batch while deflating. */
const BATCH = 2000;
/** Versions whose text makes a collection's dictionary. */
const SAMPLE = 64;

export function up(db: Database): void {
  db.exec(`
    CREATE TABLE raw_dictionaries (
      did        INTEGER PRIMARY KEY,
      collection TEXT NOT NULL,
      dict       BLOB NOT NULL,
      created_at TEXT NOT NULL
    );
    CREATE INDEX raw_dictionaries_by_collection ON raw_dictionaries(collection, did);
    ALTER TABLE object_versions ADD COLUMN raw_dict INTEGER REFERENCES raw_dictionaries(did);
  `);
  const collections = db.prepare('SELECT DISTINCT collection FROM objects ORDER BY collection').pluck().all() as string[];
  const sample = db.prepare(
    'SELECT v.raw FROM object_versions v JOIN objects o ON o.oid = v.oid WHERE o.collection = ? ORDER BY v.vid LIMIT ?',
  );
  const insertDictionary = db.prepare('INSERT INTO raw_dictionaries (collection, dict, created_at) VALUES (?, ?, ?)');
  const batch = db.prepare(
    `SELECT v.vid, v.raw FROM object_versions v JOIN objects o ON o.oid = v.oid
     WHERE o.collection = ? AND v.vid > ? AND v.raw_dict IS NULL ORDER BY v.vid LIMIT ${BATCH}`,
  );
  const update = db.prepare('UPDATE object_versions SET raw = ?, raw_dict = ? WHERE vid = ?');
  const at = new Date().toISOString();
  for (const collection of collections) {
    const dict = dictionaryOf(sample.pluck().all(collection, SAMPLE) as string[]);
    if (!dict) continue;
    const did = Number(insertDictionary.run(collection, dict, at).lastInsertRowid);
    for (let after = 0; ;) {
      const rows = batch.all(collection, after) as { vid: number; raw: string }[];
      if (rows.length === 0) break;
      for (const r of rows) {
        update.run(deflatedRaw.encode(r.raw, dict), did, r.vid);
      }
      after = rows[rows.length - 1]!.vid;
    }
  }
  db.exec(`
    DROP TABLE search_index;
    CREATE VIRTUAL TABLE search_index USING fts5(
      title,
      body,
      facets,
      content = '',
      contentless_delete = 1,
      tokenize = 'unicode61 remove_diacritics 2',
      prefix = '2 3 4'
    );
    DELETE FROM search_queue;
    DELETE FROM store_meta WHERE key = 'search_text_revision';
    INSERT OR REPLACE INTO store_meta (key, value) VALUES ('vacuum_pending', '1');
  `);
}

export default { version, name, up };
