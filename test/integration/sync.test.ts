import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, tokenMints, type ApiClient, type ApiEvent, type ApiRequest } from '../../src/main/api/client';
import { ApiError } from '../../src/main/api/errors';
import { openStore, type Store } from '../../src/main/store/db';
import { collection, COLLECTION_IDS, type CollectionDescriptor, type CollectionId, type SplitPart } from '../../src/main/collections';
import { partsOf, syncTenant, type SyncProgress } from '../../src/main/sync/engine';
import { listPages } from '../../src/main/sync/pages';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { differences, expectedRaw, runCli, storedRaw, tempDir } from './sync.helpers';

const clientFor = (tenant: ReferenceTenant, extra: { maxRetries?: number; backoffBaseMs?: number } = {}) =>
  createApiClient({ clientId: tenant.clientId, clientSecret: tenant.clientSecret, serverUrl: tenant.url, ...extra });

/**
 * `client` with `watch` seeing every request first (an error it returns fails the request in place
 * of an answer), and `settled` every request sent once it has its answer or failed.
 */
function watched(client: ApiClient, watch: (req: ApiRequest) => Error | undefined | void, settled?: () => void): ApiClient {
  return {
    ...client,
    apiRoot: client.apiRoot,
    clientId: client.clientId,
    getToken: (signal) => client.getToken(signal),
    request: <T>(req: ApiRequest) => {
      const failure = watch(req);
      return failure ? Promise.reject(failure) : client.request<T>(req).finally(() => settled?.());
    },
  };
}

type Snapshot = Record<CollectionId, Map<string, string>>;
const automations = collection('automations');
const memberships = collection('memberships');

/** The changes between two expected snapshots, computed from the tenant's data alone. */
function expectedChanges(before: Snapshot, after: Snapshot): string[] {
  const out: string[] = [];
  for (const collection of Object.keys(after) as CollectionId[]) {
    const a = before[collection];
    const b = after[collection];
    for (const [id, raw] of b)
      if (!a.has(id)) out.push(`${collection} ${id} added`);
      else if (a.get(id) !== raw) out.push(`${collection} ${id} modified`);
    for (const id of a.keys()) if (!b.has(id)) out.push(`${collection} ${id} removed`);
  }
  return out.sort();
}

describe('sync against the reference tenant', () => {
  let tenant: ReferenceTenant;
  let tmp: ReturnType<typeof tempDir>;
  let store: Store;
  let api: ApiClient;
  let firstRun = 0;
  let firstSnapshot: Snapshot;

  beforeAll(async () => {
    tenant = await startTenant({ port: 0, seed: 11, scale: 2 });
    tmp = tempDir();
    store = openStore(join(tmp.dir, 'store.sqlite'));
    api = clientFor(tenant);
  });
  afterAll(async () => {
    store?.close();
    await tenant?.close();
    tmp?.remove();
  });

  it('stores every collection exactly as the tenant serves it', async () => {
    const events: SyncProgress[] = [];
    const summary = await syncTenant({ store, api, onProgress: (e) => events.push(e) });
    expect(summary.status).toBe('completed');
    firstRun = summary.runId;
    firstSnapshot = expectedRaw(tenant.data);
    expect(differences(store, tenant.data)).toEqual([]);
    for (const c of summary.collections) {
      expect(c).toMatchObject({
        complete: true,
        fetched: firstSnapshot[c.collection].size,
        upserted: firstSnapshot[c.collection].size,
        deleted: 0,
      });
    }
    // Automations come 10 to a page, in three walks (drafts, published on, published off); the rest 100.
    const automations = [...tenant.data.automations.values()];
    const parts = [
      automations.filter((a) => a.isDraft),
      automations.filter((a) => !a.isDraft && a.enabled),
      automations.filter((a) => !a.isDraft && !a.enabled),
    ];
    expect(summary.collections.find((c) => c.collection === 'automations')!.pages).toBe(
      parts.reduce((n, part) => n + Math.max(1, Math.ceil(part.length / 10)), 0),
    );
    expect(
      events
        .filter((e) => e.state === 'done' && e.phase === 'collection')
        .map((e) => e.collection)
        .sort(),
    ).toEqual([...COLLECTION_IDS].sort());
    // Enum values are kept as the tenant wrote them, unknown ones included, in the columns too.
    for (const scope of tenant.data.scopes.values()) expect(store.getObject('scopes', scope.id!)!.columns.state).toBe(scope.state ?? null);
    expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('stores exactly what changed on the tenant, and attest diff reports it', async () => {
    const d = tenant.data;
    const [s1, s2, s3] = [...d.scopes.values()];
    d.scopes.set('scope-new-1', { ...s1!, id: 'scope-new-1', scopeValue: 'new:one', displayName: 'Brand new scope' });
    d.scopes.set('scope-new-2', { ...s1!, id: 'scope-new-2', scopeValue: 'new:two' });
    d.scopes.delete(s2!.id!);
    const oldName = s3!.displayName;
    d.touch('scopes', s3!.id!, { displayName: 'Renamed scope' });
    const [a1, a2] = [...d.automations.values()];
    d.touch('automations', a1!.id!, { displayName: 'Renamed automation' });
    d.automations.delete(a2!.id!);
    const [c1, c2] = [...d.campaigns.values()];
    d.touch('campaigns', c1!.id!, { description: 'Now with a description' });
    d.campaigns.set('campaign-new', { ...c2!, id: 'campaign-new', displayName: 'Copied campaign' });
    const [r1] = [...d.routingRules.values()];
    d.touch('routingRules', r1!.id!, { priority: 999 });
    d.toolsets.delete([...d.toolsets.keys()][0]!);
    const template = [...expectedRaw(d).templates.keys()][0]!;
    d.touch('templates', template, { description: 'Edited template' });
    d.touch('users', d.identityUserIds[0]!, { displayName: 'Relocated Person' });
    d.policies.delete([...d.policies.keys()][0]!);
    const secondSnapshot = expectedRaw(d);
    const expected = expectedChanges(firstSnapshot, secondSnapshot);
    expect(expected, expected.join('\n')).toHaveLength(13);

    const summary = await syncTenant({ store, api });
    expect(summary.status).toBe('completed');
    expect(differences(store, d)).toEqual([]);
    for (const c of summary.collections) {
      const mine = expected.filter((e) => e.startsWith(`${c.collection} `));
      expect(c.upserted, c.collection).toBe(mine.filter((e) => !e.endsWith('removed')).length);
      expect(c.deleted, c.collection).toBe(mine.filter((e) => e.endsWith('removed')).length);
    }

    const diff = store.diff(firstRun, summary.runId);
    expect(diff.map((e) => `${e.collection} ${e.id} ${e.change}`).sort()).toEqual(expected);
    expect(diff.find((e) => e.id === s3!.id)!.changedFields).toEqual(['displayName', 'updatedAt']);
    expect(diff.find((e) => e.id === a1!.id)!.changedFields).toEqual(['currentVersion', 'displayName']);
    expect(diff.find((e) => e.id === c1!.id)!.changedFields).toEqual(['description', 'updatedAt']);
    expect(diff.find((e) => e.id === r1!.id)!.changedFields).toEqual(['priority', 'updatedAt']);

    // The first run is still a snapshot of the tenant as it was.
    for (const collection of Object.keys(firstSnapshot) as CollectionId[]) {
      const asOf = new Map(store.listObjects(collection, { asOfRun: firstRun, limit: 100_000 }).rows.map((o) => [o.id, o.raw]));
      expect(asOf, collection).toEqual(firstSnapshot[collection]);
    }
    expect(store.getObject('scopes', s2!.id!)).toMatchObject({ deleted: true, raw: firstSnapshot.scopes.get(s2!.id!) });
    expect(store.listObjects('routing-rules', { limit: 1 }).rows[0]!.columns.priority).toBeLessThanOrEqual(999);

    // The CLI reads the same store offline.
    const json = await runCli(['diff', '--store', store.file, '--json']);
    expect(json.code).toBe(0);
    const printed = JSON.parse(json.out) as { from: number; to: number; changes: { collection: string; id: string; change: string }[] };
    expect({ from: printed.from, to: printed.to }).toEqual({ from: firstRun, to: summary.runId });
    expect(printed.changes.map((e) => `${e.collection} ${e.id} ${e.change}`).sort()).toEqual(expected);
    const text = await runCli(['diff', '--store', store.file]);
    expect(text.out).toContain(`+ scopes        scope-new-1  Brand new scope`);
    expect(text.out).toContain(`- scopes        ${s2!.id}`);
    // The scope's line names its entitlement and app; each changed value follows, labelled, old -> new.
    const scopeEntitlement = d.entitlements.get(s3!.appEntitlementId!)!;
    expect(text.out).toContain(
      `~ scopes        ${s3!.id}  Renamed scope  (${scopeEntitlement.displayName} in ${d.apps.get(scopeEntitlement.appId)!.displayName})\n` +
        `    Name: "${oldName}" -> "Renamed scope"\n`,
    );
    expect(text.err).toContain(`${expected.filter((e) => e.endsWith('added')).length} added`);

    const shown = await runCli(['show', 'campaigns', c1!.id!, '--store', store.file]);
    expect(shown.out).toBe(`${secondSnapshot.campaigns.get(c1!.id!)}\n`);
    const history = await runCli(['show', 'scopes', s3!.id!, '--history', '--store', store.file]);
    expect(history.out).toMatch(new RegExp(`run ${firstRun} .* added\\nrun ${summary.runId} .* modified  displayName, updatedAt`));
    const found = await runCli(['search', 'Renamed', '--store', store.file, '--json']);
    expect((JSON.parse(found.out) as { hits: { id: string }[] }).hits.map((h) => h.id).sort()).toEqual([a1!.id, s3!.id].sort());
    const runs = await runCli(['runs', '--store', store.file, '--json']);
    expect((JSON.parse(runs.out) as { runs: { id: number; status: string }[] }).runs.map((r) => [r.id, r.status])).toEqual([
      [summary.runId, 'completed'],
      [firstRun, 'completed'],
    ]);
  });
});

/** Digests of what a store holds, apart from the runs: each table's rows (objects without their last-seen marks) and the FTS index's own blocks. */
function contents(store: Store): Record<string, string | number> {
  const digest = (sql: string) => {
    const hash = createHash('sha1');
    for (const row of store.db.prepare(sql).raw().iterate() as IterableIterator<unknown[]>)
      for (const value of row) hash.update(Buffer.isBuffer(value) ? value : `${String(value)}\u0000`);
    return hash.digest('hex');
  };
  return {
    objects: digest('SELECT oid, collection, id, first_seen_run, current_vid, current_hash FROM objects ORDER BY oid'),
    versions: digest('SELECT * FROM object_versions ORDER BY vid'),
    'search index blocks': digest('SELECT id, block FROM search_index_data ORDER BY id'),
    'search entries': digest('SELECT rowid, title, body, facets FROM search_index ORDER BY rowid'),
    'search terms': digest('SELECT term, docs FROM search_terms ORDER BY term'),
    'search queue': store.db.prepare('SELECT count(*) FROM search_queue').pluck().get() as number,
    meta: digest('SELECT key, value FROM store_meta ORDER BY key'),
  };
}

describe('a resync of an unchanged tenant', () => {
  let tenant: ReferenceTenant;
  let tmp: ReturnType<typeof tempDir>;
  beforeAll(async () => {
    tenant = await startTenant({ port: 0, seed: 17, scale: 2 });
    tmp = tempDir();
  });
  afterAll(async () => {
    await tenant?.close();
    tmp?.remove();
  });

  it('writes nothing but the run and what its walks saw: no version, no search entry, no index block', async () => {
    const store = openStore(join(tmp.dir, 'store.sqlite'));
    try {
      const first = await syncTenant({ store, api: clientFor(tenant) });
      expect(first.status).toBe('completed');
      const before = contents(store);
      const changes = store.db.prepare('SELECT total_changes()').pluck();
      const changedBefore = changes.get() as number;
      const second = await syncTenant({ store, api: clientFor(tenant) });
      expect(second).toMatchObject({ status: 'completed', runId: first.runId + 1 });
      expect(second.collections.every((c) => c.upserted === 0 && c.deleted === 0 && c.fetched > 0)).toBe(true);
      expect(contents(store)).toEqual(before);
      // Rows written: the run (begun, finished), each walk (added, started, planned, ended) and its
      // checkpoint after each page, and each object's mark as seen by the run.
      const objects = store.db.prepare('SELECT count(*) FROM objects').pluck().get() as number;
      const pages = second.collections.reduce((n, c) => n + c.pages, 0);
      const walks = second.collections.length;
      expect((changes.get() as number) - changedBefore).toBeLessThanOrEqual(2 + 4 * walks + pages + objects);
      expect(store.db.prepare('SELECT count(*) FROM objects WHERE last_seen_run = ?').pluck().get(second.runId)).toBe(objects);
      expect(differences(store, tenant.data)).toEqual([]);
    } finally {
      store.close();
    }
  });
});

describe('a split collection', () => {
  let tenant: ReferenceTenant;
  beforeAll(async () => {
    tenant = await startTenant({ port: 0, seed: 23, scale: 3 });
  });
  afterAll(async () => {
    await tenant?.close();
  });

  /**
   * Every part of `descriptor`'s walk holds some objects, none holds one twice or one another part
   * holds, and together they are one walk's rows, byte for byte: as many as the tenant has.
   */
  async function expectPartsMakeOneWalk(descriptor: CollectionDescriptor, parts: readonly SplitPart[], size: number): Promise<void> {
    const api = clientFor(tenant);
    const rows = async (fetchPage: CollectionDescriptor['fetchPage']): Promise<string[]> => {
      const out: string[] = [];
      for await (const page of listPages(descriptor, api, '', undefined, fetchPage)) out.push(...page.objects.map((o) => o.raw));
      return out;
    };
    const one = await rows(descriptor.fetchPage);
    const walked = await Promise.all(parts.map((part) => rows(part.fetchPage)));
    for (const part of walked) expect(part.length).toBeGreaterThan(0);
    const union = walked.flat();
    expect(new Set(union).size).toBe(union.length);
    expect(union.sort()).toEqual([...one].sort());
    expect(one).toHaveLength(size);
  }

  it('has parts whose pages together are exactly the pages of one walk', async () => {
    await expectPartsMakeOneWalk(automations, automations.split!.parts!, tenant.data.automations.size);
  });

  it('has grants of groups of apps that together are exactly the grants of one walk', async () => {
    const parts = partsOf(memberships, [...tenant.data.apps.keys()].sort());
    expect(parts.map((p) => p.key)).toEqual(['apps-1', 'apps-2', 'apps-3', 'apps-4']);
    await expectPartsMakeOneWalk(memberships, parts, tenant.data.memberships.size);
  });
});

describe('grants walked by groups of apps', () => {
  it('walks them by app once the apps are read, reads by id a grant no group listed, and walks them as one without the apps', async () => {
    const tenant = await startTenant({ port: 0, seed: 29, scale: 1 });
    const tmp = tempDir();
    const store = openStore(join(tmp.dir, 'store.sqlite'));
    try {
      const grantFilters: unknown[] = [];
      const api = watched(clientFor(tenant), (req) => {
        if (req.path === '/search/grants') {
          const { pageSize: _size, pageToken: _token, ...filter } = req.body as Record<string, unknown>;
          grantFilters.push(filter);
        }
      });
      const appIds = [...tenant.data.apps.keys()].sort();
      const first = await syncTenant({ store, api });
      expect(first.status).toBe('completed');
      expect(differences(store, tenant.data)).toEqual([]);
      // Four groups of apps, together every app, each walked to its end.
      const groups = new Set(grantFilters.map((f) => JSON.stringify((f as { appIds?: string[] }).appIds ?? null)));
      expect(
        [...groups]
          .map((g) => JSON.parse(g) as string[])
          .flat()
          .sort(),
      ).toEqual(appIds);
      expect(groups.size).toBe(4);

      // One grant removed; an app no longer listed whose grants stay (as if it came after the apps' walk).
      const [gone] = [...tenant.data.memberships.values()];
      tenant.data.memberships.delete(gone!.id);
      const hiddenApp = appIds.find((id) => id !== gone!.appId && [...tenant.data.memberships.values()].some((m) => m.appId === id))!;
      const hiddenGrants = [...tenant.data.memberships.values()].filter((m) => m.appId === hiddenApp).map((m) => m.id);
      tenant.data.apps.delete(hiddenApp);
      grantFilters.length = 0;
      const second = await syncTenant({ store, api });
      expect(second.collections.find((c) => c.collection === 'memberships')).toMatchObject({ complete: true, deleted: 1 });
      expect(store.getObject('memberships', gone!.id)).toMatchObject({ deleted: true });
      for (const id of hiddenGrants) expect(store.getObject('memberships', id)).toMatchObject({ deleted: false });
      // Each grant of the unlisted app and the removed grant were read by id, every other through its group.
      const byId = grantFilters.filter((f) => (f as { appUserIds?: unknown }).appUserIds !== undefined);
      expect(byId).toHaveLength(hiddenGrants.length + 1);

      // Without the apps in the run, the grants are one walk, and the store holds them as the tenant serves them.
      grantFilters.length = 0;
      tenant.data.memberships.delete(hiddenGrants[0]!);
      const third = await syncTenant({ store, api, only: ['memberships'] });
      expect(third.collections[0]).toMatchObject({ collection: 'memberships', complete: true, deleted: 1 });
      expect(grantFilters.every((f) => Object.keys(f as object).length === 0)).toBe(true);
      expect(new Set(storedRaw(store, 'memberships').keys())).toEqual(new Set(tenant.data.memberships.keys()));
    } finally {
      store.close();
      await tenant.close();
      tmp.remove();
    }
  });
});

describe('templates read as soon as a page names them', () => {
  it('reads each named template while the walks that name it still run, once, and reads again one whose early read failed', async () => {
    const tenant = await startTenant({ port: 0, seed: 31, scale: 2, faults: 'latency=2,jitter=3' });
    const tmp = tempDir();
    const store = openStore(join(tmp.dir, 'store.sqlite'));
    try {
      const requests: string[] = [];
      let failOnce: string | null = null;
      const api = watched(clientFor(tenant), (req) => {
        requests.push(req.path);
        // The first template read fails as a dropped connection would (after the client's own retries).
        if (failOnce === null && req.path.startsWith('/access_review_template/')) {
          failOnce = req.path;
          return new ApiError('network', 'connection reset');
        }
        return undefined;
      });
      const summary = await syncTenant({ store, api });
      expect(summary.collections.filter((c) => c.error)).toEqual([]);
      expect(summary.status).toBe('completed');
      expect(differences(store, tenant.data)).toEqual([]);
      const templateReads = requests.filter((path) => path.startsWith('/access_review_template/'));
      const lastAutomationsPage = requests.lastIndexOf('/search/automations');
      const lastCampaignsPage = requests.lastIndexOf('/access_reviews');
      // Early: most templates were read before both walks naming them had ended.
      const early = requests
        .slice(0, Math.max(lastAutomationsPage, lastCampaignsPage))
        .filter((p) => p.startsWith('/access_review_template/'));
      expect(early.length).toBeGreaterThan(templateReads.length / 2);
      // Once each, but the one whose early read failed, which the templates' walk read again.
      const stored = [...storedRaw(store, 'templates').keys()];
      expect(stored.length).toBeGreaterThan(0);
      expect(templateReads.filter((path) => path === failOnce)).toHaveLength(2);
      expect(new Set(templateReads).size).toBe(templateReads.length - 1);
      expect(new Set(templateReads)).toEqual(new Set(stored.map((id) => `/access_review_template/${id}`)));
    } finally {
      store.close();
      await tenant.close();
      tmp.remove();
    }
  });

  it('leaves no early read under way once a sync returns whose templates could not be walked', async () => {
    const tenant = await startTenant({ port: 0, seed: 31, scale: 2, faults: 'latency=15,jitter=5' });
    const tmp = tempDir();
    const store = openStore(join(tmp.dir, 'store.sqlite'));
    try {
      let underWay = 0;
      let templateReads = 0;
      const api = watched(
        clientFor(tenant),
        (req) => {
          // The campaigns' walk fails at once: the templates' walk waits for it, so it never starts,
          // while the automations name templates until their walk's last page.
          if (req.path === '/access_reviews') return new ApiError('server', 'HTTP 503', { status: 503 });
          if (req.path.startsWith('/access_review_template/')) templateReads += 1;
          underWay += 1;
          return undefined;
        },
        () => (underWay -= 1),
      );
      const summary = await syncTenant({ store, api });
      expect(summary.collections.find((c) => c.collection === 'templates')).toMatchObject({ errorKind: 'blocked', fetched: 0 });
      expect(templateReads).toBeGreaterThan(0);
      expect(underWay).toBe(0);
      expect(storedRaw(store, 'templates').size).toBe(0);
    } finally {
      store.close();
      await tenant.close();
      tmp.remove();
    }
  });
});

describe('sync through faults', () => {
  it('ends equal to the tenant despite 5xx, 429 bursts, jittered latency, empty pages and early token expiry', async () => {
    const tenant = await startTenant({
      port: 0,
      seed: 12,
      scale: 2,
      faults: 'latency=2,jitter=8,error5xx=0.1,rate429=0.05,retryAfter=1,emptyPages=0.2,tokenExpireEarly=0.2',
    });
    const tmp = tempDir();
    const store = openStore(join(tmp.dir, 'store.sqlite'));
    try {
      const api = clientFor(tenant, { backoffBaseMs: 20, maxRetries: 6 });
      const first = await syncTenant({ store, api });
      expect(first.collections.filter((c) => !c.complete)).toEqual([]);
      expect(differences(store, tenant.data)).toEqual([]);
      // Empty pages with a live token were walked through, not taken for the end.
      const pages = first.collections.find((c) => c.collection === 'automations')!.pages;
      expect(pages).toBeGreaterThan(Math.ceil(tenant.data.automations.size / 10));

      const [s1, s2] = [...tenant.data.scopes.values()];
      tenant.data.scopes.delete(s1!.id!);
      tenant.data.touch('scopes', s2!.id!, { description: 'changed under faults' });
      const second = await syncTenant({ store, api });
      expect(second.status).toBe('completed');
      expect(differences(store, tenant.data)).toEqual([]);
      expect(
        store
          .diff(first.runId, second.runId)
          .map((e) => `${e.id} ${e.change}`)
          .sort(),
      ).toEqual([`${s1!.id} removed`, `${s2!.id} modified`].sort());
    } finally {
      store.close();
      await tenant.close();
      tmp.remove();
    }
  });

  it('completes every collection when every token dies after its first request, minting no more tokens than requests accepted', async () => {
    const tenant = await startTenant({ port: 0, seed: 14, scale: 2, faults: 'tokenExpireEarly=1' });
    const tmp = tempDir();
    const store = openStore(join(tmp.dir, 'store.sqlite'));
    try {
      const events: ApiEvent[] = [];
      const api = createApiClient({
        clientId: tenant.clientId,
        clientSecret: tenant.clientSecret,
        serverUrl: tenant.url,
        onEvent: (e) => events.push(e),
      });
      const summary = await syncTenant({ store, api });
      expect(summary.collections.filter((c) => !c.complete)).toEqual([]);
      expect(summary.status).toBe('completed');
      expect(differences(store, tenant.data)).toEqual([]);
      // Each token serves one request: a renewal is shared by every request it refused, never minted per request.
      const accepted = events.filter((e) => e.type === 'response' && e.status === 200).length;
      expect(tokenMints(api)).toBeLessThanOrEqual(accepted);
    } finally {
      store.close();
      await tenant.close();
      tmp.remove();
    }
  });

  for (const fault of ['truncate', 'html'] as const) {
    it(`stops only the collection that got ${fault === 'html' ? 'an HTML' : 'a truncated'} page, commits nothing of it, and resumes there`, async () => {
      const tenant = await startTenant({ port: 0, seed: 13, scale: 6 });
      const tmp = tempDir();
      const store = openStore(join(tmp.dir, 'store.sqlite'));
      try {
        const base = clientFor(tenant, { backoffBaseMs: 5, maxRetries: 1 });
        let scopePages = 0;
        let badToken = '';
        // Only the third page of scopes is answered badly; everything else is served normally.
        const api: ApiClient = {
          ...base,
          apiRoot: base.apiRoot,
          clientId: base.clientId,
          getToken: (signal) => base.getToken(signal),
          async request<T>(req: ApiRequest) {
            const third = req.path === '/search/xaa/scopes' && ++scopePages === 3;
            if (third) {
              badToken = (req.body as { pageToken?: string }).pageToken ?? '';
              tenant.faults.set(`${fault}=1`);
            }
            try {
              return await base.request<T>(req);
            } finally {
              if (third || scopePages === 4) tenant.faults.clear();
            }
          },
        };
        const summary = await syncTenant({ store, api, concurrency: 1 });
        expect(summary.status).toBe('failed');
        const scopes = summary.collections.find((c) => c.collection === 'scopes')!;
        expect(scopes).toMatchObject({ complete: false, pages: 2, fetched: 200, errorKind: 'bad_response' });
        expect(scopes.error).toMatch(
          fault === 'html' ? /scopes: POST \/search\/xaa\/scopes .*not JSON|text\/html/ : /scopes: POST \/search\/xaa\/scopes/,
        );
        expect(summary.collections.filter((c) => c.collection !== 'scopes').every((c) => c.complete)).toBe(true);
        expect(store.countObjects('scopes')).toBe(200);
        expect(store.sync.walk(summary.runId, 'scopes')).toMatchObject({ status: 'failed', checkpoint: badToken, pages: 2 });
        expect(store.collectionStatus().find((c) => c.collection === 'scopes')).toMatchObject({
          complete: false,
          interrupted: true,
          error: scopes.error,
        });

        const resumed = await syncTenant({ store, api: base });
        expect(resumed).toMatchObject({ runId: summary.runId, resumed: true, status: 'completed' });
        expect(resumed.collections.find((c) => c.collection === 'scopes')).toMatchObject({
          resumed: true,
          fetched: tenant.data.scopes.size - 200,
        });
        expect(differences(store, tenant.data)).toEqual([]);
        expect(storedRaw(store, 'scopes').size).toBe(tenant.data.scopes.size);
      } finally {
        store.close();
        await tenant.close();
        tmp.remove();
      }
    });
  }
});
