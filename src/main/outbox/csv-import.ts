/**
 * Bulk import from CSV (csv-parse): the whole file is read and validated first, with errors by line
 * and column; duplicates within the file and against the queue are reported; the caller queues all
 * valid rows in one transaction, or none when any row has an error, or (a partial import) the valid
 * rows while the refused ones go to a rejects CSV: the file's own columns plus `rejected_line` and
 * `rejected_reason`, to be fixed and imported again (the importer ignores those two columns). Each row goes through the same
 * check step as a single change (`prepareChange`): the spec's rules, then the store's (a refusal
 * is a row error at the column it is about; a warning, such as an unknown id, is a row warning).
 *
 * Accepted: a UTF-8 BOM, CRLF / LF / CR line ends, quoted fields (with commas, quotes, line breaks),
 * empty and blank lines (skipped), header names in snake_case or camelCase, in any order, extra
 * columns (ignored, with a warning).
 */
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { CellTypeError, readCell } from './csv-cells';
import {
  cachingContext,
  descriptorOf,
  prepareChange,
  type CsvColumn as ColumnSpec,
  type CsvImport,
  type PreparedChange,
  type ValidationContext,
} from './kinds';
import { OutboxValidationError, type ImportPreview, type ImportRowError, type MutationKind, type OutboxState } from './types';

/** The kinds whose descriptor declares a CSV import. */
export type ImportKind = 'remove-membership' | 'create-scope' | 'escalate-task' | 'update-template';

export const IMPORT_KINDS: readonly ImportKind[] = ['remove-membership', 'create-scope', 'escalate-task', 'update-template'];

/** The CSV import a kind declares, or null. */
function csvOf(kind: string): CsvImport | null {
  return (IMPORT_KINDS as readonly string[]).includes(kind) ? (descriptorOf(kind).csv ?? null) : null;
}

/** A kind's CSV columns (for usage texts and docs). */
export function importColumns(kind: ImportKind): string[] {
  return csvOf(kind)?.columns.map((c) => c.name) ?? [];
}

/** 'app_id', 'appId', 'App ID' all name the same column. */
function normalizeHeader(name: string): string {
  return name
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
}

const UTF16_BOMS: [number, number][] = [
  [0xff, 0xfe],
  [0xfe, 0xff],
];

/**
 * Decodes file bytes as UTF-8. Returns the text, or an error naming the line and column of the
 * first bytes that are not UTF-8 (a spreadsheet saved as Latin-1 or UTF-16, say).
 */
export function decodeCsvBytes(bytes: Uint8Array): { text: string; error: null } | { text: null; error: ImportRowError } {
  for (const [a, b] of UTF16_BOMS) {
    if (bytes[0] === a && bytes[1] === b) {
      return { text: null, error: { line: 1, column: 0, field: 'file', message: 'the file is UTF-16: save it as CSV UTF-8' } };
    }
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), error: null };
  } catch {
    const loose = new TextDecoder('utf-8').decode(bytes);
    const at = loose.indexOf('\uFFFD');
    const before = loose.slice(0, Math.max(0, at));
    const line = before.split(/\r\n|\r|\n/).length;
    const column = at - Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r'));
    return {
      text: null,
      error: {
        line,
        column,
        field: 'file',
        message: `line ${line}, character ${column}: bytes that are not UTF-8 (the file looks like Latin-1 or another charset): save it as CSV UTF-8`,
      },
    };
  }
}

/** A data row the import refused: its fields as read, and why. */
export interface RefusedRow {
  line: number;
  fields: string[];
  reason: string;
}

export interface ParsedImport {
  preview: ImportPreview;
  changes: { line: number; change: PreparedChange }[];
  /** The header's fields as read (empty when the file has none). */
  header: string[];
  /** The data rows refused, one per row (the first problem found on it). */
  refused: RefusedRow[];
}

/** The columns a rejects CSV adds to the file's own; an import ignores them, so the file can be fixed and imported again. */
export const REJECT_COLUMNS = ['rejected_line', 'rejected_reason'] as const;
const isRejectColumn = (name: string) => REJECT_COLUMNS.some((c) => normalizeHeader(c) === normalizeHeader(name));

/** The errors that stop any import, partial or not: those about the file as a whole (it is no CSV, its header) rather than one of its rows. */
export function fileErrorsOf(parsed: Pick<ParsedImport, 'preview' | 'refused'>): number {
  return parsed.preview.errors.length - parsed.refused.length;
}

/**
 * The refused rows as a CSV to fix and import again: the file's header and each refused row's
 * fields as read, then the line it was on and why it was refused (a rejects file imported again
 * drops its earlier reasons first). Null when no row was refused.
 */
export function rejectsCsv(parsed: Pick<ParsedImport, 'header' | 'refused'>): string | null {
  if (parsed.refused.length === 0) return null;
  const keep = parsed.header.map((name, i) => (isRejectColumn(name) ? -1 : i)).filter((i) => i >= 0);
  const pick = (fields: string[]) => keep.map((i) => fields[i] ?? '');
  const records = [
    [...pick(parsed.header), ...REJECT_COLUMNS],
    ...parsed.refused.map((r) => [...pick(r.fields), String(r.line), r.reason]),
  ];
  return stringify(records, { record_delimiter: '\r\n' });
}

type ActiveLookup = (kind: MutationKind, dedupeKey: string) => { id: string; state: OutboxState } | undefined;

function badCharacter(value: string): { index: number; what: string } | null {
  for (let i = 0; i < value.length; i += 1) {
    const c = value.charCodeAt(i);
    if (c === 0xfffd) return { index: i, what: 'a replacement character (U+FFFD): the file was probably not saved as UTF-8' };
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a) || c === 0x7f)
      return { index: i, what: `a control character (U+${c.toString(16).toUpperCase().padStart(4, '0')})` };
  }
  return null;
}

/** What is wrong with a CSV, by csv-parse's error code: its own messages quote the file. */
function csvProblem(code: string | undefined): string {
  switch (code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quoted value is never closed';
    case 'CSV_INVALID_CLOSING_QUOTE':
      return 'a closing quote is followed by other characters (write a quote inside a quoted value as "")';
    case 'INVALID_OPENING_QUOTE':
    case 'CSV_INVALID_OPENING_QUOTE':
      return 'a quote inside a value that is not quoted (quote the whole value and write the quote as "")';
    default:
      return code ? `it cannot be parsed (${code})` : 'it cannot be parsed';
  }
}

/** A header name for a message: quoted when short and printable, else described (no file content is echoed). */
function headerName(field: string): string {
  const name = field.trim();
  return /^[\x20-\x7e]{1,64}$/.test(name) ? `'${name}'` : '(an unreadable name)';
}

function headerNames(fields: readonly string[]): string {
  const named = fields.slice(0, 12).map((f, i) => (headerName(f).startsWith("'") ? headerName(f) : `column ${i + 1} ${headerName(f)}`));
  return `${named.join(', ')}${fields.length > 12 ? `, … (${fields.length} columns)` : ''}`;
}

/** A data row: its fields, and the physical line it starts on. */
interface CsvRow {
  fields: string[];
  line: number;
}

/** Where each known column is: spec name -> 0-based index in the header. */
type Positions = Map<string, number>;

function fileError(line: number, message: string): ImportRowError {
  return { line, column: 0, field: 'file', message };
}

/** The file as text (bytes checked to be UTF-8), without BOM, with LF line ends. */
function readText(csvInput: string | Uint8Array): { text: string } | { error: ImportRowError } {
  let text: string;
  if (typeof csvInput === 'string') text = csvInput;
  else {
    const decoded = decodeCsvBytes(csvInput);
    if (decoded.error) return { error: decoded.error };
    text = decoded.text;
  }
  return { text: text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n') };
}

/** The non-blank records of the CSV, each with the line it starts on. */
function readRows(text: string): { rows: CsvRow[] } | { error: ImportRowError } {
  let records: { record: string[]; raw: string; info: { lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
      raw: true,
      record_delimiter: '\n',
    }) as unknown as typeof records;
  } catch (error) {
    const e = error as { code?: string; lines?: number };
    return { error: fileError(e.lines ?? 0, `the file is not valid CSV: ${csvProblem(e.code)}`) };
  }
  const rows = records
    .map((r) => {
      const inner = r.raw.replace(/^\n+/, '').replace(/\n$/, '');
      const newlines = inner.split('\n').length - 1;
      return { fields: r.record, line: r.info.lines - newlines };
    })
    .filter((r) => r.fields.some((f) => f.trim() !== ''));
  return { rows };
}

/** A header naming no column of the kind: a warning (the column is ignored), or an error naming it when the kind refuses unknown columns. */
function unknownColumn(
  name: string,
  index: number,
  line: number,
  kind: ImportKind,
  csv: CsvImport,
): { error?: ImportRowError; warning?: string } {
  if (name.trim() === '') return {};
  const named = `column ${index + 1} ${headerName(name)}`;
  if (csv.unknownColumns !== 'refuse') return { warning: `${named} is not used by ${kind} and is ignored` };
  const reason = csv.refusedColumn?.(name) ?? `it is not a column of ${kind} (known: ${csv.columns.map((c) => c.name).join(', ')})`;
  return { error: { line, column: index + 1, field: name.trim().slice(0, 64), message: `${named}: ${reason}` } };
}

/** Maps each known column of the header to its position; unknown columns are warned about (or refused), repeated and missing ones are errors. */
function mapHeader(header: CsvRow, kind: ImportKind, csv: CsvImport, errors: ImportRowError[], warnings: string[]): Positions {
  const specs = csv.columns;
  const position: Positions = new Map();
  header.fields.forEach((name, index) => {
    const key = normalizeHeader(name);
    if (isRejectColumn(name)) return;
    const spec = specs.find((s) => normalizeHeader(s.name) === key || normalizeHeader(s.field) === key);
    if (!spec) {
      const { error, warning } = unknownColumn(name, index, header.line, kind, csv);
      if (error) errors.push(error);
      if (warning) warnings.push(warning);
      return;
    }
    const earlier = position.get(spec.name);
    if (earlier !== undefined) {
      errors.push({
        line: header.line,
        column: index + 1,
        field: spec.name,
        message: `column '${spec.name}' appears twice (columns ${earlier + 1} and ${index + 1})`,
      });
      return;
    }
    position.set(spec.name, index);
  });
  const missing = specs.filter((s) => s.required && !position.has(s.name));
  if (missing.length > 0) {
    const found = headerNames(header.fields);
    errors.push({
      line: header.line,
      column: 0,
      field: missing.map((s) => s.name).join(','),
      message:
        position.size === 0
          ? `the first line must be a header naming the columns: ${specs.map((s) => s.name).join(', ')} (found: ${found})`
          : `missing column${missing.length > 1 ? 's' : ''} ${missing.map((s) => `'${s.name}'`).join(', ')} (the header has: ${found})`,
    });
  }
  return position;
}

/** A row with fewer fields than the columns it needs, or more than the header: the error, or null. */
function widthError(row: CsvRow, headerWidth: number, position: Positions, specs: ColumnSpec[]): ImportRowError | null {
  const width = row.fields.length;
  if (width === headerWidth) return null;
  const lastNeeded = Math.max(...[...position.values()]) + 1;
  if (width < lastNeeded) {
    const absent = specs.filter((s) => (position.get(s.name) ?? -1) >= width && s.required).map((s) => s.name);
    const has = `line ${row.line} has ${width} field${width === 1 ? '' : 's'} but the header has ${headerWidth}`;
    return {
      line: row.line,
      column: width + 1,
      field: absent[0] ?? specs[0]!.name,
      message: `${has}${absent.length ? `: ${absent.join(', ')} missing` : ''}`,
    };
  }
  if (width > headerWidth) {
    return {
      line: row.line,
      column: headerWidth + 1,
      field: 'row',
      message: `line ${row.line} has ${width} fields but the header has ${headerWidth}: quote values that contain commas`,
    };
  }
  return null;
}

/** Sets `value` at a dotted path of `input` (members of nested objects). */
function setPath(input: Record<string, unknown>, path: string, value: unknown): void {
  const [head, ...rest] = path.split('.') as [string, ...string[]];
  if (rest.length === 0) input[head] = value;
  else {
    const inner = (input[head] ?? {}) as Record<string, unknown>;
    input[head] = inner;
    setPath(inner, rest.join('.'), value);
  }
}

/** The cells a row gives, by field, typed as their columns say (empty optional cells left out), or the error of a bad cell. */
function rowInput(row: CsvRow, position: Positions, specs: ColumnSpec[]): { input: Record<string, unknown> } | { error: ImportRowError } {
  const input: Record<string, unknown> = {};
  for (const spec of specs) {
    const index = position.get(spec.name);
    if (index === undefined) continue;
    const raw = row.fields[index] ?? '';
    const bad = badCharacter(raw);
    const at = (message: string) => ({ error: { line: row.line, column: index + 1, field: spec.name, message } });
    if (bad) return at(`${spec.name} has ${bad.what} at character ${bad.index + 1}`);
    const typed = spec.type !== undefined && spec.type !== 'text';
    if (!spec.required && (raw === '' || (typed && raw.trim() === ''))) continue;
    try {
      setPath(input, spec.field, raw === '' ? raw : readCell(raw, spec.type ?? (spec.enumValues ? 'enum' : 'text'), spec.enumValues));
    } catch (error) {
      if (!(error instanceof CellTypeError)) throw error;
      return at(`${spec.name}: ${error.message}`);
    }
  }
  return { input };
}

/** A kind's refusal (or the store's warning) about a row's input, with the CSV column's name and position instead of the field's. */
function refusal(error: { field: string; message: string }, line: number, position: Positions, specs: ColumnSpec[]): ImportRowError {
  const spec = specs.find((s) => s.field === error.field || s.name === error.field);
  const named = spec && error.message.startsWith(error.field);
  const message = named ? error.message.replace(new RegExp(`^${error.field}\\b`), spec.name) : error.message;
  return { line, column: spec ? (position.get(spec.name) ?? -1) + 1 : 0, field: spec?.name ?? error.field, message };
}

/** The rows checked one by one: invalid ones are errors; duplicates (in the file, or queued) are reported; the rest become changes. */
class RowChecker {
  readonly #firstLineOf = new Map<string, number>();
  readonly #unchecked = new Set<string>();

  constructor(
    private readonly kind: ImportKind,
    private readonly ctx: ValidationContext,
    private readonly lookupActive: ActiveLookup,
    private readonly position: Positions,
    private readonly csv: CsvImport,
    private readonly out: ParsedImport,
  ) {}

  get specs(): ColumnSpec[] {
    return this.csv.columns;
  }

  check(row: CsvRow, headerWidth: number): void {
    const widthProblem = widthError(row, headerWidth, this.position, this.specs);
    if (widthProblem) return this.#refuse(row, widthProblem);
    const read = rowInput(row, this.position, this.specs);
    if ('error' in read) return this.#refuse(row, read.error);
    let change: PreparedChange;
    try {
      const input = this.csv.input ? this.csv.input(read.input, this.ctx) : read.input;
      change = prepareChange(this.kind, input, this.ctx);
    } catch (error) {
      if (!(error instanceof OutboxValidationError)) throw error;
      return this.#refuse(row, refusal(error, row.line, this.position, this.specs));
    }
    this.#accept(row.line, change);
  }

  #refuse(row: CsvRow, error: ImportRowError): void {
    this.out.preview.errors.push(error);
    // Named by its column, as the CLI prints it, unless the message names it already.
    const named = error.column > 0 && !error.message.startsWith(error.field);
    this.out.refused.push({ line: row.line, fields: row.fields, reason: named ? `${error.field}: ${error.message}` : error.message });
  }

  /** The file's warnings about what the store could not check. */
  get unchecked(): string[] {
    return [...this.#unchecked];
  }

  #accept(line: number, change: PreparedChange): void {
    const { preview, changes } = this.out;
    const first = this.#firstLineOf.get(change.dedupeKey);
    if (first !== undefined) {
      preview.duplicatesInFile.push({ line, firstLine: first, key: change.target });
      return;
    }
    this.#firstLineOf.set(change.dedupeKey, line);
    const queued = this.lookupActive(this.kind, change.dedupeKey);
    if (queued) {
      preview.duplicatesInQueue.push({ line, itemId: queued.id, itemState: queued.state, key: change.target });
      return;
    }
    preview.valid.push({ line, input: change.input, summary: change.summary, names: change.names });
    for (const w of change.warnings) {
      // What was not checked at all (a collection never synced) is said once for the file.
      if (w.severity === 'unchecked') this.#unchecked.add(w.message);
      else preview.rowWarnings.push(refusal(w, line, this.position, this.specs));
    }
    changes.push({ line, change });
  }
}

/** Reads and validates a whole CSV; nothing is written. */
export function parseImport(
  csvInput: string | Uint8Array,
  kind: ImportKind,
  ctx: ValidationContext,
  lookupActive: ActiveLookup,
): ParsedImport {
  const errors: ImportRowError[] = [];
  const warnings: string[] = [];
  const preview: ImportPreview = {
    kind,
    rows: 0,
    valid: [],
    errors,
    duplicatesInFile: [],
    duplicatesInQueue: [],
    warnings,
    rowWarnings: [],
    refused: 0,
    rejectsCsv: null,
  };
  const out: ParsedImport = { preview, changes: [], header: [], refused: [] };
  const csv = csvOf(kind);
  if (!csv) {
    errors.push({
      line: 0,
      column: 0,
      field: 'kind',
      message: `CSV import supports ${IMPORT_KINDS.join(', ')}, not '${kind}'`,
    });
    return out;
  }
  const read = readText(csvInput);
  const parsed = 'error' in read ? read : readRows(read.text);
  if ('error' in parsed) {
    errors.push(parsed.error);
    return out;
  }
  const rows = parsed.rows;
  const header = rows.shift();
  if (!header) {
    const columns = csv.columns
      .filter((s) => s.required)
      .map((s) => s.name)
      .join(', ');
    errors.push(fileError(1, `the file is empty: it needs a header line (${columns}) and at least one row`));
    return out;
  }
  out.header = header.fields;
  const position = mapHeader(header, kind, csv, errors, warnings);
  if (errors.length > 0) return out;
  preview.rows = rows.length;
  // The whole file is checked at one moment: each object the rows name is read from the store once.
  const checker = new RowChecker(kind, cachingContext(ctx), lookupActive, position, csv, out);
  for (const row of rows) checker.check(row, header.fields.length);
  warnings.push(...checker.unchecked);
  if (rows.length === 0) errors.push(fileError(header.line, 'the file has a header but no rows'));
  preview.refused = out.refused.length;
  preview.rejectsCsv = rejectsCsv(out);
  return out;
}
