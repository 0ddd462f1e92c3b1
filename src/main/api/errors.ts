/**
 * Typed errors of the API client. Every failure a caller can see is an ApiError with a `kind`
 * that says what to do about it; the message is for people and never carries a token, the client
 * secret or key material.
 *
 * Kinds:
 * - `auth`          401 after one re-mint, 403, or the token endpoint refused the credentials.
 * - `not_found`     404.
 * - `invalid_input` 400/422 from the server, or a request refused locally before sending
 *                   (an empty or dot path segment, a bad query value).
 * - `conflict`      409 (and 412).
 * - `rate_limited`  429 that outlasted the retries, or asked for a wait longer than the cap.
 * - `server`        5xx (after the retries for a read; at once for a mutation: the server answered).
 * - `network`       the request certainly never reached the server (refused, DNS, unreachable),
 *                   or a read that kept failing on the network.
 * - `uncertain`     a mutation that may have been applied: the connection dropped after sending,
 *                   it timed out, was cancelled in flight, a gateway gave up (502/504), or the
 *                   server said 2xx with a body that cannot be read. Never resent automatically.
 * - `bad_response`  a read answered with a body that is not the JSON it should be (HTML,
 *                   truncated, not UTF-8, an unexpected redirect).
 * - `cancelled`     the caller's AbortSignal fired before the request was sent (or during a read).
 * - `timeout`       a read that timed out on every attempt.
 */
export type ApiErrorKind =
  | 'auth'
  | 'not_found'
  | 'invalid_input'
  | 'conflict'
  | 'rate_limited'
  | 'server'
  | 'network'
  | 'uncertain'
  | 'bad_response'
  | 'cancelled'
  | 'timeout';

export interface ApiErrorOptions {
  status?: number;
  grpcCode?: number;
  details?: unknown;
  retryAfterMs?: number;
  /** The OAuth `error` code of a token endpoint answer (e.g. `invalid_client`). */
  oauthError?: string;
  method?: string;
  /** The request path relative to the API root (no query string, no host). */
  path?: string;
  attempts?: number;
  /** The request certainly never reached the server (default: true when `attempts` is 0). */
  notSent?: boolean;
  cause?: unknown;
}

export class ApiError extends Error {
  override name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly status?: number;
  readonly grpcCode?: number;
  readonly details?: unknown;
  readonly retryAfterMs?: number;
  readonly oauthError?: string;
  readonly method?: string;
  readonly path?: string;
  /** How many times the request was sent (0 when it was refused before sending). */
  readonly attempts?: number;
  /**
   * True when the request certainly never reached the server: refused before sending, the
   * connection could not be made, or no token could be had. Safe to send again later.
   */
  readonly notSent: boolean;

  constructor(kind: ApiErrorKind, message: string, options: ApiErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    if (options.status !== undefined) this.status = options.status;
    if (options.grpcCode !== undefined) this.grpcCode = options.grpcCode;
    if (options.details !== undefined) this.details = options.details;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
    if (options.oauthError !== undefined) this.oauthError = options.oauthError;
    if (options.method !== undefined) this.method = options.method;
    if (options.path !== undefined) this.path = options.path;
    if (options.attempts !== undefined) this.attempts = options.attempts;
    this.notSent = options.notSent ?? options.attempts === 0;
  }

  /** True when the change may have been applied by the server: reconcile, never resend blindly. */
  get mayHaveApplied(): boolean {
    return this.kind === 'uncertain';
  }
}

export function isApiError(error: unknown, kind?: ApiErrorKind): error is ApiError {
  return error instanceof ApiError && (kind === undefined || error.kind === kind);
}

/** google.rpc.Code values (https://github.com/googleapis/googleapis/blob/master/google/rpc/code.proto). */
export const GRPC_CODE = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;

/** The kind of an HTTP error status (the status decides; the body's gRPC code only adds detail). */
export function kindForStatus(status: number, grpcCode?: number): ApiErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'not_found';
  if (status === 409 || status === 412) return 'conflict';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server';
  if (status >= 400) {
    // Some gateways answer 400 for everything: let a precise gRPC code refine it.
    switch (grpcCode) {
      case GRPC_CODE.NOT_FOUND:
        return 'not_found';
      case GRPC_CODE.ALREADY_EXISTS:
      case GRPC_CODE.ABORTED:
        return 'conflict';
      case GRPC_CODE.UNAUTHENTICATED:
      case GRPC_CODE.PERMISSION_DENIED:
        return 'auth';
      case GRPC_CODE.RESOURCE_EXHAUSTED:
        return 'rate_limited';
      default:
        return 'invalid_input';
    }
  }
  return 'bad_response';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The parts of an error body we understand: google.rpc.Status or an OAuth error. */
export interface ParsedErrorBody {
  message?: string;
  grpcCode?: number;
  details?: unknown;
  oauthError?: string;
}

const MAX_MESSAGE = 500;

function clip(text: string): string {
  // One line, bounded: error messages end up in terminals and logs.
  let flat = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    flat += code < 0x20 || code === 0x7f ? ' ' : ch;
  }
  flat = flat.replace(/ {2,}/g, ' ').trim();
  return flat.length > MAX_MESSAGE ? `${flat.slice(0, MAX_MESSAGE)}…` : flat;
}

/** Reads a google.rpc.Status (`{code, message, details}`) or OAuth (`{error, error_description}`) body. */
export function parseErrorBody(text: string): ParsedErrorBody {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return {};
  }
  if (!isRecord(body)) return {};
  const parsed: ParsedErrorBody = {};
  if (typeof body.error === 'string') {
    parsed.oauthError = clip(body.error);
    if (typeof body.error_description === 'string' && body.error_description) parsed.message = clip(body.error_description);
    else parsed.message = parsed.oauthError;
  }
  if (typeof body.code === 'number' && Number.isInteger(body.code)) parsed.grpcCode = body.code;
  if (typeof body.message === 'string' && body.message) parsed.message = clip(body.message);
  if (body.details !== undefined && body.details !== null) parsed.details = body.details;
  // Some gateways wrap the status as {"error": {"message": ...}}: keep the message.
  if (isRecord(body.error)) {
    const inner = body.error;
    if (typeof inner.message === 'string' && inner.message && !parsed.message) parsed.message = clip(inner.message);
  }
  return parsed;
}
