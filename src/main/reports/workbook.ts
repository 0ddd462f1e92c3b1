import ExcelJS from 'exceljs';
import { once } from 'node:events';
import { open, readdir, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { CANONICAL_FORM, CANONICAL_FORM_TEXT, SheetHasher, overallHash, storedValue, type CellValue } from './canonical';
import { PROPERTIES_ENTRY, propertiesSha256 } from './properties';
import { LOCATOR_SHEET, locatorRows, SheetDigests } from './digests';
import { signedMessage, type EvidenceSigner } from './signing';

/**
 * The workbook layer: exceljs's streaming writer behind a small interface that hashes every row
 * as it is written, keeps memory flat (rows are committed as they come, with backpressure on the
 * zip stream), reports progress, can be cancelled, and only ever shows a finished file at the
 * target path (it writes a temp file next to it and renames it at the end). A write that fails
 * (disk full, permission, I/O) ends the export at once with an ExportWriteError naming the cause
 * and the path, and the temp file is removed; so does a cancel, wherever the export is waiting.
 */

export type ColumnType = 'text' | 'enum' | 'int' | 'number' | 'bool' | 'date';

export interface ColumnSpec {
  header: string;
  type: ColumnType;
  /** Fixed width in characters; otherwise fitted to the header and the first rows. */
  width?: number;
  /** Where the value comes from: the API member (dotted path) it shows, for the data dictionary. */
  source?: string;
  /** What the column means, for the data dictionary. */
  about?: string;
  /** False: long text stays on one line (clipped at the column's width) instead of wrapping. */
  wrap?: boolean;
}

export interface SheetSpec {
  name: string;
  columns: readonly ColumnSpec[];
  rows: Iterable<readonly CellValue[]> | AsyncIterable<readonly CellValue[]>;
  /** Expected row count, for progress. */
  total?: number;
  /** What the sheet holds, in a line (listed on the cover). */
  about?: string;
  /** 'table' (default): a header row, frozen, with a filter; 'form': label and value rows (a cover). */
  layout?: 'table' | 'form';
  /**
   * What prints (default: every row and column, columns beyond a page's width on the next pages):
   * 'header row', for a sheet that is for verify, programs or the screen; 'first page wide', every
   * row but only the columns that fit one page wide (the others are in the file).
   */
  paper?: 'header row' | 'first page wide';
}

export interface SheetResult {
  name: string;
  /** Data rows written (the header and empty rows excluded: as a reader counts them). */
  rows: number;
  sha256: string;
  /** The columns that print, where not all of them do (`A:K`; `A:K, row 1` for a header row only). */
  printed?: string;
}

export interface ExportProgress {
  sheet: string;
  sheetIndex: number;
  rows: number;
  total?: number;
  /** The rows of the report's data sheets that say how many they hold, together (exportReport adds it). */
  rowsTotal?: number;
}

export interface WorkbookOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ExportProgress) => void;
  /** Rows between progress events (default 5,000). */
  progressEvery?: number;
  creator?: string;
  /** The centre of every sheet's printed footer (the report and as of when); see pageFooter. */
  footer?: string;
  /** The stream the zip is written into, over the temp file's handle (tests inject failing ones). */
  output?: (temp: FileHandle) => Writable;
}

export interface FinishOptions {
  /** Sheets (already written) that open the workbook, before the Evidence sheet: a cover. */
  first?: readonly string[];
}

export interface WorkbookResult {
  file: string;
  sheets: SheetResult[];
  /** The Evidence sheet's own hash (its hash cells taken as empty). */
  evidenceSha256: string;
  overallSha256: string;
  /** Fingerprint of the key that signed the workbook, if one did. */
  signedBy: string | null;
  bytes: number;
}

/** Name of the sheet that opens every Attest workbook. */
export const EVIDENCE_SHEET = 'Evidence';
/**
 * Value of the Evidence sheet's "Format" row, by which verify recognises an Attest workbook and
 * its canonical form: attest-evidence/4 is attest-canonical/4 (printable, its document properties
 * hashed), /3, /2 and /1 the earlier forms.
 */
export const EVIDENCE_FORMAT = 'attest-evidence/4';
export const EVIDENCE_FORMAT_3 = 'attest-evidence/3';
export const EVIDENCE_FORMAT_2 = 'attest-evidence/2';
export const EVIDENCE_FORMAT_1 = 'attest-evidence/1';
/** Manifest row of the Evidence sheet giving the centre of every sheet's footer (attest-evidence/3). */
export const PAGE_FOOTER = 'Page footer';
/** Marker of the hash section on the Evidence sheet; the manifest is every row above it. */
export const HASHES_MARKER = 'Hashes';
/** Name under which attest-evidence/1 listed the Evidence sheet's manifest rows in the hash table. */
export const MANIFEST_ENTRY = 'Evidence (manifest)';
export const OVERALL_ENTRY = 'All sheets (overall)';
/** The row after the overall hash that holds the signature (base64), in a signed workbook. */
export const SIGNATURE_ENTRY = 'Signature (Ed25519)';
/** Manifest rows naming the signing key: its fingerprint (or that the workbook is not signed), and its public key. */
export const SIGNED_BY = 'Signed by key';
export const SIGNING_PUBLIC_KEY = 'Signing public key (Ed25519)';
const CHECK_TEXT =
  'attest verify <file.xlsx> recomputes every hash from the cells; attest verify --key <fingerprint> <file.xlsx> also checks who signed it.';
const HEADER_STYLE: Partial<ExcelJS.Style> = { font: { bold: true }, alignment: { wrapText: true, vertical: 'top' } };

/** The Evidence sheet's columns: labels, values (a SHA-256 fits on one line), then the collections' table. */
const EVIDENCE_WIDTHS = [26, 66, 20, 26, 8, 28, 10, 36, 10, 12, 12];
const EVIDENCE_WRAPS = EVIDENCE_WIDTHS.map(() => true);
const EVIDENCE_ALIGNMENT: Partial<ExcelJS.Alignment> = { vertical: 'top', wrapText: true };

export const DATE_FORMAT = 'yyyy-mm-dd hh:mm:ss';
const SAMPLE_ROWS = 200;
const MIN_WIDTH = 8;
const MAX_WIDTH = 24;
const HIGH_WATER = 1024 * 1024;
const YIELD_MS = 25;

export class ExportCancelled extends Error {
  override name = 'ExportCancelled';
  constructor() {
    super('export cancelled');
  }
}

/** What a failed write means, by its errno code. */
const WRITE_FAILURES: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EFBIG: 'the file is too large for this file system',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  EIO: 'an input/output error on the disk',
  ENOENT: 'the folder does not exist',
  ENOTDIR: 'a part of the path is not a folder',
  EISDIR: 'the path is a folder',
  ENAMETOOLONG: 'the path is too long',
};

/** The workbook could not be written: the message names the cause and the target path. */
export class ExportWriteError extends Error {
  override name = 'ExportWriteError';
  constructor(
    readonly path: string,
    readonly code: string,
    cause?: unknown,
  ) {
    super(`cannot write ${path}: ${WRITE_FAILURES[code] ?? 'the write failed'} (${code}); nothing was written there`, { cause });
  }
}

/** An error of the file system as an ExportWriteError for `target`; other errors as they are. */
function writeError(target: string, error: unknown): Error {
  if (error instanceof ExportWriteError || error instanceof ExportCancelled) return error;
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (typeof code === 'string' && /^E[A-Z0-9]+$/.test(code)) return new ExportWriteError(target, code, error);
  return error instanceof Error ? error : new Error(String(error));
}

// Temp files are ".<name>.<pid>.<random>.tmp" next to the target. Those of a process that no
// longer runs (a killed export), or of this process but no longer in use, are removed by the next
// export into that folder.
const TEMP_FILE = /^\..+\.xlsx\.(\d+)(?:\.[0-9a-f]{8})?\.tmp$/i;
const tempsInUse = new Set<string>();

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the stale temp files of earlier exports in `dir`; returns their names. */
export async function removeStaleTemps(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return []; // the folder's own problem is reported when the temp file is created
  }
  const stale = names.filter((name) => {
    const pid = Number(TEMP_FILE.exec(name)?.[1] ?? NaN);
    if (!Number.isSafeInteger(pid)) return false;
    return pid === process.pid ? !tempsInUse.has(join(dir, name)) : !processAlive(pid);
  });
  const removed = await Promise.all(
    stale.map((name) =>
      rm(join(dir, name), { force: true }).then(
        () => name,
        () => null,
      ),
    ),
  );
  return removed.filter((name): name is string => name !== null);
}

/** Excel's sheet-name rules: at most 31 characters, none of : \ / ? * [ ]. */
export function checkSheetName(name: string): void {
  if (!name || name.length > 31 || /[:\\/?*[\]]/.test(name) || name.startsWith("'") || name.endsWith("'")) {
    throw new Error(`invalid sheet name '${name}'`);
  }
}

/** Characters of a cell on its longest line (dates as their formatted text). */
function longestLine(value: CellValue): number {
  if (value === null || value === undefined) return 0;
  if (value instanceof Date) return 19;
  let widest = 0;
  for (const line of String(value).split('\n')) widest = Math.max(widest, line.length);
  return widest;
}

/**
 * Widths in characters: the width a column asks for, else fitted to its values in the first rows
 * (their longest line; long text wraps at MAX_WIDTH) and to the longest word of its header (the
 * header wraps), never below MIN_WIDTH.
 */
export function columnWidths(columns: readonly ColumnSpec[], sample: readonly (readonly CellValue[])[]): number[] {
  return columns.map((c, i) => {
    if (c.width) return c.width;
    if (c.type === 'date') return 20;
    let widest = Math.max(...c.header.split(/\s+/).map((word) => word.length)) + 2;
    for (const row of sample) widest = Math.max(widest, longestLine(row[i]) + 2);
    return Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, widest));
  });
}

/** Points of one line of text at the default font (11 pt), as a spreadsheet program spaces rows. */
export const LINE_POINTS = 15;

/**
 * Lines `text` takes wrapped in a column `width` characters wide: words go on a line while they
 * fit, a word longer than the line breaks over lines. A width counts digits; text of letters
 * and spaces is narrower (1.3 characters a digit in LibreOffice, 1.15 in Excel): reckoning 1.1
 * errs long, so no wrapped line is cut off.
 */
export function wrappedLines(text: string, width: number): number {
  const perLine = Math.max(1, Math.floor(width * 1.1) - 1);
  let lines = 0;
  for (const paragraph of text.split('\n')) {
    let used = 0;
    lines += 1;
    for (const word of paragraph.split(' ')) {
      const length = word.length;
      if (used > 0 && used + 1 + length > perLine) {
        lines += 1;
        used = 0;
      }
      used += (used > 0 ? 1 : 0) + length;
      while (used > perLine) {
        lines += 1;
        used -= perLine;
      }
    }
  }
  return lines;
}

/**
 * The height in points of a row whose cells wrap (`wraps[i]`) in columns of `widths`, or
 * undefined for one line. Spreadsheet programs do not size rows to wrapped text on opening a
 * file: without a height, wrapped lines overlap the next row.
 */
export function rowHeight(values: readonly CellValue[], widths: readonly number[], wraps: readonly boolean[]): number | undefined {
  let lines = 1;
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i];
    if (!wraps[i] || typeof value !== 'string') continue;
    const width = widths[i] ?? MIN_WIDTH;
    if (value.length < width - 1 && !value.includes('\n')) continue;
    lines = Math.max(lines, wrappedLines(value, width));
  }
  // Excel's highest row is 409 points; a longer cell shows its start.
  return lines > 1 ? Math.min(409, lines * LINE_POINTS) : undefined;
}

/** One style per column, shared by its cells: top-aligned, long text wrapped, dates in DATE_FORMAT. */
function columnStyle(c: ColumnSpec, label: boolean): Partial<ExcelJS.Style> {
  if (c.type === 'date') return { numFmt: DATE_FORMAT, alignment: { vertical: 'top' } };
  if (label) return { font: { bold: true }, alignment: { vertical: 'top', wrapText: true } };
  if ((c.type === 'text' || c.type === 'enum') && c.wrap !== false) return { alignment: { vertical: 'top', wrapText: true } };
  return { alignment: { vertical: 'top' } };
}

/** Excel's header/footer codes: "&" of a text is written "&&". Excel keeps at most 255 characters. */
const footerText = (text: string): string => text.replace(/&/g, '&&');

/** The footer of every sheet: its name on the left, the report's footer line centred, page x of y on the right. */
export function pageFooter(sheet: string, footer: string): string {
  return `&L${footerText(sheet)}&C${footerText(footer)}&RPage &P of &N`;
}

/** Longest footer line the Evidence sheet names (Excel's 255 characters, less the sheet name and page codes). */
export const MAX_FOOTER = 160;

/**
 * In the evidence workbook, the sheets that print their header row only: one row per setting,
 * step, membership (thousands in a tenant), for reading on screen, where on paper they would take
 * hundreds of pages. Their own reports (`attest export access`...) print them in full. The Raw
 * sheet's JSON (for programs) and the Locator's digests (for verify) print their header row only
 * in every report.
 */
export const EVIDENCE_HEADER_ROW_ONLY: ReadonlySet<string> = new Set([
  'Campaign settings',
  'Template settings',
  'Automation steps',
  'Step settings',
  'Access',
  'Task details',
  // Their names stand beside every id that names them; their own reports print them whole.
  'Users',
  'Policies',
]);

/** How many of these columns fit one page wide at the smallest print scale (at least one). */
export function firstPageColumns(widths: readonly number[]): number {
  const room = PRINTABLE_POINTS / (MIN_PRINT_SCALE / 100);
  let columns = 0;
  for (let used = 0; columns < widths.length && used + widths[columns]! * POINTS_PER_CHARACTER <= room; columns += 1)
    used += widths[columns]! * POINTS_PER_CHARACTER;
  return Math.max(1, columns);
}

/** Excel's letter of a 0-based column index. */
export function columnLetter(index: number): string {
  let n = index + 1;
  let out = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

/** Margins in inches: narrow, room for the footer. */
const MARGINS = { left: 0.4, right: 0.4, top: 0.5, bottom: 0.6, header: 0.3, footer: 0.3 };
/**
 * The smallest print scale, in percent: the default font (11 pt) and the footer print at 8.25 pt
 * at least. A sheet wider than a page at this scale prints its columns over more pages (across,
 * then down) rather than shrinking further.
 */
export const MIN_PRINT_SCALE = 75;
/** Printable width of a landscape letter page at 100 %, in points (A4 is wider). */
const PRINTABLE_POINTS = (11 - MARGINS.left - MARGINS.right) * 72;
/**
 * Points a column takes per character of width: a width counts digits of the default font
 * (Calibri 11 pt, 5.6 pt a digit); where it is missing, LibreOffice's stand-in (DejaVu Sans,
 * 7 pt a digit) is wider: the scale is reckoned for that.
 */
const POINTS_PER_CHARACTER = 7;

/**
 * The print scale of a sheet of these column widths: the largest that fits them on one page wide,
 * but never under MIN_PRINT_SCALE nor over 100 %.
 */
export function printScale(widths: readonly number[]): number {
  const points = widths.reduce((sum, w) => sum + w * POINTS_PER_CHARACTER, 0);
  const fit = Math.floor((PRINTABLE_POINTS / Math.max(1, points)) * 100);
  return Math.min(100, Math.max(MIN_PRINT_SCALE, fit));
}

/**
 * Landscape at a readable scale (printScale), narrow margins, the header row repeated on every
 * page of a table, and the footer (when the report gives one). The scale is set once the
 * column widths are known.
 */
function printSetup(name: string, footer: string | undefined, titles: boolean): Partial<ExcelJS.AddWorksheetOptions> {
  return {
    pageSetup: {
      orientation: 'landscape',
      fitToPage: false,
      scale: 100,
      pageOrder: 'overThenDown',
      margins: MARGINS,
      ...(titles ? { printTitlesRow: '1:1' } : {}),
    },
    ...(footer ? { headerFooter: { oddFooter: pageFooter(name, footer) } } : {}),
  } as Partial<ExcelJS.AddWorksheetOptions>;
}

/** Internals of exceljs's StreamBuf that we read for backpressure (see waitForDrain). */
interface StreamBufLike {
  pipes?: Writable[];
  buffers?: unknown[];
}

/** exceljs's streaming WorksheetWriter (typed as a Worksheet by exceljs). */
/**
 * Bytes waiting in a pipe destination. archiver wraps exceljs's stream in a readable-stream v2
 * PassThrough, which has no writableLength getter: read its state.
 */
type LegacyWritable = Writable & { _writableState?: { length?: number; needDrain?: boolean } };
const pending = (p: LegacyWritable): number => p._writableState?.length ?? p.writableLength ?? 0;
const needsDrain = (p: LegacyWritable): boolean => Boolean(p._writableState?.needDrain ?? p.writableNeedDrain);

/** Resolves when the stream drains, ends or fails, or after a short while (then the caller looks again). */
function drained(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    const events = ['drain', 'finish', 'close', 'error'] as const;
    const done = (): void => {
      clearTimeout(timer);
      for (const e of events) stream.off(e, done);
      resolve();
    };
    const timer = setTimeout(done, 50);
    for (const e of events) stream.on(e, done);
  });
}

type SheetWriter = ExcelJS.Worksheet & { commit(): void; stream: StreamBufLike };

interface EvidenceLine {
  values: CellValue[];
  bold?: boolean;
  /** Column B holds a hash or the signature: taken as empty when the sheet itself is hashed. */
  hashCell?: boolean;
}

const formatsOf = (values: readonly CellValue[]): (string | undefined)[] =>
  values.map((v) => (v instanceof Date ? DATE_FORMAT : undefined));

/**
 * The Evidence sheet's rows (null: an empty row): the manifest, an empty row, then the hash
 * table: the Evidence sheet itself (hashed whole but for its hash cells, the Rows cell
 * included), every data sheet, the overall hash, the signature, the canonical form.
 */
export function evidenceSheet(
  manifest: readonly (readonly CellValue[])[],
  sheets: readonly SheetResult[],
  signer?: EvidenceSigner,
  properties: Record<string, string> = {},
): { rows: (EvidenceLine | null)[]; evidenceSha256: string; overallSha256: string } {
  const rows: (EvidenceLine | null)[] = manifest.map((values, i) => ({ values: values.map(storedValue), bold: i === 0 }));
  rows.push(null);
  rows.push({ values: [HASHES_MARKER, `SHA-256 of each sheet's canonical content (${CANONICAL_FORM})`], bold: true });
  rows.push({ values: ['Sheet', 'SHA-256', 'Rows'], bold: true });
  const own: EvidenceLine = { values: [EVIDENCE_SHEET, null, null], hashCell: true };
  const propertiesEntry = { name: PROPERTIES_ENTRY, sha256: propertiesSha256(properties) };
  rows.push(own, ...sheets.map((s) => ({ values: [s.name, s.sha256, s.rows], hashCell: true })));
  rows.push({ values: [PROPERTIES_ENTRY, propertiesEntry.sha256, null], hashCell: true });
  const overall: EvidenceLine = { values: [OVERALL_ENTRY, null], hashCell: true };
  const signature: EvidenceLine | null = signer ? { values: [SIGNATURE_ENTRY, null], hashCell: true } : null;
  rows.push(overall);
  if (signature) rows.push(signature);
  rows.push({ values: ['Canonical form', CANONICAL_FORM_TEXT] }, { values: ['Check', CHECK_TEXT] });
  own.values[2] = rows.filter((r) => r?.values.some((v) => v !== null && v !== undefined)).length;

  const hasher = new SheetHasher({ name: EVIDENCE_SHEET });
  rows.forEach((row, i) => {
    if (!row) return;
    const values = row.hashCell ? row.values.map((v, col) => (col === 1 ? null : v)) : row.values;
    hasher.add(i + 1, values, formatsOf(values));
  });
  const evidenceSha256 = hasher.digest();
  own.values[1] = evidenceSha256;
  const overallSha256 = overallHash([{ name: EVIDENCE_SHEET, sha256: evidenceSha256 }, ...sheets, propertiesEntry]);
  overall.values[1] = overallSha256;
  if (signature && signer) signature.values[1] = signer.sign(signedMessage(CANONICAL_FORM, overallSha256)).toString('base64');
  return { rows, evidenceSha256, overallSha256 };
}

/** The sheet of the digests that locate a change in every other sheet without the original (digests.ts). */
function locatorSheet(sheets: readonly { name: string; digests: SheetDigests }[]): SheetSpec {
  return {
    name: LOCATOR_SHEET,
    paper: 'header row',
    columns: [
      { header: 'Sheet', type: 'text', width: 24 },
      { header: 'Digests of', type: 'text', width: 12 },
      { header: 'From', type: 'int', width: 10 },
      {
        header: 'Digests: SHA-256 of each row (then of each column), first 8 bytes, base64url; verify names changed rows and cells by them',
        type: 'text',
        width: 100,
        wrap: false,
      },
    ],
    rows: locatorRows(sheets),
  };
}

/** The shown document properties of a workbook this module writes (see properties.ts). */
export function writtenProperties(creator: string | undefined, created: Date | undefined): Record<string, string> {
  const shown: Record<string, string> = {};
  if (creator) shown['core:creator'] = creator;
  if (created) shown['core:created'] = `${created.toISOString().slice(0, 19)}Z`;
  return shown;
}

export class ReportWorkbook {
  private readonly sheets: SheetResult[] = [];
  /** Each written sheet's row and column digests, for the Locator sheet. */
  private readonly digests: { name: string; digests: SheetDigests }[] = [];
  private readonly worksheets: SheetWriter[] = [];
  private finished = false;
  private lastYield = Date.now();
  /** The first write error, or the cancel: every wait of the export ends on it. */
  private failure: Error | null = null;
  private readonly interrupted: Promise<never>;
  private interrupt: (error: Error) => void = () => undefined;

  private constructor(
    readonly target: string,
    private readonly temp: string,
    private readonly file: Writable,
    private readonly workbook: ExcelJS.stream.xlsx.WorkbookWriter,
    private readonly options: WorkbookOptions,
  ) {
    this.interrupted = new Promise<never>((_, reject) => {
      this.interrupt = reject;
    });
    this.interrupted.catch(() => undefined);
    file.on('error', (error) => this.fail(error));
    (workbook as unknown as { zip: NodeJS.EventEmitter }).zip.on('error', (error: unknown) => this.fail(error));
    options.signal?.addEventListener('abort', () => this.fail(new ExportCancelled()), { once: true });
  }

  /**
   * Starts a workbook that will appear at `target` when finish() completes. Stale temp files of
   * earlier exports into the same folder are removed first.
   */
  static async create(target: string, options: WorkbookOptions = {}): Promise<ReportWorkbook> {
    const dir = dirname(target);
    await removeStaleTemps(dir);
    if (options.signal?.aborted) throw new ExportCancelled();
    const temp = join(dir, `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    let handle: FileHandle;
    try {
      handle = await open(temp, 'wx', 0o644);
    } catch (error) {
      throw writeError(target, error);
    }
    tempsInUse.add(temp);
    const file = options.output ? options.output(handle) : handle.createWriteStream();
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: file, useSharedStrings: false, useStyles: true });
    // The document properties the workbook is written with, hashed as the hash table's "[Document properties]".
    workbook.creator = options.creator ?? 'Attest';
    workbook.lastModifiedBy = 'Attest';
    workbook.created = new Date(Math.floor(Date.now() / 1000) * 1000);
    workbook.modified = workbook.created;
    return new ReportWorkbook(target, temp, file, workbook, options);
  }

  private fail(error: unknown): void {
    if (this.failure) return;
    this.failure = writeError(this.target, error);
    this.interrupt(this.failure);
  }

  /** Throws the write error or the cancel, if either happened. */
  private checkCancel(): void {
    if (this.failure) throw this.failure;
    if (this.options.signal?.aborted) throw new ExportCancelled();
  }

  /** Waits for `step`, or ends at once with the write error or the cancel. */
  private until<T>(step: Promise<T>): Promise<T> {
    return Promise.race([step, this.interrupted]);
  }

  /**
   * exceljs's StreamBuf writes into the zip's deflate stream without looking at its return value;
   * wait here while that stream (or the file behind it) has more than it can take.
   */
  private async waitForDrain(sheet: SheetWriter): Promise<void> {
    this.checkCancel();
    for (;;) {
      const pipes = sheet.stream.pipes ?? [];
      const full = pipes.find((p) => pending(p) > HIGH_WATER || needsDrain(p));
      const unpiped = pipes.length === 0 && (sheet.stream.buffers?.length ?? 0) > 64;
      if (full) await drained(full);
      else if (unpiped) await new Promise((resolve) => setImmediate(resolve));
      else break;
      this.checkCancel();
    }
    if (Date.now() - this.lastYield > YIELD_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      this.lastYield = Date.now();
      this.checkCancel();
    }
  }

  /** Writes one data sheet, streaming its rows, and returns its row count and hash. */
  async addSheet(spec: SheetSpec): Promise<SheetResult> {
    if (this.finished) throw new Error('workbook already finished');
    checkSheetName(spec.name);
    if (spec.name === EVIDENCE_SHEET || this.sheets.some((s) => s.name === spec.name)) {
      throw new Error(`duplicate sheet name '${spec.name}'`);
    }
    this.checkCancel();
    const form = spec.layout === 'form';
    const sheet = this.workbook.addWorksheet(spec.name, {
      ...(form ? {} : { views: [{ state: 'frozen', ySplit: 1, xSplit: 0 }] }),
      ...printSetup(spec.name, this.options.footer, !form),
    }) as SheetWriter;
    this.worksheets.push(sheet);
    const digests = spec.name === LOCATOR_SHEET ? undefined : new SheetDigests();
    const hasher = new SheetHasher({ name: spec.name }, CANONICAL_FORM, digests);
    if (digests) this.digests.push({ name: spec.name, digests });
    const headers = spec.columns.map((c) => storedValue(c.header));
    const every = this.options.progressEvery ?? 5_000;
    const sheetIndex = this.sheets.length;
    let rowNumber = 1;
    let rows = 0;

    // One style object per column, shared by all its cells: exceljs caches a style's id by object
    // identity, where a fresh object per cell would be serialised and looked up cell by cell.
    const styles = spec.columns.map((c, i) => columnStyle(c, form && i === 0));
    const formats = spec.columns.map((c) => (c.type === 'date' ? DATE_FORMAT : undefined));
    const sample: CellValue[][] = [];
    const wraps = styles.map((style) => style.alignment?.wrapText === true);
    const headerWraps = spec.columns.map(() => true);
    let widthsInUse: number[] = [];
    /** The columns a row's height is sized for (null: all of them). */
    let heightColumns: number | null = null;
    /** The print area (its last row added once the rows are written) and its columns in words. */
    let printed: { area: string; words: string } | undefined;
    let started = false;
    const start = (): void => {
      const widths = columnWidths(spec.columns, sample);
      sheet.columns = spec.columns.map((c, i) => ({
        key: `c${i}`,
        width: widths[i],
        style: styles[i] as Partial<ExcelJS.Style>,
      }));
      sheet.pageSetup.scale = printScale(widths);
      if (spec.paper) {
        const last = columnLetter(firstPageColumns(widths) - 1);
        if (spec.paper === 'header row') printed = { area: `A$1:${last}$1`, words: `A:${last}, row 1` };
        else if (firstPageColumns(widths) < widths.length) printed = { area: `A$1:${last}$`, words: `A:${last}` };
      }
      widthsInUse = widths;
      // On paper only the first columns print: rows are as tall as those need (the rest of a long
      // cell shows when the row is opened up, and in full in the sheet's own report).
      if (printed && spec.paper === 'first page wide') heightColumns = firstPageColumns(widths);
      // Headers are bold text in the General format, whatever their column's format.
      const header = sheet.addRow(headers);
      const headerHeight = rowHeight(headers, widths, headerWraps);
      if (headerHeight) header.height = headerHeight;
      header.eachCell((cell: ExcelJS.Cell) => {
        cell.style = HEADER_STYLE;
      });
      header.commit();
      hasher.add(1, headers);
      started = true;
    };
    const write = (values: CellValue[]): void => {
      rowNumber += 1;
      const row = sheet.addRow(values);
      const height = rowHeight(heightColumns === null ? values : values.slice(0, heightColumns), widthsInUse, wraps);
      if (height) row.height = height;
      for (let i = 0; i < styles.length; i += 1) {
        const cell = row.findCell(i + 1);
        if (cell) cell.style = styles[i] as Partial<ExcelJS.Style>;
      }
      row.commit();
      hasher.add(rowNumber, values, formats);
      rows += 1;
    };
    const normalise = (row: readonly CellValue[]): CellValue[] => {
      const values = new Array<CellValue>(spec.columns.length);
      for (let i = 0; i < values.length; i += 1) values[i] = storedValue(row[i]);
      return values;
    };

    try {
      for await (const row of spec.rows) {
        const values = normalise(row);
        if (!started) {
          sample.push(values);
          if (sample.length < SAMPLE_ROWS) continue;
          start();
          for (const buffered of sample.splice(0)) write(buffered);
        } else {
          write(values);
        }
        if (rows % 256 === 0) await this.waitForDrain(sheet);
        if (rows % every === 0) this.options.onProgress?.({ sheet: spec.name, sheetIndex, rows, total: spec.total });
      }
      if (!started) {
        start();
        for (const buffered of sample.splice(0)) write(buffered);
      }
      if (!form) sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: rowNumber, column: Math.max(1, headers.length) } };
      if (printed) sheet.pageSetup.printArea = printed.area.endsWith('$') ? `${printed.area}${rowNumber}` : printed.area;
      sheet.commit();
    } catch (error) {
      await this.abort();
      throw this.failure ?? error;
    }
    // The rows as a reader counts them (an empty spacer row is none). A sheet that did not state
    // its size in advance still does not: its rows are not in rowsTotal.
    const counted = Math.max(0, hasher.rows - 1);
    this.options.onProgress?.({ sheet: spec.name, sheetIndex, rows: counted, total: spec.total });
    const result: SheetResult = {
      name: spec.name,
      rows: counted,
      sha256: hasher.digest(),
      ...(printed ? { printed: printed.words } : {}),
    };
    this.sheets.push(result);
    return result;
  }

  /**
   * Writes the Evidence sheet (the manifest rows given, then the hash table, signed by `signer`
   * when given), puts it first in the workbook, and moves the finished file to the target path.
   */
  async finish(manifest: readonly (readonly CellValue[])[], signer?: EvidenceSigner, opts: FinishOptions = {}): Promise<WorkbookResult> {
    if (this.finished) throw new Error('workbook already finished');
    if (this.digests.length) await this.addSheet(locatorSheet(this.digests));
    try {
      this.checkCancel();
      // The sheets named first (a cover) open the workbook and its hash table, before the Evidence sheet.
      const first = new Set(opts.first ?? []);
      const rank = (name: string): number => (first.has(name) ? 0 : 1);
      this.sheets.sort((a, b) => rank(a.name) - rank(b.name));
      const sheet = this.workbook.addWorksheet(EVIDENCE_SHEET, printSetup(EVIDENCE_SHEET, this.options.footer, false)) as SheetWriter;
      sheet.columns = EVIDENCE_WIDTHS.map((width, i) => ({ key: `c${i}`, width }));
      sheet.pageSetup.scale = printScale(EVIDENCE_WIDTHS);
      const { creator, created } = this.workbook;
      const evidence = evidenceSheet(manifest, this.sheets, signer, writtenProperties(creator, created));
      for (const line of evidence.rows) {
        const row = sheet.addRow(line?.values ?? []);
        row.eachCell((cell: ExcelJS.Cell) => {
          if (cell.value instanceof Date) cell.numFmt = DATE_FORMAT;
          // Long text wraps in its column: on paper, text running on past its cell is cut at the page's edge.
          else if (typeof cell.value === 'string') cell.alignment = EVIDENCE_ALIGNMENT;
        });
        const height = line ? rowHeight(line.values, EVIDENCE_WIDTHS, EVIDENCE_WRAPS) : undefined;
        if (height) row.height = height;
        if (line?.bold) row.font = { bold: true };
        row.commit();
      }
      sheet.commit();
      const { evidenceSha256, overallSha256 } = evidence;

      // Tab order: the sheets named first, the Evidence sheet, the others as written. The Evidence
      // sheet's zip entry is written last (only then are the hashes known); exceljs orders the
      // workbook's sheets by its internal list.
      const internal = this.workbook as unknown as { _worksheets: (SheetWriter | undefined)[] };
      const others = internal._worksheets.filter((w): w is SheetWriter => Boolean(w) && w !== sheet);
      const opening = others.filter((w) => first.has(w.name));
      const rest = others.filter((w) => !first.has(w.name));
      const ordered: (SheetWriter | undefined)[] = [];
      for (const [i, w] of [...opening, sheet, ...rest].entries()) ordered[i + 1] = w; // index 0 stays a hole
      internal._worksheets = ordered;

      await this.until(this.workbook.commit());
      if (!this.file.closed) await this.until(once(this.file, 'close'));
      this.checkCancel();
      const handle = await this.until(open(this.temp, 'r+'));
      let bytes: number;
      try {
        await this.until(handle.sync());
        bytes = (await this.until(handle.stat())).size;
      } finally {
        await handle.close().catch(() => undefined);
      }
      this.checkCancel();
      await this.until(rename(this.temp, this.target));
      this.finished = true;
      tempsInUse.delete(this.temp);
      return { file: this.target, sheets: [...this.sheets], evidenceSha256, overallSha256, signedBy: signer?.fingerprint ?? null, bytes };
    } catch (error) {
      await this.abort();
      throw writeError(this.target, error);
    }
  }

  /** Stops writing and removes the temp file; the target path is never touched. */
  async abort(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    const zip = (this.workbook as unknown as { zip?: { abort?: () => void } }).zip;
    try {
      zip?.abort?.();
    } catch {
      // already ended
    }
    if (!this.file.closed) {
      this.file.destroy();
      await once(this.file, 'close').catch(() => undefined);
    }
    // A temp file that cannot be removed now (an I/O error) is removed by a later export.
    await rm(this.temp, { force: true }).catch(() => undefined);
    tempsInUse.delete(this.temp);
  }
}
