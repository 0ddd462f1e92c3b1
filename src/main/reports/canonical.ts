import { createHash, type Hash } from 'node:crypto';
import type { SheetDigests } from './digests';

/**
 * The canonical content of a sheet: what `attest verify` (or any independent reader) recomputes
 * from the cells alone, whatever program last saved the file.
 *
 * Canonical form "attest-canonical/3" (since printable workbooks) hashes cells as "attest-canonical/2"
 * (written since Attest 0.1 with strict verify) did, and adds the page setup rules (see
 * CANONICAL_FORM_TEXT):
 * - A first line: the compact JSON {"sheet":<name>,"state":<visible|hidden|veryHidden>}.
 * - Then the rows in row order, rows with no value skipped; each row the compact JSON text (no
 *   spaces) of [rowNumber, cell1, ..., cellN], N being the last column holding a value.
 * - A cell is: null (no value), a string (as stored, UTF-8; "" too), a number (JSON number,
 *   shortest round-trip form), true/false, a date cell {"d":"YYYY-MM-DDTHH:mm:ss.sssZ"} (UTC,
 *   rounded to the millisecond), or an error cell {"e":"#N/A"}. A cell whose number format is not
 *   General is {"v":<cell>,"fmt":"<format code>"}: what Excel displays depends on it.
 * - Every line is followed by "\n"; the sheet hash is SHA-256 (hex) of that text.
 * - The Evidence sheet is hashed the same way with its hash cells (column B of the hash table's
 *   sheet rows, of the overall row and of the signature row) taken as empty.
 * - Overall hash: SHA-256 (hex) of the lines "<sheet name>\t<sheet hash>\n", in the order of the
 *   Evidence sheet's hash table (the Evidence sheet first).
 *
 * "attest-canonical/1" (workbooks exported before): no first line, no formats, no error cells,
 * "" as null; the Evidence sheet's manifest rows (above its hash table) hashed instead of the
 * whole sheet. verify still reads it (see verify.ts).
 */
export const CANONICAL_FORM = 'attest-canonical/4';
export const CANONICAL_FORM_3 = 'attest-canonical/3';
export const CANONICAL_FORM_2 = 'attest-canonical/2';
export const CANONICAL_FORM_1 = 'attest-canonical/1';
export type CanonicalForm = typeof CANONICAL_FORM | typeof CANONICAL_FORM_3 | typeof CANONICAL_FORM_2 | typeof CANONICAL_FORM_1;

/** Forms whose workbooks carry a page setup verify holds them to (/3 and /4). */
export const isPrintable = (form: CanonicalForm): boolean => form === CANONICAL_FORM || form === CANONICAL_FORM_3;

/** Forms that hash a first line, number formats and error cells (all but /1). */
const modern = (form: CanonicalForm): boolean => form !== CANONICAL_FORM_1;

export const CANONICAL_FORM_2_TEXT =
  'First line {"sheet":<name>,"state":<state>}; then each non-empty row as compact JSON [rowNumber, cell1..cellN] ' +
  '(N = last non-empty column); every line + "\\n". Cells: null if empty, strings as stored, numbers as JSON numbers, ' +
  'true/false, date cells as {"d":"<ISO 8601 UTC with milliseconds>"}, error cells as {"e":"<code>"}; a cell whose number ' +
  'format is not General as {"v":<cell>,"fmt":"<format code>"}. Sheet hash = SHA-256 hex of that text (the Evidence sheet ' +
  'with its hash cells and signature taken as empty); overall = SHA-256 hex of "<sheet name>\\t<sheet hash>\\n" for each ' +
  'row of the hash table, in order.';

/**
 * attest-canonical/3 hashes cells exactly as /2 does; it adds the page setup of a printable
 * workbook, which verify holds to these rules: every sheet's footer is the one the Evidence sheet's
 * "Page footer" row gives (with the sheet's name), no header; print titles only as row 1 of a sheet.
 */
export const CANONICAL_FORM_3_TEXT =
  `${CANONICAL_FORM_2_TEXT} Page setup: each sheet's footer is "&L<sheet name>&C<Page footer of the Evidence sheet>&RPage &P of &N" ` +
  '(an "&" of a name or text written "&&"), no page header; print titles, where present, are row 1 of their sheet.';

/**
 * attest-canonical/4 hashes cells and pages as /3 does and adds the document properties a reader
 * shows (title, author, company, comments...: see properties.ts) as the hash table's entry
 * "[Document properties]"; a format code is hashed without the backslash before a character a
 * format shows as itself anyway, as every spreadsheet program reads it.
 */
export const CANONICAL_FORM_TEXT =
  `${CANONICAL_FORM_3_TEXT} A format code is hashed without a backslash before any of - + / ( ) : ! ^ & ' ~ { } < > = $ and space. ` +
  'Document properties: the entry "[Document properties]" = SHA-256 hex of the line {"<part>:<name>":"<value>"} + "\\n" for each ' +
  'property a reader shows (docProps core, app and custom; not the application, last modified by or when, which a save rewrites), ' +
  'non-empty, in name order; "created" to the second.';

export const CANONICAL_FORM_1_TEXT =
  'Each non-empty row as compact JSON [rowNumber, cell1..cellN] + "\\n" (N = last non-empty column); ' +
  'cells: null if empty or "", strings as stored, numbers as JSON numbers, true/false, date cells as ' +
  '{"d":"<ISO 8601 UTC with milliseconds>"}. Sheet hash = SHA-256 hex of that text; overall = SHA-256 hex ' +
  'of "<sheet name>\\t<sheet hash>\\n" for each row of the hash table, in order.';

export type CellValue = string | number | boolean | Date | null | undefined;
type PlainCell = string | number | boolean | { d: string } | { e: string } | null;
export type CanonicalCell = PlainCell | { v: PlainCell; fmt: string };

/** Excel's limit for the text of one cell. */
export const MAX_CELL_TEXT = 32_767;

// Characters XML 1.0 cannot carry (exceljs would drop them silently), and lone surrogates.
// eslint-disable-next-line no-control-regex
const XML_INVALID = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// eslint-disable-next-line no-control-regex
const HAS_XML_INVALID = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F\uFFFE\uFFFF\uD800-\uDFFF]/;

/**
 * The text a string cell will hold: XML-invalid characters become U+FFFD, line ends become "\n"
 * (XML readers normalise CR), white space at either end is dropped (LibreOffice drops it on
 * reading, Excel and openpyxl keep it: no one sees it), and text beyond Excel's cell limit is
 * cut with a visible marker. Writers store exactly this, so what is hashed is what a reader finds.
 */
export function cellText(value: string): string {
  let text = value.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
  if (HAS_XML_INVALID.test(text)) text = text.replace(XML_INVALID, '\uFFFD');
  if (text.includes('\r')) text = text.replace(/\r\n?/g, '\n');
  if (text.length > MAX_CELL_TEXT) {
    const marker = `… [cut: ${text.length} characters]`;
    let cut = MAX_CELL_TEXT - marker.length;
    // never split a surrogate pair
    if (/[\uD800-\uDBFF]/.test(text[cut - 1] ?? '')) cut -= 1;
    text = text.slice(0, cut) + marker;
  }
  return text;
}

/** Earliest instant an Excel (1900 system) date cell represents faithfully. */
const EXCEL_MIN = Date.UTC(1900, 2, 1);
const EXCEL_MAX = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** A Date Excel can hold as a real date cell (1900-03-01 .. 9999-12-31), or null. */
export function excelDate(value: Date | null | undefined): Date | null {
  if (!value) return null;
  const t = value.getTime();
  if (!Number.isFinite(t) || t < EXCEL_MIN || t > EXCEL_MAX) return null;
  return value;
}

/** The value a writer puts into a cell, after the same normalisation the canonical form assumes. */
export function storedValue(value: CellValue): CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') {
    const text = cellText(value);
    return text === '' ? null : text;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (value instanceof Date) return excelDate(value);
  return value;
}

/** An error cell (#N/A, #REF!...), as opposed to text that reads the same. */
export class CellError {
  constructor(readonly code: string) {}
}

function plainCell(value: unknown, form: CanonicalForm): PlainCell {
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? (Object.is(value, -0) ? 0 : value) : null;
  if (value instanceof Date) {
    const t = value.getTime();
    return Number.isFinite(t) ? { d: new Date(Math.round(t)).toISOString() } : null;
  }
  if (value instanceof CellError) return form === CANONICAL_FORM_1 ? value.code : { e: value.code };
  throw new Error(`a cell value of an unexpected kind: ${Object.prototype.toString.call(value)}`);
}

/**
 * The canonical form of one cell as read back (or as stored, after storedValue); `format` is its
 * number format when not General.
 */
export function canonicalCell(value: unknown, form: CanonicalForm = CANONICAL_FORM, format?: string): CanonicalCell {
  if (value === null || value === undefined) return null;
  const formatted = modern(form) && format !== undefined;
  // "" shows nothing, unless a format gives text a display of its own.
  if (value === '') return formatted ? { v: '', fmt: format } : null;
  const plain = plainCell(value, form);
  return formatted && plain !== null ? { v: plain, fmt: format } : plain;
}

/**
 * Canonical text of one row ("" when the row holds nothing), including its trailing newline;
 * `onCell` is given each non-empty cell's canonical JSON by column.
 */
export function canonicalRow(
  rowNumber: number,
  cells: readonly unknown[],
  form: CanonicalForm = CANONICAL_FORM,
  formats: readonly (string | undefined)[] = [],
  onCell?: (col: number, json: string) => void,
): string {
  let text = `[${rowNumber}`;
  let pending = ''; // nulls seen since the last value: written only if a value follows
  let any = false;
  for (let i = 0; i < cells.length; i += 1) {
    const cell = canonicalCell(cells[i], form, formats[i]);
    if (cell === null) {
      pending += ',null';
      continue;
    }
    const json = JSON.stringify(cell);
    onCell?.(i, json);
    text += `${pending},${json}`;
    pending = '';
    any = true;
  }
  return any ? `${text}]\n` : '';
}

/** The first line of a sheet's canonical text (attest-canonical/2). */
export function sheetLine(name: string, state = 'visible'): string {
  return `${JSON.stringify({ sheet: name, state })}\n`;
}

/** Incremental SHA-256 over a sheet's canonical text; buffers text to keep hashing cheap. */
export class SheetHasher {
  private readonly hash: Hash = createHash('sha256');
  private pending = '';
  rows = 0;

  /**
   * A hasher for the sheet `sheet` (its name and state open the attest-canonical/2 text); with
   * `digests`, each row also feeds the row and column digests that locate a change (digests.ts).
   */
  constructor(
    sheet: { name: string; state?: string },
    readonly form: CanonicalForm = CANONICAL_FORM,
    readonly digests?: SheetDigests,
  ) {
    if (modern(form)) this.pending = sheetLine(sheet.name, sheet.state);
  }

  /** Adds one row by its 1-based row number; empty rows are skipped, as readers skip them. */
  add(rowNumber: number, cells: readonly unknown[], formats?: readonly (string | undefined)[]): void {
    const digests = this.digests;
    const text = canonicalRow(rowNumber, cells, this.form, formats, digests && ((col, json) => digests.cell(rowNumber, col, json)));
    if (!text) return;
    digests?.row(text.slice(String(rowNumber).length + 1));
    this.rows += 1;
    this.pending += text;
    if (this.pending.length > 65_536) {
      this.hash.update(this.pending, 'utf8');
      this.pending = '';
    }
  }

  digest(): string {
    this.hash.update(this.pending, 'utf8');
    this.pending = '';
    return this.hash.digest('hex');
  }
}

/** The overall hash over the hash table's (name, hash) pairs, in order. */
export function overallHash(entries: readonly { name: string; sha256: string }[]): string {
  const hash = createHash('sha256');
  for (const { name, sha256 } of entries) hash.update(`${name}\t${sha256}\n`, 'utf8');
  return hash.digest('hex');
}
