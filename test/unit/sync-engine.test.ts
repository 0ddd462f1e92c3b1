import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient, ApiRequest, ApiResponse } from '../../src/main/api/client';
import { ApiError } from '../../src/main/api/errors';
import { openStore, type Store } from '../../src/main/store/db';
import type { CollectionId } from '../../src/main/collections';
import { READ_AHEAD } from '../../src/main/sync/cursors';
import { syncTenant, type SyncProgress } from '../../src/main/sync/engine';
import type { PageWriter } from '../../src/main/sync/target';

/**
 * The engine's rules against a small in-memory API with exact control over each answer (the
 * integration tests run the same engine against the reference tenant over HTTP).
 */
class FakeApi implements ApiClient {
  readonly apiRoot = 'http://fake/api/v1';
  readonly clientId = 'x@fake/test';
  data: Record<string, object[]> = {
    scopes: [],
    automations: [],
    campaigns: [],
    templates: [],
    toolsets: [],
    rules: [],
    apps: [],
    entitlements: [],
    appUsers: [],
    grants: [],
    tasks: [],
  };
  /** Token namespace: changing it makes every earlier token invalid (a tenant restart). */
  epoch = 'e1';
  log: string[] = [];
  fail: ((req: ApiRequest, token: string) => Error | null) | null = null;
  /** Raw text transform per request (to send odd spacing, or a truncated body). */
  text: (path: string, json: string) => string = (_p, json) => json;

  getToken(): Promise<string> {
    return Promise.resolve('t');
  }

  private page(rows: object[], key: string, req: ApiRequest, size: number): { body: object; token: string } {
    const token = String(req.query?.page_token ?? (req.body as { pageToken?: string } | undefined)?.pageToken ?? '');
    let start = 0;
    if (token !== '') {
      const [epoch, n] = token.split(':');
      if (epoch !== this.epoch)
        throw new ApiError('invalid_input', 'page_token: the page token was not issued by this tenant', { status: 400 });
      start = Number(n);
    }
    const items = rows.slice(start, start + size);
    const next = start + size < rows.length ? `${this.epoch}:${start + size}` : '';
    return { body: { [key]: items, nextPageToken: next }, token };
  }

  /** The automations a search asks for: `isDraft` tri-state, `statuses` ON/OFF by `enabled` (both or none: no filter). */
  private automations(body: unknown): object[] {
    const { isDraft, statuses } = (body ?? {}) as { isDraft?: boolean | null; statuses?: string[] };
    const on = statuses?.includes('AUTOMATION_STATUS_FILTER_ON') ?? false;
    const off = statuses?.includes('AUTOMATION_STATUS_FILTER_OFF') ?? false;
    return this.data.automations!.filter((a) => {
      const { id, isDraft: draft, enabled } = a as { id: string; isDraft?: boolean; enabled?: boolean };
      if (this.hiddenFromSearch.has(id)) return false;
      if (isDraft !== undefined && isDraft !== null && Boolean(draft) !== isDraft) return false;
      return on === off || (enabled ? on : off);
    });
  }

  /** Automations no search answer shows (one moving between filters while the walks run). */
  hiddenFromSearch = new Set<string>();

  /** Milliseconds each answer takes, by path. */
  delay: (path: string) => number = () => 1;

  async request<T>(req: ApiRequest): Promise<ApiResponse<T>> {
    await new Promise((r) => setTimeout(r, this.delay(req.path)));
    const { path } = req;
    const asked = String(req.query?.page_token ?? (req.body as { pageToken?: string } | undefined)?.pageToken ?? '');
    this.log.push(`${path} ${asked}`.trim());
    let out: { body: object; token: string };
    const byId = (rows: object[], id: string, wrap: (o: object) => object) => {
      const found = rows.find((r) => (r as { id: string }).id === id);
      if (!found) throw new ApiError('not_found', `${id} not found`, { status: 404 });
      return { body: wrap(found), token: '' };
    };
    if (path === '/search/xaa/scopes') out = this.page(this.data.scopes!, 'list', req, 100);
    else if (path === '/search/automations') out = this.page(this.automations(req.body), 'list', req, 10);
    else if (path.startsWith('/automations/'))
      out = byId(this.data.automations!, decodeURIComponent(path.slice('/automations/'.length)), (a) => ({ automation: a }));
    else if (path === '/mcp_toolsets/search') out = this.page(this.data.toolsets!, 'profiles', req, 100);
    else if (path === '/findings/routing-rules') out = this.page(this.data.rules!, 'list', req, 100);
    else if (path === '/search/apps') out = this.page(this.data.apps!, 'list', req, 100);
    else if (path === '/search/app_users') out = this.page(this.data.appUsers!, 'list', req, 100);
    else if (path === '/search/grants') out = this.page(this.data.grants!, 'list', req, 100);
    else if (path === '/search/tasks') out = this.page(this.data.tasks!, 'list', req, 100);
    else if (path === '/search/users') out = this.page(this.data.users!, 'list', req, 100);
    else if (path === '/search/policies') out = this.page(this.data.policies!, 'list', req, 100);
    else if (path === '/search/entitlements') {
      // Every row's type is the one expanded resource type of the page.
      out = this.page(this.data.entitlements!, 'list', req, 100);
      out.body = {
        ...out.body,
        expanded: [{ '@type': 'type.googleapis.com/c1.api.app.v1.AppResourceType', id: 'rt1', displayName: 'Group' }],
      };
    } else if (path === '/access_reviews') {
      const views = this.data.campaigns!.map((c) => ({ accessReview: c, policyPath: '/p' }));
      out = this.page(views, 'list', req, 100);
    } else if (path.startsWith('/access_review/')) {
      out = byId(this.data.campaigns!, decodeURIComponent(path.slice('/access_review/'.length)), (c) => ({
        accessReview: { accessReview: c, createdByUserPath: '/u' },
        expanded: [],
      }));
    } else if (path.startsWith('/access_review_template/')) {
      out = byId(this.data.templates!, decodeURIComponent(path.slice('/access_review_template/'.length)), (t) => ({
        accessReviewTemplate: t,
      }));
    } else throw new Error(`unexpected ${path}`);
    const failure = this.fail?.(req, out.token);
    if (failure) throw failure;
    const text = this.text(path, JSON.stringify(out.body));
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new ApiError('bad_response', `${req.method} ${path}: the answer is not JSON (truncated?)`, { status: 200 });
    }
    return { status: 200, body: body as T, text };
  }
}

const scopes = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => ({
    id: `s${from + i}`,
    scopeValue: `v:${from + i}`,
    displayName: `Scope ${from + i}`,
    state: 'XAA_SCOPE_STATE_ENABLED',
  }));

let dir: string;
let store: Store;
let api: FakeApi;

/** A page writer whose commits wait until `letGo` is called; `commits` holds each commit's checkpoints, page by page. */
function heldPageWriter(): { writer: PageWriter; letGo: () => void; commits: string[][] } {
  let letGo!: () => void;
  const held = new Promise<void>((resolve) => (letGo = resolve));
  const commits: string[][] = [];
  const writer: PageWriter = {
    commitPages: async (...args) => {
      await held;
      commits.push(args[3].map((page) => page.next));
      return store.sync.commitPages(...args);
    },
    flushSearch: async () => store.sync.flushSearch(),
    close: async () => {},
  };
  return { writer, letGo, commits };
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'attest-engine-'));
  store = openStore(join(dir, 'store.sqlite'));
  api = new FakeApi();
  api.data.scopes = scopes(250);
  // Drafts (a0, a5, ...), published and on (odd), published and off (even): 5, 10 and 10.
  api.data.automations = Array.from({ length: 25 }, (_, i) => ({
    id: `a${i}`,
    displayName: `Automation ${i}`,
    ...(i % 5 === 0 ? { isDraft: true } : i % 2 === 1 ? { enabled: true } : {}),
    automationSteps: i === 3 ? [{ stepName: 'review', createAccessReview: { accessReviewTemplateId: 'tmpl-auto' } }] : [],
  }));
  api.data.campaigns = [
    { id: 'c1', displayName: 'Q1', accessReviewTemplateId: 'tmpl-1' },
    { id: 'c2', displayName: 'Q2', accessReviewTemplateId: 'tmpl-1' },
    { id: 'c3', displayName: 'Orphan', accessReviewTemplateId: 'tmpl-gone' },
  ];
  api.data.templates = [
    { id: 'tmpl-1', displayName: 'Quarterly' },
    { id: 'tmpl-auto', displayName: 'From automation' },
    { id: 'tmpl-unused', displayName: 'Nobody uses me' },
  ];
  api.data.toolsets = [{ id: 't1', displayName: 'Toolset', toolCount: 3 }];
  api.data.rules = [{ id: 'r1', displayName: 'Rule', priority: 2, action: { suppress: {} } }];
  api.data.apps = [{ id: 'app1', displayName: 'App' }];
  api.data.entitlements = [{ appEntitlement: { id: 'e1', appId: 'app1', displayName: 'Admins' }, appResourceTypePath: 'expanded[0]' }];
  api.data.appUsers = [{ appUser: { id: 'u1', appId: 'app1', displayName: 'Ada' } }];
  api.data.grants = [
    { entitlement: api.data.entitlements[0], appEntitlementUserBinding: { appId: 'app1', appEntitlementId: 'e1', appUserId: 'u1' } },
  ];
  api.data.tasks = [{ task: { id: 'k1', displayName: 'Grant Admins to Ada' } }];
  api.data.users = [{ user: { id: 'p1', displayName: 'Ada Allen', email: 'ada@example.com' } }];
  api.data.policies = [{ id: 'pol1', displayName: 'Manager approval' }];
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const ids = (c: CollectionId) => store.listObjects(c, { sort: { column: 'id', dir: 'asc' } }).rows.map((o) => o.id);

describe('sync engine', () => {
  it('stores a grant as its binding and an entitlement beside its expanded type, each part byte-exact', async () => {
    api.text = (path, json) => (path === '/search/entitlements' || path === '/search/grants' ? json.replace(/,"/g, ',  "') : json);
    api.data.entitlements!.push({ appEntitlement: { id: 'e2', appId: 'app1', displayName: 'Untyped' }, appResourceTypePath: '' });
    const summary = await syncTenant({ store, api, only: ['entitlements', 'memberships'] });
    expect(summary.status).toBe('completed');
    expect(store.getObject('entitlements', 'e1')!.raw).toBe(
      '{"appEntitlementView":{"appEntitlement":{"id":"e1",  "appId":"app1",  "displayName":"Admins"},  "appResourceTypePath":"expanded[0]"},' +
        '"appResourceType":{"@type":"type.googleapis.com/c1.api.app.v1.AppResourceType",  "id":"rt1",  "displayName":"Group"}}',
    );
    expect(store.getObject('entitlements', 'e1')!.columns).toMatchObject({
      entitlementType: 'Group',
      membershipsManaged: true,
      displayName: 'Admins',
    });
    // No type given: null beside the row, and the type is unknown (not "managed").
    expect(JSON.parse(store.getObject('entitlements', 'e2')!.raw)).toMatchObject({ appResourceType: null });
    expect(store.getObject('entitlements', 'e2')!.columns).toMatchObject({ entitlementType: null, membershipsManaged: false });
    expect(store.getObject('memberships', 'e1:u1')!.raw).toBe('{"appId":"app1",  "appEntitlementId":"e1",  "appUserId":"u1"}');

    // A row that points at no expanded object, or a grant without its binding, is a bad page: nothing of it is stored.
    api.data.entitlements!.push({ appEntitlement: { id: 'e3', appId: 'app1' }, appResourceTypePath: 'expanded[7]' });
    api.data.grants!.push({ entitlement: api.data.entitlements![0] });
    const second = await syncTenant({ store, api, only: ['entitlements', 'memberships'] });
    const by = Object.fromEntries(second.collections.map((c) => [c.collection, c]));
    expect(by.entitlements!.error).toMatch(/appResourceTypePath 'expanded\[7\]' points at no expanded object/);
    expect(by.memberships!.error).toMatch(/no 'appEntitlementUserBinding' object/);
    expect(store.getObject('entitlements', 'e3')).toBeNull();
  });

  it('takes a row that a first sync reads again on the next page (the list moved meanwhile) as the object it stored', async () => {
    // After the first page, a scope is added at the front: the second page starts with the first page's last row.
    api.fail = (req, token) => {
      if (req.path === '/search/xaa/scopes' && token === '' && api.data.scopes!.length === 250)
        api.data.scopes!.unshift({ id: 's-new', scopeValue: 'v:new', displayName: 'Scope new', state: 'XAA_SCOPE_STATE_ENABLED' });
      return null;
    };
    const summary = await syncTenant({ store, api, only: ['scopes'] });
    expect(summary.collections[0]).toMatchObject({ complete: true, fetched: 251, upserted: 250 });
    expect(store.countObjects('scopes')).toBe(250);
    const versions = store.db
      .prepare("SELECT count(*) FROM object_versions v JOIN objects o ON o.oid = v.oid WHERE o.collection = 'scopes'")
      .pluck()
      .get();
    expect(versions).toBe(250);
    // The front row came after the walk had passed it: the next sync brings it.
    expect(store.getObject('scopes', 's-new')).toBeNull();
    expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('walks every collection to its end and stores what the tenant sent', async () => {
    api.text = (path, json) => (path === '/search/xaa/scopes' ? json.replace(/,"/g, ', "') : json);
    // Automations answer slowly: the templates' walk must still wait for them (they name a template too).
    api.delay = (path) => (path === '/search/automations' ? 40 : 1);
    const events: SyncProgress[] = [];
    const summary = await syncTenant({ store, api, onProgress: (e) => events.push(e) });
    expect(summary.status).toBe('completed');
    const by = Object.fromEntries(summary.collections.map((c) => [c.collection, c]));
    expect(by.scopes).toMatchObject({ fetched: 250, pages: 3, upserted: 250, deleted: 0, complete: true });
    expect(by.automations).toMatchObject({ fetched: 25, pages: 3, complete: true });
    expect(by.campaigns).toMatchObject({ fetched: 3, pages: 1 });
    expect(by.users).toMatchObject({ fetched: 1, pages: 1, complete: true });
    expect(store.getObject('users', 'p1')?.title).toBe('Ada Allen <ada@example.com>');
    expect(by.policies).toMatchObject({ fetched: 1, pages: 1, complete: true });
    // Templates: the ids campaigns and automations name; a dangling one (404) is simply absent.
    expect(by.templates).toMatchObject({ fetched: 2, complete: true });
    expect(ids('templates')).toEqual(['tmpl-1', 'tmpl-auto']);
    expect(store.countObjects('scopes')).toBe(250);
    // Raw kept byte-exact, with the spacing the tenant used.
    expect(store.getObject('scopes', 's7')!.raw).toBe(
      '{"id":"s7", "scopeValue":"v:7", "displayName":"Scope 7", "state":"XAA_SCOPE_STATE_ENABLED"}',
    );
    // Campaigns are their list rows (each the AccessReviewView their GET would wrap), never read again
    // by id; templates the member of their GET answer.
    expect(store.getObject('campaigns', 'c1')!.raw).toBe(JSON.stringify({ accessReview: api.data.campaigns![0], policyPath: '/p' }));
    expect(api.log.filter((l) => l.startsWith('/access_review/'))).toEqual([]);
    expect(store.getObject('templates', 'tmpl-1')!.raw).toBe(JSON.stringify(api.data.templates![0]));
    // Each template was read as soon as a page named it, while the automations were still walked,
    // and once only; the templates' walk, which stores them, ended after the walks that name them.
    const templateReads = api.log.filter((l) => l.startsWith('/access_review_template/'));
    expect(templateReads.sort()).toEqual([...new Set(templateReads)].sort());
    expect(api.log.findIndex((l) => l.startsWith('/access_review_template/'))).toBeLessThan(
      api.log.findLastIndex((l) => l.startsWith('/search/automations')),
    );
    const doneAt = (c: string) => events.findIndex((e) => e.collection === c && e.state === 'done');
    expect(doneAt('templates')).toBeGreaterThan(Math.max(doneAt('automations'), doneAt('campaigns')));
    expect(events[0]).toMatchObject({ phase: 'started', runId: summary.runId });
    expect(events.at(-1)).toMatchObject({ phase: 'finished', state: 'done' });
    expect(events.filter((e) => e.collection === 'scopes' && e.state === 'done')).toHaveLength(1);
  });

  it('stores an object listed twice in one batch as the later copy, even when that copy is the one stored before', async () => {
    api.data.scopes = scopes(1_000);
    expect((await syncTenant({ store, api, only: ['scopes'] })).status).toBe('completed');
    const before = store.getObject('scopes', 's5')!.raw;
    // Edited while the walk is on: page 2 lists s5 changed, page 3 lists it again as it was stored
    // (in the places of s150 and s250, which are gone).
    const edited = { ...api.data.scopes[5]!, displayName: 'Renamed' };
    api.data.scopes = [...scopes(150), edited, ...scopes(99, 151), api.data.scopes[5]!, ...scopes(748, 252)];
    // The first page's commit waits until the pages after it have arrived: they are stored together.
    const { writer, letGo, commits } = heldPageWriter();
    const asked = () => api.log.filter((l) => l.startsWith('/search/xaa/scopes')).length;
    const askedBefore = asked();
    const sync = syncTenant({
      store: { sync: store.sync, startPageWriter: () => Promise.resolve(writer) },
      api,
      only: ['scopes'],
      pageThread: true,
    });
    for (let waited = 0; asked() - askedBefore < 1 + READ_AHEAD && waited < 200; waited += 1) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 50));
    letGo();
    const summary = await sync;
    expect(summary.status, summary.collections[0]!.error).toBe('completed');
    expect(commits).toEqual([['e1:100'], Array.from({ length: READ_AHEAD }, (_, i) => `e1:${(i + 2) * 100}`), ['']]);
    expect(store.getObject('scopes', 's5')!.raw).toBe(before);
    expect(store.listObjects('scopes').total).toBe(997);
  });

  it('reads the next page while storing the current one', async () => {
    const order: string[] = [];
    const commit = store.sync.commitPages.bind(store.sync);
    store.sync.commitPages = (...args) => {
      order.push(`commit ${args[1]} ${args[3].map((p) => p.next || 'end').join(' ')}`);
      return commit(...args);
    };
    const request = api.request.bind(api);
    api.request = (req) => {
      if (req.path === '/search/xaa/scopes') order.push(`fetch ${(req.body as { pageToken?: string }).pageToken ?? 'first'}`);
      return request(req);
    };
    await syncTenant({ store, api, only: ['scopes'] });
    // The next page was asked for before the first was stored; every page was stored, in order.
    expect(order.indexOf('fetch e1:100')).toBeLessThan(order.indexOf('commit scopes e1:100'));
    expect(order.filter((o) => o.startsWith('fetch'))).toEqual(['fetch first', 'fetch e1:100', 'fetch e1:200']);
    expect(order.filter((o) => o.startsWith('commit')).flatMap((o) => o.split(' ').slice(2))).toEqual(['e1:100', 'e1:200', 'end']);
  });

  it('reads on while earlier pages wait to be stored, up to READ_AHEAD pages ahead of them, and stores those together', async () => {
    api.data.scopes = scopes(2_000);
    const asked = () => api.log.filter((l) => l.startsWith('/search/xaa/scopes')).length;
    // Pages commit on a writer that holds the first page until it is let go.
    const { writer, letGo, commits } = heldPageWriter();
    let runId = 0;
    const sync = syncTenant({
      store: { sync: store.sync, startPageWriter: () => Promise.resolve(writer) },
      api,
      only: ['scopes'],
      pageThread: true,
      onProgress: (event) => (runId = event.runId ?? runId),
    });
    // The first page was taken and waits; its cursor reads READ_AHEAD more, and no further.
    for (let waited = 0; asked() < 1 + READ_AHEAD && waited < 200; waited += 1) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 50));
    expect(asked()).toBe(1 + READ_AHEAD);
    expect(commits).toEqual([]);
    // Nothing read ahead is in the stored checkpoint: a walk stopped now would resume after what was stored.
    expect(store.sync.walk(runId, 'scopes')).toMatchObject({ checkpoint: '', pages: 0 });
    letGo();
    const summary = await sync;
    expect(summary.status).toBe('completed');
    expect(asked()).toBe(20);
    // The first page alone, then the READ_AHEAD pages read while it waited, in one transaction; then on in order.
    const checkpoints = commits.map((pages) => pages.at(-1));
    expect(checkpoints.slice(0, 2)).toEqual(['e1:100', `e1:${(1 + READ_AHEAD) * 100}`]);
    expect(checkpoints.at(-1)).toBe('');
    const positions = checkpoints.map((c) => (c === '' ? 2_000 : Number(c!.slice(3))));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(store.sync.walk(runId, 'scopes')).toMatchObject({ pages: 20, fetched: 2_000 });
    expect(ids('scopes')).toHaveLength(2_000);
  });

  it('stops a collection at a bad page, keeps the others, and resumes from the checkpoint', async () => {
    api.text = (path, json) => (path === '/search/xaa/scopes' && json.includes('"s200"') ? json.slice(0, json.length / 2) : json);
    const first = await syncTenant({ store, api });
    expect(first.status).toBe('failed');
    const scopesSummary = first.collections.find((c) => c.collection === 'scopes')!;
    expect(scopesSummary).toMatchObject({ complete: false, pages: 2, fetched: 200, errorKind: 'bad_response' });
    expect(scopesSummary.error).toMatch(/^scopes: .*not JSON/);
    expect(first.collections.filter((c) => c.collection !== 'scopes').every((c) => c.complete)).toBe(true);
    expect(store.countObjects('scopes')).toBe(200); // nothing of the bad page

    api.text = (_p, json) => json;
    api.data.scopes = scopes(240); // s240..s249 went away meanwhile
    api.log = [];
    const second = await syncTenant({ store, api });
    expect(second).toMatchObject({ runId: first.runId, resumed: true, status: 'completed' });
    expect(api.log.filter((l) => l.startsWith('/search/xaa/scopes'))).toEqual(['/search/xaa/scopes e1:200']);
    expect(second.collections.find((c) => c.collection === 'scopes')).toMatchObject({
      resumed: true,
      pages: 1,
      fetched: 40,
      complete: true,
    });
    // Completed walks of the run are not walked again.
    expect(api.log.some((l) => l.startsWith('/search/automations'))).toBe(false);
    expect(store.countObjects('scopes')).toBe(240);
    expect(store.runs()).toHaveLength(1);
  });

  it('starts a walk over when the tenant refuses its checkpoint', async () => {
    api.fail = (req, token) =>
      req.path === '/search/xaa/scopes' && token === 'e1:200' ? new ApiError('server', 'boom', { status: 503 }) : null;
    await syncTenant({ store, api, only: ['scopes'] });
    api.fail = null;
    api.epoch = 'e2'; // the tenant restarted: e1 tokens are unknown to it
    api.data.scopes = scopes(250).filter((s) => s.id !== 's5');
    api.log = [];
    const summary = await syncTenant({ store, api, only: ['scopes'] });
    expect(summary.status).toBe('completed');
    expect(summary.collections[0]).toMatchObject({ restarts: 1, pages: 3, fetched: 249, deleted: 1 });
    expect(api.log).toEqual(['/search/xaa/scopes e1:200', '/search/xaa/scopes', '/search/xaa/scopes e2:100', '/search/xaa/scopes e2:200']);
    // s5 was stored by the first walk of this same run, never by a completed one: no trace remains.
    expect(store.getObject('scopes', 's5')).toBeNull();
    expect(store.countObjects('scopes')).toBe(249);
  });

  it('deletes only at the end of a completed walk', async () => {
    await syncTenant({ store, api, only: ['scopes'] });
    api.data.scopes = scopes(150, 100); // s0..s99 gone, s150..s249 are new
    api.fail = (req, token) => (token === 'e1:100' ? new ApiError('network', 'offline') : null);
    const failed = await syncTenant({ store, api, only: ['scopes'] });
    expect(failed.collections[0]).toMatchObject({ complete: false, deleted: 0, errorKind: 'network' });
    expect(store.countObjects('scopes')).toBe(250);
    api.fail = null;
    const done = await syncTenant({ store, api, only: ['scopes'] });
    expect(done.collections[0]).toMatchObject({ complete: true, deleted: 100 });
    expect(ids('scopes')).toHaveLength(150);
    expect(store.diff(1, 2).filter((d) => d.change === 'removed')).toHaveLength(100);
  });

  it('stores templates only once the walks that name them completed', async () => {
    api.fail = (req) => (req.path === '/search/automations' ? new ApiError('server', 'HTTP 503', { status: 503 }) : null);
    const first = await syncTenant({ store, api });
    expect(first.collections.find((c) => c.collection === 'templates')).toMatchObject({
      complete: false,
      errorKind: 'blocked',
      fetched: 0,
    });
    // What the campaigns named may have been read early, but nothing of it is stored.
    expect(ids('templates')).toEqual([]);
    api.fail = null;
    const second = await syncTenant({ store, api });
    expect(second).toMatchObject({ runId: first.runId, status: 'completed' });
    expect(ids('templates')).toEqual(['tmpl-1', 'tmpl-auto']);
  });

  it('cancels at a page boundary and leaves the run resumable', async () => {
    const controller = new AbortController();
    let pages = 0;
    const events: SyncProgress[] = [];
    const summary = await syncTenant({
      store,
      api,
      only: ['scopes'],
      signal: controller.signal,
      onProgress: (e) => {
        events.push(e);
        if (e.collection === 'scopes' && e.state === 'running' && e.pages > 0 && ++pages === 1) controller.abort();
      },
    });
    expect(summary.status).toBe('cancelled');
    expect(summary.collections[0]).toMatchObject({ complete: false, error: 'cancelled', errorKind: 'cancelled', pages: 1 });
    expect(events.at(-1)).toMatchObject({ phase: 'finished', state: 'cancelled' });
    expect(store.countObjects('scopes')).toBe(100);
    const resumed = await syncTenant({ store, api, only: ['scopes'] });
    expect(resumed).toMatchObject({ runId: summary.runId, resumed: true, status: 'completed' });
    expect(resumed.collections[0]).toMatchObject({ pages: 2, fetched: 150 });
    expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('walks a split collection as its parts at once, each resumed from its own position', async () => {
    api.data.automations = Array.from({ length: 65 }, (_, i) => ({
      id: `a${i}`,
      displayName: `Automation ${i}`,
      ...(i % 5 === 0 ? { isDraft: true } : i % 2 === 1 ? { enabled: true } : {}),
    }));
    // 13 drafts, 26 on, 26 off: 2, 3 and 3 pages. The on walk stops at its third page.
    const asked = (req: ApiRequest) => {
      const body = req.body as { isDraft?: boolean; statuses?: string[]; pageToken?: string };
      const part = body.isDraft ? 'drafts' : body.statuses?.includes('AUTOMATION_STATUS_FILTER_ON') ? 'on' : 'off';
      return `${part} ${body.pageToken ?? ''}`.trim();
    };
    api.fail = (req) => (req.path === '/search/automations' && asked(req) === 'on e1:20' ? new ApiError('network', 'offline') : null);
    const first = await syncTenant({ store, api, only: ['automations'] });
    expect(first.collections[0]).toMatchObject({ complete: false, errorKind: 'network' });
    const walk = store.db.prepare("SELECT checkpoint FROM sync_run_collections WHERE collection = 'automations'").pluck().get() as string;
    // Each part's position: the drafts ended; on and off each at a page they had not stored.
    const positions = JSON.parse(walk) as Record<string, string | null>;
    expect(positions.drafts).toBeNull();
    expect(positions.on).toBe('e1:20');
    expect(['e1:10', 'e1:20', null]).toContain(positions.off);
    const stored = store.countObjects('automations');

    api.fail = null;
    const requests: string[] = [];
    const request = api.request.bind(api);
    api.request = (req) => {
      if (req.path === '/search/automations') requests.push(asked(req));
      return request(req);
    };
    const second = await syncTenant({ store, api, only: ['automations'] });
    expect(second).toMatchObject({ runId: first.runId, resumed: true, status: 'completed' });
    // Only what was not stored is asked again: nothing of the drafts, the on walk from its third page.
    expect(requests.filter((r) => r.startsWith('drafts'))).toEqual([]);
    expect(requests.filter((r) => r.startsWith('on'))).toEqual(['on e1:20']);
    expect(requests.filter((r) => r.startsWith('off'))).toEqual(positions.off === null ? [] : [`off ${positions.off}`]);
    expect(second.collections[0]!.fetched).toBe(65 - stored);
    expect(ids('automations')).toEqual(api.data.automations.map((a) => (a as { id: string }).id).sort());
  });

  it('reads by id what no part of a split walk returned, and deletes only what is gone', async () => {
    await syncTenant({ store, api, only: ['automations'] });
    // a2 moved between filters while the parts were walked (no part shows it); a4 is gone.
    api.hiddenFromSearch.add('a2');
    api.data.automations = api.data.automations!.filter((a) => (a as { id: string }).id !== 'a4');
    api.log = [];
    const summary = await syncTenant({ store, api, only: ['automations'] });
    expect(summary.collections[0]).toMatchObject({ complete: true, deleted: 1 });
    expect(api.log.filter((l) => l.startsWith('/automations/')).sort()).toEqual(['/automations/a2', '/automations/a4']);
    expect(store.getObject('automations', 'a2')).toMatchObject({ deleted: false });
    expect(store.getObject('automations', 'a4')).toMatchObject({ deleted: true });
    expect(store.countObjects('automations')).toBe(24);
  });
});
