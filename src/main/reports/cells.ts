/**
 * Values as people read them, for the data sheets: an enum value as its label ("Open", not
 * ACCESS_REVIEW_STATE_OPEN), one no enumeration lists kept as written and marked, a duration in
 * words ("14 days", not 1209600s), a oneof kind in words ("Send email", not sendEmail). What the
 * API wrote stays, exactly, on the Raw sheet.
 */
import type { EnumName } from '../../shared/enums';
import type { KindsName } from '../../shared/oneof-kinds';
import { enumColumnWords, enumWords, isListedEnumValue, UNKNOWN_ENUM_MARK } from '../../shared/enum-words';

/** What follows a value that looks like an enum constant but that no enumeration lists (the mark every front uses). */
export const UNKNOWN_MARK = UNKNOWN_ENUM_MARK;

/** True when `value` is a value some enumeration lists. */
export function isKnownEnumName(value: string): boolean {
  return isListedEnumValue(value);
}

/**
 * An enum value as its label: of the enumeration named, else of the one that lists it. A value no
 * enumeration lists: as written, marked (see shared/enum-words.ts, which the app and the CLI use too).
 */
export function enumText(value: unknown, enumName?: EnumName | KindsName): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value !== 'string') return JSON.stringify(value);
  return enumWords(value, enumName)?.text ?? null;
}

/** Each enum value of a list (an array, or the ", "-joined text of a list column) as its label, joined by ", ". */
export function enumList(values: unknown, enumName?: EnumName | KindsName): string | null {
  const list = typeof values === 'string' && values !== '' ? values.split(', ') : values;
  if (!Array.isArray(list) || list.length === 0) return null;
  return list.map((v) => enumText(v, enumName) ?? '').join(', ');
}

/** A oneof member or key name in words: sendEmail -> "Send email", createAccessReview -> "Create access review". */
export function kindText(kind: string | null | undefined): string | null {
  if (!kind) return null;
  return enumColumnWords(kind)?.text ?? null;
}

const UNITS: [number, string][] = [
  [86_400, 'day'],
  [3_600, 'hour'],
  [60, 'minute'],
  [1, 'second'],
];

/** Go's duration text ("720h", "1h30m", "90s"): its whole seconds, or null when it is not one. */
function goSeconds(text: string): number | null {
  const match = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(text);
  if (!match || text === '') return null;
  return Number(match[1] ?? 0) * 3_600 + Number(match[2] ?? 0) * 60 + Number(match[3] ?? 0);
}

/**
 * A duration as the API writes it, a protobuf Duration ("1209600s", "3.5s") or Go's form ("720h"),
 * in words: "14 days", "1 day 2 hours", "30 days", "3.5 seconds". Anything else comes back as written.
 */
export function durationText(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  const text = String(value);
  const match = /^(-?\d+)(?:\.(\d+))?s$/.exec(text);
  const go = match ? null : goSeconds(text);
  if (!match && go === null) return text;
  let seconds = match ? Math.abs(Number(match[1])) : go!;
  const sign = text.startsWith('-') ? 'minus ' : '';
  if (match?.[2] && Number(match[2]) !== 0) return `${sign}${seconds}.${match[2].replace(/0+$/, '')} seconds`;
  if (seconds === 0) return '0 seconds';
  const parts: string[] = [];
  for (const [size, unit] of UNITS) {
    const n = Math.floor(seconds / size);
    if (n === 0) continue;
    parts.push(`${n} ${unit}${n === 1 ? '' : 's'}`);
    seconds -= n * size;
  }
  return sign + parts.join(' ');
}

/** A oneof kind in words when it is one of `known`; as written, marked, when this version does not know it. */
export function kindWords(kind: string | null, known: readonly string[]): string | null {
  if (kind === null || kind === '(none)') return kind;
  return known.includes(kind) ? kindText(kind) : `${kind}${UNKNOWN_MARK}`;
}
