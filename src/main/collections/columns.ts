import type { CollectionDescriptor, ColumnType, ColumnValue } from './descriptor';
import { getPath } from './extract';

/** The extracted columns of one object (absent values are null; enum values kept as written). */
export function extractColumns(descriptor: CollectionDescriptor, obj: unknown): Record<string, ColumnValue> {
  const out: Record<string, ColumnValue> = {};
  for (const c of descriptor.columns) {
    const raw = c.value ? c.value(obj) : getPath(obj, c.path);
    out[c.name] = normalize(c.type, raw);
  }
  return out;
}

function normalize(type: ColumnType, value: unknown): ColumnValue {
  // The service omits fields holding their zero value (proto3 JSON): absent booleans are false,
  // absent integers 0.
  if ((value === undefined || value === null) && type === 'bool') return false;
  if ((value === undefined || value === null) && type === 'int') return 0;
  if (value === undefined || value === null) return null;
  switch (type) {
    case 'bool':
      return typeof value === 'boolean' ? value : value === 'true' ? true : value === 'false' ? false : null;
    case 'int': {
      // Large integers may come as strings (int64 in JSON).
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      return Number.isFinite(n) ? n : null;
    }
    default:
      return typeof value === 'string'
        ? value
        : typeof value === 'number' || typeof value === 'boolean'
          ? String(value)
          : JSON.stringify(value);
  }
}

/**
 * The extracted columns as stored (`object_versions.cols`): a JSON array of the values in the
 * order of the descriptor's columns, the names being the descriptor's to give (they made a third
 * of the text when each row spelled them out). A change of the columns is a COLUMNS_REVISION.
 */
export function encodeColumns(descriptor: CollectionDescriptor, columns: Record<string, ColumnValue>): string {
  return JSON.stringify(descriptor.columns.map((c) => columns[c.name] ?? null));
}

/** The extracted columns of a stored version by name (see encodeColumns). */
export function decodeColumns(descriptor: CollectionDescriptor, stored: string): Record<string, ColumnValue> {
  const values = JSON.parse(stored) as ColumnValue[] | Record<string, ColumnValue>;
  if (!Array.isArray(values)) return values;
  const out: Record<string, ColumnValue> = {};
  descriptor.columns.forEach((c, i) => (out[c.name] = values[i] ?? null));
  return out;
}

/** Where a column's value is in the stored array (see encodeColumns), or -1. */
export function columnPosition(descriptor: CollectionDescriptor, name: string): number {
  return descriptor.columns.findIndex((c) => c.name === name);
}
