/**
 * One HTTP exchange, classified: either a complete response (status, headers, raw bytes) or a
 * transport failure that says how far the request got. Whether a failed request may have reached
 * the server decides whether a mutation is "uncertain" or simply not sent.
 */
import { sizeText } from '../../shared/sizes';

/** How a request failed before a complete response arrived. */
export type TransportFailureKind =
  /** The caller's signal fired. `maybeSent` says whether it fired after the request went out. */
  | 'aborted'
  /** The per-attempt timeout fired (request sent or not: treated as maybe sent). */
  | 'timeout'
  /** The connection could not be made (refused, DNS, unreachable, TLS): certainly not sent. */
  | 'connect'
  /** The connection failed after the request may have been written (reset, closed, hang-up). */
  | 'dropped'
  /** The status line arrived but the body did not arrive whole (closed early, length mismatch). */
  | 'body'
  /** The body is longer than the caller allows: reading stopped at the limit (not retried). */
  | 'too_large';

export class TransportFailure extends Error {
  override name = 'TransportFailure';
  constructor(
    readonly kind: TransportFailureKind,
    readonly maybeSent: boolean,
    readonly code: string | undefined,
    message: string,
    /** The status line, when the failure happened while reading the body. */
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface RawResponse {
  status: number;
  headers: Headers;
  bytes: Uint8Array;
}

export interface SendOptions {
  method: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  fetch: typeof fetch;
  /** The longest body read (bytes); a longer one fails with `too_large` once the limit is passed, never buffered whole. */
  maxBytes: number;
}

/** The default limit of one response body: far above the largest real page (a few MiB at most). */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
/** The environment variable that sets another limit for one response body, in bytes (e.g. `268435456`). */
export const MAX_RESPONSE_BYTES_ENV = 'ATTEST_MAX_RESPONSE_BYTES';

/** The body limit: the option, else a valid ATTEST_MAX_RESPONSE_BYTES, else the default. */
export function responseLimit(option: number | undefined, env: NodeJS.ProcessEnv = process.env): number {
  if (option !== undefined) {
    if (!Number.isSafeInteger(option) || option < 1)
      throw new RangeError(`maxResponseBytes must be a positive whole number, not ${option}`);
    return option;
  }
  const text = env[MAX_RESPONSE_BYTES_ENV]?.trim();
  if (!text) return DEFAULT_MAX_RESPONSE_BYTES;
  const value = /^\d{1,15}$/.test(text) ? Number(text) : NaN;
  if (!(value >= 1)) throw new RangeError(`${MAX_RESPONSE_BYTES_ENV} must be a positive whole number of bytes, not '${snippet(text, 40)}'`);
  return value;
}

/** The body, read chunk by chunk up to `maxBytes`: past it, the rest is not read (the stream is cancelled). */
async function readBounded(response: Response, maxBytes: number): Promise<Uint8Array> {
  const tooLarge = (what: string): TransportFailure =>
    new TransportFailure(
      'too_large',
      true,
      undefined,
      `the answer is ${what} the ${sizeText(maxBytes)} allowed for one response`,
      response.status,
    );
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(`${sizeText(declared)} (Content-Length), more than`);
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge('longer than');
    }
    chunks.push(value);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
}

// Errors that happen before a single byte of the request can have reached the server.
const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EAI_NONAME',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_INVALID_ARG',
  'ERR_INVALID_URL',
]);

function errorCode(error: unknown): string | undefined {
  // undici: TypeError('fetch failed', { cause: Error{ code } }), sometimes nested one level more.
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function isConnectFailure(code: string | undefined): boolean {
  if (!code) return false;
  if (CONNECT_CODES.has(code)) return true;
  // TLS handshake failures: the request is written only after the handshake succeeds.
  return /CERT|^ERR_TLS|^ERR_SSL|^SELF_SIGNED|^UNABLE_TO_/.test(code);
}

function describe(code: string | undefined): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'the connection was refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
    case 'EAI_NONAME':
      return 'the host name could not be resolved';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EHOSTDOWN':
    case 'ENETDOWN':
      return 'the host is unreachable (offline?)';
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'connecting timed out';
    case 'ECONNRESET':
      return 'the connection was reset';
    case 'UND_ERR_SOCKET':
      return 'the connection was closed by the other side';
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
      return 'the body was shorter than its Content-Length';
    default:
      if (code && isConnectFailure(code)) return `the secure connection failed (${code})`;
      return code ? `the connection failed (${code})` : 'the connection failed';
  }
}

/**
 * Sends one request and reads its whole body under one timeout. Redirects are not followed
 * (a redirect is returned as a response): the API never redirects a correct request.
 */
export async function sendOnce(url: string, options: SendOptions): Promise<RawResponse> {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), options.timeoutMs);
  const signals = options.signal ? [options.signal, timeout.signal] : [timeout.signal];
  const signal = AbortSignal.any(signals);
  let response: Response;
  try {
    if (options.signal?.aborted) throw new TransportFailure('aborted', false, undefined, 'cancelled before sending');
    try {
      const init: RequestInit = { method: options.method, headers: options.headers, redirect: 'manual', signal };
      if (options.body !== undefined) init.body = options.body;
      response = await options.fetch(url, init);
    } catch (error) {
      if (error instanceof TransportFailure) throw error;
      if (options.signal?.aborted) throw new TransportFailure('aborted', true, undefined, 'cancelled while sending');
      if (timeout.signal.aborted) throw new TransportFailure('timeout', true, undefined, `no answer within ${options.timeoutMs} ms`);
      const code = errorCode(error);
      if (isConnectFailure(code)) throw new TransportFailure('connect', false, code, describe(code));
      throw new TransportFailure('dropped', true, code, `${describe(code)} before an answer arrived`);
    }
    try {
      const bytes = await readBounded(response, options.maxBytes);
      return { status: response.status, headers: response.headers, bytes };
    } catch (error) {
      if (error instanceof TransportFailure) throw error;
      const status = response.status;
      if (options.signal?.aborted) throw new TransportFailure('aborted', true, undefined, 'cancelled while reading the answer', status);
      if (timeout.signal.aborted) {
        throw new TransportFailure('timeout', true, undefined, `the answer did not arrive whole within ${options.timeoutMs} ms`, status);
      }
      const code = errorCode(error);
      throw new TransportFailure('body', true, code, `the answer was cut off: ${describe(code)}`, status);
    }
  } finally {
    clearTimeout(timer);
  }
}

// The three HTTP-date forms (RFC 9110 5.6.7): IMF-fixdate, the obsolete RFC 850 form, and asctime.
const IMF_FIXDATE = /[A-Za-z]{3},\s*\d{1,2}[\s-][A-Za-z]{3}[\s-]\d{2,4}\s+\d{2}:\d{2}:\d{2}\s+GMT/;
const RFC_850_DATE = /[A-Za-z]+,\s*\d{2}-[A-Za-z]{3}-\d{2}\s+\d{2}:\d{2}:\d{2}\s+GMT/;
const ASCTIME_DATE = /[A-Za-z]{3}\s+[A-Za-z]{3}\s+\d{1,2}\s+\d{2}:\d{2}:\d{2}\s+\d{4}/;
const HTTP_DATE = new RegExp(`^(?:${IMF_FIXDATE.source}|${RFC_850_DATE.source}|${ASCTIME_DATE.source})$`);

/**
 * `Retry-After` in milliseconds from now: delay-seconds (`120`) or an HTTP-date
 * (`Wed, 21 Oct 2015 07:28:00 GMT`). A date in the past is 0. Unreadable or absent: undefined.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (!text) return undefined;
  if (/^\d+(?:\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  if (!HTTP_DATE.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** Exponential backoff with jitter: attempt 1 -> about base, doubling, capped; half fixed, half random. */
export function backoffDelay(attempt: number, baseMs: number, capMs = 10_000, random: () => number = Math.random): number {
  const exp = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp / 2 + random() * (exp / 2));
}

/** Decodes a body as UTF-8, refusing invalid bytes. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return null;
  }
}

/** True when the Content-Type (if any) announces JSON. */
export function isJsonContentType(headers: Headers): boolean {
  const type = headers.get('content-type');
  if (type === null || type.trim() === '') return true;
  const media = type.split(';')[0]!.trim().toLowerCase();
  return media === 'application/json' || media.endsWith('+json') || media === 'text/json';
}

/** The first characters of a body for an error message: one line, printable, short. */
export function snippet(text: string, max = 80): string {
  const flat = text
    .replace(/\s+/g, ' ')
    .replace(/[^\x20-\x7e]/g, '?')
    .trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
