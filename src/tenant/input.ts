/**
 * Reading request input the way the service's protobuf JSON gateway does: unknown fields are
 * ignored, `null` means "not set", int32 fields accept a number or a decimal string, and every
 * wrong type or unknown enum value is an INVALID_ARGUMENT naming the field.
 */
import { badField } from './errors';

export type Body = Record<string, unknown>;

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON request body: absent or empty is `{}`; anything but an object is refused. */
export function parseBody(raw: string): Body {
  if (raw.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw badField('body', `the request body is not valid JSON (${(error as Error).message})`);
  }
  if (!isObject(value)) throw badField('body', 'the request body must be a JSON object');
  return value;
}

export function optString(body: Body, field: string, path = field): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw badField(path, 'must be a string');
  return value;
}

/** A required string: absent or empty is refused. */
export function requiredString(body: Body, field: string, path = field): string {
  const value = optString(body, field, path);
  if (value === undefined || value === '') throw badField(path, 'is required');
  return value;
}

export function optBoolean(body: Body, field: string, path = field): boolean | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw badField(path, 'must be true or false');
  return value;
}

/** An int32 as protobuf JSON carries it: a number or a decimal string. */
export function optInt(body: Body, field: string, path = field): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  const n = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < -2147483648 || n > 2147483647) throw badField(path, 'must be a whole number');
  return n;
}

export function optStringArray(body: Body, field: string, path = field): string[] | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw badField(path, 'must be a list of strings');
  return value as string[];
}

export function optObject(body: Body, field: string, path = field): Body | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw badField(path, 'must be an object');
  return value;
}

/** An enum value: must be one of `values` (the tenant refuses what it does not know on input). */
export function optEnum<V extends string>(body: Body, field: string, values: readonly V[], path = field): V | undefined {
  const value = optString(body, field, path);
  if (value === undefined) return undefined;
  if (!(values as readonly string[]).includes(value)) throw badField(path, `'${value}' is not one of ${values.join(', ')}`);
  return value as V;
}

export function optEnumArray<V extends string>(body: Body, field: string, values: readonly V[], path = field): V[] | undefined {
  const list = optStringArray(body, field, path);
  if (list === undefined) return undefined;
  list.forEach((value, i) => {
    if (!(values as readonly string[]).includes(value)) throw badField(`${path}[${i}]`, `'${value}' is not one of ${values.join(', ')}`);
  });
  return list as V[];
}

/** `refs: [{ id }]` as a list of ids. */
export function optRefIds(body: Body, field: string): string[] | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw badField(field, 'must be a list of { id } objects');
  return value.map((ref, i) => {
    if (!isObject(ref) || typeof ref.id !== 'string') throw badField(`${field}[${i}].id`, 'must be a string');
    return ref.id;
  });
}

/** An RFC 3339 date-time string, or undefined. */
export function optTimestamp(body: Body, field: string, path = field): string | undefined {
  const value = optString(body, field, path);
  if (value === undefined) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value) || Number.isNaN(Date.parse(value))) {
    throw badField(path, `'${value}' is not an RFC 3339 date-time`);
  }
  return new Date(value).toISOString();
}

/** An `expandMask: { paths: string[] }`. */
export function optExpandMask(body: Body): string[] | undefined {
  const mask = optObject(body, 'expandMask');
  if (!mask) return undefined;
  return optStringArray(mask, 'paths', 'expandMask.paths') ?? [];
}

/** A free-text filter: case-insensitive substring over a few fields. */
export function textMatcher(query: string | undefined): ((...texts: (string | undefined)[]) => boolean) | undefined {
  const q = query?.trim().toLowerCase();
  if (!q) return undefined;
  return (...texts) => texts.some((t) => t !== undefined && t.toLowerCase().includes(q));
}

/** `refs: [{ appId, id }]` (AppEntitlementRef) as a list. */
export function optEntitlementRefs(body: Body, field: string): { appId: string; id: string }[] | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw badField(field, 'must be a list of { appId, id } objects');
  return value.map((ref, i) => {
    if (!isObject(ref) || typeof ref.id !== 'string') throw badField(`${field}[${i}].id`, 'must be a string');
    if (ref.appId !== undefined && ref.appId !== null && typeof ref.appId !== 'string')
      throw badField(`${field}[${i}].appId`, 'must be a string');
    return { appId: typeof ref.appId === 'string' ? ref.appId : '', id: ref.id };
  });
}
