import type { ApiClient } from '../api/client';
import type { ApiErrorKind as BaseKind } from '../api/errors';

/**
 * What the outbox needs from the API client, and how it reads the client's errors.
 *
 * The outbox speaks to `ApiClient.request` only (each kind's descriptor builds its request), so
 * this is the one place that knows the client's error shape.
 */

/** The part of ApiClient the outbox uses: `request` (each kind's descriptor builds its request). */
export type OutboxApi = Pick<ApiClient, 'request'>;

export type ApiErrorKind = BaseKind | 'unknown';

export interface ReadError {
  kind: ApiErrorKind;
  status: number | null;
  grpcCode: number | null;
  message: string;
  retryAfterMs: number | null;
  /** For network errors: true when the request certainly never reached the server (refused, DNS). */
  notSent: boolean;
}

const KINDS = new Set<ApiErrorKind>([
  'auth',
  'not_found',
  'invalid_input',
  'conflict',
  'rate_limited',
  'server',
  'network',
  'uncertain',
  'bad_response',
  'cancelled',
  'timeout',
]);

const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'EADDRNOTAVAIL']);

function findCode(error: unknown, depth = 0): string | null {
  if (!error || typeof error !== 'object' || depth > 4) return null;
  const e = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && NOT_SENT_CODES.has(e.code)) return e.code;
  if (Array.isArray(e.errors))
    for (const inner of e.errors) {
      const c = findCode(inner, depth + 1);
      if (c) return c;
    }
  return findCode(e.cause, depth + 1);
}

/** Reads any error thrown by the API client into the few facts the outbox acts on. */
export function readApiError(error: unknown): ReadError {
  const e = (error ?? {}) as Record<string, unknown>;
  const rawKind = typeof e.kind === 'string' ? (e.kind as ApiErrorKind) : null;
  const name = (error as Error)?.name;
  // A secret that cannot be used (malformed) fails before any request: refused credentials, nothing sent.
  const unusable = name === 'CredentialError';
  const kind: ApiErrorKind = rawKind && KINDS.has(rawKind) ? rawKind : name === 'AbortError' ? 'cancelled' : unusable ? 'auth' : 'unknown';
  const status = typeof e.status === 'number' && e.status > 0 ? e.status : null;
  const grpcCode = typeof e.grpcCode === 'number' ? e.grpcCode : null;
  const message = typeof e.message === 'string' && e.message ? e.message : String(error);
  const retryAfterMs = typeof e.retryAfterMs === 'number' ? e.retryAfterMs : null;
  const notSent = unusable || e.notSent === true || e.sent === false || findCode(error) !== null;
  return { kind, status, grpcCode, message, retryAfterMs, notSent };
}
