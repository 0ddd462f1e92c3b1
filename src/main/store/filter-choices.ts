/**
 * The values of a filterable column that match typed text, for a filter whose list holds only the
 * most frequent values: a value is found by its own text or by what it reads as, the name of the
 * synced object an id points at (an app id by the app's name) or an enum value's label, anywhere
 * among the current objects of the collection, most frequent first.
 */
import { enumColumnWords } from '../../shared/enum-words';
import { collection as descriptorOf, type CollectionId, type ColumnDef } from '../collections';
import type { Store } from './db';
import { columnRef } from './query';
import { columnValueCounts } from './read-models';

export interface FilterChoices {
  /** The matching values, most frequent first (then by value), at most the limit asked for. */
  values: { value: string; count: number }[];
  /** How many distinct values match in all. */
  total: number;
}

/** `text` as a LIKE pattern matching it anywhere, its wildcards taken literally (ESCAPE '\'). */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** What a value of a column of few values reads as, beside itself: its label, or Yes/No. */
function wordsOf(column: ColumnDef, value: string): string {
  if (column.type === 'bool') return value === '1' || value === 'true' ? 'Yes' : 'No';
  if (column.type === 'enum') return enumColumnWords(value, column.enumName)?.text ?? '';
  return '';
}

/**
 * The values of `column` among the current objects of `collection` whose text, label or the name of
 * the object they point at holds `text` (any case; empty: every value), `limit` of them, most
 * frequent first, and how many match in all.
 */
export function matchingColumnValues(store: Store, collection: CollectionId, column: string, text: string, limit: number): FilterChoices {
  const d = descriptorOf(collection);
  const ref = columnRef(d, column); // refuses a column the collection does not have
  const def = d.columns.find((c) => c.name === column)!;
  const needle = text.trim().toLowerCase();
  if (def.type === 'enum' || def.type === 'bool' || ref.multi) {
    // Enumerations, flags and lists: every value counted, then matched by what it reads as.
    const names = new Map<string, string>();
    const nameOf = (id: string): string => {
      if (!def.refersTo) return '';
      if (!names.has(id)) names.set(id, store.getObject(def.refersTo, id)?.title ?? '');
      return names.get(id)!;
    };
    const matching = columnValueCounts(store, collection, column, Number.MAX_SAFE_INTEGER)
      .filter((row): row is { value: string | number | boolean; count: number } => row.value !== null && row.value !== '')
      .map((row) => ({ value: String(row.value), count: row.count }))
      .filter(({ value }) => !needle || `${value}\n${wordsOf(def, value)}\n${nameOf(value)}`.toLowerCase().includes(needle));
    return { values: matching.slice(0, limit), total: matching.length };
  }
  const params: unknown[] = [collection];
  let where = `o.collection = ? AND coalesce(${ref.sql}, '') <> ''`;
  if (needle) {
    const pattern = containsPattern(needle);
    params.push(pattern);
    let matches = `${ref.sql} LIKE ? ESCAPE '\\'`;
    if (def.refersTo) {
      // An id is found by the name of the object it points at, too.
      matches += ` OR ${ref.sql} IN (SELECT n.id FROM objects n JOIN object_versions nv ON nv.vid = n.current_vid
        WHERE n.collection = ? AND nv.title LIKE ? ESCAPE '\\')`;
      params.push(def.refersTo, pattern);
    }
    where += ` AND (${matches})`;
  }
  const from = `FROM objects o JOIN object_versions v ON v.vid = o.current_vid WHERE ${where}`;
  const values = store.db
    .prepare(`SELECT ${ref.sql} AS value, count(*) AS count ${from} GROUP BY value ORDER BY count DESC, value LIMIT ?`)
    .all(...params, limit) as { value: unknown; count: number }[];
  const total = store.db
    .prepare(`SELECT count(DISTINCT ${ref.sql}) ${from}`)
    .pluck()
    .get(...params) as number;
  return { values: values.map((row) => ({ value: String(row.value), count: row.count })), total };
}
