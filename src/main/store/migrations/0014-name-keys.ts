import type { Database } from 'better-sqlite3';
import { nameKey } from '../search';

/**
 * `objects.name_key`: the current version's name, folded as search compares names (search.ts
 * nameKey), indexed by collection, so the names that start with what was typed are one range of
 * the index per collection
 * (search ranks an exact name first, then the names that start with the query). Filled here for
 * the current objects; the sync writer keeps it with `current_vid`.
 */
export const version = 14;
export const name = 'name-keys';

/** Objects read per batch while filling. */
const BATCH = 5000;

export function up(db: Database): void {
  db.exec(`
    ALTER TABLE objects ADD COLUMN name_key TEXT;
    CREATE INDEX objects_by_name_key ON objects(collection, name_key) WHERE name_key IS NOT NULL;
  `);
  const batch = db.prepare(
    `SELECT o.oid, v.title FROM objects o JOIN object_versions v ON v.vid = o.current_vid WHERE o.oid > ? ORDER BY o.oid LIMIT ${BATCH}`,
  );
  const set = db.prepare('UPDATE objects SET name_key = ? WHERE oid = ?');
  for (let after = 0; ;) {
    const rows = batch.all(after) as { oid: number; title: string | null }[];
    if (rows.length === 0) break;
    for (const r of rows) set.run(nameKey(r.title ?? ''), r.oid);
    after = rows[rows.length - 1]!.oid;
  }
}

export default { version, name, up };
