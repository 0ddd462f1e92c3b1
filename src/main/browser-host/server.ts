import { appVersion } from '../app/app-version';
import { NOTICES_FILE } from '../app/about';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile, readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSession, type Dialogs, type Session } from '../app/session';
import type { DemoTenantLaunch } from '../demo-tenant';
import { createEventBus, type EventBus } from '../events';
import type { SecretStore } from '../keychain';
import { createDispatcher, type Dispatcher } from '../rpc/dispatch';
import { createHandlers } from '../rpc/handlers';
import { CSP, rendererResponseHeaders, resolveRendererFile } from '../shell/security';
import { bridgeScript } from './bridge';
import { downloadHeaders, downloadShelf, type DownloadShelf } from './downloads';

/**
 * The browser host, for tests and development only (never packaged): the same contract as the
 * Electron IPC, over HTTP POST /rpc/<channel> and server-sent events on /events, on 127.0.0.1.
 * Every call must carry the per-run token (header x-attest-token; the events stream as a query
 * parameter, EventSource cannot send headers), come from our own Origin, and name our Host.
 * It serves the built renderer (out/renderer) with the bridge script that implements window.attest.
 */

export interface BrowserHostOptions {
  rendererRoot: string;
  dataDir: string;
  port?: number;
  version?: string;
  /** How to start the reference tenant for "Open demo tenant". */
  demoTenant?: DemoTenantLaunch;
  /** Where client secrets live (default: the OS keychain). */
  secrets?: SecretStore;
  /** Opens this store file at start, offline (no API client): for benches and read-only e2e. */
  storeFile?: string;
  /** Answers of the open/save dialogs (there is no native dialog in a browser); cancel by default. */
  dialogs?: Dialogs;
  /**
   * Stands in for the native dialogs (tests): a save dialog answers DIR/<suggested name>, an open
   * dialog the newest file in DIR matching its filters. Without it (and without `dialogs`) a save
   * becomes a browser download (see downloads.ts) and an open cancels.
   */
  dialogDir?: string;
  /** How often an offline tenant is checked while its connection sends or syncs on its own (default 30 s). */
  onlineCheckMs?: number;
  log?: (line: string) => void;
}

export interface BrowserHost {
  /** The address to open, with the token in its fragment. */
  url: string;
  origin: string;
  token: string;
  session: Session;
  events: EventBus;
  close(): Promise<void>;
}

const BRIDGE_PATH = '/attest-bridge.js';
const MAX_BODY = 10 * 1024 * 1024;

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function send(response: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', ...headers });
  response.end(body);
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  send(response, status, JSON.stringify(value), { 'Content-Type': 'application/json; charset=utf-8' });
}

async function readBody(request: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Dialog answers from one folder, for tests of exports and imports through the browser host. */
export function folderDialogs(dir: string): Dialogs {
  return {
    async save(options) {
      const name = basename(options.defaultName ?? 'export.xlsx') || 'export.xlsx';
      return join(dir, name);
    },
    async open(options) {
      const extensions = (options.filters ?? []).flatMap((f) => f.extensions.map((e) => `.${e.toLowerCase()}`));
      const files = (await readdir(dir, { withFileTypes: true }))
        .filter((entry) => entry.isFile() && (extensions.length === 0 || extensions.some((e) => entry.name.toLowerCase().endsWith(e))))
        .map((entry) => join(dir, entry.name));
      const dated = await Promise.all(files.map(async (file) => ({ file, at: (await stat(file)).mtimeMs })));
      return dated.sort((a, b) => b.at - a.at)[0]?.file ?? null;
    },
  };
}

/** index.html with the bridge loaded first (a classic script runs before the renderer's module). */
export function withBridge(html: string): string {
  const tag = `<script src="${BRIDGE_PATH}"></script>`;
  return html.includes('</title>') ? html.replace('</title>', `</title>\n    ${tag}`) : `${tag}\n${html}`;
}

/** What every request of one host is checked against, and answered from. */
interface HostContext {
  options: BrowserHostOptions;
  token: string;
  /** `http://127.0.0.1:PORT` and `127.0.0.1:PORT`, known once the server listens. */
  origin: string;
  hostHeader: string;
  dispatcher: Dispatcher;
  events: EventBus;
  bridge: string;
  streams: Set<ServerResponse>;
  /** Saves as browser downloads, when no dialog folder or dialogs were given. */
  downloads: DownloadShelf | null;
}

const refuse = (response: ServerResponse, status: number, code: string, message: string) =>
  sendJson(response, status, { ok: false, error: { code, message } });

/** POST /rpc/<channel>: our Origin, the token, a JSON body; then the checked dispatcher. */
async function handleRpc(host: HostContext, request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
  if (request.method !== 'POST') return send(response, 405, 'Method not allowed', { Allow: 'POST' });
  if (request.headers.origin !== host.origin) return refuse(response, 403, 'forbidden', 'Wrong origin.');
  const presented = request.headers['x-attest-token'];
  if (typeof presented !== 'string' || !safeEqual(presented, host.token))
    return refuse(response, 403, 'forbidden', 'Missing or wrong token.');
  if (!String(request.headers['content-type'] ?? '').startsWith('application/json')) {
    return refuse(response, 415, 'bad_request', 'Expected a JSON body.');
  }
  const body = await readBody(request);
  if (body === null) return refuse(response, 413, 'bad_request', 'Body too large.');
  let payload: unknown;
  try {
    payload = body.length ? JSON.parse(body) : undefined;
  } catch {
    return refuse(response, 400, 'bad_request', 'The body is not JSON.');
  }
  let channel: string;
  try {
    channel = decodeURIComponent(path.slice('/rpc/'.length));
  } catch {
    // A stray '%' or a '%' sequence that is not UTF-8: a bad request, not a failure of the host.
    return refuse(response, 400, 'bad_request', 'The channel name is not valid percent-encoding.');
  }
  const reply = await host.dispatcher.dispatch(channel, payload, { url: host.origin, isMainFrame: true });
  // A file this call wrote where a save answered: the bridge fetches it as a download.
  const written = host.downloads?.takeWritten() ?? [];
  if (written.length > 0) response.setHeader('X-Attest-Download', written.join(','));
  return sendJson(response, 200, reply);
}

/** GET /events?token=…: server-sent events (EventSource cannot send headers, so the token is a query parameter). */
function handleEvents(host: HostContext, request: IncomingMessage, response: ServerResponse, url: URL): void {
  const presented = url.searchParams.get('token') ?? '';
  const fetchSite = request.headers['sec-fetch-site'];
  if (!safeEqual(presented, host.token) || (fetchSite !== undefined && fetchSite !== 'same-origin'))
    return send(response, 403, 'Forbidden');
  response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
  response.write(': connected\n\n');
  host.streams.add(response);
  const stop = host.events.subscribe((event, data) => response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
  const heartbeat = setInterval(() => response.write(': ping\n\n'), 15_000);
  request.on('close', () => {
    stop();
    clearInterval(heartbeat);
    host.streams.delete(response);
  });
}

/** GET /download/<id>?token=…: a file a call wrote, as an attachment (a link cannot send headers, so the token is a query parameter). */
async function handleDownload(host: HostContext, request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
  const presented = url.searchParams.get('token') ?? '';
  const fetchSite = request.headers['sec-fetch-site'];
  if (!safeEqual(presented, host.token) || (fetchSite !== undefined && fetchSite !== 'same-origin'))
    return send(response, 403, 'Forbidden');
  const file = host.downloads?.file(url.pathname.slice('/download/'.length));
  if (!file) return send(response, 404, 'Not found');
  let content: Buffer;
  try {
    content = await readFile(file.path);
  } catch {
    return send(response, 404, 'Not found');
  }
  return send(response, 200, content, downloadHeaders(file.name));
}

/** The built renderer, with the bridge script loaded first in index.html. */
async function serveRenderer(host: HostContext, response: ServerResponse, path: string): Promise<void> {
  const file = resolveRendererFile(host.options.rendererRoot, path);
  if (!file) return send(response, 404, 'Not found');
  let content: Buffer;
  try {
    content = await readFile(file);
  } catch {
    return send(response, 404, 'Not found');
  }
  const headers = rendererResponseHeaders(file);
  if (file.endsWith('.html')) {
    headers['Content-Security-Policy'] = CSP;
    return send(response, 200, withBridge(content.toString('utf8')), headers);
  }
  return send(response, 200, content, headers);
}

async function handle(host: HostContext, request: IncomingMessage, response: ServerResponse): Promise<void> {
  // DNS rebinding: only our exact loopback host name is served.
  if (request.headers.host !== host.hostHeader) return send(response, 421, 'Misdirected request');
  let url: URL;
  try {
    url = new URL(request.url ?? '/', host.origin);
  } catch {
    return send(response, 400, 'Bad request');
  }
  const path = url.pathname;
  if (path.startsWith('/rpc/')) return handleRpc(host, request, response, path);
  if (request.method !== 'GET' && request.method !== 'HEAD') return send(response, 405, 'Method not allowed');
  if (path === '/events') return handleEvents(host, request, response, url);
  if (path.startsWith('/download/')) return handleDownload(host, request, response, url);
  if (path === BRIDGE_PATH) return send(response, 200, host.bridge, { 'Content-Type': 'text/javascript; charset=utf-8' });
  return serveRenderer(host, response, path);
}

export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const log = options.log ?? (() => {});
  const events = createEventBus(log);
  const downloads = options.dialogs || options.dialogDir ? null : downloadShelf();
  const session = createSession({
    dataDir: options.dataDir,
    appVersion: options.version ?? appVersion(),
    events,
    dialogs: options.dialogs ?? (options.dialogDir ? folderDialogs(options.dialogDir) : downloads!.dialogs),
    demoTenant: options.demoTenant,
    secrets: options.secrets,
    // Runs on its own that end with failures are told to the page as `notice` events (a toast): the session's default notifier.
    onlineCheckMs: options.onlineCheckMs,
    log,
  });
  if (options.storeFile) await session.openStoreFile(options.storeFile);
  const host: HostContext = {
    options,
    token: randomBytes(32).toString('base64url'),
    origin: '',
    hostHeader: '',
    events,
    bridge: bridgeScript(),
    streams: new Set(),
    downloads,
    dispatcher: createDispatcher({
      handlers: createHandlers(session, {
        host: 'browser',
        version: options.version ?? appVersion(),
        platform: process.platform,
        runtime: [{ name: 'Node', version: process.versions.node }],
        noticesFile: join(options.rendererRoot, NOTICES_FILE),
        openExternal: async (url) => {
          log(`would open ${url} (the browser host opens no external links)`);
          return false;
        },
      }),
      allowedOrigins: () => [host.origin],
      host: 'browser',
      log,
    }),
  };

  const server = createServer((request, response) => {
    void handle(host, request, response).catch((error: unknown) => {
      log(`browser host: ${(error as Error).message}`);
      if (!response.headersSent) send(response, 500, 'Internal error');
      else response.end();
    });
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolveListen());
  });
  const port = (server.address() as AddressInfo).port;
  host.origin = `http://127.0.0.1:${port}`;
  host.hostHeader = `127.0.0.1:${port}`;

  return {
    url: `${host.origin}/#token=${host.token}`,
    origin: host.origin,
    token: host.token,
    session,
    events,
    async close() {
      for (const stream of host.streams) stream.end();
      await session.shutdown();
      await new Promise<void>((resolveClose) => server.close(() => resolveClose()));
      server.closeAllConnections();
      downloads?.close();
    },
  };
}
