/**
 * The API client: authenticated JSON requests under `{base}/api/v1`, with the retry rules of the
 * architecture ("The API client"):
 * - 401: forget the token, send once more with a new one (one mint shared by every request the
 *   token was refused for). A further 401 is an `auth` error, unless the API accepted the refused
 *   token for another request: then it died early, and the request goes on with a newer one.
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
  MAX_RESPONSE_BYTES_ENV,
  responseLimit,
  parseRetryAfter,
  sendOnce,
  snippet,
  TransportFailure,
  type RawResponse,
} from './http';
import { apiUrl, type QueryValue } from './path';
import { RateLimiter, sleep } from './rate-limiter';
import { raceSignal, TokenSource, type AuthMethod } from './token';

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
  /**
   * The longest response body read, in bytes (default: ATTEST_MAX_RESPONSE_BYTES, else 64 MiB).
   * Reading stops at the limit: the request fails (`bad_response`, or `uncertain` for a mutation).
   */
  maxResponseBytes?: number | undefined;
  limiter?: RateLimiter | undefined;
  onEvent?: ((event: ApiEvent) => void) | undefined;
  /** Clock, for tests of token expiry. */
  now?: (() => number) | undefined;
}

export const USER_AGENT = 'attest/0.1';

const GATEWAY_GAVE_UP = new Set([502, 504]);

/** One request's way through its attempts: what it is, attempts made, retries spent, and the error it ends with. */
class RequestState {
  attempts = 0;
  retries = 0;
  reauthorized = false;

  constructor(
    readonly method: HttpMethod,
    readonly path: string,
    readonly mutation: boolean,
    readonly signal: AbortSignal | undefined,
  ) {}

  get where(): { method: HttpMethod; path: string } {
    return { method: this.method, path: this.path };
  }

  /** `METHOD /path`, as every message of this request begins. */
  get label(): string {
    return `${this.method} ${this.path}`;
  }

  fail(kind: ApiErrorKind, message: string, extra: ApiErrorOptions = {}): never {
    throw new ApiError(kind, message, { ...this.where, attempts: this.attempts, ...extra });
  }
}

const withStatus = (status: number | undefined): ApiErrorOptions => (status === undefined ? {} : { status });

class HttpApiClient implements ApiClient {
  readonly apiRoot: string;
  readonly clientId: string;
  readonly id: ParsedClientId;
  readonly tokens: TokenSource;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #retryAfterCapMs: number;
  readonly #backoffBaseMs: number;
  readonly #maxResponseBytes: number;
  readonly #limiter: RateLimiter;
  readonly #onEvent: ((event: ApiEvent) => void) | undefined;
  readonly #now: () => number;

  constructor(options: ApiClientOptions) {
    this.id = parseClientId(options.clientId, options.serverUrl);
    this.apiRoot = this.id.apiRoot;
    this.clientId = this.id.clientId;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#maxRetries = Math.max(0, options.maxRetries ?? 4);
    this.#retryAfterCapMs = options.retryAfterCapMs ?? 60_000;
    this.#backoffBaseMs = options.backoffBaseMs ?? 250;
    this.#maxResponseBytes = responseLimit(options.maxResponseBytes);
    this.#limiter = options.limiter ?? new RateLimiter();
    this.#onEvent = options.onEvent;
    this.#now = options.now ?? Date.now;
    this.tokens = new TokenSource({
      id: this.id,
      clientSecret: options.clientSecret,
      auth: options.auth ?? 'assertion',
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
    const state = new RequestState(method, path, req.mutation ?? method !== 'GET', signal);
    const url = apiUrl(this.apiRoot, path, req.query);
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    const requestId = req.requestId ?? randomUUID();
    if (!/^[\x21-\x7e]{1,200}$/.test(requestId)) {
      state.fail('invalid_input', 'Refused before sending: the request id must be 1 to 200 visible ASCII characters');
    }
    for (;;) {
      if (signal?.aborted) state.fail('cancelled', `${state.label} was cancelled before it was sent`);
      const sent = await this.#sendAttempt(state, url, body, requestId);
      if (sent === 'retry') continue;
      const { raw, refusal, started } = sent;
      const { status } = raw;
      this.#onEvent?.({
        type: 'response',
        ...state.where,
        status,
        attempt: state.attempts,
        ms: this.#now() - started,
        bytes: raw.bytes.length,
      });

      // Refused before any effect: safe to resend with a new token, mutation or not. A request
      // refused alone keeps being renewed only while other requests get through.
      if (refusal && (!state.reauthorized || (await raceSignal(refusal, signal)))) {
        state.reauthorized = true;
        this.#onEvent?.({ type: 'reauth', ...state.where });
        continue;
      }
      const text = decodeUtf8(raw.bytes);
      if (status === 429 && this.#retryRateLimited(state, raw, text)) continue;
      if (status >= 500 && !state.mutation && (await this.#backoff(state, `status ${status}`))) continue;
      if (status < 200 || status >= 300) this.#failStatus(state, raw, text);
      return { status, body: this.#parseBody(state, raw, text) as T, text: text! };
    }
  }

  /** One attempt through the shared limiter: the answer, or 'retry' after a transport failure worth retrying. */
  async #sendAttempt(
    state: RequestState,
    url: string,
    body: string | undefined,
    requestId: string,
  ): Promise<{ raw: RawResponse; started: number; refusal?: Promise<boolean> } | 'retry'> {
    const { signal } = state;
    const release = await this.#limiter.acquire(signal);
    const started = this.#now();
    try {
      const token = await this.tokens.getToken(signal);
      state.attempts += 1;
      this.#onEvent?.({ type: 'request', ...state.where, attempt: state.attempts });
      const headers: Record<string, string> = {
        authorization: `Bearer ${token}`,
        accept: 'application/json',
        'user-agent': USER_AGENT,
        'x-request-id': requestId,
      };
      if (body !== undefined) headers['content-type'] = 'application/json';
      this.tokens.beginUse(token);
      let raw: RawResponse;
      try {
        raw = await sendOnce(url, {
          method: state.method,
          headers,
          timeoutMs: this.#timeoutMs,
          signal,
          maxBytes: this.#maxResponseBytes,
          ...(body === undefined ? {} : { body }),
        });
      } catch (error) {
        this.tokens.endUse(token, false);
        throw error;
      }
      // Refusal: whether the API accepted this token for another request (it died early) or for none.
      if (raw.status === 401) return { raw, started, refusal: this.tokens.refused(token) };
      this.tokens.endUse(token, true);
      return { raw, started };
    } catch (error) {
      if (!(error instanceof TransportFailure)) throw error;
      // The backoff waits while this request still holds its place in the limiter.
      await this.#afterTransportFailure(state, error);
      return 'retry';
    } finally {
      release();
    }
  }

  /** Returns when the request may be retried (reads only); else throws the error it ends with. */
  async #afterTransportFailure(state: RequestState, f: TransportFailure): Promise<void> {
    const { label } = state;
    if (f.kind === 'aborted') {
      if (state.mutation && f.maybeSent) {
        state.fail('uncertain', `${label} was cancelled after it was sent: it may have been applied`, { status: f.status });
      }
      state.fail('cancelled', `${label} was cancelled`, { notSent: !f.maybeSent });
    }
    if (f.kind === 'too_large') {
      const why = `${label} failed: ${f.message} (${MAX_RESPONSE_BYTES_ENV} sets another limit, in bytes)`;
      if (state.mutation) state.fail('uncertain', `${why}. The change may have been applied; it was not resent`, withStatus(f.status));
      state.fail('bad_response', why, withStatus(f.status));
    }
    if (state.mutation) {
      if (f.kind === 'connect') state.fail('network', `${label} was not sent: ${f.message}`, { notSent: true });
      if (f.kind === 'body' && f.status !== undefined && f.status >= 400 && f.status < 500 && f.status !== 408) {
        // The server refused it (4xx) even though the body was cut off: not applied.
        state.fail(kindForStatus(f.status), `${label} failed with HTTP ${f.status} (the error body was cut off)`, { status: f.status });
      }
      state.fail('uncertain', `${label} may have been applied: ${f.message}. It was not resent`, withStatus(f.status));
    }
    if (await this.#backoff(state, f.kind)) return;
    if (f.kind === 'timeout') state.fail('timeout', `${label} timed out: ${f.message}`);
    if (f.kind === 'body') state.fail('bad_response', `${label}: ${f.message}`, withStatus(f.status));
    state.fail('network', `${label} failed: ${f.message}`, { notSent: f.kind === 'connect' });
  }

  /** Waits a jittered, doubling delay before a retry; false when no retry is left. */
  async #backoff(state: RequestState, reason: string): Promise<boolean> {
    if (state.retries >= this.#maxRetries) return false;
    state.retries += 1;
    const delay = backoffDelay(state.retries, this.#backoffBaseMs);
    this.#onEvent?.({ type: 'retry', ...state.where, reason, delayMs: delay, attempt: state.attempts });
    await sleep(delay, state.signal);
    return true;
  }

  /** A 429: true when it is retried after the wait it asked for (every sender waits too); else throws. */
  #retryRateLimited(state: RequestState, raw: RawResponse, text: string | null): boolean {
    const { status } = raw;
    const wait = parseRetryAfter(raw.headers.get('retry-after'), this.#now());
    if (wait !== undefined && wait > this.#retryAfterCapMs) {
      const asked = `the server asked to wait ${Math.ceil(wait / 1000)} s, longer than the ${Math.round(this.#retryAfterCapMs / 1000)} s allowed`;
      state.fail('rate_limited', `${state.label}: ${asked}`, { status, retryAfterMs: wait });
    }
    if (state.retries < this.#maxRetries) {
      state.retries += 1;
      const delay = wait !== undefined && wait > 0 ? wait : backoffDelay(state.retries, this.#backoffBaseMs);
      // Everyone sharing the limiter waits, not only this request.
      this.#limiter.pause(delay);
      this.#onEvent?.({ type: 'rate-limited', ...state.where, waitMs: delay });
      return true;
    }
    const parsed = text === null ? {} : parseErrorBody(text);
    state.fail(
      'rate_limited',
      `${state.label} is still rate limited after ${state.attempts} attempts${parsed.message ? `: ${parsed.message}` : ''}`,
      { status, ...(wait === undefined ? {} : { retryAfterMs: wait }) },
    );
  }

  /** A redirect, an error status or a non-2xx: the error it ends with (a gateway timeout on a mutation: uncertain). */
  #failStatus(state: RequestState, raw: RawResponse, text: string | null): never {
    const { status } = raw;
    if (status >= 300 && status < 400) {
      const location = raw.headers.get('location');
      state.fail(
        'bad_response',
        `${state.label} was redirected (HTTP ${status}${location ? ` to ${snippet(location, 200)}` : ''}); redirects are never followed`,
        { status },
      );
    }
    const parsed = text === null ? {} : parseErrorBody(text);
    const detail = parsed.message ?? (text ? `unexpected body: ${snippet(text)}` : 'no error body');
    const extra = {
      status,
      ...(parsed.grpcCode === undefined ? {} : { grpcCode: parsed.grpcCode }),
      ...(parsed.details === undefined ? {} : { details: parsed.details }),
    };
    if (state.mutation && GATEWAY_GAVE_UP.has(status)) {
      state.fail(
        'uncertain',
        `${state.label}: a gateway answered HTTP ${status}, so the change may have been applied (${detail}). It was not resent`,
        extra,
      );
    }
    state.fail(kindForStatus(status, parsed.grpcCode), `${state.label} failed with HTTP ${status}: ${detail}`, extra);
  }

  /** A 2xx: its body must be JSON (a mutation whose answer cannot be read is uncertain). */
  #parseBody(state: RequestState, raw: RawResponse, text: string | null): unknown {
    const { status } = raw;
    let problem =
      text === null
        ? 'is not valid UTF-8'
        : !isJsonContentType(raw.headers)
          ? `is ${raw.headers.get('content-type')}, not JSON`
          : undefined;
    if (!problem) {
      try {
        return JSON.parse(text!);
      } catch {
        problem = text!.trim() === '' ? 'is empty' : `is not valid JSON (cut off?): ${snippet(text!)}`;
      }
    }
    if (state.mutation) {
      state.fail(
        'uncertain',
        `${state.label} answered HTTP ${status} but its body ${problem}; the change was probably applied, its result is unknown`,
        { status },
      );
    }
    state.fail('bad_response', `${state.label} answered HTTP ${status} but its body ${problem}`, { status });
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
