/**
 * The hostile probes of the hardening issue, each built here and run against the real thing (the
 * CLI in process, the reference tenant and the browser host on loopback, real SQLite and xlsx
 * files): exit codes and error shapes as the README says, and clear errors naming the problem.
 * The workbook probes (formulas, hidden sheets, zip and XML bombs, forgeries) are in
 * verify-hostile.test.ts; full-disk exports in export-full-disk.test.ts; input files in
 * input-files.test.ts; response and search limits in api-response-limit.test.ts and search-limits.test.ts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserHost, type BrowserHost } from '../../src/main/browser-host/server';
import { exportReport } from '../../src/main/reports';
import { openStore } from '../../src/main/store/db';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { seedFixtureStore } from '../e2e/seed-store';
import { editWorkbook, replaceIn, sheetPart } from '../helpers/hostile-xlsx';
import { runCli, tempDir } from './sync.helpers';

let tmp: ReturnType<typeof tempDir>;
let storeFile: string;

beforeAll(() => {
  tmp = tempDir('attest-hostile-');
  storeFile = join(tmp.dir, 'store.sqlite');
  seedFixtureStore(storeFile, 20);
});
afterAll(() => tmp?.remove());

describe('CLI exit codes and messages', () => {
  it('--limit 999999999999999999999: exit 2 naming the range, never SQLite’s "datatype mismatch"', async () => {
    const huge = '999999999999999999999';
    for (const argv of [
      ['search', 'scope', '--limit', huge],
      ['search', 'scope', '--offset', huge],
      ['search', 'scope', '--limit', '1e3'],
      ['search', 'scope', '--offset', 'abc'],
      ['journal', '--limit', huge],
    ]) {
      const { code, err } = await runCli([...argv, '--store', storeFile]);
      expect({ argv, code }).toEqual({ argv, code: 2 });
      expect(err).toMatch(/--(limit|offset) must be a whole number from [01] to [\d,]+, not '/);
      expect(err).not.toMatch(/datatype mismatch|SqliteError/i);
    }
    const fine = await runCli(['search', 'scope', '--limit', '10000', '--offset', '5', '--store', storeFile, '--json']);
    expect(fine.code).toBe(0);
  });

  it('the store itself refuses a page size or offset SQLite cannot bind as an integer', () => {
    const store = openStore(storeFile);
    try {
      expect(() => store.search('scope', { limit: 1e21 })).toThrow(
        expect.objectContaining({
          name: 'StoreQueryError',
          message: 'the limit must be a whole number from 0 to 1,000,000,000, not 1e+21',
        }),
      );
      expect(() => store.search('scope', { offset: -1 })).toThrow(/the offset must be a whole number/);
    } finally {
      store.close();
    }
  });

  it('connect --client-id x: exit 2 (bad input), with or without a secret, never 3', async () => {
    const dataDir = join(tmp.dir, 'connect');
    for (const env of [{ ATTEST_CLIENT_SECRET: '' }, { ATTEST_CLIENT_SECRET: 'secret-token:example.com:v1:e30' }]) {
      const { code, err } = await runCli(['connect', '--client-id', 'x', '--data-dir', dataDir], env);
      expect(code).toBe(2);
      expect(err).toMatch(/^attest connect: Client ID /);
      expect(err).not.toContain('secret-token:');
    }
    // A well-formed id with a malformed secret: still bad input.
    const secret = await runCli(['connect', '--client-id', 'abc123@127.0.0.1:9/attest', '--data-dir', dataDir], {
      ATTEST_CLIENT_SECRET: 'secret-token:example.com:v9:e30',
    });
    expect(secret.code).toBe(2);
    expect(secret.err).not.toContain('secret-token:example.com:v9');
  });

  it('an XXE sheet (an entity reference with or without its DTD): exit 2 naming it, no raw parser text', async () => {
    const store = openStore(storeFile);
    const base = join(tmp.dir, 'evidence.xlsx');
    try {
      const connection = { name: 'acme', tenantHost: 'acme.example.test', clientId: 'abc@acme.example.test/attest', serverUrl: null };
      await exportReport({ kind: 'evidence', out: base, store, connection, appVersion: '1.0.0' });
    } finally {
      store.close();
    }
    const bare = join(tmp.dir, 'xxe-bare.xlsx');
    await editWorkbook(base, bare, (parts) => replaceIn(parts, sheetPart(parts, 'Scopes'), /<v>/, '<v>&xxe;'));
    const declared = join(tmp.dir, 'xxe-declared.xlsx');
    await editWorkbook(base, declared, (parts) => {
      const part = sheetPart(parts, 'Scopes');
      replaceIn(parts, part, /<sheetData>/, '<!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><sheetData>');
      replaceIn(parts, part, /<v>/, '<v>&xxe;');
    });
    const bareRun = await runCli(['verify', bare]);
    expect(bareRun.code).toBe(2);
    expect(bareRun.err).toMatch(
      /refers to an entity XML does not define at line 1, column \d+ \(an external entity, XXE, or a damaged file\)/,
    );
    expect(bareRun.err).not.toMatch(/undefined entity|\d+:\d+:/);
    const declaredRun = await runCli(['verify', declared]);
    expect(declaredRun.code).toBe(2);
    expect(declaredRun.err).toContain('holds a DTD or entity declaration');
    expect((await runCli(['verify', base])).code).toBe(0);
  });
});

describe('the reference tenant answers in the shape of each endpoint', () => {
  let tenant: ReferenceTenant;
  beforeAll(async () => {
    tenant = await startTenant({ port: 0, seed: 3 });
  });
  afterAll(async () => tenant?.close());

  const form = { 'content-type': 'application/x-www-form-urlencoded' };

  it('a 60 MB token request: 413 with an OAuth error, the answer read whole', async () => {
    const body = `grant_type=client_credentials&client_assertion=${'a'.repeat(60 * 1024 * 1024)}`;
    const response = await fetch(`${tenant.url}/auth/v1/token`, { method: 'POST', headers: form, body });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: 'invalid_request',
      error_description: 'the token request body is larger than 65536 bytes',
    });
  });

  it('a 100 kB page_token: 431 with a google.rpc.Status body; on the token path, an OAuth error', async () => {
    const api = await fetch(`${tenant.url}/api/v1/access_reviews?page_token=${'x'.repeat(100_000)}`);
    expect(api.status).toBe(431);
    expect(await api.json()).toEqual({ code: 3, message: 'the request line and headers are larger than 16384 bytes', details: [] });
    const token = await fetch(`${tenant.url}/auth/v1/token?pad=${'x'.repeat(100_000)}`, { method: 'POST', headers: form, body: 'a=b' });
    expect(token.status).toBe(431);
    expect(await token.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('an API body over 1 MiB: 413 with a google.rpc.Status body', async () => {
    const minted = await fetch(`${tenant.url}/auth/v1/token`, {
      method: 'POST',
      headers: form,
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: tenant.clientId, client_secret: tenant.clientSecret }),
    });
    const { access_token } = (await minted.json()) as { access_token: string };
    const response = await fetch(`${tenant.url}/api/v1/search/automations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'x'.repeat(3 * 1024 * 1024) }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ code: 3, message: 'the request body is larger than 1048576 bytes', details: [] });
  });
});

describe('the browser host', () => {
  let host: BrowserHost;
  beforeAll(async () => {
    const renderer = join(tmp.dir, 'renderer');
    mkdirSync(renderer, { recursive: true });
    writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>Attest</title>');
    host = await startBrowserHost({ rendererRoot: renderer, dataDir: join(tmp.dir, 'host-data'), storeFile });
  });
  afterAll(async () => host?.close());

  it('answers a badly percent-encoded RPC path with 400 bad_request, not 500', async () => {
    for (const channel of ['%', '%E0%A4%A', 'search%ZZ', '%C3%28']) {
      const response = await fetch(`${host.origin}/rpc/${channel}`, {
        method: 'POST',
        headers: { origin: host.origin, 'content-type': 'application/json', 'x-attest-token': host.token },
        body: '{}',
      });
      expect({ channel, status: response.status }).toEqual({ channel, status: 400 });
      expect(await response.json()).toEqual({
        ok: false,
        error: { code: 'bad_request', message: 'The channel name is not valid percent-encoding.' },
      });
    }
  });
});
