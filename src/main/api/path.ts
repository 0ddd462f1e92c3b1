/**
 * Request paths, checked before anything is sent. On the real service a trailing slash is
 * redirected to the parent collection, which then answers 200 with the wrong data; an empty id
 * (`/access_review/`) or a dot segment does the same kind of damage. So: no empty segments, no
 * `.`/`..`, path parameters percent-encoded one segment each, and the query built separately.
 */
import { ApiError } from './errors';

function refuse(message: string, path?: string): never {
  throw new ApiError('invalid_input', `Refused before sending: ${message}`, path === undefined ? { attempts: 0 } : { path, attempts: 0 });
}

// RFC 3986 pchar without '%' (checked separately): unreserved, sub-delims, ':' and '@'.
const PCHAR = /^[A-Za-z0-9\-._~!$&'()*+,;=:@]$/;

function isDotSegment(segment: string): boolean {
  const lower = segment.toLowerCase().replaceAll('%2e', '.');
  return lower === '.' || lower === '..';
}

/**
 * Checks a path relative to the API root (e.g. `/search/automations`) and returns it unchanged.
 * Throws an `invalid_input` ApiError (0 attempts) for an empty segment (`//`, a trailing `/`),
 * a `.`/`..` segment (also percent-encoded), a query or fragment, or a character that must be
 * percent-encoded.
 */
export function checkApiPath(path: string): string {
  if (typeof path !== 'string' || path === '') refuse('the request path is empty');
  if (!path.startsWith('/')) refuse(`the request path must start with '/'`, path);
  if (path.includes('?') || path.includes('#'))
    refuse('the request path carries a query or fragment (pass query parameters separately)', path);
  const segments = path.slice(1).split('/');
  for (const [index, segment] of segments.entries()) {
    if (segment === '') {
      if (index === segments.length - 1) refuse('the request path ends with a slash (an empty last segment)', path);
      refuse('the request path has an empty segment (an empty id, or two slashes in a row)', path);
    }
    if (isDotSegment(segment)) refuse(`the request path has a '.' or '..' segment`, path);
    for (let i = 0; i < segment.length; i += 1) {
      const ch = segment[i]!;
      if (ch === '%') {
        if (!/^[0-9A-Fa-f]{2}$/.test(segment.slice(i + 1, i + 3))) refuse('the request path has a malformed percent-escape', path);
        i += 2;
      } else if (!PCHAR.test(ch)) {
        refuse('the request path has a character that must be percent-encoded', path);
      }
    }
  }
  return path;
}

/**
 * One path parameter as one encoded segment. Refuses a missing, empty or blank value and the
 * values `.` and `..`, naming the parameter (e.g. `app_id`).
 */
export function pathParam(value: string | number | undefined | null, name: string): string {
  if (value === undefined || value === null) refuse(`path parameter ${name} is missing`);
  const text = String(value);
  if (text.trim() === '') refuse(`path parameter ${name} is empty`);
  if (text === '.' || text === '..') refuse(`path parameter ${name} is '${text}'`);
  return encodeURIComponent(text);
}

export type QueryValue = string | number | boolean | undefined | null | ReadonlyArray<string | number>;

/** Builds `?a=1&b=x` from defined values (arrays repeat the key); '' when nothing is set. */
export function buildQuery(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const item of values as Array<string | number | boolean>) {
      if (typeof item === 'number' && !Number.isFinite(item)) refuse(`query parameter ${key} is not a finite number`);
      params.append(key, String(item));
    }
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The absolute URL of a checked path under `apiRoot`, verified not to be rewritten by URL parsing. */
export function apiUrl(apiRoot: string, path: string, query?: Record<string, QueryValue>): string {
  checkApiPath(path);
  const full = `${apiRoot}${path}${buildQuery(query)}`;
  const expected = new URL(apiRoot).pathname.replace(/\/$/, '') + path;
  if (new URL(full).pathname !== expected) refuse('the request path would be rewritten by URL normalisation', path);
  return full;
}
