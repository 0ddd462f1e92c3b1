import type { Database } from 'better-sqlite3';
import { rawCodec, type StoredRaw } from './raw-codec';
import { collection as descriptorOf, COLUMNS_REVISION, encodeColumns, extractColumns, type CollectionId } from '../collections';

const REVISION_KEY = 'columns_revision';

/**
 * Extracts the columns of every stored version again from its raw JSON when the descriptors
 * extract other columns than the store was written with (a new column, a column computed another
 * way), so lists, filters and reports of data synced before see them too; the raw JSON and hashes
 * are untouched. Returns whether any version was rewritten (the search index's facets then need
 * a rebuild). A store with no version just records the revision.
 */
export function ensureColumns(db: Database): boolean {
  const current = db.prepare('SELECT value FROM store_meta WHERE key = ?').pluck().get(REVISION_KEY) as string | undefined;
  if (current === String(COLUMNS_REVISION)) return false;
  let rewritten = 0;
  const codec = rawCodec(db);
  db.transaction(() => {
    const batch = db.prepare(
      `SELECT v.vid, o.collection, v.raw, v.raw_dict, v.cols FROM object_versions v JOIN objects o ON o.oid = v.oid
       WHERE v.vid > ? ORDER BY v.vid LIMIT 2000`,
    );
    const update = db.prepare('UPDATE object_versions SET cols = ? WHERE vid = ?');
    for (let after = 0; ;) {
      const rows = batch.all(after) as { vid: number; collection: CollectionId; raw: StoredRaw; raw_dict: number | null; cols: string }[];
      if (rows.length === 0) break;
      for (const r of rows) {
        const d = descriptorOf(r.collection);
        const cols = encodeColumns(d, extractColumns(d, JSON.parse(codec.text(r.raw, r.raw_dict)) as unknown));
        if (cols !== r.cols) {
          update.run(cols, r.vid);
          rewritten += 1;
        }
      }
      after = rows[rows.length - 1]!.vid;
    }
    db.prepare('INSERT INTO store_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(
      REVISION_KEY,
      String(COLUMNS_REVISION),
    );
  })();
  return rewritten > 0;
}
