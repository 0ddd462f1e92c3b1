import type { Database } from 'better-sqlite3';
import { collection as descriptorOf, SEARCH_TEXT_REVISION, type CollectionId } from '../sync/collections';
import { filterSql, pageSql, sortSql } from './query';
import type { ColumnValue, SearchHit, SearchOptions } from './types';

/**
 * Turns what a person types into an FTS5 query: every word is a prefix (`adm` finds `admin`),
 * all words must match, "quoted words" match as a phrase. Operators and column filters are not
 * passed through, so no input can make the query invalid. Null when there is nothing to search.
 */
export function ftsQuery(input: string): string | null {
  const parts: string[] = [];
  const re = /"([^"]*)"|([^\s"]+)/g;
  for (const m of input.matchAll(re)) {
    const words = (m[1] ?? m[2] ?? '').match(/[\p{L}\p{N}]+/gu) ?? [];
    if (words.length === 0) continue;
    if (m[1] !== undefined) parts.push(`"${words.join(' ')}"`);
    else for (const w of words) parts.push(`"${w}"*`);
  }
  return parts.length === 0 ? null : parts.join(' AND ');
}

interface HitRow {
  collection: CollectionId;
  id: string;
  title: string;
  cols: string;
  snippet: string;
  rank: number;
}

/**
 * Offline search over the current objects: FTS5 with prefix matching, bm25 ranking (names weigh
 * more than the rest), optionally one collection and column filters, a snippet per hit.
 */
export function searchObjects(db: Database, query: string, opts: SearchOptions = {}): { hits: SearchHit[]; total: number } {
  const match = ftsQuery(query);
  if (match === null) return { hits: [], total: 0 };
  const d = opts.collection ? descriptorOf(opts.collection) : null;
  const [open, close] = opts.highlight ?? ['«', '»'];
  const where: string[] = ['search_index MATCH ?'];
  const whereParams: unknown[] = [match];
  if (d) {
    where.push('o.collection = ?');
    whereParams.push(d.id);
  }
  where.push(...filterSql(d, opts.filters, whereParams));
  const from = 'FROM search_index s JOIN objects o ON o.oid = s.rowid JOIN object_versions v ON v.vid = o.current_vid';
  const params: unknown[] = [open, close, ...whereParams];
  const order = opts.sort ? `${sortSql(d, opts.sort)}s.rank` : 's.rank';
  const rows = db
    .prepare(
      `SELECT o.collection, o.id, v.title, v.cols, snippet(search_index, -1, ?, ?, '…', 16) AS snippet, s.rank
       ${from} WHERE ${where.join(' AND ')} ORDER BY ${order} ${pageSql(opts.limit ?? 50, opts.offset, params)}`,
    )
    .all(...params) as HitRow[];
  const total = (
    where.length === 1
      ? db.prepare('SELECT count(*) FROM search_index WHERE search_index MATCH ?').pluck().get(match)
      : db.prepare(`SELECT count(*) ${from} WHERE ${where.join(' AND ')}`).pluck().get(...whereParams)
  ) as number;
  return {
    hits: rows.map((r) => ({
      collection: r.collection,
      id: r.id,
      title: r.title,
      snippet: r.snippet,
      rank: r.rank,
      columns: JSON.parse(r.cols) as Record<string, ColumnValue>,
    })),
    total,
  };
}

const REVISION_KEY = 'search_text_revision';

/**
 * Rebuilds the index from the stored raw JSON when the descriptors index different text than the
 * index was built with (and after the migration that created it). A no-op otherwise.
 */
export function ensureSearchIndex(db: Database): boolean {
  const current = db.prepare('SELECT value FROM store_meta WHERE key = ?').pluck().get(REVISION_KEY) as string | undefined;
  if (current === String(SEARCH_TEXT_REVISION)) return false;
  rebuildSearchIndex(db);
  return true;
}

export function rebuildSearchIndex(db: Database): void {
  db.transaction(() => {
    db.exec('DELETE FROM search_index');
    const insert = db.prepare('INSERT INTO search_index (rowid, title, body) VALUES (?, ?, ?)');
    // In batches: a write cannot run while a read is still iterating on the same connection.
    const batch = db.prepare('SELECT o.oid, o.collection, v.raw FROM objects o JOIN object_versions v ON v.vid = o.current_vid WHERE o.oid > ? ORDER BY o.oid LIMIT 2000');
    for (let after = 0; ; ) {
      const rows = batch.all(after) as { oid: number; collection: string; raw: string }[];
      if (rows.length === 0) break;
      for (const r of rows) {
        const text = descriptorOf(r.collection).searchText(JSON.parse(r.raw));
        insert.run(r.oid, text.title, text.body);
      }
      after = rows[rows.length - 1]!.oid;
    }
    db.prepare('INSERT INTO store_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(REVISION_KEY, String(SEARCH_TEXT_REVISION));
  })();
}
