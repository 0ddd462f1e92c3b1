/**
 * The objects admins act on, synced: apps, entitlements (with their type and whether the service
 * manages their memberships), app users, memberships and tasks. After a sync the store holds what
 * the tenant serves, counted on both sides and compared as raw JSON; what is stored matches the
 * vendor's OpenAPI document; null and omitted timestamps read, sort and show the same; changes on
 * the tenant (a removal, an escalation) land in the next run as new versions.
 */
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/main/api/client';
import { collection as descriptorOf, COLLECTION_IDS, type CollectionId } from '../../src/main/collections';
import { prepareConnection, recordConnection } from '../../src/main/app/saved-connections';
import { entitlementType, membershipsManaged } from '../../src/main/collections/entitlements';
import { rowOf, searchFacets } from '../../src/main/rpc/read-models';
import { openStore, type Store } from '../../src/main/store/db';
import { syncTenant } from '../../src/main/sync/engine';
import { isManagedKind, omitsUnset, RESOURCE_TYPE_NAMES } from '../../src/tenant/views';
import { assertSchema, startTestTenant, type TestTenant } from '../helpers/tenant';
import { differences, expectedRaw, runCli, storedRaw, tempDir } from './sync.helpers';

const NEW: CollectionId[] = ['apps', 'entitlements', 'app-users', 'memberships', 'tasks'];
const SEED = 23;

/**
 * A change sent to the tenant on a connection of its own: a pooled keep-alive socket the tenant
 * closed while the test was busy would reset the request (and a change must not be sent twice).
 */
async function mutateOn(tenant: TestTenant, method: string, path: string, body: unknown): Promise<{ status: number; text: string }> {
  const token = await tenant.accessToken();
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${tenant.url}${path}`,
      {
        method,
        agent: false,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The number of rows the tenant's own search endpoint lists, page after page. */
async function countServed(tenant: TestTenant, path: string): Promise<number> {
  let n = 0;
  let pageToken = '';
  do {
    const r = await tenant.call<{ list: unknown[]; nextPageToken: string }>('POST', path, { pageSize: 100, pageToken });
    expect(r.status).toBe(200);
    n += r.body.list.length;
    pageToken = r.body.nextPageToken;
  } while (pageToken !== '');
  return n;
}

describe('sync of the objects admins act on', () => {
  let tenant: TestTenant;
  let tmp: ReturnType<typeof tempDir>;
  let store: Store;
  let storeFile: string;
  let api: ApiClient;
  let firstRun = 0;
  const mutate = (method: string, path: string, body: unknown) => mutateOn(tenant, method, path, body);

  beforeAll(async () => {
    tenant = await startTestTenant({ seed: SEED, scale: 2 });
    tmp = tempDir();
    const connection = prepareConnection(join(tmp.dir, 'data'), { clientId: tenant.clientId, serverUrl: tenant.url, name: 'admin' });
    recordConnection(join(tmp.dir, 'data'), connection);
    storeFile = connection.storeFile;
    api = createApiClient({ clientId: tenant.clientId, clientSecret: tenant.clientSecret, serverUrl: tenant.url });
  });
  afterAll(async () => {
    store?.close();
    await tenant?.close();
    tmp?.remove();
  });

  it('attest sync --json lists every collection; the store holds every object the tenant serves, counted on both sides, raw JSON included', async () => {
    const env = { ATTEST_CLIENT_SECRET: tenant.clientSecret, ATTEST_DATA_DIR: join(tmp.dir, 'data') };
    const run = await runCli(['sync', '--connection', 'admin', '--json'], env);
    expect(run.code, run.err).toBe(0);
    const summary = JSON.parse(run.out) as {
      runId: number;
      status: string;
      collections: { collection: string; complete: boolean; fetched: number }[];
    };
    expect(summary.status).toBe('completed');
    expect(summary.collections.map((c) => c.collection)).toEqual([...COLLECTION_IDS]);
    firstRun = summary.runId;
    store = openStore(storeFile);
    const served: Record<string, number> = {
      apps: await countServed(tenant, '/api/v1/search/apps'),
      entitlements: await countServed(tenant, '/api/v1/search/entitlements'),
      'app-users': await countServed(tenant, '/api/v1/search/app_users'),
      memberships: await countServed(tenant, '/api/v1/search/grants'),
      tasks: await countServed(tenant, '/api/v1/search/tasks'),
    };
    const expected = expectedRaw(tenant.data);
    for (const id of NEW) {
      expect(served[id], id).toBeGreaterThan(0);
      expect(store.countObjects(id), id).toBe(served[id]);
      expect(expected[id].size, id).toBe(served[id]);
      expect(summary.collections.find((c) => c.collection === id)).toMatchObject({ complete: true, fetched: served[id] });
    }
    expect(tenant.data.memberships.size).toBe(served.memberships);
    expect(differences(store, tenant.data)).toEqual([]);
    const status = store.collectionStatus().filter((s) => NEW.includes(s.collection));
    expect(status.map((s) => [s.collection, s.complete, s.dataAsOf !== null])).toEqual(NEW.map((id) => [id, true, true]));
  });

  it('stores what matches the vendor document: apps, entitlement views and their types, app users, memberships, task views', () => {
    const schemas: Record<string, string> = {
      apps: 'c1.api.app.v1.App',
      'app-users': 'c1.api.app.v1.AppUserView',
      memberships: 'c1.api.app.v1.AppEntitlementUserView',
      tasks: 'c1.api.task.v1.TaskView',
    };
    for (const [id, schema] of Object.entries(schemas))
      for (const o of store.iterateObjects(id as CollectionId)) assertSchema(schema, JSON.parse(o.raw) as unknown);
    let types = 0;
    for (const o of store.iterateObjects('entitlements')) {
      const stored = JSON.parse(o.raw) as { appEntitlementView: unknown; appResourceType: { '@type': string } | null };
      assertSchema('c1.api.app.v1.AppEntitlementView', stored.appEntitlementView);
      expect(stored.appResourceType?.['@type']).toBe('type.googleapis.com/c1.api.app.v1.AppResourceType');
      const { '@type': _, ...type } = stored.appResourceType!;
      assertSchema('c1.api.app.v1.AppResourceType', type);
      types += 1;
    }
    expect(types).toBe(tenant.data.entitlements.size);
  });

  it("knows each entitlement's type and whether the service manages its memberships", () => {
    const seen = new Set<string>();
    for (const e of tenant.data.entitlements.values()) {
      const o = store.getObject('entitlements', e.id)!;
      const stored = JSON.parse(o.raw) as unknown;
      expect(entitlementType(stored)).toBe(RESOURCE_TYPE_NAMES[e.kind]);
      expect(membershipsManaged(stored), `${e.kind} ${e.id}`).toBe(isManagedKind(e.kind));
      expect(o.columns).toMatchObject({
        entitlementType: RESOURCE_TYPE_NAMES[e.kind],
        membershipsManaged: isManagedKind(e.kind),
        appId: e.appId,
      });
      seen.add(`${e.kind}:${String(isManagedKind(e.kind))}`);
    }
    // Every kind is there: the managed ones (catalog, group, profile) and the others.
    expect([...seen].sort()).toEqual(['catalog:true', 'group:true', 'permission:false', 'profile:true', 'role:false', 'scope:false']);
    const managed = store.countObjects('entitlements', { filters: { membershipsManaged: true } });
    expect(managed).toBe([...tenant.data.entitlements.values()].filter((e) => isManagedKind(e.kind)).length);
    expect(store.countObjects('entitlements', { filters: { entitlementType: 'Role' } })).toBe(
      [...tenant.data.entitlements.values()].filter((e) => e.kind === 'role').length,
    );
  });

  it('stores who holds what and how: app user, entitlement, app, grant source, since when', () => {
    for (const m of tenant.data.memberships.values()) {
      const o = store.getObject('memberships', `${m.appEntitlementId}:${m.appUserId}`)!;
      expect(o.columns).toMatchObject({
        appUserId: m.appUserId,
        appEntitlementId: m.appEntitlementId,
        appId: m.appId,
        appUserName: tenant.data.appUsers.get(m.appUserId)!.displayName,
        grantedHow: m.grantSourceIds?.length ? 'inherited' : 'direct',
        grantSourceIds: m.grantSourceIds?.join(', ') ?? null,
        grantedAt: m.createdAt,
        deprovisionAt: m.deprovisionAt ?? null,
      });
    }
    expect(store.countObjects('memberships', { filters: { grantedHow: 'inherited' } })).toBeGreaterThan(0);
  });

  it('stores tasks with form, policy steps and emergency access, and what they allow', () => {
    let escalatable = 0;
    for (const t of tenant.data.tasks.values()) {
      if (t.deletedAt) continue;
      const o = store.getObject('tasks', t.id!)!;
      const view = JSON.parse(o.raw) as { task: { policy?: unknown; form?: unknown; emergencyAccess?: boolean } };
      expect(Object.hasOwn(view.task, 'policy') && Object.hasOwn(view.task, 'emergencyAccess')).toBe(true);
      const canEscalate = (t.actions ?? []).includes('TASK_ACTION_TYPE_ESCALATE_TO_EMERGENCY_ACCESS');
      if (canEscalate) escalatable += 1;
      expect(o.columns).toMatchObject({
        state: t.state,
        emergencyAccess: t.emergencyAccess ?? false,
        escalatable: canEscalate,
        currentStepId: t.policy?.current?.id ?? null,
      });
    }
    expect(escalatable).toBeGreaterThan(0);
  });

  it('reads, stores, lists and shows null and omitted timestamps the same way', async () => {
    // Memberships without an end date: some send `appEntitlementUserBindingDeprovisionAt: null`, some leave it out.
    const unset = [...tenant.data.memberships.values()].filter((m) => !m.deprovisionAt);
    const omitted = unset.find((m) => omitsUnset(SEED, m.id))!;
    const nulled = unset.find((m) => !omitsUnset(SEED, m.id))!;
    expect(omitted && nulled).toBeTruthy();
    const raw = storedRaw(store, 'memberships');
    const omittedRaw = raw.get(`${omitted.appEntitlementId}:${omitted.appUserId}`)!;
    const nulledRaw = raw.get(`${nulled.appEntitlementId}:${nulled.appUserId}`)!;
    expect(omittedRaw).not.toContain('appEntitlementUserBindingDeprovisionAt');
    expect(nulledRaw).toContain('"appEntitlementUserBindingDeprovisionAt":null');
    // Apps never deleted: `deletedAt` null or absent.
    const apps = [...tenant.data.apps.values()];
    const appOmitted = apps.find((a) => omitsUnset(SEED, a.id))!;
    const appNulled = apps.find((a) => !omitsUnset(SEED, a.id))!;
    expect(storedRaw(store, 'apps').get(appOmitted.id)).not.toContain('deletedAt');
    expect(storedRaw(store, 'apps').get(appNulled.id)).toContain('"deletedAt":null');

    for (const [collection, ids, column] of [
      [
        'memberships',
        [omittedRaw, nulledRaw]
          .map((r) => JSON.parse(r) as { appEntitlementId: string; appUserId: string })
          .map((m) => `${m.appEntitlementId}:${m.appUserId}`),
        'deprovisionAt',
      ],
      ['apps', [appOmitted.id, appNulled.id], 'deletedAt'],
    ] as const) {
      const [a, b] = ids.map((id) => store.getObject(collection, id)!);
      expect(a!.columns[column], collection).toBeNull();
      expect(b!.columns[column], collection).toBeNull();
      // A filter on the empty value and a sort put both in the same place.
      const withoutValue = store
        .listObjects(collection, { sort: { column, dir: 'asc' }, limit: 100_000 })
        .rows.filter((r) => r.columns[column] === null);
      expect(withoutValue.map((r) => r.id)).toEqual(expect.arrayContaining([...ids]));
      // The list view shows both as empty cells.
      expect([a!, b!].map((o) => rowOf(o).cells[column])).toEqual([null, null]);
    }
    // `attest show` prints both with the same empty value.
    const shown = await Promise.all(
      [appOmitted.id, appNulled.id].map((id) => runCli(['show', 'apps', id, '--store', storeFile, '--json'])),
    );
    const columns = shown.map((s) => (JSON.parse(s.out) as { columns: Record<string, unknown> }).columns.deletedAt);
    expect(columns).toEqual([null, null]);
  });

  it('keeps versions per run: a removal and an escalation on the tenant show in the next run, the rest unchanged', async () => {
    const d = tenant.data;
    const m = [...d.memberships.values()].find((x) => {
      const e = d.entitlements.get(x.appEntitlementId)!;
      return e.kind === 'group';
    })!;
    const removed = await mutate('DELETE', `/api/v1/apps/${m.appId}/entitlements/${m.appEntitlementId}/remove-membership`, {
      appUserId: m.appUserId,
    });
    expect(removed.status).toBe(200);
    const task = [...d.tasks.values()].find(
      (t) => !t.deletedAt && (t.actions ?? []).includes('TASK_ACTION_TYPE_ESCALATE_TO_EMERGENCY_ACCESS'),
    )!;
    const escalated = await mutate('POST', `/api/v1/tasks/${task.id}/action/escalate`, { comment: 'on call' });
    expect(escalated.status).toBe(200);

    const summary = await syncTenant({ store, api, only: NEW });
    expect(summary.status).toBe('completed');
    expect(differences(store, d).filter((x) => NEW.some((id) => x.startsWith(`${id}:`)))).toEqual([]);
    const membershipId = `${m.appEntitlementId}:${m.appUserId}`;
    expect(store.getObject('memberships', membershipId)).toMatchObject({ deleted: true, lastSeenRun: firstRun });
    expect(store.getObject('memberships', membershipId, { asOfRun: firstRun })).not.toBeNull();
    expect(store.getObject('tasks', task.id!)!.columns).toMatchObject({ emergencyAccess: true, escalatable: false });
    expect(store.getObject('tasks', task.id!, { asOfRun: firstRun })!.columns).toMatchObject({ emergencyAccess: false, escalatable: true });
    const changes = store.diff(firstRun, summary.runId).map((c) => `${c.collection} ${c.id} ${c.change}`);
    expect(changes).toContain(`memberships ${membershipId} removed`);
    expect(changes).toContain(`tasks ${task.id} modified`);
    // The entitlement's member count went down by one: a new version of it too.
    expect(changes).toContain(`entitlements ${m.appEntitlementId} modified`);
    expect(summary.collections.find((c) => c.collection === 'memberships')).toMatchObject({ deleted: 1, upserted: 0 });
  });

  it('finds them offline: search, facets and the sync listing of attest sync --json', async () => {
    const app = [...tenant.data.apps.values()][0]!;
    const hits = store.search(app.displayName, { collection: 'apps' });
    expect(hits.hits.map((h) => h.id)).toContain(app.id);
    const user = [...tenant.data.appUsers.values()][0]!;
    expect(store.search(user.email.split('@')[0]!, { collection: 'app-users' }).hits.map((h) => h.id)).toContain(user.id);
    expect(Object.keys(searchFacets(store, user.displayName.split(' ')[0]!))).toEqual(expect.arrayContaining(['app-users', 'memberships']));
    const word = [...tenant.data.tasks.values()][0]!.displayName!.split(' ')[0]!;
    const escalatable = store.search(word, { collection: 'tasks', filters: { escalatable: true }, limit: 1000 });
    expect(escalatable.total).toBeGreaterThan(0);
    expect(escalatable.hits.every((h) => store.getObject('tasks', h.id)!.columns.escalatable === true)).toBe(true);
    expect(
      descriptorOf('memberships')
        .columns.filter((c) => c.filter)
        .map((c) => c.name),
    ).toEqual(['grantedHow']);
  });
});
