import { COLLECTIONS, columnPosition, MULTI_SEPARATOR, type CollectionDescriptor, type ColumnType } from '../collections';
import type { Filters, FilterValue } from './types';

/** Bad input to a read (an unknown column, a bad run): the message names what to fix. */
export class StoreQueryError extends Error {
  override name = 'StoreQueryError';
}

/** SQL fragment joining `v` to the version of `o` in force: now, or as of run R (its parameters pushed to `params`). */
export function versionJoin(asOfRun: number | undefined, params: unknown[]): string {
  if (asOfRun === undefined) return 'JOIN object_versions v ON v.vid = o.current_vid';
  if (!Number.isInteger(asOfRun)) throw new StoreQueryError(`'${String(asOfRun)}' is not a run id`);
  params.push(asOfRun, asOfRun);
  return 'JOIN object_versions v ON v.oid = o.oid AND v.valid_from <= ? AND (v.valid_to IS NULL OR v.valid_to > ?)';
}

interface ColumnRef {
  sql: string;
  type: ColumnType | 'id';
  /** A list of values (a `multi` column). */
  multi?: boolean;
}

/** The SQL expression of a column of `descriptor` (names are checked, never interpolated raw). */
export function columnRef(descriptor: CollectionDescriptor | null, name: string): ColumnRef {
  if (name === 'id') return { sql: 'o.id', type: 'id' };
  if (name === 'title') return { sql: 'v.title', type: 'text' };
  const columns = descriptor ? descriptor.columns : allColumns();
  const col = columns.find((c) => c.name === name);
  if (!col) {
    const known = ['id', 'title', ...new Set(columns.map((c) => c.name))].join(', ');
    throw new StoreQueryError(`unknown column '${name}'${descriptor ? ` in ${descriptor.id}` : ''} (known: ${known})`);
  }
  return { sql: storedColumnSql(descriptor, col.name), type: col.type, ...(col.multi ? { multi: true } : {}) };
}

/**
 * A column's value in `v.cols` (an array in the order of the descriptor's columns: see
 * encodeColumns). Without a descriptor (search across collections), by the row's collection.
 */
function storedColumnSql(descriptor: CollectionDescriptor | null, name: string): string {
  const at = (d: CollectionDescriptor) => `json_extract(v.cols, '$[${columnPosition(d, name)}]')`;
  if (descriptor) return at(descriptor);
  const holding = COLLECTIONS.filter((d) => columnPosition(d, name) >= 0);
  return `CASE o.collection ${holding.map((d) => `WHEN '${d.id}' THEN ${at(d)}`).join(' ')} END`;
}

type AnyColumn = { name: string; type: ColumnType; multi?: boolean };
let cachedAll: AnyColumn[] | null = null;
function allColumns(): AnyColumn[] {
  if (!cachedAll) {
    // Across collections (search without a collection): a name means the same kind of thing everywhere.
    const byName = new Map<string, AnyColumn>();
    for (const d of COLLECTIONS)
      for (const c of d.columns)
        if (!byName.has(c.name)) byName.set(c.name, { name: c.name, type: c.type, ...(c.multi ? { multi: true } : {}) });
    cachedAll = [...byName.values()];
  }
  return cachedAll;
}

function coerce(type: ColumnType | 'id', name: string, value: FilterValue): string | number {
  if (type === 'bool') {
    if (value === true || value === 'true' || value === 1 || value === '1') return 1;
    if (value === false || value === 'false' || value === 0 || value === '0') return 0;
    throw new StoreQueryError(`filter '${name}' takes true or false, not '${String(value)}'`);
  }
  if (type === 'int') {
    const n = typeof value === 'number' ? value : Number(value);
    if (!Number.isFinite(n)) throw new StoreQueryError(`filter '${name}' takes a number, not '${String(value)}'`);
    return n;
  }
  return String(value);
}

/** WHERE conditions for `filters` (each a column equal to a value, or to any of several). */
export function filterSql(descriptor: CollectionDescriptor | null, filters: Filters | undefined, params: unknown[]): string[] {
  const where: string[] = [];
  for (const [name, raw] of Object.entries(filters ?? {})) {
    const ref = columnRef(descriptor, name);
    const values = (Array.isArray(raw) ? raw : [raw]) as FilterValue[];
    if (values.length === 0) continue;
    if (ref.multi) {
      // Any of the object's values: the value between separators in the list (exact, no pattern characters).
      const list = `'${MULTI_SEPARATOR}' || ${ref.sql} || '${MULTI_SEPARATOR}'`;
      where.push(`(${values.map(() => `instr(${list}, '${MULTI_SEPARATOR}' || ? || '${MULTI_SEPARATOR}') > 0`).join(' OR ')})`);
    } else where.push(`${ref.sql} IN (${values.map(() => '?').join(', ')})`);
    for (const v of values) params.push(coerce(ref.type, name, v));
  }
  return where;
}

/** ORDER BY terms: the column (missing values last), then the id for a stable order. */
export function sortSql(descriptor: CollectionDescriptor | null, sort: { column: string; dir: 'asc' | 'desc' } | undefined): string {
  if (!sort) return '';
  const ref = columnRef(descriptor, sort.column);
  const dir = sort.dir === 'desc' ? 'DESC' : 'ASC';
  return `${ref.sql} IS NULL, ${ref.sql} ${dir}, `;
}

/** The largest page size or offset a read takes: far above any screen or export page, and an integer SQLite binds as one. */
export const PAGE_MAX = 1_000_000_000;

/** A page size or offset: a whole number from 0 to PAGE_MAX (a fraction is rounded down), else a StoreQueryError naming it. */
export function pageNumber(name: 'limit' | 'offset', value: number): number {
  const n = Math.floor(value);
  if (!(n >= 0 && n <= PAGE_MAX))
    throw new StoreQueryError(`the ${name} must be a whole number from 0 to 1,000,000,000, not ${String(value)}`);
  return n;
}

export function pageSql(limit: number | undefined, offset: number | undefined, params: unknown[]): string {
  params.push(limit === undefined ? -1 : pageNumber('limit', limit), offset === undefined ? 0 : pageNumber('offset', offset));
  return 'LIMIT ? OFFSET ?';
}
