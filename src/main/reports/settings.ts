/**
 * Every setting of a structured member, one per row of a child sheet: a trigger's or step's
 * settings, a scope selector's criteria, a task's form and policy. Each leaf of the member's JSON
 * becomes a setting (its path below the member) and its value in words (./cells.ts): an enum value
 * as its label, a duration in words, a time as "yyyy-mm-dd hh:mm:ss UTC", a list of plain values
 * joined by ", ". A list of objects numbers its items from 1; an empty object is a setting of its
 * own: "set" for a marker such as `allUsers: {}`, "none" for an empty map. Given a labeler, the ids
 * of users and policies read with their names.
 */
import { isRecord } from '../collections';
import type { CellValue } from './canonical';
import { durationText, enumText, isKnownEnumName } from './cells';
import { referenceAt, type Labeler } from './references';

export interface Setting {
  /** The path below the member: `subject`, `userRefs 1.id`, `policy.maxCharacterCount`; '' for the member itself. */
  path: string;
  value: CellValue;
}

/** What a marker (an empty object such as `allUsers: {}`, which selects by being there) reads as. */
export const MARKER = 'set';

/** What an empty free-form object (a map such as `multiUserProfileAttributes`, `args`) reads as. */
export const EMPTY_MAP = 'none';

/** Members that are free-form maps, not markers: empty, they hold nothing. */
const MAPS =
  /^(multiUserProfileAttributes|args|argsTemplate|payload|context|annotations|data|extra|bindings|appEntitlementDetails|appEntitlements)$/;

/** Members that hold a duration ("7776000s", "720h"): shown in words. */
const DURATION_MEMBER = /^(duration|ttl|expiry|timeout|timeoutDuration|accessReviewDuration|grantDuration|durationIfExists|expiration)$/;

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

/** A time the API wrote ("2026-03-01T09:00:00.123Z") as text in UTC ("2026-03-01 09:00:00.123 UTC"); other text as it is. */
export function timeText(text: string): string {
  if (!ISO_TIME.test(text)) return text;
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) return text;
  const iso = date.toISOString();
  return `${iso.slice(0, 10)} ${iso.endsWith('.000Z') ? iso.slice(11, 19) : iso.slice(11, 23)} UTC`;
}

/** One plain value in words: enum labels, durations in words, times in UTC; numbers and booleans as they are. */
export function valueText(key: string, value: unknown): CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value !== 'string') return JSON.stringify(value);
  if (value === '') return null;
  if (DURATION_MEMBER.test(key)) return durationText(value);
  if (isKnownEnumName(value)) return enumText(value);
  return timeText(value);
}

/** The leaf at `path` in words; a user or policy id with its name when `label` is given. */
function leafText(path: string, value: unknown, label?: Labeler): CellValue {
  const target = label && typeof value === 'string' && value !== '' ? referenceAt(path) : null;
  return target ? label!(target, value as string) : valueText(keyOf(path), value);
}

const plain = (v: unknown): boolean => v === null || typeof v !== 'object';

/** The last member name of a path ("userRefs 1.id" -> "id"), for the rules that go by name. */
const keyOf = (path: string): string => path.slice(path.lastIndexOf('.') + 1).replace(/ \d+$/, '');

/**
 * Every setting below `value`, in document order. Absent and null members, and empty text, are
 * left out (the API leaves unset members out, or sends them empty); `false` and 0 are settings.
 */
export function settings(value: unknown, path = '', label?: Labeler): Setting[] {
  if (value === null || value === undefined || value === '') return [];
  if (Array.isArray(value)) {
    if (value.length === 0) return [];
    if (value.every(plain)) {
      const items = value.map((v) => leafText(path, v, label)).filter((v) => v !== null);
      return items.length ? [{ path, value: items.join(', ') }] : [];
    }
    return value.flatMap((item, i) => settings(item, `${path} ${i + 1}`, label));
  }
  if (isRecord(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0) return [{ path, value: MAPS.test(keyOf(path)) ? EMPTY_MAP : MARKER }];
    return keys.flatMap((k) => settings(value[k], path ? `${path}.${k}` : k, label));
  }
  const text = leafText(path, value, label);
  return text === null ? [] : [{ path, value: text }];
}

/** The settings of member `name`, with paths below it ('' for the member itself); ids named by `label` when given. */
export function settingsOf(name: string, value: unknown, label?: Labeler): Setting[] {
  return settings(value, name, label).map((s) => ({
    ...s,
    path: s.path === name ? '' : s.path.startsWith(`${name}.`) || s.path.startsWith(`${name} `) ? s.path.slice(name.length + 1) : s.path,
  }));
}
