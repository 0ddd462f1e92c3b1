/**
 * A tenant whose page tokens go round in a cycle (the reference tenant's cycleTokens fault, on
 * loopback): the sync stops the walk at the first token it was given before, names the collection,
 * the part, the token and the page it was first used for, keeps the pages before, marks nothing
 * deleted, and ends within seconds.
 */
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/main/api/client';
import { prepareConnection, recordConnection } from '../../src/main/app/saved-connections';
import { openStore, type Store } from '../../src/main/store/db';
import { syncTenant, type CollectionSummary } from '../../src/main/sync/engine';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { runCli, storedRaw, tempDir } from './sync.helpers';

/** Scopes come 100 to a page: 12 times demo's 40 is 5 pages. */
const SCOPES_PER_PAGE = 100;
const TOKEN = /page token '[A-Za-z0-9_-]{10}…[A-Za-z0-9_-]{10}'/;

let tenant: ReferenceTenant;
let tmp: ReturnType<typeof tempDir>;
let api: ApiClient;
let stores = 0;

beforeAll(async () => {
  tenant = await startTenant({ port: 0, seed: 31, scale: 12 });
  tmp = tempDir('attest-token-cycle-');
  api = createApiClient({ clientId: tenant.clientId, clientSecret: tenant.clientSecret, serverUrl: tenant.url });
});
afterEach(() => tenant.faults.clear());
afterAll(async () => {
  await tenant?.close();
  tmp?.remove();
});

function freshStore(): Store {
  stores += 1;
  return openStore(join(tmp.dir, `store-${stores}.sqlite`));
}

async function syncScopes(store: Store): Promise<{ scopes: CollectionSummary; status: string; ms: number }> {
  const started = performance.now();
  const summary = await syncTenant({ store, api, only: ['scopes'] });
  return { scopes: summary.collections[0]!, status: summary.status, ms: performance.now() - started };
}

describe('page tokens that cycle', () => {
  it('a token that names itself (a cycle of 1) stops the walk after the page it fetched; the first page stays stored', async () => {
    expect(tenant.data.scopes.size).toBeGreaterThan(4 * SCOPES_PER_PAGE);
    tenant.faults.set('cycleTokens=1');
    const store = freshStore();
    try {
      const { scopes, status, ms } = await syncScopes(store);
      expect(status).toBe('failed');
      expect(scopes).toMatchObject({ complete: false, errorKind: 'bad_response', pages: 1, fetched: SCOPES_PER_PAGE, deleted: 0 });
      expect(scopes.error).toMatch(/^scopes: the tenant gave page token '.+' again after page 2; it was first used for page 2\. /);
      expect(scopes.error).toMatch(TOKEN);
      expect(scopes.error).toContain('Following it would never end, so the walk stopped');
      expect(storedRaw(store, 'scopes').size).toBe(SCOPES_PER_PAGE);
      expect(ms).toBeLessThan(2000);
    } finally {
      store.close();
    }
  });

  it('a cycle of 3 stops at the first token given again, naming the page it was first used for; the pages before stay stored', async () => {
    tenant.faults.set('cycleTokens=3');
    const store = freshStore();
    try {
      const { scopes, status } = await syncScopes(store);
      expect(status).toBe('failed');
      expect(scopes).toMatchObject({ complete: false, pages: 3, fetched: 3 * SCOPES_PER_PAGE });
      expect(scopes.error).toMatch(/^scopes: the tenant gave page token '.+' again after page 4; it was first used for page 2\. /);
      expect(storedRaw(store, 'scopes').size).toBe(3 * SCOPES_PER_PAGE);
      // The walk as recorded: failed with the same words, its checkpoint after the last page stored.
      const walk = store.sync.walk(1, 'scopes');
      expect(walk).toMatchObject({ status: 'failed', pages: 3 });
      expect(walk.checkpoint).not.toBe('');

      // The next sync resumes the run from that checkpoint: the tokens it is given count from there.
      const resumed = await syncScopes(store);
      expect(resumed.status).toBe('failed');
      expect(resumed.scopes.error).toMatch(
        /again after page \d+; it was first used for page 1 \(pages counted from where this sync resumed the walk\)/,
      );
    } finally {
      store.close();
    }
  });

  it('a walk that does not end marks nothing deleted: what an earlier sync stored stays current', async () => {
    const store = freshStore();
    try {
      expect((await syncScopes(store)).status).toBe('completed');
      const before = storedRaw(store, 'scopes');
      tenant.faults.set('cycleTokens=2');
      const { scopes, status } = await syncScopes(store);
      expect(status).toBe('failed');
      expect(scopes).toMatchObject({ complete: false, deleted: 0, pages: 2 });
      expect(scopes.error).toMatch(/again after page 3; it was first used for page 2\./);
      expect(storedRaw(store, 'scopes')).toEqual(before);
      expect(store.countObjects('scopes')).toBe(before.size);
    } finally {
      store.close();
    }
  });

  it('names the part of a split walk whose tokens cycle', async () => {
    tenant.faults.set('cycleTokens=1');
    const store = freshStore();
    try {
      const summary = await syncTenant({ store, api, only: ['automations'] });
      const automations = summary.collections[0]!;
      expect(summary.status).toBe('failed');
      expect(automations.error).toMatch(
        /^automations: part (drafts|on|off): the tenant gave page token '.+' again after page 2; it was first used for page 2\./,
      );
    } finally {
      store.close();
    }
  });

  it('`attest sync` against tokens that cycle A, B, A… exits 1 with the error, in well under 5 s', async () => {
    const dataDir = join(tmp.dir, 'data');
    recordConnection(dataDir, prepareConnection(dataDir, { clientId: tenant.clientId, serverUrl: tenant.url, name: 'cycle' }));
    tenant.faults.set('cycleTokens=2');
    const started = performance.now();
    const run = await runCli(['sync', '--connection', 'cycle'], { ATTEST_CLIENT_SECRET: tenant.clientSecret, ATTEST_DATA_DIR: dataDir });
    const ms = performance.now() - started;
    expect(run.code, run.err).toBe(1);
    expect(run.out).toMatch(/scopes: the tenant gave page token '.+' again after page 3; it was first used for page 2\./);
    expect(run.err).toMatch(/run \d+: failed in \d+\.\d s/);
    expect(ms).toBeLessThan(5000);
  });
});
