import { createHash, type Hash } from 'node:crypto';

/**
 * Digests that locate a change without the original at hand: one per row of a sheet (over the
 * row's canonical cells, not its number, so rows that moved still match) and one per column (over
 * its cells with their row numbers). The Locator sheet of a workbook carries them (hashed like any
 * sheet); verify compares them with the file's own to name the changed rows, and, where one row
 * changed, its changed cells. Each digest is the first 8 bytes of a SHA-256, written base64url.
 */
export const LOCATOR_SHEET = 'Locator';
export const DIGEST_BYTES = 8;
/** Row digests per cell of the Locator sheet (8 bytes each: 30,934 characters of base64url, under Excel's 32,767). */
export const DIGESTS_PER_CELL = 2_900;

const digestOf = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest().subarray(0, DIGEST_BYTES);

export class SheetDigests {
  private rowBytes = Buffer.alloc(DIGEST_BYTES * 1024);
  /** Non-empty rows digested. */
  count = 0;
  private readonly columns: { hash: Hash; pending: string }[] = [];

  /** A row's content (its canonical cells without its number). */
  row(content: string): void {
    if ((this.count + 1) * DIGEST_BYTES > this.rowBytes.length) {
      const grown = Buffer.alloc(this.rowBytes.length * 2);
      this.rowBytes.copy(grown);
      this.rowBytes = grown;
    }
    digestOf(content).copy(this.rowBytes, this.count * DIGEST_BYTES);
    this.count += 1;
  }

  /** A non-empty cell of a row, as canonical JSON. */
  cell(rowNumber: number, col: number, json: string): void {
    let column = this.columns[col];
    if (!column) column = this.columns[col] = { hash: createHash('sha256'), pending: '' };
    column.pending += `${rowNumber}\t${json}\n`;
    if (column.pending.length > 16_384) {
      column.hash.update(column.pending, 'utf8');
      column.pending = '';
    }
  }

  /** The row digests, in row order. */
  rows(): Buffer {
    return this.rowBytes.subarray(0, this.count * DIGEST_BYTES);
  }

  /** One digest per column up to the last that holds a cell ('' for a column without any). */
  columnDigests(): string[] {
    return Array.from(this.columns, (column) => {
      if (!column) return '';
      column.hash.update(column.pending, 'utf8');
      column.pending = '';
      return column.hash.digest().subarray(0, DIGEST_BYTES).toString('base64url');
    });
  }
}

/** The digests of one sheet as the Locator sheet gives them. */
export interface SheetLocator {
  rows: Buffer;
  columns: string[];
}

/** The Locator sheet's rows for these sheets: per sheet one row of column digests, then its row digests in chunks. */
export function locatorRows(sheets: readonly { name: string; digests: SheetDigests }[]): (string | number)[][] {
  const rows: (string | number)[][] = [];
  for (const { name, digests } of sheets) {
    rows.push([
      name,
      'columns',
      1,
      digests
        .columnDigests()
        .map((d) => d || '-')
        .join(' '),
    ]);
    const all = digests.rows();
    for (let first = 0; first < digests.count; first += DIGESTS_PER_CELL) {
      const chunk = all.subarray(first * DIGEST_BYTES, Math.min(digests.count, first + DIGESTS_PER_CELL) * DIGEST_BYTES);
      rows.push([name, 'rows', first + 1, chunk.toString('base64url')]);
    }
  }
  return rows;
}

/** Reads the Locator sheet's rows back (those that do not parse are left out: the sheet's own hash vouches for it). */
export function parseLocator(rows: readonly (readonly unknown[])[]): Map<string, SheetLocator> {
  const parts = new Map<string, { rows: Buffer[]; columns: string[] }>();
  for (const [name, what, , text] of rows) {
    if (typeof name !== 'string' || typeof text !== 'string') continue;
    const entry = parts.get(name) ?? { rows: [], columns: [] };
    parts.set(name, entry);
    if (what === 'columns') entry.columns = text.split(' ').map((d) => (d === '-' ? '' : d));
    else if (what === 'rows') entry.rows.push(Buffer.from(text, 'base64url'));
  }
  return new Map([...parts].map(([name, entry]) => [name, { rows: Buffer.concat(entry.rows), columns: entry.columns }]));
}
