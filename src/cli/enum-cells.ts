import { enumColumnWords } from '../shared/enum-words';
import { MULTI_SEPARATOR, type ColumnDef } from '../main/app/collections';
import type { Cell } from './output';

/**
 * A table cell of an enum column in words, as the app and the workbooks write it (shared/enum-words.ts):
 * a listed value as its label, one no enumeration lists as written and marked; each value of a list
 * column. CSV and JSON keep the values as stored.
 */
export function enumCell(value: Cell, column: ColumnDef | undefined): Cell {
  if (column?.type !== 'enum' || typeof value !== 'string' || value === '') return value;
  const values = column.multi ? value.split(MULTI_SEPARATOR) : [value];
  return values.map((v) => enumColumnWords(v, column.enumName)?.text ?? v).join(MULTI_SEPARATOR);
}
