/**
 * Shared validation of a change's input: ids, strings, booleans, dates, enums, lists, and the field
 * checks (`FieldCheck`) that template updates and new campaigns share. Every refusal is an
 * OutboxValidationError naming the field.
 */
import { isKnownEnumValue } from '../../../shared/enums';
import { OutboxValidationError } from '../types';
import { get } from './server';

export function asObject(input: unknown, what: string): Record<string, unknown> {
  if (!input || typeof input !== 'object' || Array.isArray(input))
    throw new OutboxValidationError('input', `${what}: the input must be an object`);
  return input as Record<string, unknown>;
}

export function requiredId(obj: Record<string, unknown>, field: string): string {
  const value = obj[field];
  if (value === undefined || value === null || value === '') throw new OutboxValidationError(field, `${field} is required`);
  if (typeof value !== 'string') throw new OutboxValidationError(field, `${field} must be a string id`);
  const trimmed = value.trim();
  if (trimmed === '') throw new OutboxValidationError(field, `${field} is required (it is blank)`);
  if (trimmed.includes('/') || /[\s?#%]/u.test(trimmed)) {
    throw new OutboxValidationError(field, `${field} '${value}' is not a valid id: it may not contain '/', '?', '#', '%' or spaces`);
  }
  return trimmed;
}

export function optionalString(obj: Record<string, unknown>, field: string, max = 4096): string | undefined {
  const value = obj[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new OutboxValidationError(field, `${field} must be a string`);
  if (value.length > max) throw new OutboxValidationError(field, `${field} is ${value.length} characters long; at most ${max} are allowed`);
  return value;
}

export function optionalBoolean(obj: Record<string, unknown>, field: string, path = field): boolean | undefined {
  const value = obj[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new OutboxValidationError(path, `${path} must be true or false`);
  return value;
}

const RFC3339 =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d{1,9})?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/i;

/** A date-time by RFC 3339 (the spec: ISO 8601 / RFC 3339, UTC), and a real calendar date. */
export function checkDateTime(value: unknown, path: string): string {
  if (typeof value !== 'string' || !RFC3339.test(value) || Number.isNaN(Date.parse(value))) {
    throw new OutboxValidationError(
      path,
      `${path} must be an RFC 3339 date-time such as 2025-06-30T17:00:00Z (got ${JSON.stringify(value)})`,
    );
  }
  const [y, m, d] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  const probe = new Date(Date.UTC(y, m - 1, d));
  if (probe.getUTCMonth() !== m - 1) throw new OutboxValidationError(path, `${path}: ${value.slice(0, 10)} is not a calendar date`);
  return value;
}

/**
 * An enum value the user typed into a request: it must be one of the known values. (Values the
 * service sends us are kept even when unknown; `allowed` lists such values already stored.)
 */
export function checkEnum(values: readonly string[], value: unknown, path: string, allowed: readonly unknown[] = []): string {
  if (typeof value !== 'string') throw new OutboxValidationError(path, `${path} must be a string`);
  if (isKnownEnumValue(values, value) || allowed.includes(value)) return value;
  throw new OutboxValidationError(
    path,
    `${path} '${value}' is not a known value (known: ${values.join(', ')}); a value the app does not know cannot be sent in a change`,
  );
}

export function checkStringArray(value: unknown, path: string): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    throw new OutboxValidationError(path, `${path} must be a list of strings`);
  return value as string[];
}

export function checkIdArray(value: unknown, path: string): string[] {
  const list = checkStringArray(value, path);
  list.forEach((v, i) => {
    if (v.trim() === '') throw new OutboxValidationError(`${path}[${i}]`, `${path}[${i}] is blank: every id must be non-empty`);
  });
  return list;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/** How one field's value is checked: throws naming `path`; `stored` is the synced value of the field. */
export type FieldCheck = (value: unknown, path: string, stored: unknown) => void;

export const str: FieldCheck = (v, p) => {
  if (typeof v !== 'string') throw new OutboxValidationError(p, `${p} must be a string`);
};
export const bool: FieldCheck = (v, p) => {
  if (typeof v !== 'boolean') throw new OutboxValidationError(p, `${p} must be true or false`);
};
export const int: FieldCheck = (v, p) => {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
    throw new OutboxValidationError(p, `${p} must be a whole number of 0 or more`);
};
export const dateTime: FieldCheck = (v, p) => {
  if (v !== null) checkDateTime(v, p);
};
export const stringList: FieldCheck = (v, p) => void checkStringArray(v, p);
export const freeObject: FieldCheck = (v, p) => {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new OutboxValidationError(p, `${p} must be an object`);
};
export function enumList(values: readonly string[]): FieldCheck {
  return (v, p, stored) => {
    const list = checkStringArray(v, p);
    const storedValues = Array.isArray(stored) ? stored : [];
    list.forEach((item, i) => checkEnum(values, item, `${p}[${i}]`, storedValues));
  };
}
/** A message: known members only, each checked (the members the server sets are taken out before). */
export function message(members: Record<string, FieldCheck>): FieldCheck {
  return (v, p, stored) => {
    freeObject(v, p, stored);
    for (const [key, value] of Object.entries(v as Record<string, unknown>)) {
      const path = `${p}.${key}`;
      const check = members[key];
      if (!check) throw new OutboxValidationError(path, `${path} is not a field of ${p} (known: ${Object.keys(members).join(', ')})`);
      if (value === null) continue;
      check(value, path, get(stored, key));
    }
  };
}

/** The notification switches of a template or a new campaign. */
export const notificationConfig = message({ sendClose: bool, sendKickoff: bool, sendReminders: bool });
const SCOPE_SELECTOR_MEMBERS = [
  'accountCelExpression',
  'accountCriteria',
  'allAccessConflicts',
  'allAccounts',
  'allGrants',
  'allUsers',
  'appAccess',
  'appSelectionCriteria',
  'celExpression',
  'excludedResourceTypeSelections',
  'excludedSpecificResources',
  'grantsByCriteria',
  'resourceSelection',
  'resourceTypeSelections',
  'scopeRoleSelection',
  'selectedUsers',
  'specificAccessConflicts',
  'specificResources',
  'userCriteria',
];
/**
 * A scope selector (template `scope`, campaign `scopeV2`): known members only, each an object (the
 * members the server sets, such as principalTypeFilter, are taken out before).
 */
export const scopeSelector: FieldCheck = (v, p, stored) => {
  freeObject(v, p, stored);
  for (const [key, value] of Object.entries(v as Record<string, unknown>)) {
    const path = `${p}.${key}`;
    if (!SCOPE_SELECTOR_MEMBERS.includes(key))
      throw new OutboxValidationError(path, `${path} is not a member of the scope selector (known: ${SCOPE_SELECTOR_MEMBERS.join(', ')})`);
    if (value !== null) freeObject(value, path, undefined);
  }
};
