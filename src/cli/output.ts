/**
 * How the CLI prints results: `-o table|json|csv` (and `--json`, the same as `-o json`). Text from
 * the tenant never reaches a terminal raw: in tables and text lines, control characters (C0, DEL,
 * C1, so every escape sequence: colours, OSC 52 clipboard writes, clear-screen) and the bidi
 * controls that reorder what a line seems to say are shown escaped (`\x1b`, `\n`, `\u202e`; see
 * terminal-text.ts). JSON output is the same value (the CLI's entry point writes C1 and bidi
 * controls in it as `\u` escapes). CSV cells are escaped too, except tabs and line breaks (quoted, as CSV
 * allows), and a text cell that a spreadsheet would run as a formula (starting with = + - @, a tab
 * or a carriage return) gets a leading `'`.
 */
import cliTruncate from 'cli-truncate';
import { stringify } from 'csv-stringify/sync';
import stringWidth from 'string-width';
import { UsageError, type CliIO } from './io';
import { escapeControls, escapeCsvText } from './terminal-text';

export { escapeControls, escapeJsonText } from './terminal-text';

export const OUTPUT_FORMATS = ['table', 'json', 'csv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** The output options of a command that prints results. */
export const OUTPUT_OPTIONS = {
  output: { type: 'string', short: 'o' },
  json: { type: 'boolean', default: false },
} as const;

export const OUTPUT_USAGE = `  -o, --output F      table (default: aligned columns, cut to the terminal's width on a terminal; COLUMNS),
                      json (exact, for scripts) or csv (every value, RFC 4180)
  --json              the same as -o json`;

/** The format asked for with `-o F` or `--json`, if any. */
export function askedFormat(values: { output?: string | undefined; json?: boolean | undefined }): OutputFormat | undefined {
  const asked = values.output;
  if (asked !== undefined && !(OUTPUT_FORMATS as readonly string[]).includes(asked))
    throw new UsageError(`-o must be one of ${OUTPUT_FORMATS.join(', ')}, not '${escapeControls(asked)}'`);
  if (values.json && asked !== undefined && asked !== 'json') throw new UsageError(`--json and -o ${asked} ask for two formats: give one`);
  return values.json ? 'json' : (asked as OutputFormat | undefined);
}

/** The format asked for: `-o F`, or `--json`; a table by default. */
export function outputFormat(values: { output?: string | undefined; json?: boolean | undefined }): OutputFormat {
  return askedFormat(values) ?? 'table';
}

export type Cell = string | number | boolean | null | undefined;

/** The text of a cell: absent is empty, others as written (numbers in full). */
function cellText(cell: Cell): string {
  return cell === null || cell === undefined ? '' : String(cell);
}

/**
 * Markers of matched words in search snippets (private-use characters no tenant text is expected to
 * carry): shown bold on a terminal, between brackets elsewhere. Escaping leaves them in place.
 */
export const MARK_OPEN = '\uE001';
export const MARK_CLOSE = '\uE002';
const BOLD = '\u001b[1m';
const NORMAL = '\u001b[22m';

export interface TableOptions {
  /** The width to fit in (columns); unlimited when absent. */
  width?: number | undefined;
  /** Matched words bold (a terminal) rather than in brackets. */
  bold?: boolean;
  /** Told the headers of the columns left out to fit `width`. */
  onLeftOut?(headers: string[]): void;
}

/**
 * The width a table may take: on a terminal, COLUMNS when set, else the terminal's width. Not on a
 * terminal (a pipe, a file), tables are never cut.
 */
export function tableWidth(io: CliIO): number | undefined {
  if (!io.stdoutIsTTY) return undefined;
  const env = Number(io.env.COLUMNS);
  if (Number.isInteger(env) && env > 0) return env;
  return io.columns && io.columns > 0 ? io.columns : undefined;
}

/**
 * The widths of columns of natural widths `natural` (gaps of `gap`) in `width`: every column whose
 * natural width is at most a cap keeps it, the wider ones are cut to the cap, the cap being the
 * largest that fits (never below `min`, or a column's natural width).
 */
export function fitWidths(natural: number[], width: number | undefined, gap = 2, min = 4): number[] {
  if (width === undefined || natural.length === 0) return natural;
  const room = width - gap * (natural.length - 1);
  const total = (cap: number) => natural.reduce((sum, w) => sum + Math.min(w, cap), 0);
  if (total(Infinity) <= room) return natural;
  let lo = min;
  let hi = Math.max(min, ...natural);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (total(mid) <= room) lo = mid;
    else hi = mid - 1;
  }
  return natural.map((w) => Math.min(w, lo));
}

function marked(text: string, bold: boolean): string {
  if (!text.includes(MARK_OPEN) && !text.includes(MARK_CLOSE)) return text;
  return text.replaceAll(MARK_OPEN, bold ? BOLD : '[').replaceAll(MARK_CLOSE, bold ? NORMAL : ']');
}

function fit(text: string, width: number): string {
  if (stringWidth(text) <= width) return text;
  const cut = cliTruncate(text, width, { position: 'end' });
  // A cut inside a bold match must not leave the rest of the line bold.
  return cut.lastIndexOf(BOLD) > cut.lastIndexOf(NORMAL) ? `${cut}${NORMAL}` : cut;
}

/** Below this width a cut column says too little: columns are left out rather than cut further. */
const MIN_COLUMN = 10;

/**
 * How many of the columns (of natural widths `natural`, in order) to keep in `width`: all when they
 * fit with every column at least MIN_COLUMN wide (or whole), else fewer from the right, never less
 * than two.
 */
export function columnsThatFit(natural: number[], width: number | undefined, gap = 2): number {
  if (width === undefined) return natural.length;
  let keep = natural.length;
  const needed = (n: number) => natural.slice(0, n).reduce((sum, w) => sum + Math.min(w, MIN_COLUMN), 0) + gap * (n - 1);
  while (keep > 2 && needed(keep) > width) keep -= 1;
  return keep;
}

/**
 * Rows in aligned columns under upper-case headers, every cell escaped, cut with an ellipsis so
 * that each line fits `width` (the widest columns are cut first; the last column is not padded).
 * Where even that leaves columns too narrow to read, the columns on the right are left out and
 * `onLeftOut` gets their headers.
 */
export function renderTable(headers: string[], rows: Cell[][], opts: TableOptions = {}): string {
  const bold = opts.bold === true;
  const all = [
    headers.map((h) => escapeControls(h).toUpperCase()),
    ...rows.map((r) => headers.map((_, i) => marked(escapeControls(cellText(r[i])), bold))),
  ];
  const allNatural = headers.map((_, i) => Math.max(...all.map((l) => stringWidth(l[i]!))));
  const keep = columnsThatFit(allNatural, opts.width);
  if (keep < headers.length) opts.onLeftOut?.(all[0]!.slice(keep));
  const lines = all.map((cells) => cells.slice(0, keep));
  const widths = fitWidths(allNatural.slice(0, keep), opts.width);
  return lines
    .map((cells) =>
      cells
        .map((cell, i) => {
          const text = fit(cell, widths[i]!);
          return i === cells.length - 1 ? text : text + ' '.repeat(Math.max(0, widths[i]! - stringWidth(text)));
        })
        .join('  ')
        .trimEnd(),
    )
    .map((line) => (opts.width !== undefined && stringWidth(line) > opts.width ? fit(line, opts.width) : line))
    .join('\n');
}

const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV cell: escaped (tabs and line breaks kept), and a text cell that a spreadsheet would run as a formula prefixed with `'`. */
export function csvCell(cell: Cell): string {
  if (typeof cell === 'number' || typeof cell === 'boolean') return String(cell);
  const text = escapeCsvText(cellText(cell).replaceAll(MARK_OPEN, '').replaceAll(MARK_CLOSE, ''));
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** A header line and the rows as CSV (quoted where needed, as RFC 4180 says; one line per record, `\n` ended). */
export function renderCsv(headers: string[], rows: Cell[][]): string {
  return stringify([headers.map(csvCell), ...rows.map((r) => headers.map((_, i) => csvCell(r[i])))]);
}

/** What a command prints: the rows of its table or CSV, and the value its JSON output is. */
export interface Printable {
  /** Column headers of the table (shown upper-case). */
  headers: string[];
  /** Column headers of the CSV, when they differ (e.g. field names rather than labels). */
  csvHeaders?: string[];
  rows: Cell[][];
  /** The CSV's rows, when they differ from the table's (more columns, for scripts). */
  csvRows?: () => Cell[][];
  json: () => unknown;
}

/** Prints `data` on stdout in `format`. An empty table prints nothing (the count goes to stderr); an empty CSV its header. */
export function print(io: CliIO, format: OutputFormat, data: Printable): void {
  if (format === 'json') io.out(JSON.stringify(data.json(), null, 2));
  else if (format === 'csv') io.out(renderCsv(data.csvHeaders ?? data.headers, data.csvRows?.() ?? data.rows));
  else if (data.rows.length > 0) {
    let leftOut: string[] = [];
    io.out(renderTable(data.headers, data.rows, { width: tableWidth(io), bold: io.stdoutIsTTY === true, onLeftOut: (h) => (leftOut = h) }));
    if (leftOut.length > 0) io.err(`(left out to fit the terminal: ${leftOut.join(', ')}; -o csv or -o json shows every column)`);
  }
}

/** A line of text for a person, with tenant text in it escaped. */
export function textLine(io: CliIO, text: string): void {
  io.out(escapeControls(text));
}
