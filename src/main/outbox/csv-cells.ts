/**
 * A CSV cell read as its column's type (`CsvCellType`): yes/no words, whole numbers, dates, durations,
 * enum values in their short form, lists. A cell that is not of its type is refused with a message
 * saying what was expected; the kind's own validation then checks the value as for any other entry.
 */
import { DURATION_EXAMPLES, toApiDuration } from '../../shared/durations';
import type { CsvCellType } from './kinds';

/** Thrown for a cell that is not of its column's type. */
export class CellTypeError extends Error {}

/** A cell quoted in a message: at most 40 characters of it. */
const q = (value: string): string => `'${value.length > 40 ? `${value.slice(0, 40)}…` : value}'`;

const TRUE_WORDS = ['true', 'yes', 'y', '1'];
const FALSE_WORDS = ['false', 'no', 'n', '0'];

/** The long enum value of a short form (`closed` for `TASK_STATE_CLOSED`), or the value as given. */
export function expandEnum(value: string, values: readonly string[]): string {
  if (values.includes(value)) return value;
  const unspecified = values.find((v) => v.endsWith('_UNSPECIFIED')) ?? '';
  const prefix = unspecified.slice(0, unspecified.length - 'UNSPECIFIED'.length);
  const long = `${prefix}${value
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_')}`;
  return values.includes(long) ? long : value;
}

function enumValue(value: string, values: readonly string[]): string {
  const long = expandEnum(value.trim(), values);
  if (values.includes(long)) return long;
  const known = values.filter((v) => !v.endsWith('_UNSPECIFIED'));
  throw new CellTypeError(`${q(value)} is not one of ${known.join(', ')}`);
}

/** A list cell: values separated by ';' or '|' (a comma would split the CSV), blanks dropped. */
function listOf(value: string): string[] {
  return value
    .split(/[;|]/)
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/** A duration: seconds as the API writes them (`1209600s`), or in days, hours… (`21d`, `36h`: src/shared/durations.ts). */
function duration(value: string): string {
  const api = toApiDuration(value);
  if (api === null) throw new CellTypeError(`${q(value)} is not a duration: write ${DURATION_EXAMPLES}`);
  return api;
}

/** A date-time: RFC 3339 as is (the kind checks it), or a calendar date alone meaning its start in UTC. */
function dateTime(value: string): string {
  const v = value.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) return `${v}T00:00:00Z`;
  if (!/^\d{4}-\d{2}-\d{2}T/.test(v)) throw new CellTypeError(`${q(value)} is not a date: write 2025-06-30 or 2025-06-30T17:00:00Z`);
  return v;
}

/** The cell's value for the input; `enumValues` for enum columns. */
export function readCell(raw: string, type: CsvCellType, enumValues: readonly string[] = []): unknown {
  switch (type) {
    case 'text':
      return raw;
    case 'boolean': {
      const word = raw.trim().toLowerCase();
      if (TRUE_WORDS.includes(word)) return true;
      if (FALSE_WORDS.includes(word)) return false;
      throw new CellTypeError(`${q(raw)} is not true or false (write true/false, yes/no or 1/0)`);
    }
    case 'integer': {
      const v = raw.trim();
      if (!/^\d+$/.test(v) || !Number.isSafeInteger(Number(v))) throw new CellTypeError(`${q(raw)} is not a whole number of 0 or more`);
      return Number(v);
    }
    case 'date-time':
      return dateTime(raw);
    case 'duration':
      return duration(raw);
    case 'enum':
      // Kept as given when unknown: the kind's validation names the known values.
      return expandEnum(raw, enumValues);
    case 'enum-list':
      return listOf(raw).map((v) => enumValue(v, enumValues));
    case 'text-list':
      return listOf(raw);
  }
}
