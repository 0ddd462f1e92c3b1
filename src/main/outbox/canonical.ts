import { createHash } from 'node:crypto';
import type { OutboxRequest } from './types';

/** JSON with object keys sorted at every level: the same value always gives the same text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** sha256 (hex) of the canonical JSON of `{ method, path, body }`: the request's fingerprint in the journal. */
export function requestDigest(request: OutboxRequest): string {
  return createHash('sha256')
    .update(canonicalJson({ method: request.method, path: request.path, body: request.body }))
    .digest('hex');
}

/**
 * Drops the zero values the service leaves out of its answers (false, 0, '', [], {}, null), so a
 * value we sent and the value read back compare equal when they mean the same.
 */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

export function withoutZeroValues(value: unknown): unknown {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return undefined;
  // The same instant written two ways ('...:00Z' and '...:00.000Z') is the same value.
  if (typeof value === 'string' && TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value))) return new Date(value).toISOString();
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.map((v) => withoutZeroValues(v) ?? null);
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const stripped = withoutZeroValues(v);
      if (stripped !== undefined) out[k] = stripped;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return value;
}

/** Equal in meaning: same JSON once zero values are dropped and keys sorted. */
export function sameValue(a: unknown, b: unknown): boolean {
  return canonicalJson(withoutZeroValues(a) ?? null) === canonicalJson(withoutZeroValues(b) ?? null);
}
