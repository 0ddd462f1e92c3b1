import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserHost, type BrowserHost } from '../../src/main/browser-host/server';
import { API_NAMES } from '../../src/shared/contract';

let host: BrowserHost;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'attest-host-'));
  const renderer = join(dir, 'renderer');
  mkdirSync(join(renderer, 'assets'), { recursive: true });
  writeFileSync(
    join(renderer, 'index.html'),
    '<!doctype html><html><head><title>Attest</title></head><body><script type="module" src="./assets/app.js"></script></body></html>',
  );
  writeFileSync(join(renderer, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(dir, 'secret.txt'), 'outside');
  host = await startBrowserHost({ rendererRoot: renderer, dataDir: join(dir, 'data') });
});

afterAll(async () => {
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A raw request, so Host and Origin can be anything (fetch would set them itself). */
function raw(
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const url = new URL(host.origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path, method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    if (options.body) req.write(options.body);
    req.end();
  });
}

const rpc = (channel: string, body: unknown, headers: Record<string, string> = {}) =>
  raw(`/rpc/${channel}`, {
    method: 'POST',
    headers: {
      host: new URL(host.origin).host,
      origin: host.origin,
      'content-type': 'application/json',
      'x-attest-token': host.token,
      ...headers,
    },
    body: JSON.stringify(body),
  });

describe('the browser host', () => {
  it('listens on loopback and puts the per-run token in the URL fragment only', () => {
    expect(host.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(host.url).toBe(`${host.origin}/#token=${host.token}`);
    expect(host.token.length).toBeGreaterThanOrEqual(40);
  });

  it('answers a contract call that carries the token from our origin', async () => {
    const reply = await rpc('appInfo', {});
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({ ok: true, value: { host: 'browser', dataDir: join(dir, 'data') } });
  });

  it('refuses a missing or wrong token, a foreign Origin and a foreign Host', async () => {
    expect((await rpc('appInfo', {}, { 'x-attest-token': 'nope' })).status).toBe(403);
    expect((await rpc('appInfo', {}, { 'x-attest-token': '' })).status).toBe(403);
    expect((await rpc('appInfo', {}, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await rpc('appInfo', {}, { origin: 'null' })).status).toBe(403);
    expect((await rpc('appInfo', {}, { host: `localhost:${new URL(host.origin).port}` })).status).toBe(421);
    expect((await rpc('appInfo', {}, { host: 'evil.example' })).status).toBe(421);
    expect((await raw('/rpc/appInfo', { headers: { host: new URL(host.origin).host } })).status).toBe(405);
  });

  it('checks payloads with the same dispatcher as IPC', async () => {
    const reply = JSON.parse((await rpc('getObject', { collection: 'nope', id: 1 })).body);
    expect(reply).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(JSON.parse((await rpc('invoke', {})).body)).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
    const notJson = await raw('/rpc/appInfo', {
      method: 'POST',
      headers: { host: new URL(host.origin).host, origin: host.origin, 'content-type': 'application/json', 'x-attest-token': host.token },
      body: '{',
    });
    expect(notJson.status).toBe(400);
  });

  it('serves the renderer with the bridge first and the CSP header, and nothing outside it', async () => {
    const hostHeader = { host: new URL(host.origin).host };
    const index = await raw('/', { headers: hostHeader });
    expect(index.status).toBe(200);
    expect(index.headers['content-security-policy']).toContain("script-src 'self'");
    expect(index.body.indexOf('/attest-bridge.js')).toBeGreaterThan(-1);
    expect(index.body.indexOf('/attest-bridge.js')).toBeLessThan(index.body.indexOf('assets/app.js'));
    expect(index.body).not.toContain(host.token);
    const bridge = await raw('/attest-bridge.js', { headers: hostHeader });
    for (const name of API_NAMES) expect(bridge.body).toContain(`"${name}"`);
    expect(bridge.body).not.toContain(host.token);
    expect((await raw('/assets/app.js', { headers: hostHeader })).status).toBe(200);
    expect((await raw('/../secret.txt', { headers: hostHeader })).status).toBe(404);
    expect((await raw('/%2e%2e/secret.txt', { headers: hostHeader })).status).toBe(404);
  });

  it('streams validated events to a client holding the token', async () => {
    const hostHeader = new URL(host.origin).host;
    expect((await raw('/events?token=wrong', { headers: { host: hostHeader } })).status).toBe(403);
    const url = new URL(host.origin);
    const received = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(
        { host: url.hostname, port: url.port, path: `/events?token=${host.token}`, headers: { host: hostHeader } },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => {
            text += chunk.toString();
            if (text.includes('connected') && !text.includes('event:'))
              host.events.emit('connectionState', {
                connection: 'x',
                online: true,
                status: 'online',
                checkedAt: null,
                reason: null,
                needsSecret: false,
              });
            if (text.includes('event: connectionState')) {
              req.destroy();
              resolve(text);
            }
          });
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(received).toContain('data: {"connection":"x","online":true');
  });
});
