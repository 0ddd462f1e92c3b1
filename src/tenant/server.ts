/**
 * The reference tenant: a real HTTP server of the Access Governance API on loopback, for the
 * built-in demo and for every test. `startTenant()` generates the dataset from the seed, listens,
 * issues a first API credential, and hands back the live data, the fault switch and the journal.
 *
 * Paths:
 * - `POST /auth/v1/token`: the token endpoint (faults: latency and jitter only).
 * - `/api/v1/...`: the API (route table in routes/), bearer token required, faults apply.
 * - `/_tenant/...`: test hooks of the reference tenant only, bearer token required, no faults:
 *   `GET /_tenant/journal`, `GET|POST|DELETE /_tenant/faults` (POST body `{ "spec": "..." }`).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Auth, type Credentials, type Principal } from './auth';
import { generateDataset, type Scale, type TenantData } from './dataset';
import { readOnlyMembersIn } from '../shared/read-only-members';
import {
  aborted,
  ApiError,
  badField,
  internal,
  methodNotAllowed,
  notFound,
  outputOnly,
  resourceExhausted,
  RPC,
  unavailable,
} from './errors';
import { Faults, parseFaultSpec, type FaultSpec } from './faults';
import { isObject, parseBody, type Body } from './input';
import { PageTokens } from './pagination';
import { Router } from './router';
import { apiRoutes, type Method, type Operation, type RequestContext, type Route } from './routes';

export type { FaultSpec } from './faults';
export type { TenantData } from './dataset';

export interface TenantOptions {
  /** Loopback only (127.0.0.0/8 or localhost) unless `allowNonLoopback`. Default 127.0.0.1. */
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Seed of the dataset and of fault decisions. Default 1. */
  seed?: number;
  /** `demo` (hundreds of objects, the default), `large` (>= 100,000) or a multiple of demo. */
  scale?: Scale;
  /** `expires_in` of access tokens. Default 3600. */
  tokenTtlSeconds?: number;
  /** Faults to start with (syntax in faults.ts). */
  faults?: string | FaultSpec;
  allowNonLoopback?: boolean;
}

/** One mutation the tenant applied, with the request that asked for it. */
export interface JournalEntry {
  /** 1, 2, 3... in the order the mutations were applied. */
  seq: number;
  at: string;
  operation: Operation;
  method: Method;
  path: string;
  clientId: string;
  /** The request's `X-Request-Id` header, when the client sent one. */
  requestId: string | null;
  /** The request body as received. */
  request: Body;
  /** The object created or changed (a membership's id is `<entitlement id>:<app user id>`). */
  objectId: string;
}

export interface ReferenceTenant {
  /** `http://127.0.0.1:PORT`. */
  url: string;
  /** `127.0.0.1`: the `aud` of client assertions (the host of the client id, without its port). */
  domain: string;
  /** `<random-id>@127.0.0.1:PORT/attest`. */
  clientId: string;
  /** `secret-token:conductorone.com:v1:<base64url JWK>`: the vendor's fixed domain, whatever the host. */
  clientSecret: string;
  /** The live dataset; tests may change it between syncs. */
  data: TenantData;
  faults: { set(spec: string | FaultSpec): void; clear(): void };
  /** Every mutation applied, in order, with its request (as `GET /_tenant/journal`). */
  journal(): JournalEntry[];
  /** Another API credential of this tenant. */
  issueCredentials(opts?: { useCase?: string }): Credentials;
  close(): Promise<void>;
}

const TOKEN_PATH = '/auth/v1/token';
const API_PREFIX = '/api/v1';
const MAX_BODY_BYTES = 1 << 20;
/** A token request is a form of a few hundred bytes. */
const TOKEN_BODY_BYTES = 64 * 1024;
/** The request line and headers together, as Node's default (a longer page_token in a URL is refused). */
const MAX_HEADER_BYTES = 16 * 1024;

const HTML_PAGE =
  '<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body><h1>Your session has expired</h1><p>Please sign in again to continue.</p></body></html>\n';

function isLoopback(host: string): boolean {
  return host === 'localhost' || /^127(\.\d{1,3}){3}$/.test(host);
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}, truncate = false): void {
  const bytes = Buffer.from(JSON.stringify(body));
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': String(bytes.length), ...headers });
  if (truncate) {
    // Announce the whole body, send half, and cut the connection: what a dying proxy does.
    res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => res.destroy());
    return;
  }
  res.end(bytes);
}

function sendError(req: IncomingMessage, res: ServerResponse, error: unknown): void {
  if (error instanceof BodyTooLarge && !res.headersSent) {
    refuseBody(req, res, 413, new ApiError(RPC.INVALID_ARGUMENT, error.message, [], { httpStatus: 413 }).body());
    return;
  }
  const apiError = error instanceof ApiError ? error : internal(`internal error: ${(error as Error)?.message ?? String(error)}`);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(res, apiError.httpStatus, apiError.body(), apiError.headers);
}

/** A request body over the limit: answered 413, the rest of the body discarded, then the connection closed. */
class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`the request body is larger than ${limit} bytes`);
  }
}

async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > limit) throw new BodyTooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  return new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        reject(new BodyTooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });
}

/**
 * Answers a request whose body is too large without reading it: the status first, then what is
 * still coming is read and dropped (not kept), so the client sees the answer instead of a reset.
 */
function refuseBody(req: IncomingMessage, res: ServerResponse, status: number, body: unknown): void {
  req.resume();
  sendJson(res, status, body, { Connection: 'close' });
}

/** The raw HTTP answer to a request Node refused while parsing it: 431 for headers too large, else 400. */
function clientErrorAnswer(code: string, raw: Buffer | undefined): string {
  const tooLarge = code === 'HPE_HEADER_OVERFLOW';
  const [status, reason] = tooLarge ? [431, 'Request Header Fields Too Large'] : [400, 'Bad Request'];
  const what = tooLarge ? `the request line and headers are larger than ${MAX_HEADER_BYTES} bytes` : 'the request is not valid HTTP';
  const line = raw?.subarray(0, 256).toString('latin1') ?? '';
  const toToken = /^[A-Z]+ \/auth\/v1\/token[?\s]/.test(line);
  const body = JSON.stringify(
    toToken
      ? { error: 'invalid_request', error_description: what }
      : new ApiError(RPC.INVALID_ARGUMENT, what, [], { httpStatus: status }).body(),
  );
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

export async function startTenant(options: TenantOptions = {}): Promise<ReferenceTenant> {
  const host = options.host ?? '127.0.0.1';
  if (host.includes(':'))
    throw new Error(`host '${host}': IPv6 literals cannot be carried by the client secret format; use 127.0.0.1 or localhost`);
  if (!isLoopback(host) && !options.allowNonLoopback) {
    throw new Error(
      `refusing to listen on '${host}': the reference tenant listens on loopback only (127.0.0.0/8, localhost) unless explicitly allowed`,
    );
  }
  const seed = options.seed ?? 1;
  if (!Number.isSafeInteger(seed)) throw new Error(`seed must be an integer, not ${seed}`);
  const tokenTtlSeconds = options.tokenTtlSeconds ?? 3600;
  if (!Number.isInteger(tokenTtlSeconds) || tokenTtlSeconds < 1)
    throw new Error(`token TTL must be a whole number of seconds >= 1, not ${tokenTtlSeconds}`);
  const faults = new Faults(seed);
  if (options.faults !== undefined) faults.set(options.faults);

  const data = generateDataset(seed, options.scale ?? 'demo');
  // A secret per server: a page token from any other tenant (or an earlier run of this one) is
  // refused, so clients prove they restart a walk when their checkpoint is no longer honoured.
  // Everything else in an answer is the same for the same seed; the opaque token is not.
  const tokens = new PageTokens(randomBytes(32));
  const router = new Router<Method, Route>(apiRoutes);
  const journal: JournalEntry[] = [];
  let hostPort = '';
  const auth = new Auth({ domain: host, tokenTtlSeconds, faults, hostPort: () => hostPort });

  async function api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const delay = faults.delay();
    if (delay > 0) await sleep(delay);
    const path = url.pathname;
    // As the real gateway: a trailing or doubled slash is redirected to the clean path (which may
    // well be the parent collection: clients must not send empty segments).
    const clean = path.replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1');
    if (clean !== path) {
      res.writeHead(301, { Location: `${clean}${url.search}`, 'Content-Type': 'text/html; charset=utf-8' });
      res.end(`<a href="${clean}">Moved Permanently</a>.\n`);
      return;
    }
    const pre = faults.before();
    if (pre?.kind === 'rate429') throw resourceExhausted('too many requests, retry later', pre.retryAfter, pre.seconds);
    if (pre?.kind === 'error5xx') throw pre.status === 503 ? unavailable() : internal();
    if (pre?.kind === 'html') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': String(Buffer.byteLength(HTML_PAGE)) });
      res.end(HTML_PAGE);
      return;
    }
    const principal = auth.authenticate(req.headers.authorization);
    const matched = router.match(req.method ?? 'GET', path);
    if (matched === null) throw notFound('path', path, `no such endpoint: ${req.method} ${path}`);
    if ('allowed' in matched) throw methodNotAllowed(req.method ?? '', path, matched.allowed);
    const { route, params } = matched;
    const raw = await readBody(req);
    if (route.operation && faults.roll('aborted')) throw aborted();
    const body = route.method === 'GET' ? {} : parseBody(raw);
    // As the service: a body holding a member it sets (read-only in its schema) is refused whole.
    const readOnly = readOnlyMembersIn(`${route.method} ${route.path}`, body);
    if (readOnly.length > 0) throw outputOnly(readOnly);
    const ctx: RequestContext = {
      method: route.method,
      path,
      params,
      query: url.searchParams,
      body,
      principal,
      data,
      tokens,
      faults,
      req,
      record: (objectId) => record(route, ctx, principal, objectId),
    };
    const result = await route.handle(ctx);
    if (route.operation && faults.roll('dropAfterApply')) {
      // Applied, and the answer never leaves: the client cannot know whether it happened.
      req.socket.destroy();
      return;
    }
    sendJson(res, 200, result, {}, faults.roll('truncate'));
  }

  function record(route: Route, ctx: RequestContext, principal: Principal, objectId: string): void {
    const requestId = ctx.req.headers['x-request-id'];
    journal.push({
      seq: journal.length + 1,
      at: new Date().toISOString(),
      operation: route.operation as Operation,
      method: route.method,
      path: ctx.path,
      clientId: principal.clientId,
      requestId: typeof requestId === 'string' ? requestId : null,
      request: structuredClone(ctx.body),
      objectId,
    });
  }

  async function token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const delay = faults.delay();
    if (delay > 0) await sleep(delay);
    if (req.method !== 'POST') {
      sendJson(res, 405, { error: 'invalid_request', error_description: 'the token endpoint takes POST' }, { Allow: 'POST' });
      return;
    }
    // Every failure of the token endpoint is an OAuth error (RFC 6749 5.2), never a google.rpc.Status.
    let raw: string;
    try {
      raw = await readBody(req, TOKEN_BODY_BYTES);
    } catch (error) {
      if (!(error instanceof BodyTooLarge)) throw error;
      refuseBody(req, res, 413, {
        error: 'invalid_request',
        error_description: `the token request body is larger than ${TOKEN_BODY_BYTES} bytes`,
      });
      return;
    }
    let answer;
    try {
      answer = await auth.token(req.headers, raw);
    } catch (error) {
      answer = {
        status: 500,
        body: { error: 'server_error', error_description: `internal error: ${(error as Error)?.message ?? String(error)}` },
      };
    }
    sendJson(res, answer.status, answer.body, { 'Cache-Control': 'no-store', Pragma: 'no-cache' });
  }

  async function hooks(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    auth.authenticate(req.headers.authorization, false);
    const key = `${req.method} ${url.pathname}`;
    if (key === 'GET /_tenant/journal') return sendJson(res, 200, { entries: journal });
    if (key === 'GET /_tenant/faults') return sendJson(res, 200, { faults: faults.current() });
    if (key === 'DELETE /_tenant/faults') {
      faults.clear();
      return sendJson(res, 200, { faults: faults.current() });
    }
    if (key === 'POST /_tenant/faults') {
      const body = parseBody(await readBody(req));
      const spec = body.spec;
      if (typeof spec !== 'string' && !isObject(spec))
        throw badField('spec', 'must be a fault spec string (e.g. "latency=20,error5xx=0.1") or an object');
      try {
        faults.set(spec as string | FaultSpec);
      } catch (error) {
        throw badField('spec', (error as Error).message);
      }
      return sendJson(res, 200, { faults: faults.current() });
    }
    throw notFound('path', url.pathname, `no such test hook: ${key}`);
  }

  async function dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Prefixing keeps `//x` a path: as a URL reference it would name host `x`.
    const target = req.url ?? '/';
    const url = target.startsWith('/') ? new URL(`http://tenant.invalid${target}`) : new URL(target);
    const path = url.pathname;
    if (path === TOKEN_PATH) return token(req, res);
    if (path.startsWith('/_tenant/')) return hooks(req, res, url);
    if (path === API_PREFIX || path.startsWith(`${API_PREFIX}/`)) return api(req, res, url);
    throw notFound('path', path, `no such endpoint: ${req.method} ${path}`);
  }

  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => {
    dispatch(req, res).catch((error: unknown) => sendError(req, res, error));
  });
  // What Node refuses before a request exists (headers too large, a malformed request line) is
  // answered in the shape of the endpoint it was for, never with an empty body.
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket) => {
    if (!socket.writable || !error.code?.startsWith('HPE_')) {
      socket.destroy();
      return;
    }
    socket.end(clientErrorAnswer(error.code, error.rawPacket));
  });
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  hostPort = `${host}:${port}`;
  const first = auth.issueCredentials('attest');

  return {
    url: `http://${hostPort}`,
    domain: host,
    clientId: first.clientId,
    clientSecret: first.clientSecret,
    data,
    faults: {
      set: (spec) => faults.set(spec),
      clear: () => faults.clear(),
    },
    journal: () => structuredClone(journal),
    issueCredentials: (opts = {}) => auth.issueCredentials(opts.useCase),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

export { parseFaultSpec };
