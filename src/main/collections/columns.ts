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
