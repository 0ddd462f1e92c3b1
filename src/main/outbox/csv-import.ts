/**
 * Bulk import from CSV (csv-parse): the whole file is read and validated first, with errors by line
 * and column; duplicates within the file and against the queue are reported; the caller queues all
 * valid rows in one transaction, or none when any row has an error.
 *
 * Accepted: a UTF-8 BOM, CRLF / LF / CR line ends, quoted fields (with commas, quotes, line breaks),
 * empty and blank lines (skipped), header names in snake_case or camelCase, in any order, extra
 * columns (ignored, with a warning).
 */
import { parse } from 'csv-parse/sync';
import { ENUMS } from '../../shared/enums';
import { prepareChange, type PreparedChange, type ValidationContext } from './kinds';
import { OutboxValidationError, type ImportPreview, type ImportRowError, type MutationKind, type OutboxState } from './types';

export type ImportKind = 'remove-membership' | 'create-scope';

interface ColumnSpec {
  /** The CSV header name. */
  name: string;
  /** The input field it fills. */
  field: string;
  required: boolean;
  /** Enum values: a short form (the part after the prefix, any case) is accepted and expanded. */
  enumValues?: readonly string[];
}

export const IMPORT_COLUMNS: Record<ImportKind, ColumnSpec[]> = {
  'remove-membership': [
    { name: 'app_id', field: 'appId', required: true },
    { name: 'app_entitlement_id', field: 'appEntitlementId', required: true },
    { name: 'app_user_id', field: 'appUserId', required: true },
  ],
  'create-scope': [
    { name: 'app_id', field: 'appId', required: true },
    { name: 'xaa_resource_server_id', field: 'xaaResourceServerId', required: true },
    { name: 'scope_value', field: 'scopeValue', required: true },
    { name: 'display_name', field: 'displayName', required: false },
    { name: 'description', field: 'description', required: false },
    { name: 'classification', field: 'classification', required: false, enumValues: ENUMS.XaaScopeClassification },
    { name: 'state', field: 'state', required: false, enumValues: ENUMS.XaaScopeState },
  ],
};

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

export interface ParsedImport {
  preview: ImportPreview;
  changes: { line: number; change: PreparedChange }[];
}

type ActiveLookup = (kind: MutationKind, dedupeKey: string) => { id: string; state: OutboxState } | undefined;

function expandEnum(value: string, values: readonly string[]): string {
  if (values.includes(value)) return value;
  const unspecified = values.find((v) => v.endsWith('_UNSPECIFIED')) ?? '';
  const prefix = unspecified.slice(0, unspecified.length - 'UNSPECIFIED'.length);
  const long = `${prefix}${value
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_')}`;
  return values.includes(long) ? long : value;
}

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

/** Reads and validates a whole CSV; nothing is written. */
export function parseImport(
  csvInput: string | Uint8Array,
  kind: ImportKind,
  ctx: ValidationContext,
  lookupActive: ActiveLookup,
): ParsedImport {
  const errors: ImportRowError[] = [];
  const warnings: string[] = [];
  const preview: ImportPreview = { kind, rows: 0, valid: [], errors, duplicatesInFile: [], duplicatesInQueue: [], warnings };
  const changes: ParsedImport['changes'] = [];
  const specs = IMPORT_COLUMNS[kind];
  if (!specs) {
    errors.push({
      line: 0,
      column: 0,
      field: 'kind',
      message: `CSV import supports ${Object.keys(IMPORT_COLUMNS).join(' and ')}, not '${kind}'`,
    });
    return { preview, changes };
  }

  let text: string;
  if (typeof csvInput === 'string') text = csvInput;
  else {
    const decoded = decodeCsvBytes(csvInput);
    if (decoded.error) {
      errors.push(decoded.error);
      return { preview, changes };
    }
    text = decoded.text;
  }
  text = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');

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
    errors.push({ line: e.lines ?? 0, column: 0, field: 'file', message: `the file is not valid CSV: ${csvProblem(e.code)}` });
    return { preview, changes };
  }

  const rows = records
    .map((r) => {
      const inner = r.raw.replace(/^\n+/, '').replace(/\n$/, '');
      const newlines = inner.split('\n').length - 1;
      return { fields: r.record, line: r.info.lines - newlines };
    })
    .filter((r) => r.fields.some((f) => f.trim() !== ''));

  const header = rows.shift();
  if (!header) {
    errors.push({
      line: 1,
      column: 0,
      field: 'file',
      message: `the file is empty: it needs a header line (${specs.map((s) => s.name).join(', ')}) and at least one row`,
    });
    return { preview, changes };
  }

  // Header: map each known column to its position.
  const position = new Map<string, number>();
  const seen = new Map<string, number>();
  header.fields.forEach((name, index) => {
    const key = normalizeHeader(name);
    const spec = specs.find((s) => normalizeHeader(s.name) === key || normalizeHeader(s.field) === key);
    if (!spec) {
      if (name.trim() !== '') warnings.push(`column ${index + 1} ${headerName(name)} is not used by ${kind} and is ignored`);
      return;
    }
    if (seen.has(spec.name)) {
      errors.push({
        line: header.line,
        column: index + 1,
        field: spec.name,
        message: `column '${spec.name}' appears twice (columns ${(seen.get(spec.name) ?? 0) + 1} and ${index + 1})`,
      });
      return;
    }
    seen.set(spec.name, index);
    position.set(spec.name, index);
  });
  const missing = specs.filter((s) => s.required && !position.has(s.name));
  if (missing.length > 0) {
    const looksLikeData = position.size === 0;
    errors.push({
      line: header.line,
      column: 0,
      field: missing.map((s) => s.name).join(','),
      message: looksLikeData
        ? `the first line must be a header naming the columns: ${specs.map((s) => s.name).join(', ')} (found: ${headerNames(header.fields)})`
        : `missing column${missing.length > 1 ? 's' : ''} ${missing.map((s) => `'${s.name}'`).join(', ')} (the header has: ${headerNames(header.fields)})`,
    });
  }
  if (errors.length > 0) return { preview, changes };

  const headerWidth = header.fields.length;
  const firstLineOf = new Map<string, number>();
  preview.rows = rows.length;
  for (const row of rows) {
    if (row.fields.length !== headerWidth) {
      const lastNeeded = Math.max(...[...position.values()]) + 1;
      if (row.fields.length < lastNeeded) {
        const absent = specs.filter((s) => (position.get(s.name) ?? -1) >= row.fields.length && s.required).map((s) => s.name);
        errors.push({
          line: row.line,
          column: row.fields.length + 1,
          field: absent[0] ?? specs[0]!.name,
          message: `line ${row.line} has ${row.fields.length} field${row.fields.length === 1 ? '' : 's'} but the header has ${headerWidth}${absent.length ? `: ${absent.join(', ')} missing` : ''}`,
        });
        continue;
      }
      if (row.fields.length > headerWidth) {
        errors.push({
          line: row.line,
          column: headerWidth + 1,
          field: 'row',
          message: `line ${row.line} has ${row.fields.length} fields but the header has ${headerWidth}: quote values that contain commas`,
        });
        continue;
      }
    }
    const input: Record<string, unknown> = {};
    let rowError: ImportRowError | null = null;
    for (const spec of specs) {
      const index = position.get(spec.name);
      if (index === undefined) continue;
      const raw = row.fields[index] ?? '';
      const bad = badCharacter(raw);
      if (bad) {
        rowError = {
          line: row.line,
          column: index + 1,
          field: spec.name,
          message: `${spec.name} has ${bad.what} at character ${bad.index + 1}`,
        };
        break;
      }
      if (raw === '' && !spec.required) continue;
      input[spec.field] = spec.enumValues ? expandEnum(raw, spec.enumValues) : raw;
    }
    if (!rowError) {
      try {
        const change = prepareChange(kind, input, ctx);
        const first = firstLineOf.get(change.dedupeKey);
        if (first !== undefined) {
          preview.duplicatesInFile.push({ line: row.line, firstLine: first, key: change.target });
          continue;
        }
        firstLineOf.set(change.dedupeKey, row.line);
        const queued = lookupActive(kind, change.dedupeKey);
        if (queued) {
          preview.duplicatesInQueue.push({ line: row.line, itemId: queued.id, itemState: queued.state, key: change.target });
          continue;
        }
        preview.valid.push({ line: row.line, input: change.input, summary: change.summary });
        changes.push({ line: row.line, change });
      } catch (error) {
        if (!(error instanceof OutboxValidationError)) throw error;
        const spec = specs.find((s) => s.field === error.field || s.name === error.field);
        const message = spec ? error.message.replace(new RegExp(`^${error.field}\\b`), spec.name) : error.message;
        rowError = { line: row.line, column: spec ? (position.get(spec.name) ?? -1) + 1 : 0, field: spec?.name ?? error.field, message };
      }
    }
    if (rowError) errors.push(rowError);
  }
  if (rows.length === 0) errors.push({ line: header.line, column: 0, field: 'file', message: 'the file has a header but no rows' });
  return { preview, changes };
}
