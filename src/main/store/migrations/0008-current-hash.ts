import type { Database } from 'better-sqlite3';

/**
 * `objects.current_hash`: the hash of the current version, beside `current_vid` (NULL together).
 * A sync tells an unchanged object from the objects row alone, one lookup per page, without
 * reading the version (whose raw JSON makes it the largest row there is). The list of indexed
 * words is now refreshed only when the index changed since; it is marked for one refresh here.
 */
export const version = 8;
export const name = 'current-hash';

export function up(db: Database): void {
  db.exec(`
    ALTER TABLE objects ADD COLUMN current_hash BLOB;
    UPDATE objects SET current_hash = (SELECT hash FROM object_versions WHERE vid = objects.current_vid) WHERE current_vid IS NOT NULL;
    INSERT OR IGNORE INTO store_meta (key, value) VALUES ('search_terms_stale', '1');
  `);
}

export default { version, name, up };
