import { diffArrays } from 'diff';
import { canonicalCell, canonicalRow, SheetHasher, type CanonicalForm } from './canonical';
import { DIGEST_BYTES, SheetDigests, type SheetLocator } from './digests';
import { columnName, type XlsxReader, type XlsxRow, type XlsxSheet } from './xlsx-reader';

/**
 * Where an altered workbook differs from what was exported, cell by cell: the sheets whose hash
 * changed are read beside the same sheets exported again from the store that exported them
 * (same report, parameters and runs). The exported-again sheet counts as the original only when
 * its hash is the one the Evidence sheet recorded, so an old value is never a guess.
 */

export interface CellChange {
  sheet: string;
  /** Where: a cell ("C5"), or a row ("row 7"). */
  where: string;
  /** moved: rows equal in content at other row numbers than the rows added or removed before them explain. */
  kind: 'changed' | 'added' | 'removed' | 'moved';
  /** The value as exported (undefined: not at hand, located by digests only), and as the file holds it now (canonical JSON; null: empty). */
  old?: string | null;
  new: string | null;
}

/** Rows of a sheet read for locating (more than this, and the sheet is only named). */
const MAX_ROWS = 200_000;
/** Changes listed at most per workbook. */
export const MAX_CHANGES = 200;

interface ReadSheet {
  rows: XlsxRow[];
  sha256: string;
}

async function readSheet(reader: XlsxReader, sheet: XlsxSheet, form: CanonicalForm): Promise<ReadSheet | null> {
  const hasher = new SheetHasher(sheet, form);
  const rows: XlsxRow[] = [];
  for await (const row of reader.rows(sheet)) {
    const before = hasher.rows;
    hasher.add(row.number, row.cells, row.formats);
    // A row that shows nothing (a row element kept for its height) is no row of the sheet.
    if (hasher.rows === before) continue;
    if (rows.length >= MAX_ROWS) return null;
    rows.push(row);
  }
  return { rows, sha256: hasher.digest() };
}

const cellJson = (row: XlsxRow | undefined, col: number, form: CanonicalForm): string | null => {
  const cell = row ? canonicalCell(row.cells[col], form, row.formats[col]) : null;
  return cell === null ? null : JSON.stringify(cell);
};

/** A row's content without its number, so rows that moved still match. */
const rowKey = (row: XlsxRow, form: CanonicalForm): string => canonicalRow(0, row.cells, form, row.formats);

/** A row in words: its first cells. */
const rowText = (row: XlsxRow, form: CanonicalForm): string => rowKey(row, form).slice(3, 160).replace(/\]\n$/, '');

/** The cells of two rows that differ, the later row's number naming them. */
function cellChanges(sheet: string, before: XlsxRow, after: XlsxRow, form: CanonicalForm): CellChange[] {
  const changes: CellChange[] = [];
  const width = Math.max(before.cells.length, after.cells.length);
  for (let col = 0; col < width; col += 1) {
    const old = cellJson(before, col, form);
    const now = cellJson(after, col, form);
    if (old !== now) changes.push({ sheet, where: `${columnName(col)}${after.number}`, kind: 'changed', old, new: now });
  }
  return changes;
}

/** The changes between the original rows and the rows read now: cells where rows pair up, rows added or removed where not. */
function sheetChanges(sheet: string, original: XlsxRow[], now: XlsxRow[], form: CanonicalForm): CellChange[] {
  const changes: CellChange[] = [];
  const parts = diffArrays(
    original.map((r) => rowKey(r, form)),
    now.map((r) => rowKey(r, form)),
  );
  let i = 0;
  let j = 0;
  for (let p = 0; p < parts.length; p += 1) {
    const part = parts[p]!;
    const next = parts[p + 1];
    if (!part.added && !part.removed) {
      changes.push(...moved(sheet, original.slice(i, i + part.count!), now.slice(j, j + part.count!), j - i));
      i += part.count!;
      j += part.count!;
    } else if (part.removed && next?.added) {
      // Rows replaced one for one: the cells that changed.
      const pairs = Math.min(part.count!, next.count!);
      for (let k = 0; k < pairs; k += 1) changes.push(...cellChanges(sheet, original[i + k]!, now[j + k]!, form));
      for (let k = pairs; k < part.count!; k += 1) changes.push(rowChange(sheet, original[i + k]!, 'removed', form));
      for (let k = pairs; k < next.count!; k += 1) changes.push(rowChange(sheet, now[j + k]!, 'added', form));
      i += part.count!;
      j += next.count!;
      p += 1;
    } else if (part.removed) {
      for (let k = 0; k < part.count!; k += 1) changes.push(rowChange(sheet, original[i + k]!, 'removed', form));
      i += part.count!;
    } else {
      for (let k = 0; k < part.count!; k += 1) changes.push(rowChange(sheet, now[j + k]!, 'added', form));
      j += part.count!;
    }
    if (changes.length > MAX_CHANGES) break;
  }
  return changes;
}

/**
 * Rows equal in content that now stand at other row numbers than the rows added or removed
 * before them explain (`shift`: rows added less rows removed so far), as runs of one line each.
 */
function moved(sheet: string, before: XlsxRow[], after: XlsxRow[], shift: number): CellChange[] {
  const changes: CellChange[] = [];
  let start = -1;
  const flush = (end: number): void => {
    if (start < 0) return;
    const span = (rows: XlsxRow[]): string =>
      end - start > 1 ? `rows ${rows[start]!.number}-${rows[end - 1]!.number}` : `row ${rows[start]!.number}`;
    changes.push({ sheet, where: span(before), kind: 'moved', old: span(before), new: span(after) });
    start = -1;
  };
  for (let k = 0; k < before.length; k += 1) {
    const offset = after[k]!.number - before[k]!.number;
    const explained = offset === shift;
    const continues = start >= 0 && offset === after[start]!.number - before[start]!.number;
    if (explained || !continues) flush(k);
    if (!explained && start < 0) start = k;
  }
  flush(before.length);
  return changes;
}

function rowChange(sheet: string, row: XlsxRow, kind: 'added' | 'removed', form: CanonicalForm): CellChange {
  const text = rowText(row, form);
  return { sheet, where: `row ${row.number}`, kind, old: kind === 'removed' ? text : null, new: kind === 'added' ? text : null };
}

export interface Located {
  changes: CellChange[];
  /** Altered sheets whose original could not be had (the store moved on, or the sheet is too large to read twice). */
  unlocated: string[];
}

/**
 * Locates the changes of the altered sheets `names` of `reader`, against `original` (the same
 * report exported again); `expected` gives each sheet's hash as the Evidence sheet recorded it.
 */
export async function locateChanges(
  reader: XlsxReader,
  original: XlsxReader,
  names: readonly string[],
  expected: ReadonlyMap<string, string>,
  form: CanonicalForm,
): Promise<Located> {
  const located: Located = { changes: [], unlocated: [] };
  for (const name of names) {
    const sheet = reader.sheets.find((s) => s.name === name);
    const origin = original.sheets.find((s) => s.name === name);
    const before = origin ? await readSheet(original, origin, form) : null;
    const after = sheet && before && before.sha256 === expected.get(name) ? await readSheet(reader, sheet, form) : null;
    if (!before || !after || before.sha256 !== expected.get(name)) {
      located.unlocated.push(name);
      continue;
    }
    located.changes.push(...sheetChanges(name, before.rows, after.rows, form));
    if (located.changes.length > MAX_CHANGES) break;
  }
  located.changes.splice(MAX_CHANGES);
  return located;
}

/** A buffer of digests as strings, one per row. */
const digestList = (bytes: Buffer): string[] => {
  const out: string[] = [];
  for (let at = 0; at + DIGEST_BYTES <= bytes.length; at += DIGEST_BYTES) out.push(bytes.toString('base64url', at, at + DIGEST_BYTES));
  return out;
};

/**
 * Locates the changes of one altered sheet by the digests its Locator row gives (no original at
 * hand): rows added and removed by aligning row digests, changed rows where they pair up, and,
 * where only one row or only one column changed, the changed cells with their values now.
 */
export async function locateByDigests(reader: XlsxReader, name: string, locator: SheetLocator, form: CanonicalForm): Promise<CellChange[]> {
  const sheet = reader.sheets.find((s) => s.name === name);
  if (!sheet) return [];
  const digests = new SheetDigests();
  const hasher = new SheetHasher(sheet, form, digests);
  const rows: XlsxRow[] = [];
  for await (const row of reader.rows(sheet)) {
    const before = digests.count;
    hasher.add(row.number, row.cells, row.formats);
    if (digests.count > before) rows.push(row);
  }
  const parts = diffArrays(digestList(locator.rows), digestList(digests.rows()));
  const changes: CellChange[] = [];
  const changedRows: XlsxRow[] = [];
  let shifted = false;
  let j = 0;
  for (let p = 0; p < parts.length; p += 1) {
    const part = parts[p]!;
    const next = parts[p + 1];
    const count = part.count!;
    if (!part.added && !part.removed) {
      j += count;
      continue;
    }
    const pairs = part.removed && next?.added ? Math.min(count, next.count!) : 0;
    changedRows.push(...rows.slice(j, j + pairs));
    const removed = part.removed ? count - pairs : 0;
    const added = part.removed ? (next?.added ? next.count! - pairs : 0) : count;
    const at = rows[j + pairs]?.number;
    for (let k = 0; k < removed; k += 1)
      changes.push({ sheet: name, where: at ? `a row before row ${at}` : 'a row at the end', kind: 'removed', new: null });
    for (let k = 0; k < added; k += 1) changes.push(rowChange(name, rows[j + pairs + k]!, 'added', form));
    shifted ||= removed > 0 || added > 0;
    j += pairs + added;
    if (part.removed && next?.added) p += 1;
  }
  return [
    ...cellsOfChangedRows(name, changedRows, shifted ? null : changedColumns(locator.columns, digests.columnDigests()), form),
    ...changes,
  ];
}

/** Columns whose digest changed (indexes). */
function changedColumns(expected: readonly string[], actual: readonly string[]): number[] {
  const out: number[] = [];
  for (let col = 0; col < Math.max(expected.length, actual.length); col += 1)
    if ((expected[col] ?? '') !== (actual[col] ?? '')) out.push(col);
  return out;
}

/**
 * The changed rows' cells, where the column digests tell them (rows in place, and one row or one
 * column changed: the changed cells are where those rows and columns cross); else the rows.
 */
function cellsOfChangedRows(sheet: string, rows: readonly XlsxRow[], columns: number[] | null, form: CanonicalForm): CellChange[] {
  if (columns && columns.length > 0 && (rows.length === 1 || columns.length === 1))
    return rows.flatMap((row) =>
      columns.map((col): CellChange => ({
        sheet,
        where: `${columnName(col)}${row.number}`,
        kind: 'changed',
        new: cellJson(row, col, form),
      })),
    );
  return rows.map((row): CellChange => ({ sheet, where: `row ${row.number}`, kind: 'changed', new: rowText(row, form) }));
}
