/**
 * Access tokens from `POST {base}/auth/v1/token` (form body only, never credentials in headers):
 * - `assertion` (default): a JWS `alg: EdDSA` signed with the secret's Ed25519 key, a random
 *   `nonce` header of 32 hex digits and no `typ` (as the vendor's clients send it), claims iss = sub = client id, aud = [token host without port], iat = now,
 *   nbf = now - 120 s, exp = now + 120 s.
 * - `secret`: the basic form with `client_secret`.
 * The token lives in memory only. It is re-minted 60 s before `expires_in` runs out (half the
 * lifetime for tokens shorter than two minutes), one mint at a time however many callers wait.
 * A token the API refuses is renewed once, however many requests it refused: requests refused
 * with a token already replaced take the newer one. Whether the API accepted a token for any request
 * tells a token that died early from credentials the API does not accept.
 */
import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { parseClientSecret, type ParsedClientId, type ParsedClientSecret } from './credentials';
import { ApiError, kindForStatus, parseErrorBody } from './errors';
import { backoffDelay, decodeUtf8, parseRetryAfter, sendOnce, snippet, TransportFailure } from './http';
import { cancelledError, sleep, type RateLimiter } from './rate-limiter';
import type { ApiEvent } from './events';

export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
/** Seconds either side of now for `nbf` and `exp` of an assertion. */
export const ASSERTION_SKEW_SECONDS = 120;
/** The longest token endpoint answer read: a token response is a few kB. */
export const MAX_TOKEN_RESPONSE_BYTES = 1024 * 1024;
/** Re-mint this long before a token expires. */
export const REFRESH_MARGIN_SECONDS = 60;

export type AuthMethod = 'assertion' | 'secret';

export interface TokenSourceOptions {
  id: ParsedClientId;
  clientSecret: string;
  auth: AuthMethod;
  timeoutMs: number;
  maxRetries: number;
  retryAfterCapMs: number;
  backoffBaseMs: number;
  limiter?: RateLimiter | undefined;
  onEvent?: ((event: ApiEvent) => void) | undefined;
  now?: (() => number) | undefined;
  userAgent: string;
}

interface Token {
  value: string;
  /** Epoch ms after which a new token is minted. */
  refreshAt: number;
  /** Epoch ms at which the server stops accepting it. */
  expiresAt: number;
}

/** The API requests sent with one token and not yet answered, and whether the API accepted it for any. */
interface TokenUse {
  pending: number;
  accepted: boolean;
  /** Callers refused with this token, waiting to learn whether the API accepted it for another request. */
  waiting: Array<(accepted: boolean) => void>;
}

/** Signs a client assertion as the architecture prescribes. Exported for tests. */
export async function signClientAssertion(clientId: string, audience: string, key: ParsedClientSecret, nowMs: number): Promise<string> {
  const now = Math.floor(nowMs / 1000);
  // As the vendor's clients send it: a nonce of 32 hex digits (16 random bytes), and no `typ`.
  const header: { alg: 'EdDSA'; nonce: string; kid?: string } = { alg: 'EdDSA', nonce: randomBytes(16).toString('hex') };
  if (key.keyId) header.kid = key.keyId;
  return new SignJWT({})
    .setProtectedHeader(header)
    .setIssuer(clientId)
    .setSubject(clientId)
    .setAudience([audience])
    .setIssuedAt(now)
    .setNotBefore(now - ASSERTION_SKEW_SECONDS)
    .setExpirationTime(now + ASSERTION_SKEW_SECONDS)
    .sign(key.privateKey);
}

export class TokenSource {
  readonly #options: Omit<TokenSourceOptions, 'clientSecret'>;
  readonly #now: () => number;
  /** The raw secret, kept only for the basic form; dropped after parsing for assertions. */
  #secret: string | undefined;
  #key: Promise<ParsedClientSecret> | undefined;
  #token: Token | undefined;
  #inflight: Promise<Token> | undefined;
  #mints = 0;
  readonly #uses = new Map<string, TokenUse>();

  constructor(options: TokenSourceOptions) {
    // The raw secret is kept apart, so it can be dropped once the key is parsed.
    const { clientSecret, ...rest } = options;
    this.#options = rest;
    this.#now = options.now ?? Date.now;
    this.#secret = clientSecret;
  }

  /** How many tokens were minted so far (for diagnostics and tests). */
  get mints(): number {
    return this.#mints;
  }

  /** A live token: the cached one, or a fresh one (one mint in flight at a time). */
  async getToken(signal?: AbortSignal): Promise<string> {
    if (signal?.aborted) throw cancelledError();
    const cached = this.#token;
    if (cached && this.#now() < cached.refreshAt) return cached.value;
    if (!this.#inflight) {
      const mint = this.#mint().finally(() => {
        if (this.#inflight === mint) this.#inflight = undefined;
      });
      this.#inflight = mint;
    }
    const token = await raceSignal(this.#inflight, signal);
    return token.value;
  }

  /** An API request goes out with `token`; its answer ends the use with `endUse` or `refused`. */
  beginUse(token: string): void {
    const use = this.#uses.get(token);
    if (use) use.pending += 1;
    else this.#uses.set(token, { pending: 1, accepted: false, waiting: [] });
  }

  /** A request sent with `token` ended: answered by the API (`accepted`: not 401), or failed without an answer. */
  endUse(token: string, accepted: boolean): void {
    const use = this.#uses.get(token);
    if (!use) return;
    if (accepted && !use.accepted) {
      use.accepted = true;
      for (const settle of use.waiting.splice(0)) settle(true);
    }
    this.#release(token, use);
  }

  /**
   * A request sent with `token` was refused (401). Forgets the token, if still the current one, so
   * the next getToken mints a new one (or joins the mint under way), and resolves, once known,
   * whether the API accepted it for any other request: true as soon as one was answered with it,
   * false once every request sent with it was refused or failed.
   */
  refused(token: string): Promise<boolean> {
    if (this.#token?.value === token) this.#token = undefined;
    const use = this.#uses.get(token);
    if (!use) return Promise.resolve(false);
    const verdict = use.accepted ? Promise.resolve(true) : new Promise<boolean>((resolve) => use.waiting.push(resolve));
    this.#release(token, use);
    return verdict;
  }

  #release(token: string, use: TokenUse): void {
    use.pending -= 1;
    if (use.pending > 0) return;
    for (const settle of use.waiting.splice(0)) settle(use.accepted);
    // The current token stays known as accepted: a request may still be sent with it after all others were answered.
    if (!use.accepted || this.#token?.value !== token) this.#uses.delete(token);
  }

  #parsedKey(): Promise<ParsedClientSecret> {
    if (!this.#key) {
      const secret = this.#secret ?? '';
      this.#key = parseClientSecret(secret);
      if (this.#options.auth === 'assertion') this.#secret = undefined;
      // A failed parse is final: keep the rejected promise, but mark it handled.
      this.#key.catch(() => undefined);
    }
    return this.#key;
  }

  async #form(): Promise<URLSearchParams> {
    const { id, auth } = this.#options;
    const key = await this.#parsedKey();
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: id.clientId });
    if (auth === 'secret') {
      form.set('client_secret', (this.#secret ?? '').trim());
    } else {
      form.set('client_assertion_type', CLIENT_ASSERTION_TYPE);
      form.set('client_assertion', await signClientAssertion(id.clientId, id.audience, key, this.#now()));
    }
    return form;
  }

  async #mint(): Promise<Token> {
    const o = this.#options;
    let retries = 0;
    for (;;) {
      // Honour a Retry-After pause, but take no slot: the requests waiting for this token hold them.
      await o.limiter?.whenOpen();
      const sentAt = this.#now();
      let status: number;
      let text: string | null;
      let retryAfter: string | null = null;
      try {
        // A fresh assertion (new nonce, new iat) for every attempt.
        const body = (await this.#form()).toString();
        o.onEvent?.({ type: 'token-request', auth: o.auth, attempt: retries + 1 });
        const response = await sendOnce(o.id.tokenUrl, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
            'user-agent': o.userAgent,
          },
          body,
          timeoutMs: o.timeoutMs,
          maxBytes: MAX_TOKEN_RESPONSE_BYTES,
        });
        status = response.status;
        text = decodeUtf8(response.bytes);
        retryAfter = response.headers.get('retry-after');
      } catch (error) {
        if (error instanceof ApiError || !(error instanceof TransportFailure)) throw error;
        if (error.kind === 'too_large') {
          throw new ApiError('bad_response', `The token endpoint ${o.id.tokenUrl} failed: ${error.message}`, {
            method: 'POST',
            path: '/auth/v1/token',
            notSent: true,
            attempts: retries + 1,
          });
        }
        // Minting is safe to repeat: retry network trouble like any read.
        if (retries < o.maxRetries) {
          retries += 1;
          const delay = backoffDelay(retries, o.backoffBaseMs);
          o.onEvent?.({ type: 'retry', method: 'POST', path: '/auth/v1/token', reason: error.kind, delayMs: delay, attempt: retries });
          await sleep(delay);
          continue;
        }
        const kind = error.kind === 'timeout' ? 'timeout' : 'network';
        throw new ApiError(kind, `Could not get an access token from ${o.id.tokenUrl}: ${error.message}`, {
          method: 'POST',
          path: '/auth/v1/token',
          notSent: true,
          attempts: retries + 1,
        });
      }
      if (status >= 200 && status < 300) return this.#accept(status, text, sentAt);

      const parsed = text === null ? {} : parseErrorBody(text);
      if (status === 429) {
        const wait = parseRetryAfter(retryAfter, this.#now());
        if (wait !== undefined && wait > o.retryAfterCapMs) {
          throw new ApiError('rate_limited', `The token endpoint asked to wait ${Math.ceil(wait / 1000)} s, longer than allowed`, {
            status,
            retryAfterMs: wait,
            path: '/auth/v1/token',
            notSent: true,
          });
        }
        if (retries < o.maxRetries) {
          retries += 1;
          const delay = wait && wait > 0 ? wait : backoffDelay(retries, o.backoffBaseMs);
          o.limiter?.pause(delay);
          o.onEvent?.({ type: 'retry', method: 'POST', path: '/auth/v1/token', reason: 'rate_limited', delayMs: delay, attempt: retries });
          if (!o.limiter) await sleep(delay);
          continue;
        }
      } else if (status >= 500 && retries < o.maxRetries) {
        retries += 1;
        const delay = backoffDelay(retries, o.backoffBaseMs);
        o.onEvent?.({
          type: 'retry',
          method: 'POST',
          path: '/auth/v1/token',
          reason: `status ${status}`,
          delayMs: delay,
          attempt: retries,
        });
        await sleep(delay);
        continue;
      }
      const kind = status === 400 || status === 401 || status === 403 ? 'auth' : kindForStatus(status, parsed.grpcCode);
      const reason = parsed.message ?? (text ? snippet(text) : 'no explanation');
      const oauth = parsed.oauthError && parsed.oauthError !== parsed.message ? `${parsed.oauthError}: ` : '';
      const lead = kind === 'auth' ? 'The tenant refused the credentials' : 'The token endpoint failed';
      throw new ApiError(kind, this.#scrub(`${lead} (HTTP ${status}): ${oauth}${reason}`), {
        status,
        ...(parsed.grpcCode !== undefined ? { grpcCode: parsed.grpcCode } : {}),
        ...(parsed.oauthError !== undefined ? { oauthError: parsed.oauthError } : {}),
        method: 'POST',
        path: '/auth/v1/token',
        notSent: true,
        attempts: retries + 1,
      });
    }
  }

  #accept(status: number, text: string | null, sentAt: number): Token {
    let body: unknown;
    try {
      body = text === null ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : undefined;
    const value = record?.access_token;
    if (typeof value !== 'string' || value === '') {
      throw new ApiError('bad_response', `The token endpoint answered ${status} without an access token`, {
        status,
        path: '/auth/v1/token',
        notSent: true,
      });
    }
    // RFC 6750's b64token: anything else could not be sent in an Authorization header.
    if (!/^[A-Za-z0-9\-._~+/]+=*$/.test(value)) {
      throw new ApiError('bad_response', 'The token endpoint answered with an access token that cannot be sent in a header', {
        status,
        path: '/auth/v1/token',
        notSent: true,
      });
    }
    const type = record?.token_type;
    if (type !== undefined && (typeof type !== 'string' || type.toLowerCase() !== 'bearer')) {
      throw new ApiError('bad_response', 'The token endpoint answered with a token type other than Bearer', {
        status,
        path: '/auth/v1/token',
        notSent: true,
      });
    }
    const rawExpires = record?.expires_in;
    const expiresIn = typeof rawExpires === 'number' ? rawExpires : typeof rawExpires === 'string' ? Number(rawExpires) : NaN;
    if (!Number.isFinite(expiresIn) || expiresIn <= 0) {
      throw new ApiError('bad_response', 'The token endpoint answered without a positive expires_in', {
        status,
        path: '/auth/v1/token',
        notSent: true,
      });
    }
    // Times count from when the request was sent: the server's clock started no earlier.
    const margin = Math.min(REFRESH_MARGIN_SECONDS, expiresIn / 2);
    const token: Token = { value, expiresAt: sentAt + expiresIn * 1000, refreshAt: sentAt + (expiresIn - margin) * 1000 };
    for (const [old, use] of this.#uses) if (use.pending === 0) this.#uses.delete(old);
    this.#token = token;
    this.#mints += 1;
    this.#options.onEvent?.({ type: 'token-minted', auth: this.#options.auth, expiresInSeconds: expiresIn });
    return token;
  }

  /** Removes the secret from a server-provided message, should a server ever echo it. */
  #scrub(message: string): string {
    const secret = this.#secret?.trim();
    return secret && secret.length >= 8 ? message.split(secret).join('[redacted]') : message;
  }
}

/** Awaits `promise`, or rejects with `cancelled` when `signal` fires first (the promise goes on). */
export function raceSignal<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(cancelledError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelledError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
