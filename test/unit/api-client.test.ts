/**
 * The API client against a tiny local HTTP server whose every answer the test scripts: token
 * flows, retries, Retry-After, uncertain mutations, cut-off and HTML bodies, timeouts,
 * cancellation, path refusal. (The integration suite does the same against the reference tenant.)
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createPublicKey } from 'node:crypto';
import { inspect } from 'node:util';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, RateLimiter, tokenMints, type ApiClient, type ApiClientOptions, type ApiEvent } from '../../src/main/api/client';
import { getAccessReview, removeMembership, searchAutomations } from '../../src/main/api/endpoints';
import { testCredentials } from '../helpers/api-credentials';
import { failure } from '../helpers/api-errors';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Handler = (req: Seen, res: ServerResponse) => void | Promise<void>;

const creds = testCredentials('127.0.0.1', '127.0.0.1');
let server: ReturnType<typeof createServer>;
let port = 0;
let apiHandler: Handler;
let tokenHandler: Handler;
let seen: Seen[] = [];
let tokenCount = 0;
const sockets = new Set<Socket>();

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

const defaultToken: Handler = (_req, res) => {
  tokenCount += 1;
  json(res, 200, { access_token: `tok-${tokenCount}`, token_type: 'Bearer', expires_in: 3600 });
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry: Seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      const handler = entry.url === '/auth/v1/token' ? tokenHandler : apiHandler;
      if (entry.url !== '/auth/v1/token') seen.push(entry);
      void handler(entry, res);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

afterEach(() => {
  seen = [];
  tokenCount = 0;
  tokenHandler = defaultToken;
  apiHandler = (_req, res) => json(res, 200, { ok: true });
});
tokenHandler = defaultToken;
apiHandler = (_req, res) => json(res, 200, { ok: true });

function client(extra: Partial<ApiClientOptions> = {}): ApiClient {
  return createApiClient({
    clientId: `quiet-otter-42@127.0.0.1:${port}/attest`,
    clientSecret: creds.clientSecret,
    backoffBaseMs: 5,
    timeoutMs: 5_000,
    ...extra,
  });
}

const get = (api: ApiClient, path = '/access_review/c1', signal?: AbortSignal) =>
  api.request({ method: 'GET', path, ...(signal ? { signal } : {}) });
const post = (api: ApiClient, path = '/access_review', signal?: AbortSignal) =>
  api.request({ method: 'POST', path, body: { displayName: 'x' }, ...(signal ? { signal } : {}) });

describe('token: signed assertion (default)', () => {
  it('posts a form with an EdDSA assertion: nonce header, iss = sub = client id, aud = [host], iat, nbf -120, exp +120', async () => {
    const forms: Seen[] = [];
    tokenHandler = (req, res) => {
      forms.push(req);
      defaultToken(req, res);
    };
    const api = client();
    const t0 = Math.floor(Date.now() / 1000);
    await get(api);
    expect(forms).toHaveLength(1);
    const form = forms[0]!;
    expect(form.method).toBe('POST');
    expect(form.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(form.headers.authorization).toBeUndefined();
    const fields = new URLSearchParams(form.body);
    expect([...fields.keys()].sort()).toEqual(['client_assertion', 'client_assertion_type', 'client_id', 'grant_type']);
    expect(fields.get('grant_type')).toBe('client_credentials');
    expect(fields.get('client_id')).toBe(api.clientId);
    expect(fields.get('client_assertion_type')).toBe('urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
    const jwt = fields.get('client_assertion')!;
    const header = decodeProtectedHeader(jwt);
    expect(header.alg).toBe('EdDSA');
    // As the vendor's clients send it: a 32-hex-digit nonce, and no typ.
    expect(header.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(Object.keys(header).sort()).toEqual(['alg', 'nonce']);
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: creds.jwk.x }, format: 'jwk' });
    const { payload } = await jwtVerify(jwt, publicKey, { issuer: api.clientId, subject: api.clientId, audience: '127.0.0.1' });
    expect(payload.aud).toEqual(['127.0.0.1']);
    expect(payload.iat).toBeGreaterThanOrEqual(t0);
    expect(payload.iat).toBeLessThanOrEqual(t0 + 2);
    expect(payload.nbf).toBe(payload.iat! - 120);
    expect(payload.exp).toBe(payload.iat! + 120);
    expect(form.body).not.toContain(creds.jwk.d);
    expect(form.body).not.toContain('secret-token');
    // The API call carries the token as a bearer.
    expect(seen[0]!.headers.authorization).toBe('Bearer tok-1');
  });

  it('shows no secret or key when the client is inspected, logged or serialised', async () => {
    const api = client();
    await get(api);
    const views = [inspect(api, { showHidden: true, depth: 8 }), JSON.stringify(api), String(api), Object.keys(api).join()];
    for (const view of views) {
      expect(view).not.toContain(creds.jwk.d);
      expect(view).not.toContain(creds.clientSecret.split(':v1:')[1]);
      expect(view).not.toContain('tok-1');
    }
  });

  it('signs a fresh nonce for every mint', async () => {
    const nonces: unknown[] = [];
    tokenHandler = (req, res) => {
      nonces.push(decodeProtectedHeader(new URLSearchParams(req.body).get('client_assertion')!).nonce);
      defaultToken(req, res);
    };
    const a = client();
    const b = client();
    await a.getToken();
    await b.getToken();
    expect(new Set(nonces).size).toBe(2);
  });
});

describe('token: basic secret form', () => {
  it('posts client_secret in the form body, never in a header', async () => {
    const forms: Seen[] = [];
    tokenHandler = (req, res) => {
      forms.push(req);
      defaultToken(req, res);
    };
    await get(client({ auth: 'secret', clientSecret: `${creds.clientSecret}\n` }));
    const fields = new URLSearchParams(forms[0]!.body);
    expect([...fields.keys()].sort()).toEqual(['client_id', 'client_secret', 'grant_type']);
    expect(fields.get('client_secret')).toBe(creds.clientSecret);
    expect(forms[0]!.headers.authorization).toBeUndefined();
  });
});

describe('token: caching and minting', () => {
  it('mints once for 50 concurrent calls', async () => {
    tokenHandler = (req, res) => void setTimeout(() => defaultToken(req, res), 50);
    const api = client();
    const results = await Promise.all(Array.from({ length: 50 }, () => get(api)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(tokenCount).toBe(1);
    expect(tokenMints(api)).toBe(1);
    expect(new Set(seen.map((s) => s.headers.authorization))).toEqual(new Set(['Bearer tok-1']));
    // Every logical request has its own id.
    expect(new Set(seen.map((s) => s.headers['x-request-id'])).size).toBe(50);
  });

  it('mints inside a full concurrency limiter without deadlock', async () => {
    tokenHandler = (req, res) => void setTimeout(() => defaultToken(req, res), 20);
    const api = client({ limiter: new RateLimiter({ maxConcurrent: 2 }) });
    const results = await Promise.all(Array.from({ length: 10 }, () => get(api)));
    expect(results).toHaveLength(10);
    expect(tokenCount).toBe(1);
  });

  it('re-mints 60 s before expires_in runs out', async () => {
    let now = 1_000_000_000_000;
    const api = client({ now: () => now });
    await get(api);
    now += (3600 - 61) * 1000;
    await get(api);
    expect(tokenCount).toBe(1);
    now += 2000;
    await get(api);
    expect(tokenCount).toBe(2);
    expect(seen.map((s) => s.headers.authorization)).toEqual(['Bearer tok-1', 'Bearer tok-1', 'Bearer tok-2']);
  });

  it('re-mints a short-lived token at half its lifetime', async () => {
    tokenHandler = (_req, res) => {
      tokenCount += 1;
      json(res, 200, { access_token: `tok-${tokenCount}`, token_type: 'Bearer', expires_in: 4 });
    };
    let now = 1_000_000_000_000;
    const api = client({ now: () => now });
    await get(api);
    now += 1900;
    await get(api);
    now += 200;
    await get(api);
    expect(tokenCount).toBe(2);
  });

  it('a 401 re-mints once and retries once; a second 401 is an auth error', async () => {
    let calls = 0;
    apiHandler = (req, res) => {
      calls += 1;
      if (req.headers.authorization === 'Bearer tok-1') json(res, 401, { code: 16, message: 'token expired' });
      else json(res, 200, { ok: true });
    };
    const api = client();
    const ok = await post(api);
    expect(ok.status).toBe(200);
    expect(calls).toBe(2);
    expect(tokenCount).toBe(2);

    apiHandler = (_req, res) => json(res, 401, { code: 16, message: 'token expired' });
    calls = 0;
    const error = await failure(get(api));
    expect(error.kind).toBe('auth');
    expect(error.status).toBe(401);
    expect(error.grpcCode).toBe(16);
    expect(error.message).toContain('token expired');
    expect(seen.slice(-2)).toHaveLength(2);
  });

  it('20 concurrent requests refused with the same stale token share one re-mint, and each retries once', async () => {
    apiHandler = (req, res) => {
      if (req.headers.authorization === 'Bearer tok-1') setTimeout(() => json(res, 401, { code: 16, message: 'token expired' }), 10);
      else json(res, 200, { ok: true });
    };
    const events: ApiEvent[] = [];
    const api = client({ onEvent: (e) => events.push(e) });
    const results = await Promise.all(Array.from({ length: 20 }, () => get(api)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(tokenCount).toBe(2);
    expect(seen.map((s) => s.headers.authorization).sort()).toEqual([...Array(20).fill('Bearer tok-1'), ...Array(20).fill('Bearer tok-2')]);
    expect(events.filter((e) => e.type === 'reauth')).toHaveLength(20);
  });

  // One at a time, a request refused once is later sent with a token another request was answered with before it went out.
  for (const maxConcurrent of [8, 1]) {
    it(`tokens that die after their first request, ${maxConcurrent} at a time: every request gets through, one mint each`, async () => {
      const used = new Set<string>();
      apiHandler = (req, res) => {
        const token = String(req.headers.authorization);
        if (used.has(token)) return json(res, 401, { code: 16, message: 'token expired' });
        used.add(token);
        json(res, 200, { ok: true });
      };
      const api = client({ limiter: new RateLimiter({ maxConcurrent }) });
      const results = await Promise.all([...Array.from({ length: 5 }, () => get(api)), ...Array.from({ length: 5 }, () => post(api))]);
      expect(results.every((r) => r.status === 200)).toBe(true);
      // The first request sent with a token is accepted, so a token is renewed only after it served one.
      expect(tokenCount).toBe(10);
    });
  }

  it('a token refused for every request sent with it ends each in an auth error after one renewal', async () => {
    apiHandler = (_req, res) => void setTimeout(() => json(res, 401, { code: 16, message: 'not valid' }), 5);
    const api = client();
    const errors = await Promise.all(Array.from({ length: 5 }, () => failure(get(api))));
    expect(errors.map((e) => e.kind)).toEqual(Array(5).fill('auth'));
    expect(tokenCount).toBe(2);
    expect(seen).toHaveLength(10);
  });

  it('turns refused credentials into an auth error with the OAuth reason, never echoing the secret', async () => {
    tokenHandler = (_req, res) => json(res, 401, { error: 'invalid_client', error_description: `bad secret ${creds.clientSecret}` });
    const error = await failure(get(client({ auth: 'secret' })));
    expect(error.kind).toBe('auth');
    expect(error.oauthError).toBe('invalid_client');
    expect(error.notSent).toBe(true);
    expect(error.message).toContain('invalid_client');
    expect(error.message).not.toContain(creds.clientSecret);
    expect(seen).toHaveLength(0);
  });

  it('retries the token endpoint through 503 and 429 (minting is safe to repeat)', async () => {
    let calls = 0;
    tokenHandler = (req, res) => {
      calls += 1;
      if (calls === 1) json(res, 503, { code: 14, message: 'unavailable' });
      else if (calls === 2) json(res, 429, { code: 8, message: 'slow' }, { 'retry-after': '0' });
      else defaultToken(req, res);
    };
    expect((await get(client())).status).toBe(200);
    expect(calls).toBe(3);
  });

  it('refuses a token answer without a usable token', async () => {
    for (const body of [
      { token_type: 'Bearer', expires_in: 60 },
      { access_token: 't', token_type: 'MAC', expires_in: 60 },
      { access_token: 't', token_type: 'Bearer', expires_in: 0 },
    ]) {
      tokenHandler = (_req, res) => json(res, 200, body);
      expect((await failure(get(client()))).kind).toBe('bad_response');
    }
    expect(seen).toHaveLength(0);
  });

  it('refuses a token that could not be sent in a header, and sends nothing with it', async () => {
    for (const token of ['ab\r\nx-injected: 1', 'ab cd', 'tök']) {
      tokenHandler = (_req, res) => json(res, 200, { access_token: token, token_type: 'Bearer', expires_in: 60 });
      const error = await failure(get(client()));
      expect(error.kind).toBe('bad_response');
      expect(error.message).toBe('The token endpoint answered with an access token that cannot be sent in a header');
    }
    expect(seen).toHaveLength(0);
  });

  it('reports a malformed secret as a CredentialError before anything is sent', async () => {
    const api = client({ clientSecret: 'secret-token:x:v2:abc' });
    await expect(get(api)).rejects.toMatchObject({ name: 'CredentialError', code: 'secret_version_unsupported' });
    expect(tokenCount).toBe(0);
    expect(seen).toHaveLength(0);
  });
});

describe('429 and Retry-After', () => {
  it('waits the seconds of Retry-After, then succeeds', async () => {
    let calls = 0;
    apiHandler = (_req, res) => {
      calls += 1;
      if (calls === 1) json(res, 429, { code: 8, message: 'slow down' }, { 'retry-after': '1' });
      else json(res, 200, { ok: true });
    };
    const started = Date.now();
    const response = await post(client());
    expect(response.status).toBe(200);
    expect(calls).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('waits until the HTTP-date of Retry-After', async () => {
    let calls = 0;
    apiHandler = (_req, res) => {
      calls += 1;
      if (calls === 1) json(res, 429, { code: 8, message: 'slow down' }, { 'retry-after': new Date(Date.now() + 2000).toUTCString() });
      else json(res, 200, { ok: true });
    };
    const started = Date.now();
    await get(client());
    expect(calls).toBe(2);
    // The date has one-second precision: between 1 and 2 s.
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('pauses every request sharing the limiter', async () => {
    const limiter = new RateLimiter();
    const times: number[] = [];
    let first = true;
    apiHandler = (_req, res) => {
      times.push(Date.now());
      if (first) {
        first = false;
        json(res, 429, { code: 8 }, { 'retry-after': '1' });
      } else json(res, 200, { ok: true });
    };
    const a = client({ limiter });
    const b = client({ limiter });
    const started = Date.now();
    await get(a);
    await Promise.all([get(b), get(a)]);
    expect(times).toHaveLength(4);
    expect(times.slice(1).every((t) => t - started >= 950)).toBe(true);
  });

  it('does not wait longer than the cap: rate_limited with retryAfterMs', async () => {
    apiHandler = (_req, res) => json(res, 429, { code: 8, message: 'later' }, { 'retry-after': '3600' });
    const error = await failure(get(client({ retryAfterCapMs: 5000 })));
    expect(error.kind).toBe('rate_limited');
    expect(error.retryAfterMs).toBe(3_600_000);
    expect(seen).toHaveLength(1);
  });

  it('gives up after maxRetries 429s', async () => {
    apiHandler = (_req, res) => json(res, 429, { code: 8, message: 'no' }, { 'retry-after': '0' });
    const error = await failure(post(client({ maxRetries: 2 })));
    expect(error.kind).toBe('rate_limited');
    expect(seen).toHaveLength(3);
  });
});

describe('5xx, network failures and uncertain mutations', () => {
  it('retries a read on 500/503 and succeeds', async () => {
    let calls = 0;
    apiHandler = (_req, res) => {
      calls += 1;
      if (calls <= 2) json(res, calls === 1 ? 500 : 503, { code: 13, message: 'boom' });
      else json(res, 200, { list: [] });
    };
    const events: ApiEvent[] = [];
    const response = await client({ onEvent: (e) => events.push(e) }).request({
      method: 'GET',
      path: '/access_reviews',
      requestId: 'item-7',
    });
    expect(response.status).toBe(200);
    expect(calls).toBe(3);
    // Retries carry the same request id.
    expect(seen.map((s) => s.headers['x-request-id'])).toEqual(['item-7', 'item-7', 'item-7']);
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(2);
    expect(JSON.stringify(events)).not.toContain('tok-');
  });

  it('retries a POST search (a read) on 503', async () => {
    let calls = 0;
    apiHandler = (_req, res) => {
      calls += 1;
      if (calls === 1) json(res, 503, { code: 14, message: 'unavailable' });
      else json(res, 200, { list: [], nextPageToken: '' });
    };
    await searchAutomations(client(), { pageSize: 10 });
    expect(calls).toBe(2);
  });

  it('never resends a mutation answered 500/503: a server error', async () => {
    for (const status of [500, 503]) {
      seen = [];
      apiHandler = (_req, res) => json(res, status, { code: 13, message: 'internal' });
      const error = await failure(post(client()));
      expect(error.kind).toBe('server');
      expect(error.status).toBe(status);
      expect(error.message).toContain('internal');
      expect(seen).toHaveLength(1);
    }
  });

  it('a gateway 502/504 on a mutation is uncertain', async () => {
    for (const status of [502, 504]) {
      seen = [];
      apiHandler = (_req, res) => {
        res.writeHead(status, { 'content-type': 'text/html' });
        res.end('<html>gateway</html>');
      };
      const error = await failure(post(client()));
      expect(error.kind).toBe('uncertain');
      expect(error.mayHaveApplied).toBe(true);
      expect(seen).toHaveLength(1);
    }
  });

  it('a connection dropped after a mutation was sent is uncertain, and not resent', async () => {
    apiHandler = (_req, res) => void res.socket?.destroy();
    const error = await failure(post(client()));
    expect(error.kind).toBe('uncertain');
    expect(error.notSent).toBe(false);
    expect(error.message).toMatch(/may have been applied/);
    expect(seen).toHaveLength(1);
  });

  it('a dropped connection on a read is retried', async () => {
    let calls = 0;
    apiHandler = (_req, res) => {
      calls += 1;
      if (calls === 1) res.socket?.destroy();
      else json(res, 200, { ok: 1 });
    };
    expect((await get(client())).body).toEqual({ ok: 1 });
    expect(calls).toBe(2);
  });

  it('a refused connection is a network error; a mutation is then certainly not sent', async () => {
    const dead = createServer();
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const deadPort = (dead.address() as AddressInfo).port;
    await new Promise<void>((resolve) => dead.close(() => resolve()));
    const api = createApiClient({
      clientId: `a@127.0.0.1:${deadPort}/attest`,
      clientSecret: creds.clientSecret,
      backoffBaseMs: 1,
      maxRetries: 1,
    });
    const error = await failure(post(api));
    expect(error.kind).toBe('network');
    expect(error.notSent).toBe(true);
    expect(error.message).toMatch(/refused/);
    expect(error.message).not.toContain(creds.jwk.d);
  });

  it('times out a read (after retries) and makes a timed-out mutation uncertain', async () => {
    apiHandler = () => undefined; // never answers
    const read = await failure(get(client({ timeoutMs: 150, maxRetries: 1 })));
    expect(read.kind).toBe('timeout');
    expect(seen).toHaveLength(2);
    seen = [];
    const write = await failure(post(client({ timeoutMs: 150 })));
    expect(write.kind).toBe('uncertain');
    expect(seen).toHaveLength(1);
  });
});

describe('bodies', () => {
  it('sends one request after another over one kept-alive connection', async () => {
    const served = new Set<Socket>();
    apiHandler = (_req, res) => {
      served.add(res.socket!);
      json(res, 200, { ok: true });
    };
    const api = client();
    for (let i = 0; i < 20; i += 1) await get(api);
    expect(seen).toHaveLength(20);
    expect(served.size).toBe(1);
  });

  it('reads a body that arrives in many pieces whole and byte-exact', async () => {
    const items = Array.from({ length: 20_000 }, (_, i) => ({ id: `c${i}`, displayName: `Kampagne ${i} – ü` }));
    const text = JSON.stringify({ list: items, nextPageToken: '' });
    apiHandler = async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      const bytes = Buffer.from(text);
      for (let at = 0; at < bytes.length; at += 65_536) {
        res.write(bytes.subarray(at, at + 65_536));
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      res.end();
    };
    const response = await get(client(), '/access_reviews');
    expect(Buffer.byteLength(text)).toBeGreaterThan(10 * 65_536);
    expect(response.text).toBe(text);
    expect((response.body as { list: unknown[] }).list).toHaveLength(20_000);
  });

  it('returns the raw text byte-exact and keeps unknown fields and enum values', async () => {
    const text =
      '{"accessReview":{"accessReview":{"id":"c1","state":"ACCESS_REVIEW_STATE_FROM_THE_FUTURE","newField":{"ü":"ß"}}},  "expanded":[]}';
    apiHandler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(text);
    };
    const response = await getAccessReview(client(), 'c1');
    expect(response.text).toBe(text);
    expect(response.body.accessReview?.accessReview?.state).toBe('ACCESS_REVIEW_STATE_FROM_THE_FUTURE');
    expect((response.body.accessReview?.accessReview as Record<string, unknown>).newField).toEqual({ ü: 'ß' });
  });

  it('a 200 with an HTML body is a bad_response for a read, uncertain for a mutation', async () => {
    apiHandler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>Please sign in</body></html>');
    };
    const read = await failure(get(client()));
    expect(read.kind).toBe('bad_response');
    expect(read.message).toContain('text/html');
    expect(seen).toHaveLength(1);
    const write = await failure(post(client()));
    expect(write.kind).toBe('uncertain');
  });

  it('a 200 whose JSON is cut short is a bad_response', async () => {
    apiHandler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"list":[{"id":"a"},{"id"');
    };
    const error = await failure(get(client()));
    expect(error.kind).toBe('bad_response');
    expect(error.message).toMatch(/not valid JSON/);
  });

  it('a body cut off below its Content-Length: read retried, then bad_response; mutation uncertain', async () => {
    apiHandler = (_req, res) => {
      const text = JSON.stringify({ list: Array.from({ length: 50 }, (_, i) => ({ id: `row-${i}` })) });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.write(text.slice(0, text.length / 2));
      setTimeout(() => res.socket?.destroy(), 10);
    };
    const read = await failure(get(client({ maxRetries: 1 })));
    expect(read.kind).toBe('bad_response');
    expect(read.message).toMatch(/cut off/);
    expect(seen).toHaveLength(2);
    seen = [];
    const write = await failure(post(client()));
    expect(write.kind).toBe('uncertain');
    expect(seen).toHaveLength(1);
  });

  it('parses google.rpc.Status errors into typed kinds', async () => {
    const cases: Array<[number, number, string]> = [
      [400, 3, 'invalid_input'],
      [404, 5, 'not_found'],
      [409, 6, 'conflict'],
      [403, 7, 'auth'],
    ];
    for (const [status, code, kind] of cases) {
      apiHandler = (_req, res) => json(res, status, { code, message: `problem ${code}`, details: [{ '@type': 'x' }] });
      const error = await failure(post(client()));
      expect(error.kind).toBe(kind);
      expect(error.status).toBe(status);
      expect(error.grpcCode).toBe(code);
      expect(error.details).toEqual([{ '@type': 'x' }]);
      expect(error.message).toContain(`problem ${code}`);
    }
  });

  it('never follows a redirect', async () => {
    apiHandler = (req, res) => {
      res.writeHead(301, { location: '/api/v1/access_reviews' });
      res.end();
    };
    const error = await failure(get(client()));
    expect(error.kind).toBe('bad_response');
    expect(error.message).toMatch(/redirect/);
    expect(seen).toHaveLength(1);
  });

  it('sends the JSON body of the membership DELETE', async () => {
    apiHandler = (_req, res) => json(res, 200, { revokeTaskId: 't-1' });
    const response = await removeMembership(client(), 'app 1', 'ent/2', { appUserId: 'u-3' });
    expect(response.body.revokeTaskId).toBe('t-1');
    expect(seen[0]!.method).toBe('DELETE');
    expect(seen[0]!.url).toBe('/api/v1/apps/app%201/entitlements/ent%2F2/remove-membership');
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(seen[0]!.body)).toEqual({ appUserId: 'u-3' });
  });
});

describe('paths and cancellation', () => {
  it('refuses empty and dot segments before sending anything', async () => {
    const api = client();
    for (const path of [
      '/access_review/',
      '//access_review',
      '/apps//xaa/scopes',
      '/a/./b',
      '/a/../b',
      '/a/%2E%2e/b',
      '/a?x=1',
      'access_reviews',
      '',
      '/a b',
      '/a/%zz',
    ]) {
      const error = await failure(api.request({ method: 'GET', path }));
      expect(error.kind, path).toBe('invalid_input');
      expect(error.attempts).toBe(0);
      expect(error.notSent).toBe(true);
    }
    for (const id of ['', '  ', '.', '..']) {
      await expect(getAccessReview(api, id)).rejects.toMatchObject({ kind: 'invalid_input' });
    }
    expect(seen).toHaveLength(0);
    expect(tokenCount).toBe(0);
  });

  it('a signal aborted before sending cancels without a request', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await failure(post(client(), '/access_review', controller.signal));
    expect(error.kind).toBe('cancelled');
    expect(seen).toHaveLength(0);
  });

  it('aborting a read in flight cancels it; aborting a mutation in flight makes it uncertain', async () => {
    apiHandler = () => undefined;
    const api = client();
    await api.getToken();
    const readAbort = new AbortController();
    const read = get(api, '/access_review/c1', readAbort.signal);
    setTimeout(() => readAbort.abort(), 50);
    expect((await failure(read)).kind).toBe('cancelled');
    const writeAbort = new AbortController();
    const write = post(api, '/access_review', writeAbort.signal);
    setTimeout(() => writeAbort.abort(), 50);
    expect((await failure(write)).kind).toBe('uncertain');
  });
});
