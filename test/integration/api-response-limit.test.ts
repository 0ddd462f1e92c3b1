/**
 * Response bodies are read up to a limit, never buffered whole: a loopback server sending an
 * endless body (or announcing a huge one) fails that request with a clear error after at most the
 * limit was read, and a sync page over the limit fails its collection while the others complete.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/main/api/client';
import { DEFAULT_MAX_RESPONSE_BYTES, MAX_RESPONSE_BYTES_ENV, responseLimit } from '../../src/main/api/http';
import { openStore } from '../../src/main/store/db';
import { syncTenant } from '../../src/main/sync/engine';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { failure } from '../helpers/api-errors';
import { testCredentials } from '../helpers/api-credentials';
import { tempDir } from './sync.helpers';

const MiB = 1024 * 1024;

interface HugeServer {
  url: string;
  /** Bytes of body written per request, and whether the client hung up before the server ended. */
  sent: { bytes: number; clientClosed: boolean; ended: Promise<void> }[];
  close(): Promise<void>;
}

/** A token endpoint like the tenant's, and an API answering every other request with an endless JSON array (or a huge Content-Length). */
async function startHugeServer(mode: 'endless' | 'declared'): Promise<HugeServer> {
  const sent: HugeServer['sent'] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    if (req.url?.startsWith('/auth/v1/token')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ access_token: 'tok', token_type: 'Bearer', expires_in: 3600 }));
      return;
    }
    let markEnded: () => void = () => {};
    const entry = { bytes: 0, clientClosed: false, ended: new Promise<void>((resolve) => (markEnded = resolve)) };
    sent.push(entry);
    res.on('close', () => {
      entry.clientClosed = !res.writableFinished;
      markEnded();
    });
    if (mode === 'declared') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(10 * 1024 * MiB) });
      res.write('{"items":[');
      entry.bytes += 10;
      return; // never ends: the client must not wait for ten GiB
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.from(`{"id":"${'x'.repeat(64 * 1024 - 20)}"},`);
    res.write('{"items":[');
    const pump = (): void => {
      // Stops only when the client goes away; written at the pace the client reads.
      while (!res.destroyed) {
        entry.bytes += chunk.length;
        if (!res.write(chunk)) {
          res.once('drain', pump);
          return;
        }
      }
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sent,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function clientOf(url: string, extra: { maxResponseBytes?: number } = {}): ApiClient {
  // A well-formed credential; this server hands out a token without checking it.
  const { clientId, clientSecret } = testCredentials(new URL(url).host);
  return createApiClient({
    clientId,
    clientSecret,
    backoffBaseMs: 10,
    ...extra,
  });
}

describe('response bodies are bounded', () => {
  it('an endless page fails with a clear error once the limit is passed, after reading at most about the limit, not retried', async () => {
    const server = await startHugeServer('endless');
    try {
      const api = clientOf(server.url, { maxResponseBytes: 2 * MiB });
      const error = await failure(api.request({ method: 'GET', path: '/access_reviews' }));
      expect(error.kind).toBe('bad_response');
      expect(error.message).toContain('GET /access_reviews failed: the answer is longer than the 2 MiB allowed for one response');
      expect(error.message).toContain(MAX_RESPONSE_BYTES_ENV);
      expect(error.attempts).toBe(1);
      expect(server.sent).toHaveLength(1);
      await server.sent[0]!.ended;
      // The client hung up; the server could only write what the socket buffers took beyond the limit.
      expect(server.sent[0]!.clientClosed).toBe(true);
      expect(server.sent[0]!.bytes).toBeLessThan(32 * MiB);
    } finally {
      await server.close();
    }
  });

  it('a mutation whose answer is over the limit is uncertain, never resent', async () => {
    const server = await startHugeServer('endless');
    try {
      const api = clientOf(server.url, { maxResponseBytes: MiB });
      const error = await failure(api.request({ method: 'POST', path: '/apps/a/xaa/scopes', body: { scopeValue: 'x' } }));
      expect(error.kind).toBe('uncertain');
      expect(error.message).toMatch(/longer than the 1 MiB allowed.*may have been applied; it was not resent/);
      expect(server.sent).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('a Content-Length over the limit fails at once, without waiting for the body', async () => {
    const server = await startHugeServer('declared');
    try {
      const error = await failure(clientOf(server.url).request({ method: 'GET', path: '/access_reviews' }));
      expect(error.kind).toBe('bad_response');
      expect(error.message).toContain('the answer is 10 GiB (Content-Length), more than the 64 MiB allowed for one response');
      expect(server.sent).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('the limit is an option, else ATTEST_MAX_RESPONSE_BYTES, else 64 MiB; a bad value is refused clearly', () => {
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(64 * MiB);
    expect(responseLimit(undefined, {})).toBe(64 * MiB);
    expect(responseLimit(undefined, { [MAX_RESPONSE_BYTES_ENV]: '268435456' })).toBe(256 * MiB);
    expect(responseLimit(4096, { [MAX_RESPONSE_BYTES_ENV]: '268435456' })).toBe(4096);
    expect(() => responseLimit(undefined, { [MAX_RESPONSE_BYTES_ENV]: '64MB' })).toThrow(
      "ATTEST_MAX_RESPONSE_BYTES must be a positive whole number of bytes, not '64MB'",
    );
    expect(() => responseLimit(0)).toThrow(/positive whole number/);
  });
});

describe('a sync page over the limit', () => {
  let tenant: ReferenceTenant;
  let tmp: ReturnType<typeof tempDir>;
  beforeAll(async () => {
    tenant = await startTenant({ port: 0, seed: 5 });
    tmp = tempDir();
  });
  afterAll(async () => {
    await tenant?.close();
    tmp?.remove();
  });

  it('fails that collection with the limit named; the others complete; a sync within the limit then completes', async () => {
    const store = openStore(join(tmp.dir, 'store.sqlite'));
    try {
      // The page of campaigns (100 AccessReviewViews) is well over 20 kB; a page of routing rules is not.
      const small = createApiClient({ clientId: tenant.clientId, clientSecret: tenant.clientSecret, maxResponseBytes: 20_000 });
      const first = await syncTenant({ store, api: small, only: ['campaigns', 'routing-rules'] });
      expect(first.status).not.toBe('completed');
      const byId = new Map(first.collections.map((c) => [c.collection, c]));
      expect(byId.get('campaigns')).toMatchObject({ complete: false, errorKind: 'bad_response' });
      expect(byId.get('campaigns')!.error).toMatch(
        /^campaigns: GET \/access_reviews failed: the answer is .* the 19.5 KiB allowed for one response/,
      );
      expect(byId.get('routing-rules')).toMatchObject({ complete: true });
      expect([...store.iterateObjects('campaigns')]).toHaveLength(0);

      const api = createApiClient({ clientId: tenant.clientId, clientSecret: tenant.clientSecret });
      const second = await syncTenant({ store, api, only: ['campaigns', 'routing-rules'] });
      expect(second.status).toBe('completed');
      expect([...store.iterateObjects('campaigns')].length).toBe(tenant.data.campaigns.size);
    } finally {
      store.close();
    }
  });
});
