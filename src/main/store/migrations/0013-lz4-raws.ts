import type { Database } from 'better-sqlite3';
import { compressSync } from 'lz4-napi';
import { deflatedRaw } from '../raw-codec';

/**
 * Raws in LZ4 (see raw-codec.ts): every version 0012 deflated is inflated and compressed again
 * with LZ4 against the same dictionary, so reads need one codec. The dictionaries stay as they are.
 */
export const version = 13;
export const name = 'lz4-raws';

/** Versions read per batch. */
const BATCH = 2000;

export function up(db: Database): void {
  const dictionaries = new Map(
    (db.prepare('SELECT did, dict FROM raw_dictionaries').all() as { did: number; dict: Buffer }[]).map((d) => [d.did, d.dict]),
  );
  const batch = db.prepare(
    `SELECT vid, raw, raw_dict FROM object_versions WHERE vid > ? AND raw_dict IS NOT NULL ORDER BY vid LIMIT ${BATCH}`,
  );
  const update = db.prepare('UPDATE object_versions SET raw = ? WHERE vid = ?');
  for (let after = 0; ;) {
    const rows = batch.all(after) as { vid: number; raw: Buffer; raw_dict: number }[];
    if (rows.length === 0) break;
    for (const r of rows) {
      const dict = dictionaries.get(r.raw_dict);
      if (!dict) throw new Error(`version ${r.vid} names raw dictionary ${r.raw_dict}, which the store does not have`);
      update.run(compressSync(deflatedRaw.text(r.raw, dict), dict), r.vid);
    }
    after = rows[rows.length - 1]!.vid;
  }
}

export default { version, name, up };
