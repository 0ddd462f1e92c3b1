/**
 * The API client: authenticated JSON requests under `{base}/api/v1`, with the retry rules of the
 * architecture ("The API client"):
 * - 401: forget the token, mint a new one, send once more; a second 401 is an `auth` error.
 * - 429, any request: wait as `Retry-After` says (seconds or HTTP-date) on the shared limiter,
 *   then retry; a wait longer than `retryAfterCapMs` is not waited for (`rate_limited`).
 * - 5xx, network failures, timeouts, cut-off bodies: retried with jittered backoff for reads only.
 * - A mutation that may have reached the server (dropped after sending, timed out, cancelled in
 *   flight, 502/504 from a gateway, 2xx with an unreadable body) is never resent: `uncertain`.
 *   A mutation answered 500/503 is a `server` error (the server answered; not retried).
 * - A 2xx whose body is not JSON is an error; a redirect is an error (never followed).
 * Responses keep the raw text exactly as received, so unknown fields and enum values survive.
 */
import { randomUUID } from 'node:crypto';
import { parseClientId, type ParsedClientId } from './credentials';
import { ApiError, kindForStatus, parseErrorBody, type ApiErrorKind, type ApiErrorOptions } from './errors';
import type { ApiEvent } from './events';
import {
  backoffDelay,
  decodeUtf8,
  isJsonContentType,
  parseRetryAfter,
  sendOnce,
  snippet,
  TransportFailure,
  type RawResponse,
} from './http';
import { apiUrl, type QueryValue } from './path';
import { RateLimiter, sleep } from './rate-limiter';
import { TokenSource, type AuthMethod } from './token';

export { RateLimiter } from './rate-limiter';
export type { ApiEvent } from './events';

export type HttpMethod = 'GET' | 'POST' | 'DELETE' | 'PATCH' | 'PUT';

export interface ApiRequest {
  method: HttpMethod;
  /** Relative to `/api/v1`, e.g. `/search/automations`. Build ids into it with `pathParam`. */
  path: string;
  query?: Record<string, QueryValue>;
  /** Sent as JSON (also for DELETE, as remove-membership needs). */
  body?: unknown;
  signal?: AbortSignal;
  /** Whether the request changes server state. Default: true for every method but GET. */
  mutation?: boolean;
  /**
   * Sent as `X-Request-Id` on every attempt of this request (default: a fresh UUID), so the
   * server's logs tie retries together and an outbox item can be found again by its own id.
   */
  requestId?: string;
}

export interface ApiResponse<T> {
  status: number;
  body: T;
  /** The response text exactly as received (UTF-8), for storing objects as the server sent them. */
  text: string;
}

export interface ApiClient {
  request<T>(req: ApiRequest): Promise<ApiResponse<T>>;
  /** A live access token (minting one if needed). */
  getToken(signal?: AbortSignal): Promise<string>;
  readonly apiRoot: string;
  readonly clientId: string;
}

export interface ApiClientOptions {
  clientId: string;
  clientSecret: string;
  serverUrl?: string | undefined;
  auth?: AuthMethod | undefined;
  /** Per attempt, for the answer and its whole body. Default 30 s. */
  timeoutMs?: number | undefined;
  /** Retries after the first attempt, for 429 and (reads only) 5xx/network. Default 4. */
  maxRetries?: number | undefined;
  /** The longest Retry-After waited for. Default 60 s. */
  retryAfterCapMs?: number | undefined;
  /** First backoff delay; doubles per retry, with jitter. Default 250 ms. */
  backoffBaseMs?: number | undefined;
  limiter?: RateLimiter | undefined;
  fetch?: typeof fetch | undefined;
  onEvent?: ((event: ApiEvent) => void) | undefined;
  /** Clock, for tests of token expiry. */
  now?: (() => number) | undefined;
}

export const USER_AGENT = 'attest/0.1';

const GATEWAY_GAVE_UP = new Set([502, 504]);

class HttpApiClient implements ApiClient {
  readonly apiRoot: string;
  readonly clientId: string;
  readonly id: ParsedClientId;
  readonly tokens: TokenSource;
  readonly #fetch: typeof fetch;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #retryAfterCapMs: number;
  readonly #backoffBaseMs: number;
  readonly #limiter: RateLimiter;
  readonly #onEvent: ((event: ApiEvent) => void) | undefined;
  readonly #now: () => number;

  constructor(options: ApiClientOptions) {
    this.id = parseClientId(options.clientId, options.serverUrl);
    this.apiRoot = this.id.apiRoot;
    this.clientId = this.id.clientId;
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#maxRetries = Math.max(0, options.maxRetries ?? 4);
    this.#retryAfterCapMs = options.retryAfterCapMs ?? 60_000;
    this.#backoffBaseMs = options.backoffBaseMs ?? 250;
    this.#limiter = options.limiter ?? new RateLimiter();
    this.#onEvent = options.onEvent;
    this.#now = options.now ?? Date.now;
    this.tokens = new TokenSource({
      id: this.id,
      clientSecret: options.clientSecret,
      auth: options.auth ?? 'assertion',
      fetch: this.#fetch,
      timeoutMs: this.#timeoutMs,
      maxRetries: this.#maxRetries,
      retryAfterCapMs: this.#retryAfterCapMs,
      backoffBaseMs: this.#backoffBaseMs,
      limiter: this.#limiter,
      onEvent: this.#onEvent,
      now: this.#now,
      userAgent: USER_AGENT,
    });
  }

  getToken(signal?: AbortSignal): Promise<string> {
    return this.tokens.getToken(signal);
  }

  async request<T>(req: ApiRequest): Promise<ApiResponse<T>> {
    const { method, path, signal } = req;
    const mutation = req.mutation ?? method !== 'GET';
    const url = apiUrl(this.apiRoot, path, req.query);
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    const requestId = req.requestId ?? randomUUID();
    if (!/^[\x21-\x7e]{1,200}$/.test(requestId)) {
      throw new ApiError('invalid_input', 'Refused before sending: the request id must be 1 to 200 visible ASCII characters', {
        method,
        path,
        attempts: 0,
      });
    }
    const where = { method, path };
    let attempts = 0;
    let retries = 0;
    let reauthorized = false;

    const fail: (kind: ApiErrorKind, message: string, extra?: ApiErrorOptions) => never = (kind, message, extra = {}) => {
      throw new ApiError(kind, message, { ...where, attempts, ...extra });
    };
    const retry = async (reason: string): Promise<boolean> => {
      if (retries >= this.#maxRetries) return false;
      retries += 1;
      const delay = backoffDelay(retries, this.#backoffBaseMs);
      this.#onEvent?.({ type: 'retry', ...where, reason, delayMs: delay, attempt: attempts });
      await sleep(delay, signal);
      return true;
    };

    for (;;) {
      if (signal?.aborted) fail('cancelled', `${method} ${path} was cancelled before it was sent`);
      const release = await this.#limiter.acquire(signal);
      let token: string;
      let raw: RawResponse;
      const started = this.#now();
      try {
        token = await this.tokens.getToken(signal);
        attempts += 1;
        this.#onEvent?.({ type: 'request', ...where, attempt: attempts });
        const headers: Record<string, string> = {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          'user-agent': USER_AGENT,
          'x-request-id': requestId,
        };
        if (body !== undefined) headers['content-type'] = 'application/json';
        raw = await sendOnce(url, {
          method,
          headers,
          timeoutMs: this.#timeoutMs,
          signal,
          fetch: this.#fetch,
          ...(body === undefined ? {} : { body }),
        });
      } catch (error) {
        if (!(error instanceof TransportFailure)) throw error;
        const f = error;
        if (f.kind === 'aborted') {
          if (mutation && f.maybeSent) {
            fail('uncertain', `${method} ${path} was cancelled after it was sent: it may have been applied`, { status: f.status });
          }
          fail('cancelled', `${method} ${path} was cancelled`, { notSent: !f.maybeSent });
        }
        if (mutation) {
          if (f.kind === 'connect') fail('network', `${method} ${path} was not sent: ${f.message}`, { notSent: true });
          if (f.kind === 'body' && f.status !== undefined && f.status >= 400 && f.status < 500 && f.status !== 408) {
            // The server refused it (4xx) even though the body was cut off: not applied.
            fail(kindForStatus(f.status), `${method} ${path} failed with HTTP ${f.status} (the error body was cut off)`, {
              status: f.status,
            });
          }
          fail(
            'uncertain',
            `${method} ${path} may have been applied: ${f.message}. It was not resent`,
            f.status === undefined ? {} : { status: f.status },
          );
        }
        if (await retry(f.kind)) continue;
        if (f.kind === 'timeout') fail('timeout', `${method} ${path} timed out: ${f.message}`);
        if (f.kind === 'body') fail('bad_response', `${method} ${path}: ${f.message}`, f.status === undefined ? {} : { status: f.status });
        fail('network', `${method} ${path} failed: ${f.message}`, { notSent: f.kind === 'connect' });
      } finally {
        release();
      }
      const { status } = raw;
      this.#onEvent?.({ type: 'response', ...where, status, attempt: attempts, ms: this.#now() - started });

      if (status === 401 && !reauthorized) {
        // Refused before any effect: safe to resend once with a new token, mutation or not.
        reauthorized = true;
        this.tokens.invalidate(token);
        this.#onEvent?.({ type: 'reauth', ...where });
        continue;
      }
      const text = decodeUtf8(raw.bytes);

      if (status === 429) {
        const wait = parseRetryAfter(raw.headers.get('retry-after'), this.#now());
        if (wait !== undefined && wait > this.#retryAfterCapMs) {
          fail(
            'rate_limited',
            `${method} ${path}: the server asked to wait ${Math.ceil(wait / 1000)} s, longer than the ${Math.round(this.#retryAfterCapMs / 1000)} s allowed`,
            {
              status,
              retryAfterMs: wait,
            },
          );
        }
        if (retries < this.#maxRetries) {
          retries += 1;
          const delay = wait !== undefined && wait > 0 ? wait : backoffDelay(retries, this.#backoffBaseMs);
          // Everyone sharing the limiter waits, not only this request.
          this.#limiter.pause(delay);
          this.#onEvent?.({ type: 'rate-limited', ...where, waitMs: delay });
          continue;
        }
        const parsed = text === null ? {} : parseErrorBody(text);
        fail(
          'rate_limited',
          `${method} ${path} is still rate limited after ${attempts} attempts${parsed.message ? `: ${parsed.message}` : ''}`,
          {
            status,
            ...(wait === undefined ? {} : { retryAfterMs: wait }),
          },
        );
      }

      if (status >= 500 && !mutation && (await retry(`status ${status}`))) continue;

      if (status >= 300 && status < 400) {
        const location = raw.headers.get('location');
        fail(
          'bad_response',
          `${method} ${path} was redirected (HTTP ${status}${location ? ` to ${snippet(location, 200)}` : ''}); redirects are never followed`,
          { status },
        );
      }

      if (status >= 400 || status < 200) {
        const parsed = text === null ? {} : parseErrorBody(text);
        const detail = parsed.message ?? (text ? `unexpected body: ${snippet(text)}` : 'no error body');
        const extra = {
          status,
          ...(parsed.grpcCode === undefined ? {} : { grpcCode: parsed.grpcCode }),
          ...(parsed.details === undefined ? {} : { details: parsed.details }),
        };
        if (mutation && GATEWAY_GAVE_UP.has(status)) {
          fail(
            'uncertain',
            `${method} ${path}: a gateway answered HTTP ${status}, so the change may have been applied (${detail}). It was not resent`,
            extra,
          );
        }
        fail(kindForStatus(status, parsed.grpcCode), `${method} ${path} failed with HTTP ${status}: ${detail}`, extra);
      }

      // 2xx: the body must be JSON.
      const problem =
        text === null
          ? 'is not valid UTF-8'
          : !isJsonContentType(raw.headers)
            ? `is ${raw.headers.get('content-type')}, not JSON`
            : undefined;
      let parsedBody: unknown;
      let parseProblem = problem;
      if (!parseProblem) {
        try {
          parsedBody = JSON.parse(text!);
        } catch {
          parseProblem = text!.trim() === '' ? 'is empty' : `is not valid JSON (cut off?): ${snippet(text!)}`;
        }
      }
      if (parseProblem) {
        if (mutation) {
          fail(
            'uncertain',
            `${method} ${path} answered HTTP ${status} but its body ${parseProblem}; the change was probably applied, its result is unknown`,
            { status },
          );
        }
        fail('bad_response', `${method} ${path} answered HTTP ${status} but its body ${parseProblem}`, { status });
      }
      return { status, body: parsedBody as T, text: text! };
    }
  }
}

/** A client for one tenant. Throws a CredentialError at once for a malformed client id or server URL. */
export function createApiClient(options: ApiClientOptions): ApiClient {
  return new HttpApiClient(options);
}

/** The number of tokens a client has minted (diagnostics and tests). */
export function tokenMints(api: ApiClient): number {
  return api instanceof HttpApiClient ? api.tokens.mints : 0;
}
