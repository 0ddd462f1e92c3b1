/**
 * An enum value as every front writes it: the app's cells and badges, the CLI's tables and the
 * workbooks' data sheets all go through `enumWords`, so a value reads the same everywhere. A listed
 * value reads as its label ("Open", not ACCESS_REVIEW_STATE_OPEN); a value no enumeration lists is
 * kept exactly as the API wrote it, followed by one mark (UNKNOWN_ENUM_MARK), never guessed at.
 */
import { ENUMS, enumLabel } from './enums';
import { isKindsName, ONEOF_KINDS } from './oneof-kinds';

/** What follows a value that the enumeration of its field does not list. */
export const UNKNOWN_ENUM_MARK = ' (value not known to this version)';

/** How an enum value reads. */
export interface EnumWords {
  /** What is shown: the label of a listed value; the raw value and the mark for one no enumeration lists. */
  text: string;
  /** The value exactly as the API wrote it. */
  raw: string;
  /** False for a value its enumeration does not list (and that no other lists). */
  known: boolean;
}

let byValue: Map<string, readonly string[]> | null = null;

/** The enumeration that lists `value` (the first that does), for fields that name none. */
function enumOfValue(value: string): readonly string[] | undefined {
  if (!byValue) {
    byValue = new Map();
    for (const values of Object.values(ENUMS) as readonly (readonly string[])[])
      for (const v of values) if (!byValue.has(v)) byValue.set(v, values);
  }
  return byValue.get(value);
}

/** A value written as enum constants are (SCREAMING_SNAKE with at least two words). */
export const ENUM_CONSTANT = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/;

/** True when some enumeration lists `value`. */
export function isListedEnumValue(value: string): boolean {
  return enumOfValue(value) !== undefined;
}

/**
 * An enum value in words. With `enumName` (a field known to hold that enumeration) any value the
 * enumerations do not list is marked unknown; without it, only a value that looks like an enum
 * constant is (other text is not an enum value, and comes back as written). A name of a oneof's
 * kinds (oneof-kinds.ts): a kind it lists in words, any other as written and marked. Null when empty.
 */
export function enumWords(value: string | null | undefined, enumName?: string | null): EnumWords | null {
  if (value === null || value === undefined || value === '') return null;
  if (enumName && isKindsName(enumName)) {
    const known = (ONEOF_KINDS[enumName] as readonly string[]).includes(value);
    return { text: known ? kindWords(value) : `${value}${UNKNOWN_ENUM_MARK}`, raw: value, known };
  }
  const named = enumName ? (ENUMS as Record<string, readonly string[] | undefined>)[enumName] : undefined;
  const values = named && named.includes(value) ? named : enumOfValue(value);
  if (values) return { text: enumLabel(values, value).label, raw: value, known: true };
  if (named || ENUM_CONSTANT.test(value)) return { text: `${value}${UNKNOWN_ENUM_MARK}`, raw: value, known: false };
  return { text: value, raw: value, known: true };
}

/** A oneof member or key name in words: sendEmail -> "Send email", createAccessReview -> "Create access review". */
export function kindWords(kind: string): string {
  const words = kind
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A value of an enum column in words. A column naming its enumeration (or its oneof's kinds):
 * `enumWords`. One naming none holds enum constants (each by the enumeration that lists it, or
 * marked) or oneof kinds (in words).
 */
export function enumColumnWords(value: string | null | undefined, enumName?: string | null): EnumWords | null {
  if (value === null || value === undefined || value === '') return null;
  if (enumName || ENUM_CONSTANT.test(value)) return enumWords(value, enumName);
  return { text: kindWords(value), raw: value, known: true };
}
