/**
 * After a send, the objects the changes created or changed are in the store at once (a run of
 * origin `outbox`), exactly as the next sync stores them; no collection's "data as of" moves, and
 * nothing is written while a sync run is open.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/main/api/client';
import { openOutbox, type Outbox } from '../../src/main/outbox/queue';
import { openStore, type Store } from '../../src/main/store/db';
import { syncTenant } from '../../src/main/sync/engine';
import { outboxStoreOf } from '../../src/main/app/workspace';
import { startTenant } from '../../src/tenant/server';
import { resourceServers } from './outbox.helpers';
import { differences, expectedRaw, tempDir } from './sync.helpers';

type Tenant = Awaited<ReturnType<typeof startTenant>>;

let tenant: Tenant;
let store: Store;
let outbox: Outbox;
let api: ApiClient;
let tmp: ReturnType<typeof tempDir>;

beforeAll(async () => {
  tenant = await startTenant({ port: 0, seed: 515, scale: 2 });
  tmp = tempDir('attest-fresh-it-');
  store = openStore(`${tmp.dir}/store.sqlite`);
  api = createApiClient({ clientId: tenant.clientId, clientSecret: tenant.clientSecret, serverUrl: tenant.url });
  outbox = openOutbox(outboxStoreOf(store));
});

afterAll(async () => {
  store?.close();
  await tenant?.close();
  tmp?.remove();
});

describe('fresh copies after a send', () => {
  let syncRun = 0;
  let freshRun = 0;

  it('stores the created scope and campaign and the updated template as one outbox run', async () => {
    const synced = await syncTenant({ store, api });
    expect(synced.status).toBe('completed');
    syncRun = synced.runId;
    const statusBefore = store.collectionStatus();

    const [server] = resourceServers(tenant.data, 1);
    const scopeItem = outbox.enqueue('create-scope', {
      ...server!,
      scopeValue: 'fresh:copies:read',
      displayName: 'Freshly created scope',
      classification: 'XAA_SCOPE_CLASSIFICATION_READ',
    });
    const template = store.listObjects('templates', { limit: 1 }).rows[0]!;
    const templateItem = outbox.enqueue('update-template', {
      templateId: template.id,
      changes: { description: 'Edited through the outbox' },
    });
    const campaignItem = outbox.enqueue('create-campaign', {
      displayName: 'Fresh campaign',
      ownerIds: [tenant.data.identityUserIds[0]!],
      completionDate: '2031-01-31T17:00:00Z',
    });

    const summary = await outbox.send(api);
    expect(summary).toMatchObject({ succeeded: 3, failed: 0, uncertain: 0, touched: ['campaigns', 'scopes', 'templates'] });
    expect(summary.refreshed.runId).toBeGreaterThan(syncRun);
    expect(summary.refreshed.stored).toBe(3);
    freshRun = summary.refreshed.runId!;

    // Each object is stored exactly as the tenant now serves it.
    const served = expectedRaw(tenant.data);
    const scopeId = outbox.get(scopeItem.id)!.result!.scopeId as string;
    const campaignId = outbox.get(campaignItem.id)!.result!.campaignId as string;
    expect(store.getObject('scopes', scopeId)!.raw).toBe(served.scopes.get(scopeId));
    expect(store.getObject('campaigns', campaignId)!.raw).toBe(served.campaigns.get(campaignId));
    expect(store.getObject('templates', template.id)!.raw).toBe(served.templates.get(template.id));
    expect(store.getObject('templates', template.id)!.json).toMatchObject({ description: 'Edited through the outbox' });
    expect(outbox.get(templateItem.id)!.state).toBe('succeeded');

    // Searchable at once, and a snapshot like any run: the diff from the sync is exactly these three.
    expect(store.search('Freshly created').hits.map((h) => h.id)).toContain(scopeId);
    expect(store.runs()[0]).toMatchObject({
      id: freshRun,
      origin: 'outbox',
      status: 'completed',
      collections: expect.arrayContaining(['scopes', 'templates', 'campaigns']),
    });
    const diff = store
      .diff(syncRun, freshRun)
      .map((d) => `${d.change} ${d.collection}/${d.id}`)
      .sort();
    expect(diff).toEqual([`added campaigns/${campaignId}`, `added scopes/${scopeId}`, `modified templates/${template.id}`].sort());
    // The data of each collection is still "as of" the sync: a run from the outbox walks nothing.
    const added: Record<string, number> = { campaigns: 1, scopes: 1 };
    expect(store.collectionStatus()).toEqual(statusBefore.map((c) => ({ ...c, objectCount: c.objectCount + (added[c.collection] ?? 0) })));
  });

  it('leaves the next sync nothing to change in those objects, and it ends equal to the tenant', async () => {
    const next = await syncTenant({ store, api });
    expect(next.status).toBe('completed');
    expect(differences(store, tenant.data)).toEqual([]);
    // The objects the fresh copies stored are unchanged; the only news is what the tenant made
    // beside them and no answer carried: the entitlement the new scope is bound to.
    const changes = store.diff(freshRun, next.runId);
    expect(changes.filter((c) => ['scopes', 'templates', 'campaigns'].includes(c.collection))).toEqual([]);
    expect(changes.map((c) => `${c.change} ${c.collection} ${c.title}`)).toEqual(['added entitlements Scope: Freshly created scope']);
    expect(store.collectionStatus().every((c) => c.lastCompletedRunId === next.runId)).toBe(true);
  });

  it('writes nothing while a sync run is open; that sync brings the object', async () => {
    const open = store.sync.beginRun(['scopes']);
    const [server] = resourceServers(tenant.data, 1);
    const item = outbox.enqueue('create-scope', {
      ...server!,
      scopeValue: 'fresh:copies:write',
      classification: 'XAA_SCOPE_CLASSIFICATION_WRITE',
    });
    const runsBefore = store.runs().length;
    const summary = await outbox.send(api);
    expect(summary.succeeded).toBe(1);
    expect(summary.refreshed).toEqual({ runId: null, stored: 0 });
    expect(store.runs()).toHaveLength(runsBefore);
    const scopeId = outbox.get(item.id)!.result!.scopeId as string;
    expect(store.getObject('scopes', scopeId)).toBeNull();

    const resumed = await syncTenant({ store, api });
    expect(resumed).toMatchObject({ runId: open.runId, status: 'completed' });
    expect(store.getObject('scopes', scopeId)!.raw).toBe(expectedRaw(tenant.data).scopes.get(scopeId));
  });
});
