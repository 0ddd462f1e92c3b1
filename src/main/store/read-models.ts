/**
 * Reads for the app's screens that the general Store methods do not serve cheaply: an id-ordered
 * window of a collection, the values of a column with their counts, matches per collection, and a
 * memo of the results that scan a whole collection, kept until the next sync run starts or ends.
 */
import { rawCodec } from './raw-codec';
import { collection as descriptorOf, columnValues, type CollectionId, type ColumnValue } from '../collections';
import type { Store } from './db';
import { OBJECT_COLUMNS, toStoredObject, type ObjectRow } from './objects';
import { columnRef, filterSql } from './query';
import { countByCollection, textFilterSql } from './search';
import type { Filters, StoredObject } from './types';

const memos = new WeakMap<Store, { stamp: string; values: Map<string, unknown> }>();

function stampOf(store: Store): string {
  const latest = store.runs()[0];
  return latest ? `${latest.id}:${latest.status}:${latest.finishedAt ?? ''}` : 'none';
}

/**
 * The result of `compute` under `key`, computed once per store until the latest sync run changes
 * (starts, ends) or `extraStamp` does, so a million-row list does not recount on every page.
 */
export function memo<T>(store: Store, key: string, compute: () => T, extraStamp = ''): T {
  const stamp = `${stampOf(store)}|${extraStamp}`;
  let entry = memos.get(store);
  if (!entry || entry.stamp !== stamp) {
    entry = { stamp, values: new Map() };
    memos.set(store, entry);
  }
  if (!entry.values.has(key)) entry.values.set(key, compute());
  return entry.values.get(key) as T;
}

export interface WindowOptions {
  filters: Filters;
  /** Typed words the rows' indexed text must match (a list's text filter). */
  text?: string;
  sort?: { column: string; dir: 'asc' | 'desc' };
  offset: number;
  limit: number;
  asOfRun?: number;
}

/**
 * A window of a collection for a virtualized table, with the (memoized) number of matching rows.
 * Without a chosen sort (or an as-of run), rows come in id order straight off the (collection, id)
 * index, so any offset of a million rows is cheap; a chosen sort goes through the general listing.
 */
export function objectWindow(
  store: Store,
  id: CollectionId,
  opts: WindowOptions,
  extraStamp = '',
): { rows: StoredObject[]; total: number } {
  const filterKey = JSON.stringify([opts.filters, opts.text ?? '']);
  if (opts.sort || opts.asOfRun !== undefined) {
    const { filters, text, sort, offset, limit, asOfRun } = opts;
    const rows = store.listObjects(id, { filters, text, sort, offset, limit, asOfRun }).rows;
    const total = memo(
      store,
      `count:${id}:${asOfRun ?? ''}:${filterKey}`,
      () => store.countObjects(id, { filters, text, asOfRun }),
      extraStamp,
    );
    return { rows, total };
  }
  const params: unknown[] = [id];
  const where = ['o.collection = ?', ...filterSql(descriptorOf(id), opts.filters, params), ...textFilterSql(id, opts.text, params)];
  params.push(opts.limit, opts.offset);
  const rows = store.db
    .prepare(
      `SELECT ${OBJECT_COLUMNS} FROM objects o JOIN object_versions v ON v.vid = o.current_vid WHERE ${where.join(' AND ')}
       ORDER BY o.id LIMIT ? OFFSET ?`,
    )
    .all(...params) as ObjectRow[];
  const total = memo(
    store,
    `count:${id}::${filterKey}`,
    () => store.countObjects(id, { filters: opts.filters, text: opts.text }),
    extraStamp,
  );
  return { rows: rows.map((row) => toStoredObject(row, undefined, rawCodec(store.db))), total };
}

/** Values of one column among the current objects of a collection with their counts, most frequent first. */
export function columnValueCounts(store: Store, id: CollectionId, column: string, limit = 50): { value: ColumnValue; count: number }[] {
  const ref = columnRef(descriptorOf(id), column);
  if (ref.multi) return multiValueCounts(store, id, ref.sql, limit);
  const rows = store.db
    .prepare(
      `SELECT ${ref.sql} AS k, count(*) AS c FROM objects o JOIN object_versions v ON v.vid = o.current_vid
       WHERE o.collection = ? GROUP BY k ORDER BY c DESC, k LIMIT ?`,
    )
    .all(id, limit) as { k: ColumnValue; c: number }[];
  return rows.map((row) => ({ value: row.k, count: row.c }));
}

/** How many distinct values (absent and empty aside) one column holds among the current objects of a collection. */
export function columnDistinctCount(store: Store, id: CollectionId, column: string): number {
  const ref = columnRef(descriptorOf(id), column);
  if (ref.multi)
    return multiValueCounts(store, id, ref.sql, Number.MAX_SAFE_INTEGER).filter((d) => d.value !== null && d.value !== '').length;
  return store.db
    .prepare(
      `SELECT count(DISTINCT ${ref.sql}) FROM objects o JOIN object_versions v ON v.vid = o.current_vid
       WHERE o.collection = ? AND ${ref.sql} <> ''`,
    )
    .pluck()
    .get(id) as number;
}

/** Matches of typed words per collection, each counted up to the search's count cap. */
export function matchesPerCollection(store: Store, query: string): Record<string, number> {
  return countByCollection(store.db, query);
}

/** A `multi` column: each value of each object's list counted once (an object without any counts as absent). */
function multiValueCounts(store: Store, id: CollectionId, sql: string, limit: number): { value: ColumnValue; count: number }[] {
  const counts = new Map<ColumnValue, number>();
  const lists = store.db
    .prepare(`SELECT ${sql} FROM objects o JOIN object_versions v ON v.vid = o.current_vid WHERE o.collection = ?`)
    .pluck()
    .iterate(id) as IterableIterator<ColumnValue>;
  for (const list of lists) {
    const values = columnValues({ multi: true }, list);
    for (const value of values.length > 0 ? values : [null]) counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || String(a.value ?? '').localeCompare(String(b.value ?? '')))
    .slice(0, limit);
}
