/**
 * The objects admins act on, over real HTTP: apps, entitlements, app users, grants and the members
 * of an entitlement, each answer checked against the vendor's schemas; paging to the end, filters
 * and errors; consistency with removals, escalations and the toolset lookup; unset timestamps in
 * both forms; the same bytes for the same seed.
 */
import { describe, expect, it } from 'vitest';
import type { Task } from '../../src/shared/api-types';
import { membershipId, type Entitlement, type EntitlementKind } from '../../src/tenant/dataset';
import { isManagedKind, omitsUnset, RESOURCE_TYPE_NAMES, resourceTypeId } from '../../src/tenant/views';
import { assertResponse, assertStatus, startTestTenant, type TestTenant, useTenant } from '../helpers/tenant';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const tenant = useTenant({ seed: 21 });

const SEARCH_APPS = '/api/v1/search/apps';
const SEARCH_ENTITLEMENTS = '/api/v1/search/entitlements';
const SEARCH_APP_USERS = '/api/v1/search/app_users';
const SEARCH_GRANTS = '/api/v1/search/grants';
const MEMBERS = '/api/v1/apps/{app_id}/entitlements/{app_entitlement_id}/users';

/**
 * Every page of a POST search (or a GET list when `get`), each answer validated; returns the rows
 * and the answers.
 */
async function walk(t: TestTenant, template: string, body: Json = {}, get?: string): Promise<{ rows: Json[]; pages: Json[] }> {
  const rows: Json[] = [];
  const pages: Json[] = [];
  let pageToken = '';
  for (let i = 0; i < 1000; i += 1) {
    const r = get
      ? await t.call<Json>('GET', `${get}?page_size=${body.pageSize ?? 25}&page_token=${encodeURIComponent(pageToken)}`)
      : await t.call<Json>('POST', template, { ...body, pageToken });
    expect(r.status, r.text).toBe(200);
    assertResponse(get ? 'GET' : 'POST', template, r.body);
    rows.push(...(r.body.list ?? []));
    pages.push(r.body);
    pageToken = r.body.nextPageToken;
    if (!pageToken) return { rows, pages };
  }
  throw new Error('the walk did not end');
}

async function expectError(call: Promise<{ status: number; body: unknown }>, status: number, code: number, message?: RegExp) {
  const r = await call;
  expect(r.status).toBe(status);
  assertStatus(r.body, code);
  if (message) expect((r.body as { message: string }).message).toMatch(message);
}

const membersPath = (e: { appId: string; id: string }) => `/api/v1/apps/${e.appId}/entitlements/${e.id}/users`;
const entitlementsOf = (t: TestTenant, kind: EntitlementKind) => [...t.data.entitlements.values()].filter((e) => e.kind === kind);
const membersOf = (t: TestTenant, e: Entitlement) => [...t.data.memberships.values()].filter((m) => m.appEntitlementId === e.id);

describe('apps', () => {
  it('search pages to the end in insertion order, GET by id agrees, and the filters apply', async () => {
    const t = tenant();
    const { rows, pages } = await walk(t, SEARCH_APPS, { pageSize: 3 });
    // pageSize below 10 is raised to 10: the demo's 8 apps come in one page.
    expect(pages).toHaveLength(1);
    expect(rows.map((a) => a.id)).toEqual([...t.data.apps.keys()]);
    for (const app of rows) {
      const one = await t.call<Json>('GET', `/api/v1/apps/${app.id}`);
      expect(one.status).toBe(200);
      assertResponse('GET', '/api/v1/apps/{id}', one.body);
      expect(one.body.app).toEqual(app);
      expect(Number(app.userCount)).toBe([...t.data.appUsers.values()].filter((u) => u.appId === app.id).length);
    }
    const [first, second] = rows as [Json, Json];
    const ids = async (body: Json) => (await walk(t, SEARCH_APPS, body)).rows.map((a) => a.id);
    expect(await ids({ appIds: [second.id] })).toEqual([second.id]);
    expect(await ids({ excludeAppIds: [first.id] })).toEqual(rows.slice(1).map((a) => a.id));
    expect(await ids({ query: second.displayName.slice(1, 4).toUpperCase() })).toContain(second.id);
    expect(await ids({ displayName: second.displayName.toLowerCase() })).toEqual([second.id]);
    expect(await ids({ onlyDirectories: true })).toEqual([]);
    expect(await ids({ policyRefs: [{ id: first.grantPolicyId }] })).toContain(first.id);
  });

  it('errors: unknown app -> 404; bad filter types -> 400 naming the field', async () => {
    const t = tenant();
    await expectError(t.call('GET', '/api/v1/apps/nope'), 404, 5, /app 'nope' not found/);
    await expectError(t.call('POST', SEARCH_APPS, { appIds: 'x' }), 400, 3, /appIds/);
    await expectError(t.call('POST', SEARCH_APPS, { policyRefs: [{ id: 3 }] }), 400, 3, /policyRefs\[0\]\.id/);
    await expectError(t.call('POST', SEARCH_APPS, { pageToken: 'forged.token' }), 400, 3, /pageToken/);
    await expectError(t.call('DELETE', SEARCH_APPS), 405, 12);
  });
});

describe('entitlements', () => {
  it('search pages to the end; each kind carries its type, purpose and whether the service manages its memberships', async () => {
    const t = tenant();
    const { rows, pages } = await walk(t, SEARCH_ENTITLEMENTS, { pageSize: 10, expandMask: { paths: ['app_resource_type_id'] } });
    expect(pages.length).toBe(Math.ceil(t.data.entitlements.size / 10));
    expect(rows.map((v) => v.appEntitlement.id)).toEqual([...t.data.entitlements.keys()]);
    const seen = new Set<string>();
    for (const [i, view] of rows.entries()) {
      const e = view.appEntitlement;
      const internal = t.data.entitlements.get(e.id)!;
      const page = pages[Math.floor(i / 10)]!;
      const type = page.expanded[Number(/^expanded\[(\d+)]$/.exec(view.appResourceTypePath)![1])];
      expect(type['@type']).toBe('type.googleapis.com/c1.api.app.v1.AppResourceType');
      expect(type.displayName).toBe(RESOURCE_TYPE_NAMES[internal.kind]);
      expect(type.id).toBe(e.appResourceTypeId);
      const synced = Object.keys(e.sourceConnectorIds).length > 0;
      // The rule a client applies: assignments not synced from a connector are managed by the service.
      const managed = e.purpose === 'APP_ENTITLEMENT_PURPOSE_VALUE_ASSIGNMENT' && !synced;
      expect(managed, internal.kind).toBe(isManagedKind(internal.kind));
      expect(synced).toBe(internal.kind === 'role' || internal.kind === 'permission');
      expect(Number(e.grantCount)).toBe(membersOf(t, internal).length);
      seen.add(type.displayName);
    }
    expect([...seen].sort()).toEqual(Object.values(RESOURCE_TYPE_NAMES).sort());
  });

  it('GET by id agrees with the search; expand * adds the app and the resource type once each', async () => {
    const t = tenant();
    const e = entitlementsOf(t, 'group')[0]!;
    const one = await t.call<Json>('GET', `/api/v1/apps/${e.appId}/entitlements/${e.id}`);
    expect(one.status).toBe(200);
    assertResponse('GET', '/api/v1/apps/{app_id}/entitlements/{id}', one.body);
    const found = await walk(t, SEARCH_ENTITLEMENTS, { refs: [{ appId: e.appId, id: e.id }] });
    expect(found.rows).toEqual([one.body.appEntitlementView]);
    const sameApp = await walk(t, SEARCH_ENTITLEMENTS, { appIds: [e.appId], pageSize: 100, expandMask: { paths: ['*'] } });
    const page = sameApp.pages[0]!;
    expect(page.list.every((v: Json) => v.appPath === 'expanded[0]')).toBe(true);
    expect(page.expanded[0]).toMatchObject({ '@type': 'type.googleapis.com/c1.api.app.v1.App', id: e.appId });
    const types = page.expanded.filter((x: Json) => x['@type'].endsWith('AppResourceType'));
    expect(types.length).toBe(new Set(page.list.map((v: Json) => v.appEntitlement.appResourceTypeId)).size);
  });

  it('filters: apps, app users who hold them, refs, resource types, source connector, text', async () => {
    const t = tenant();
    const ids = async (body: Json) => (await walk(t, SEARCH_ENTITLEMENTS, { pageSize: 100, ...body })).rows.map((v) => v.appEntitlement.id);
    const m = [...t.data.memberships.values()][10]!;
    const held = [...t.data.memberships.values()].filter((x) => x.appUserId === m.appUserId).map((x) => x.appEntitlementId);
    expect((await ids({ appUserIds: [m.appUserId] })).sort()).toEqual(held.sort());
    expect(await ids({ excludeAppUserIds: [m.appUserId] })).not.toContain(m.appEntitlementId);
    const role = entitlementsOf(t, 'role')[0]!;
    const app = t.data.apps.get(role.appId)!;
    expect(await ids({ sourceConnectorId: app.connectorIds[0] })).toContain(role.id);
    const typeId = resourceTypeId(t.data.seed, role.appId, 'role');
    expect((await ids({ resourceTypeIds: [typeId] })).sort()).toEqual(
      entitlementsOf(t, 'role')
        .filter((e) => e.appId === role.appId)
        .map((e) => e.id)
        .sort(),
    );
    expect(await ids({ excludedEntitlementRefs: [{ appId: role.appId, id: role.id }] })).not.toContain(role.id);
    expect(await ids({ query: role.displayName.toUpperCase(), appIds: [role.appId] })).toContain(role.id);
    expect(await ids({ alias: 'anything' })).toEqual([]);
  });

  it('errors: unknown app or entitlement, an entitlement of another app -> 404; bad refs, bad expand path -> 400', async () => {
    const t = tenant();
    const e = entitlementsOf(t, 'role')[0]!;
    const other = [...t.data.apps.keys()].find((id) => id !== e.appId)!;
    await expectError(t.call('GET', `/api/v1/apps/${other}/entitlements/${e.id}`), 404, 5, /not found in app/);
    await expectError(t.call('GET', `/api/v1/apps/nope/entitlements/${e.id}`), 404, 5);
    await expectError(t.call('GET', `/api/v1/apps/${e.appId}/entitlements/nope`), 404, 5);
    await expectError(t.call('POST', SEARCH_ENTITLEMENTS, { refs: [{ appId: e.appId }] }), 400, 3, /refs\[0\]\.id/);
    await expectError(t.call('POST', SEARCH_ENTITLEMENTS, { expandMask: { paths: ['owners'] } }), 400, 3, /expandMask\.paths\[0\]/);
  });
});

describe('app users', () => {
  it('search pages to the end by display name (or by app), and filters by app, type, status, identity user', async () => {
    const t = tenant();
    const { rows } = await walk(t, SEARCH_APP_USERS, { pageSize: 30 });
    expect(rows.map((v) => v.appUser.id).sort()).toEqual([...t.data.appUsers.keys()].sort());
    const names = rows.map((v) => v.appUser.displayName.toLowerCase());
    expect(names).toEqual([...names].sort());
    const byApp = (await walk(t, SEARCH_APP_USERS, { pageSize: 30, sortBy: 'APP_USER_SEARCH_SORT_BY_APP' })).rows.map(
      (v) => v.appUser.appId,
    );
    expect(byApp).toEqual([...byApp].sort());
    const u = [...t.data.appUsers.values()].find((x) => x.userType !== 'APP_USER_TYPE_USER')!;
    const ids = async (body: Json) => (await walk(t, SEARCH_APP_USERS, { pageSize: 100, ...body })).rows.map((v) => v.appUser.id);
    expect(await ids({ appId: u.appId })).toEqual(expect.arrayContaining([u.id]));
    expect((await ids({ appIds: [u.appId] })).length).toBe([...t.data.appUsers.values()].filter((x) => x.appId === u.appId).length);
    expect(await ids({ appUserTypes: [u.userType] })).toContain(u.id);
    expect(await ids({ appUserTypes: ['APP_USER_TYPE_USER'] })).not.toContain(u.id);
    expect(await ids({ userIds: [u.identityUserId] })).toContain(u.id);
    const disabled = [...t.data.appUsers.values()].filter((x) => x.status === 'APP_USER_STATUS_DISABLED').map((x) => x.id);
    expect((await ids({ appUserStatuses: ['STATUS_DISABLED'] })).sort()).toEqual(disabled.sort());
    expect(await ids({ refs: [{ id: u.id }] })).toEqual([u.id]);
    const expanded = await t.call<Json>('POST', SEARCH_APP_USERS, { refs: [{ id: u.id }], expandMask: { paths: ['app_id'] } });
    expect(expanded.body.expanded[0]).toMatchObject({ '@type': 'type.googleapis.com/c1.api.app.v1.App', id: u.appId });
    await expectError(t.call('POST', SEARCH_APP_USERS, { appUserStatuses: ['ENABLED'] }), 400, 3, /appUserStatuses\[0\]/);
    await expectError(t.call('POST', SEARCH_APP_USERS, { sortBy: 'NAME' }), 400, 3, /sortBy/);
  });
});

describe('grants and the members of an entitlement', () => {
  it('the grants search pages to the end over every membership: who, which entitlement, since when, how', async () => {
    const t = tenant();
    const { rows } = await walk(t, SEARCH_GRANTS, { pageSize: 100 });
    expect(rows.length).toBe(t.data.memberships.size);
    for (const row of rows) {
      const b = row.appEntitlementUserBinding;
      const m = t.data.memberships.get(membershipId(b.appEntitlementId, b.appUserId))!;
      expect(m).toBeDefined();
      expect(b.appId).toBe(m.appId);
      expect(row.entitlement.appEntitlement.id).toBe(m.appEntitlementId);
      expect(b.appEntitlementUserBindingCreatedAt).toBe(m.createdAt);
      expect(b.appUser.appUser.id).toBe(m.appUserId);
      expect(b.grantSources.map((s: Json) => s.id)).toEqual(m.grantSourceIds ?? []);
      if (m.deprovisionAt) expect(b.appEntitlementUserBindingDeprovisionAt).toBe(m.deprovisionAt);
    }
    expect(rows.some((r) => r.appEntitlementUserBinding.grantSources.length > 0)).toBe(true);
    expect(rows.some((r) => r.appEntitlementUserBinding.appEntitlementUserBindingDeprovisionAt)).toBe(true);
  });

  it('grants filters: app users, entitlement refs, purpose, slugs, identity user, resource types', async () => {
    const t = tenant();
    const keys = async (body: Json) =>
      (await walk(t, SEARCH_GRANTS, { pageSize: 100, ...body })).rows
        .map((r) => membershipId(r.appEntitlementUserBinding.appEntitlementId, r.appEntitlementUserBinding.appUserId))
        .sort();
    const all = [...t.data.memberships.values()];
    const m = all[20]!;
    const expected = (pick: (x: (typeof all)[number]) => boolean) =>
      all
        .filter(pick)
        .map((x) => x.id)
        .sort();
    expect(await keys({ appUserIds: [m.appUserId] })).toEqual(expected((x) => x.appUserId === m.appUserId));
    expect(await keys({ entitlementRefs: [{ appId: m.appId, id: m.appEntitlementId }] })).toEqual(
      expected((x) => x.appEntitlementId === m.appEntitlementId),
    );
    const kindOf = (x: (typeof all)[number]) => t.data.entitlements.get(x.appEntitlementId)!.kind;
    expect(await keys({ purpose: ['APP_ENTITLEMENT_PURPOSE_VALUE_PERMISSION'] })).toEqual(expected((x) => kindOf(x) === 'permission'));
    const identity = t.data.appUsers.get(m.appUserId)!.identityUserId;
    expect(await keys({ userId: identity })).toEqual(expected((x) => t.data.appUsers.get(x.appUserId)!.identityUserId === identity));
    const slug = t.data.entitlements.get(m.appEntitlementId)!.slug;
    expect(await keys({ entitlementSlugs: [slug] })).toEqual(expected((x) => t.data.entitlements.get(x.appEntitlementId)!.slug === slug));
    const typeId = resourceTypeId(t.data.seed, m.appId, kindOf(m));
    expect(await keys({ resourceTypeIds: [typeId] })).toEqual(expected((x) => x.appId === m.appId && kindOf(x) === kindOf(m)));
    await expectError(t.call('POST', SEARCH_GRANTS, { purpose: ['ASSIGNMENT'] }), 400, 3, /purpose\[0\]/);
    await expectError(t.call('POST', SEARCH_GRANTS, { entitlementRefs: 'x' }), 400, 3, /entitlementRefs/);
  });

  it('the members list pages to the end (GET page_size/page_token) and a token is bound to its entitlement', async () => {
    const t = tenant();
    const e = [...t.data.entitlements.values()].sort((a, b) => membersOf(t, b).length - membersOf(t, a).length)[0]!;
    expect(membersOf(t, e).length).toBeGreaterThan(10);
    const { rows, pages } = await walk(t, MEMBERS, { pageSize: 10 }, membersPath(e));
    expect(pages.length).toBe(Math.ceil(membersOf(t, e).length / 10));
    expect(rows.map((r) => r.appUserId)).toEqual(membersOf(t, e).map((m) => m.appUserId));
    const other = [...t.data.entitlements.values()].find((x) => x.id !== e.id && membersOf(t, x).length > 0)!;
    const token = encodeURIComponent(pages[0]!.nextPageToken);
    await expectError(t.call('GET', `${membersPath(other)}?page_token=${token}`), 400, 3, /another listing/);
    await expectError(t.call('GET', `${membersPath({ appId: e.appId, id: 'nope' })}`), 404, 5);
    await expectError(t.call('GET', `${membersPath(e)}?page_size=ten`), 400, 3, /page_size/);
  });

  it('an empty-pages fault does not change what a walk returns', async () => {
    const t = await startTestTenant({ seed: 21 });
    try {
      const clean = (await walk(t, SEARCH_GRANTS, { pageSize: 50 })).rows;
      t.faults.set('emptyPages=0.5');
      const faulty = (await walk(t, SEARCH_GRANTS, { pageSize: 50 })).rows;
      expect(faulty).toEqual(clean);
    } finally {
      await t.close();
    }
  });
});

describe('consistency with what the tenant changes', () => {
  it('removing an access-profile membership removes it everywhere, and its revokeTaskId is a task the tenant serves', async () => {
    const t = await startTestTenant({ seed: 22 });
    try {
      const e = entitlementsOf(t, 'catalog').find((x) => membersOf(t, x).length > 1)!;
      const m = membersOf(t, e)[0]!;
      const before = (await walk(t, MEMBERS, { pageSize: 100 }, membersPath(e))).rows.length;
      const removed = await t.call<{ revokeTaskId: string }>('DELETE', `${membersPath(e).replace(/users$/, 'remove-membership')}`, {
        appUserId: m.appUserId,
      });
      expect(removed.status).toBe(200);
      const taskId = removed.body.revokeTaskId;
      expect(taskId).toMatch(/^[0-9A-Za-z]{27}$/);
      const members = (await walk(t, MEMBERS, { pageSize: 100 }, membersPath(e))).rows;
      expect(members.length).toBe(before - 1);
      expect(members.map((r) => r.appUserId)).not.toContain(m.appUserId);
      const grants = (await walk(t, SEARCH_GRANTS, { appUserIds: [m.appUserId], pageSize: 100 })).rows;
      expect(grants.map((r) => r.appEntitlementUserBinding.appEntitlementId)).not.toContain(e.id);
      const view = (await t.call<Json>('GET', `/api/v1/apps/${e.appId}/entitlements/${e.id}`)).body.appEntitlementView;
      expect(Number(view.appEntitlement.grantCount)).toBe(before - 1);

      const task = await t.call<Json>('GET', `/api/v1/tasks/${taskId}`);
      expect(task.status).toBe(200);
      assertResponse('GET', '/api/v1/tasks/{id}', task.body);
      expect(task.body.taskView.task.type.revoke).toMatchObject({ appId: e.appId, appEntitlementId: e.id, appUserId: m.appUserId });
      const searched = await walk(t, '/api/v1/search/tasks', { refs: [{ id: taskId }] });
      expect(searched.rows.map((v) => v.task.id)).toEqual([taskId]);
      // A second removal of the same membership: it is gone.
      await expectError(
        t.call('DELETE', `${membersPath(e).replace(/users$/, 'remove-membership')}`, { appUserId: m.appUserId }),
        404,
        5,
        /not a member/,
      );
    } finally {
      await t.close();
    }
  });

  it('a group membership is removed without a task; a connector role refuses with 400 and keeps its members', async () => {
    const t = await startTestTenant({ seed: 23 });
    try {
      const group = entitlementsOf(t, 'group').find((x) => membersOf(t, x).length > 0)!;
      const gm = membersOf(t, group)[0]!;
      const removePath = (e: Entitlement) => `/api/v1/apps/${e.appId}/entitlements/${e.id}/remove-membership`;
      const ok = await t.call<{ revokeTaskId: string }>('DELETE', removePath(group), { appUserId: gm.appUserId });
      expect(ok.body).toEqual({ revokeTaskId: '' });
      expect((await walk(t, MEMBERS, { pageSize: 100 }, membersPath(group))).rows.map((r) => r.appUserId)).not.toContain(gm.appUserId);
      for (const kind of ['role', 'permission'] as const) {
        const e = entitlementsOf(t, kind).find((x) => membersOf(t, x).length > 0)!;
        const before = (await walk(t, MEMBERS, { pageSize: 100 }, membersPath(e))).rows;
        await expectError(t.call('DELETE', removePath(e), { appUserId: membersOf(t, e)[0]!.appUserId }), 400, 9, /synced from a connector/);
        expect((await walk(t, MEMBERS, { pageSize: 100 }, membersPath(e))).rows).toEqual(before);
      }
    } finally {
      await t.close();
    }
  });

  it('an escalation changes the task the tenant then serves: emergencyAccess, the current step, the actions', async () => {
    const t = await startTestTenant({ seed: 24 });
    try {
      const task = [...t.data.tasks.values()].find((x) => x.type?.grant && x.state === 'TASK_STATE_OPEN' && !x.emergencyAccess)!;
      const stepId = task.policy!.current!.id;
      const r = await t.call<Json>('POST', `/api/v1/tasks/${task.id}/action/escalate`, { comment: 'urgent', policyStepId: stepId });
      expect(r.status).toBe(200);
      const served = (await t.call<{ taskView: { task: Task } }>('GET', `/api/v1/tasks/${task.id}`)).body.taskView.task;
      expect(served.emergencyAccess).toBe(true);
      expect(served.policy?.current?.id).toBe(stepId);
      expect(served.policy?.current?.approval?.escalationInstance).toMatchObject({ alreadyEscalated: true, escalationComment: 'urgent' });
      expect(served.actions).not.toContain('TASK_ACTION_TYPE_ESCALATE_TO_EMERGENCY_ACCESS');
      const emergency = await walk(t, '/api/v1/search/tasks', { emergencyStatus: 'EMERGENCY', pageSize: 100 });
      expect(emergency.rows.map((v) => v.task.id)).toContain(task.id);
    } finally {
      await t.close();
    }
  });

  it('the toolset lookup agrees with the entitlements served', async () => {
    const t = tenant();
    const entitlements = (await walk(t, SEARCH_ENTITLEMENTS, { pageSize: 100 })).rows.map((v) => v.appEntitlement);
    const byId = new Map(entitlements.map((e) => [e.id, e]));
    const linked = new Set<string>();
    for (const profile of t.data.toolsets.values()) {
      const e = byId.get(profile.appEntitlementId!);
      expect(e, profile.appEntitlementId).toBeDefined();
      expect(e.appId).toBe(profile.appId);
      expect(Object.keys(e.sourceConnectorIds)).toHaveLength(1);
      const r = await t.call<Json>('GET', `/api/v1/apps/${e.appId}/mcp_toolsets/by_app_entitlement_id/${e.id}`);
      expect(r.status).toBe(200);
      expect(r.body.profile.id).toBe(profile.id);
      linked.add(e.id);
    }
    const unlinked = entitlements.find((e) => !linked.has(e.id))!;
    await expectError(t.call('GET', `/api/v1/apps/${unlinked.appId}/mcp_toolsets/by_app_entitlement_id/${unlinked.id}`), 404, 5);
  });
});

describe('unset timestamps and determinism', () => {
  /** Everything the five collections serve, walked to the end. */
  async function everything(t: TestTenant) {
    return {
      apps: (await walk(t, SEARCH_APPS, { pageSize: 100 })).rows,
      entitlements: (await walk(t, SEARCH_ENTITLEMENTS, { pageSize: 100 })).rows,
      appUsers: (await walk(t, SEARCH_APP_USERS, { pageSize: 100 })).rows,
      grants: (await walk(t, SEARCH_GRANTS, { pageSize: 100 })).rows,
      tasks: (await walk(t, '/api/v1/search/tasks', { pageSize: 100 })).rows,
    };
  }

  it('a seeded share of objects omits its unset timestamps, the others send null; same seed, same bytes', async () => {
    const [a, b, c] = await Promise.all([startTestTenant({ seed: 31 }), startTestTenant({ seed: 31 }), startTestTenant({ seed: 32 })]);
    try {
      const first = await everything(a);
      expect(JSON.stringify(await everything(b))).toBe(JSON.stringify(first));
      expect(JSON.stringify(await everything(c))).not.toBe(JSON.stringify(first));
      const forms: [string, Json[], (x: Json) => Json, string][] = [
        ['apps', first.apps, (x) => x, 'deletedAt'],
        ['entitlements', first.entitlements, (x) => x.appEntitlement, 'deletedAt'],
        ['appUsers', first.appUsers, (x) => x.appUser, 'deletedAt'],
        ['tasks', first.tasks, (x) => x.task, 'deletedAt'],
      ];
      for (const [name, rows, object, member] of forms) {
        const omitted = rows.filter((r) => !(member in object(r)));
        const nulls = rows.filter((r) => object(r)[member] === null);
        expect(omitted.length + nulls.length, name).toBe(rows.length);
        expect(omitted.length, name).toBeGreaterThan(0);
        expect(nulls.length, name).toBeGreaterThan(omitted.length);
        for (const r of omitted) expect(omitsUnset(31, object(r).id), name).toBe(true);
      }
      const bindings = first.grants.map((g) => g.appEntitlementUserBinding).filter((g) => !g.appEntitlementUserBindingDeprovisionAt);
      const absent = bindings.filter((g) => !('appEntitlementUserBindingDeprovisionAt' in g));
      expect(absent.length).toBeGreaterThan(0);
      expect(absent.length).toBeLessThan(bindings.length / 2);
      // Nested unset timestamps follow their task: an open task that omits has no null outcomeTime anywhere.
      const omittingOpen = first.tasks.find((v) => omitsUnset(31, v.task.id) && v.task.state === 'TASK_STATE_OPEN');
      expect(JSON.stringify(omittingOpen)).not.toMatch(/"(outcomeTime|deletedAt)":null/);
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });
});
