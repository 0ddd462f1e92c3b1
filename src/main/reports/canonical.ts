import { createHash, type Hash } from 'node:crypto';

/**
 * The canonical content of a sheet: what `attest verify` (or any independent reader) recomputes
 * from the cells alone, whatever program last saved the file.
 *
 * Canonical form "attest-canonical/1":
 * - Rows in row order; rows with no value at all are skipped.
 * - Each row is the compact JSON text (no spaces) of the array [rowNumber, cell1, ..., cellN],
 *   N being the last column holding a value; each row is followed by "\n".
 * - A cell is: null (empty; an empty string is empty), a string (as stored, UTF-8), a number
 *   (JSON number, shortest round-trip form; our numeric columns hold integers), true/false, or a
 *   date cell as {"d":"YYYY-MM-DDTHH:mm:ss.sssZ"} (UTC, rounded to the millisecond).
 * - Sheet hash: SHA-256 (hex) of that text. Overall hash: SHA-256 (hex) of the lines
 *   "<sheet name>\t<sheet hash>\n", in the order of the Evidence sheet's hash table.
 */
export const CANONICAL_FORM = 'attest-canonical/1';

export const CANONICAL_FORM_TEXT =
  'Each non-empty row as compact JSON [rowNumber, cell1..cellN] + "\\n" (N = last non-empty column); ' +
  'cells: null if empty or "", strings as stored, numbers as JSON numbers, true/false, date cells as ' +
  '{"d":"<ISO 8601 UTC with milliseconds>"}. Sheet hash = SHA-256 hex of that text; overall = SHA-256 hex ' +
  'of "<sheet name>\\t<sheet hash>\\n" for each row of the hash table, in order.';

export type CellValue = string | number | boolean | Date | null | undefined;
export type CanonicalCell = string | number | boolean | { d: string } | null;

/** Excel's limit for the text of one cell. */
export const MAX_CELL_TEXT = 32_767;

// Characters XML 1.0 cannot carry (exceljs would drop them silently), and lone surrogates.
// eslint-disable-next-line no-control-regex
const XML_INVALID = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// eslint-disable-next-line no-control-regex
const HAS_XML_INVALID = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F\uFFFE\uFFFF\uD800-\uDFFF]/;

/**
 * The text a string cell will hold: XML-invalid characters become U+FFFD, line ends become "\n"
 * (XML readers normalise CR), and text beyond Excel's cell limit is cut with a visible marker.
 * Writers store exactly this, so what is hashed is what a reader finds.
 */
export function cellText(value: string): string {
  let text = value;
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
  if (typeof value === 'string') return value === '' ? null : cellText(value);
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (value instanceof Date) return excelDate(value);
  return value;
}

/** The canonical form of one cell as read back (or as stored, after storedValue). */
export function canonicalCell(value: unknown): CanonicalCell {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? (Object.is(value, -0) ? 0 : value) : null;
  if (value instanceof Date) {
    const t = value.getTime();
    return Number.isFinite(t) ? { d: new Date(Math.round(t)).toISOString() } : null;
  }
  throw new Error(`a cell value of an unexpected kind: ${Object.prototype.toString.call(value)}`);
}

/** Canonical text of one row ("" when the row holds nothing), including its trailing newline. */
export function canonicalRow(rowNumber: number, cells: readonly unknown[]): string {
  let last = cells.length - 1;
  while (last >= 0 && canonicalCell(cells[last]) === null) last -= 1;
  if (last < 0) return '';
  let text = `[${rowNumber}`;
  for (let i = 0; i <= last; i += 1) text += `,${JSON.stringify(canonicalCell(cells[i]))}`;
  return `${text}]\n`;
}

/** Incremental SHA-256 over a sheet's canonical rows; buffers text to keep hashing cheap. */
export class SheetHasher {
  private readonly hash: Hash = createHash('sha256');
  private pending = '';
  rows = 0;

  /** Adds one row by its 1-based row number; empty rows are skipped, as readers skip them. */
  add(rowNumber: number, cells: readonly unknown[]): void {
    const text = canonicalRow(rowNumber, cells);
    if (!text) return;
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
