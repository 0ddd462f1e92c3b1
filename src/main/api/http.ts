/**
 * One HTTP exchange, classified: either a complete response (status, headers, raw bytes) or a
 * transport failure that says how far the request got. Whether a failed request may have reached
 * the server decides whether a mutation is "uncertain" or simply not sent.
 */
import http, { type ClientRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
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

/** The headers of an answer, looked up by name in any case (several of one name joined by ", "). */
export interface ResponseHeaders {
  get(name: string): string | null;
}

export interface RawResponse {
  status: number;
  headers: ResponseHeaders;
  bytes: Uint8Array;
}

export interface SendOptions {
  method: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
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
  'ERR_INVALID_URL',
]);

function errorCode(error: unknown): string | undefined {
  // A cause may carry the code where the error itself does not.
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
    case 'ECONNRESET':
      return 'the connection was reset';
    case 'EPIPE':
      return 'the connection was closed by the other side';
    default:
      if (code && isConnectFailure(code)) return `the secure connection failed (${code})`;
      return code ? `the connection failed (${code})` : 'the connection failed';
  }
}

/**
 * Kept-alive connections, one pool per scheme and origin: a walk's next page goes out on the
 * connection its last page came back on (the limiter bounds how many are in use at once).
 */
const AGENTS = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };

function headersOf(message: IncomingMessage): ResponseHeaders {
  const all: IncomingHttpHeaders = message.headers;
  return {
    get(name) {
      const value = all[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

/**
 * Sends one request and reads its whole body under one timeout, up to `maxBytes` (past it, the
 * rest is not read and the connection is closed). Redirects are not followed (a redirect is
 * returned as a response): the API never redirects a correct request.
 *
 * Node's own HTTP client, not `fetch`: without the request, header and stream objects `fetch`
 * builds around each exchange, the sync's thread was busy a fifth less over the same pages.
 */
export function sendOnce(url: string, options: SendOptions): Promise<RawResponse> {
  const { signal, timeoutMs, maxBytes } = options;
  if (signal?.aborted) return Promise.reject(new TransportFailure('aborted', false, undefined, 'cancelled before sending'));
  const scheme = url.startsWith('https:') ? 'https:' : 'http:';
  const transport = scheme === 'https:' ? https : http;
  // A body's length said outright: Node would send a DELETE's body without one.
  const headers =
    options.body === undefined ? options.headers : { ...options.headers, 'content-length': String(Buffer.byteLength(options.body)) };
  let request: ClientRequest;
  try {
    request = transport.request(url, { method: options.method, headers, agent: AGENTS[scheme] });
  } catch (error) {
    // Refused before anything went out: a URL that does not parse, or a header value Node cannot
    // send (its message names the header, never its value).
    const code = errorCode(error);
    const why = code === 'ERR_INVALID_URL' ? describe(code) : `the request could not be sent: ${(error as Error).message}`;
    return Promise.reject(new TransportFailure('connect', false, code, why));
  }
  return new Promise<RawResponse>((resolve, reject) => {
    let response: IncomingMessage | undefined;
    let settled = false;
    const done = (): void => {
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    /** Ends the exchange with a failure: the connection is closed, so nothing more is read. */
    const fail = (failure: TransportFailure): void => {
      if (settled) return;
      done();
      reject(failure);
      request.destroy();
    };
    const status = (): number | undefined => response?.statusCode;
    const tooLarge = (what: string): TransportFailure =>
      new TransportFailure(
        'too_large',
        true,
        undefined,
        `the answer is ${what} the ${sizeText(maxBytes)} allowed for one response`,
        status(),
      );
    const cutOff = (error?: unknown): TransportFailure => {
      const code = errorCode(error);
      return new TransportFailure('body', true, code, `the answer was cut off: ${describe(code)}`, status());
    };
    const onAbort = (): void =>
      fail(
        response
          ? new TransportFailure('aborted', true, undefined, 'cancelled while reading the answer', status())
          : new TransportFailure('aborted', true, undefined, 'cancelled while sending'),
      );
    const timer = setTimeout(
      () =>
        fail(
          response
            ? new TransportFailure('timeout', true, undefined, `the answer did not arrive whole within ${timeoutMs} ms`, status())
            : new TransportFailure('timeout', true, undefined, `no answer within ${timeoutMs} ms`),
        ),
      timeoutMs,
    );
    request.on('error', (error) => {
      if (response) return fail(cutOff(error));
      const code = errorCode(error);
      if (isConnectFailure(code)) return fail(new TransportFailure('connect', false, code, describe(code)));
      fail(new TransportFailure('dropped', true, code, `${describe(code)} before an answer arrived`));
    });
    request.on('response', (message) => {
      response = message;
      const declared = Number(message.headers['content-length'] ?? NaN);
      if (Number.isFinite(declared) && declared > maxBytes) return fail(tooLarge(`${sizeText(declared)} (Content-Length), more than`));
      const chunks: Buffer[] = [];
      let total = 0;
      message.on('data', (chunk: Buffer) => {
        total += chunk.length;
        if (total > maxBytes) return fail(tooLarge('longer than'));
        chunks.push(chunk);
      });
      message.on('error', (error) => fail(cutOff(error)));
      // 'end' only for a body that arrived whole; a connection closed before that ends in 'close' alone.
      message.on('end', () => {
        if (settled) return;
        if (!message.complete) return fail(cutOff());
        done();
        resolve({
          status: message.statusCode ?? 0,
          headers: headersOf(message),
          bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total),
        });
      });
      // (Checked first: a close after the end is every answer's, and a failure costs a stack.)
      message.on('close', () => settled || fail(cutOff()));
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    request.end(options.body);
  });
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
export function isJsonContentType(headers: ResponseHeaders): boolean {
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
