/**
 * Every /api/v1 endpoint of the reference tenant over real HTTP, with its errors; every answer is
 * checked against the vendor's OpenAPI document (google.rpc.Status for errors).
 */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import type {
  AccessReviewResponse,
  AccessReviewTemplate,
  Automation,
  CreateScopeResponse,
  McpAccessProfile,
  Scope,
  Task,
  TaskViewResponse,
} from '../../src/shared/api-types';
import type { Entitlement } from '../../src/tenant/dataset';
import { unsetForm } from '../../src/tenant/views';
import { assertResponse, assertStatus, type CallResult, useTenant } from '../helpers/tenant';

const tenant = useTenant({ seed: 21 });

function expectError(r: CallResult, httpStatus: number, code: number, message?: RegExp): void {
  expect(r.status, r.text).toBe(httpStatus);
  assertStatus(r.body, code);
  if (message) expect((r.body as { message: string }).message).toMatch(message);
}

const INVALID_ARGUMENT = 3;
const NOT_FOUND = 5;
const ALREADY_EXISTS = 6;
const FAILED_PRECONDITION = 9;

function someApp() {
  const t = tenant();
  return [...t.data.apps.values()].find((a) => a.resourceServerIds.length >= 2) ?? [...t.data.apps.values()][1]!;
}

describe('create scope: POST /api/v1/apps/{app_id}/xaa/scopes', () => {
  const path = '/api/v1/apps/{app_id}/xaa/scopes';

  it('creates a scope bound to a new entitlement; UNSPECIFIED state becomes PENDING_REVIEW', async () => {
    const t = tenant();
    const app = someApp();
    const rs = app.resourceServerIds[0]!;
    const r = await t.call<CreateScopeResponse>('POST', `/api/v1/apps/${app.id}/xaa/scopes`, {
      xaaResourceServerId: rs,
      scopeValue: 'orders:refund',
      displayName: 'Refund orders',
      description: 'Issue refunds',
      classification: 'XAA_SCOPE_CLASSIFICATION_WRITE',
      state: 'XAA_SCOPE_STATE_UNSPECIFIED',
      someFutureField: 'ignored, as the gateway discards unknown fields',
    });
    expect(r.status, r.text).toBe(200);
    assertResponse('POST', path, r.body);
    const scope = r.body.scope as Scope;
    expect(scope).toMatchObject({
      appId: app.id,
      xaaResourceServerId: rs,
      scopeValue: 'orders:refund',
      state: 'XAA_SCOPE_STATE_PENDING_REVIEW',
      source: 'XAA_SCOPE_SOURCE_ADMIN_DECLARED',
    });
    expect(scope.appEntitlementId).toBeTruthy();
    expect(t.data.entitlements.get(scope.appEntitlementId!)).toMatchObject({ kind: 'scope', scopeId: scope.id, appId: app.id });
    expect(t.data.scopes.get(scope.id!)).toEqual(scope);
    const entry = t.journal().find((e) => e.objectId === scope.id);
    expect(entry).toMatchObject({
      operation: 'createScope',
      method: 'POST',
      path: `/api/v1/apps/${app.id}/xaa/scopes`,
      clientId: t.clientId,
    });
    expect(entry?.request).toMatchObject({ scopeValue: 'orders:refund' });
  });

  it('keeps any other requested state; the same value on another resource server is fine', async () => {
    const t = tenant();
    const app = someApp();
    for (const [i, state] of [
      'XAA_SCOPE_STATE_ENABLED',
      'XAA_SCOPE_STATE_DISABLED',
      'XAA_SCOPE_STATE_REMOVED',
      'XAA_SCOPE_STATE_PENDING_REVIEW',
    ].entries()) {
      const r = await t.call<CreateScopeResponse>('POST', `/api/v1/apps/${app.id}/xaa/scopes`, {
        xaaResourceServerId: app.resourceServerIds[0],
        scopeValue: `kept:${i}`,
        state,
      });
      expect(r.status, r.text).toBe(200);
      expect(r.body.scope?.state).toBe(state);
      // No display name: the value stands in.
      expect(r.body.scope?.displayName).toBe(`kept:${i}`);
    }
    const other = await t.call('POST', `/api/v1/apps/${app.id}/xaa/scopes`, {
      xaaResourceServerId: app.resourceServerIds[1],
      scopeValue: 'orders:refund',
    });
    expect(other.status, other.text).toBe(200);
  });

  it('a duplicate scopeValue on one resource server -> 409 ALREADY_EXISTS, not journaled', async () => {
    const t = tenant();
    const app = someApp();
    const body = { xaaResourceServerId: app.resourceServerIds[0], scopeValue: 'dup:value' };
    expect((await t.call('POST', `/api/v1/apps/${app.id}/xaa/scopes`, body)).status).toBe(200);
    const before = t.journal().length;
    expectError(await t.call('POST', `/api/v1/apps/${app.id}/xaa/scopes`, body), 409, ALREADY_EXISTS, /already exists/);
    expect(t.journal()).toHaveLength(before);
    // A generated scope is a duplicate too.
    const existing = [...t.data.scopes.values()].find((s) => s.appId === app.id)!;
    expectError(
      await t.call('POST', `/api/v1/apps/${app.id}/xaa/scopes`, {
        xaaResourceServerId: existing.xaaResourceServerId,
        scopeValue: existing.scopeValue,
      }),
      409,
      ALREADY_EXISTS,
    );
    // Once that scope is gone (deleted behind the server's back), the value is free again.
    t.data.scopes.delete(existing.id!);
    expect(
      (
        await t.call('POST', `/api/v1/apps/${app.id}/xaa/scopes`, {
          xaaResourceServerId: existing.xaaResourceServerId,
          scopeValue: existing.scopeValue,
        })
      ).status,
    ).toBe(200);
  });

  it('checks scopeValue by RFC 6749 (charset, 1 to 256 bytes) -> 400 INVALID_ARGUMENT naming the field', async () => {
    const t = tenant();
    const app = someApp();
    const rs = app.resourceServerIds[0];
    const bad: [unknown, RegExp][] = [
      ['has space', /space/],
      ['quote"d', /'"'/],
      ['back\\slash', /U\+005C/],
      ['café', /U\+00E9/],
      ['', /required|empty/],
      [undefined, /required/],
      ['x'.repeat(257), /257 bytes/],
      [42, /string/],
    ];
    for (const [scopeValue, message] of bad) {
      const r = await t.call('POST', `/api/v1/apps/${app.id}/xaa/scopes`, { xaaResourceServerId: rs, scopeValue });
      expectError(r, 400, INVALID_ARGUMENT, message);
      const details = (r.body as { details: { fieldViolations?: { field: string }[] }[] }).details;
      expect(details[0]?.fieldViolations?.[0]?.field).toBe('scopeValue');
    }
    expect(
      (await t.call('POST', `/api/v1/apps/${app.id}/xaa/scopes`, { xaaResourceServerId: rs, scopeValue: 'y'.repeat(256) })).status,
    ).toBe(200);
    expect(
      (await t.call('POST', `/api/v1/apps/${app.id}/xaa/scopes`, { xaaResourceServerId: rs, scopeValue: "!#$%&'()*+,-./:;<=>?@[]^_`{|}~" }))
        .status,
    ).toBe(200);
  });

  it('refuses unknown enums, wrong types, missing fields and bodies that are not JSON objects -> 400', async () => {
    const t = tenant();
    const app = someApp();
    const rs = app.resourceServerIds[0];
    expectError(
      await t.call('POST', `/api/v1/apps/${app.id}/xaa/scopes`, {
        xaaResourceServerId: rs,
        scopeValue: 'a:b',
        classification: 'XAA_SCOPE_CLASSIFICATION_QUANTUM',
      }),
      400,
      INVALID_ARGUMENT,
      /classification/,
    );
    expectError(
      await t.call('POST', `/api/v1/apps/${app.id}/xaa/scopes`, { xaaResourceServerId: rs, scopeValue: 'a:b', state: 'ENABLED' }),
      400,
      INVALID_ARGUMENT,
      /state/,
    );
    expectError(
      await t.call('POST', `/api/v1/apps/${app.id}/xaa/scopes`, { xaaResourceServerId: rs, scopeValue: 'a:b', displayName: 5 }),
      400,
      INVALID_ARGUMENT,
      /displayName/,
    );
    expectError(
      await t.call('POST', `/api/v1/apps/${app.id}/xaa/scopes`, { scopeValue: 'a:b' }),
      400,
      INVALID_ARGUMENT,
      /xaaResourceServerId/,
    );
    expectError(await t.call('POST', `/api/v1/apps/${app.id}/xaa/scopes`, [1, 2]), 400, INVALID_ARGUMENT, /object/);
    expectError(
      await t.call('POST', `/api/v1/apps/${app.id}/xaa/scopes`, undefined, { 'Content-Type': 'application/json' }),
      400,
      INVALID_ARGUMENT,
      /xaaResourceServerId/,
    );
    const raw = await fetch(`${t.url}/api/v1/apps/${app.id}/xaa/scopes`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${await t.accessToken()}` },
      body: '{"scopeValue": ',
    });
    expect(raw.status).toBe(400);
    assertStatus(await raw.json(), INVALID_ARGUMENT);
  });

  it('an unknown app or resource server -> 404 NOT_FOUND', async () => {
    const t = tenant();
    const app = someApp();
    expectError(
      await t.call('POST', '/api/v1/apps/no-such-app/xaa/scopes', { xaaResourceServerId: 'x', scopeValue: 'a:b' }),
      404,
      NOT_FOUND,
      /app/,
    );
    expectError(
      await t.call('POST', `/api/v1/apps/${app.id}/xaa/scopes`, { xaaResourceServerId: 'no-such-server', scopeValue: 'a:b' }),
      404,
      NOT_FOUND,
      /resource server/,
    );
  });
});

describe('list, get and search scopes', () => {
  it("GET /api/v1/apps/{app_id}/xaa/scopes lists that app's scopes under `scopes`", async () => {
    const t = tenant();
    const app = someApp();
    const r = await t.call<{ scopes: Scope[]; nextPageToken: string }>('GET', `/api/v1/apps/${app.id}/xaa/scopes?page_size=100`);
    expect(r.status).toBe(200);
    assertResponse('GET', '/api/v1/apps/{app_id}/xaa/scopes', r.body);
    const expected = [...t.data.scopes.values()].filter((s) => s.appId === app.id).map((s) => s.id);
    expect(r.body.scopes.map((s) => s.id)).toEqual(expected.slice(0, 100));
    expectError(await t.call('GET', '/api/v1/apps/no-such-app/xaa/scopes'), 404, NOT_FOUND);
  });

  it('GET /api/v1/apps/{app_id}/xaa/scopes/{id} returns one scope of that app', async () => {
    const t = tenant();
    const scope = [...t.data.scopes.values()][0]!;
    const r = await t.call<{ scope: Scope }>('GET', `/api/v1/apps/${scope.appId}/xaa/scopes/${scope.id}`);
    expect(r.status).toBe(200);
    assertResponse('GET', '/api/v1/apps/{app_id}/xaa/scopes/{id}', r.body);
    expect(r.body.scope).toEqual(scope);
    const otherApp = [...t.data.apps.keys()].find((id) => id !== scope.appId)!;
    expectError(await t.call('GET', `/api/v1/apps/${otherApp}/xaa/scopes/${scope.id}`), 404, NOT_FOUND);
    expectError(await t.call('GET', `/api/v1/apps/${scope.appId}/xaa/scopes/nope`), 404, NOT_FOUND);
  });

  it('POST /api/v1/search/xaa/scopes filters by state, classification, source, app, resource server, refs and text', async () => {
    const t = tenant();
    const all = [...t.data.scopes.values()];
    const search = async (body: object) => {
      const r = await t.call<{ list: Scope[]; nextPageToken: string }>('POST', '/api/v1/search/xaa/scopes', { pageSize: 100, ...body });
      expect(r.status, r.text).toBe(200);
      assertResponse('POST', '/api/v1/search/xaa/scopes', r.body);
      return r.body.list;
    };
    expect((await search({ stateFilter: ['XAA_SCOPE_STATE_DISABLED'] })).map((s) => s.id)).toEqual(
      all.filter((s) => s.state === 'XAA_SCOPE_STATE_DISABLED').map((s) => s.id),
    );
    expect(
      (await search({ classificationFilter: ['XAA_SCOPE_CLASSIFICATION_DANGEROUS'], sourceFilter: ['XAA_SCOPE_SOURCE_DISCOVERED'] })).every(
        (s) => s.classification === 'XAA_SCOPE_CLASSIFICATION_DANGEROUS' && s.source === 'XAA_SCOPE_SOURCE_DISCOVERED',
      ),
    ).toBe(true);
    const first = all[0]!;
    expect((await search({ refs: [{ id: first.id }] })).map((s) => s.id)).toEqual([first.id]);
    expect(
      (await search({ appIds: [first.appId], xaaResourceServerIds: [first.xaaResourceServerId] })).every(
        (s) => s.xaaResourceServerId === first.xaaResourceServerId,
      ),
    ).toBe(true);
    const byText = await search({ query: first.scopeValue!.toUpperCase() });
    expect(byText.map((s) => s.id)).toContain(first.id);
    expectError(
      await t.call('POST', '/api/v1/search/xaa/scopes', { stateFilter: ['XAA_SCOPE_STATE_ARCHIVED'] }),
      400,
      INVALID_ARGUMENT,
      /stateFilter\[0\]/,
    );
    expectError(await t.call('POST', '/api/v1/search/xaa/scopes', { refs: ['x'] }), 400, INVALID_ARGUMENT, /refs/);
  });
});

describe('remove entitlement membership: DELETE /api/v1/apps/{app_id}/entitlements/{app_entitlement_id}/remove-membership', () => {
  const path = '/api/v1/apps/{app_id}/entitlements/{app_entitlement_id}/remove-membership';
  const url = (appId: string, entitlementId: string) => `/api/v1/apps/${appId}/entitlements/${entitlementId}/remove-membership`;

  function membershipOf(kind: Entitlement['kind']) {
    const t = tenant();
    for (const m of t.data.memberships.values()) {
      if (t.data.entitlements.get(m.appEntitlementId)?.kind === kind) return m;
    }
    throw new Error(`no ${kind} membership in the dataset`);
  }

  it('from an access profile (catalog): removes it and returns the revoke task, which exists', async () => {
    const t = tenant();
    const m = membershipOf('catalog');
    const r = await t.call<{ revokeTaskId: string }>('DELETE', url(m.appId, m.appEntitlementId), { appUserId: m.appUserId });
    expect(r.status, r.text).toBe(200);
    assertResponse('DELETE', path, r.body);
    expect(r.body.revokeTaskId).toBeTruthy();
    expect(t.data.memberships.has(m.id)).toBe(false);
    const task = await t.call<TaskViewResponse>('GET', `/api/v1/tasks/${r.body.revokeTaskId}`);
    expect(task.status).toBe(200);
    assertResponse('GET', '/api/v1/tasks/{id}', task.body);
    expect(task.body.taskView?.task?.type?.revoke).toMatchObject({
      appEntitlementId: m.appEntitlementId,
      appUserId: m.appUserId,
      appId: m.appId,
    });
    expect(t.journal().filter((e) => e.operation === 'removeMembership' && e.objectId === m.id)).toHaveLength(1);
    // Not a member any more: 404, and nothing journaled.
    expectError(await t.call('DELETE', url(m.appId, m.appEntitlementId), { appUserId: m.appUserId }), 404, NOT_FOUND, /not a member/);
    expect(t.journal().filter((e) => e.objectId === m.id)).toHaveLength(1);
  });

  it('from a group or profile: removes it, no revoke task', async () => {
    const t = tenant();
    for (const kind of ['group', 'profile'] as const) {
      const m = membershipOf(kind);
      const r = await t.call<{ revokeTaskId: string }>('DELETE', url(m.appId, m.appEntitlementId), { appUserId: m.appUserId });
      expect(r.status, r.text).toBe(200);
      assertResponse('DELETE', path, r.body);
      expect(r.body.revokeTaskId).toBe('');
    }
  });

  it('from an entitlement the service does not manage (a connector role) -> 400 FAILED_PRECONDITION', async () => {
    const t = tenant();
    const m = membershipOf('role');
    expectError(await t.call('DELETE', url(m.appId, m.appEntitlementId), { appUserId: m.appUserId }), 400, FAILED_PRECONDITION, /role/);
    expect(t.data.memberships.has(m.id)).toBe(true);
  });

  it('a membership added by a test between syncs can be removed', async () => {
    const t = tenant();
    const e = [...t.data.entitlements.values()].find((x) => x.kind === 'group')!;
    const user = [...t.data.appUsers.values()].find((u) => !t.data.memberships.has(`${e.id}:${u.id}`))!;
    t.data.addMembership(e.id, user.id);
    expect((await t.call('DELETE', url(e.appId, e.id), { appUserId: user.id })).status).toBe(200);
  });

  it('errors: missing appUserId -> 400, unknown app or entitlement or an entitlement of another app -> 404', async () => {
    const t = tenant();
    const m = membershipOf('group');
    expectError(await t.call('DELETE', url(m.appId, m.appEntitlementId), {}), 400, INVALID_ARGUMENT, /appUserId/);
    expectError(await t.call('DELETE', url(m.appId, m.appEntitlementId), { appUserId: 7 }), 400, INVALID_ARGUMENT, /appUserId/);
    expectError(await t.call('DELETE', url('no-such-app', m.appEntitlementId), { appUserId: m.appUserId }), 404, NOT_FOUND);
    expectError(await t.call('DELETE', url(m.appId, 'no-such-entitlement'), { appUserId: m.appUserId }), 404, NOT_FOUND);
    const otherApp = [...t.data.apps.keys()].find((id) => id !== m.appId)!;
    expectError(await t.call('DELETE', url(otherApp, m.appEntitlementId), { appUserId: m.appUserId }), 404, NOT_FOUND);
  });
});

describe('access review templates', () => {
  const path = '/api/v1/access_review_template/{id}';

  it('GET returns the template; unknown id -> 404', async () => {
    const t = tenant();
    const id = [...t.data.templates.keys()][0]!;
    const r = await t.call<{ accessReviewTemplate: AccessReviewTemplate }>('GET', `/api/v1/access_review_template/${id}`);
    expect(r.status).toBe(200);
    assertResponse('GET', path, r.body);
    expect(r.body.accessReviewTemplate.id).toBe(id);
    expectError(await t.call('GET', '/api/v1/access_review_template/nope'), 404, NOT_FOUND);
  });

  it('POST with updateMask changes exactly the named fields (nested paths too) and clears named fields left out', async () => {
    const t = tenant();
    const id = [...t.data.templates.keys()][1]!;
    const before = structuredClone(t.data.templates.get(id)!);
    const r = await t.call<{ accessReviewTemplate: AccessReviewTemplate }>('POST', `/api/v1/access_review_template/${id}`, {
      accessReviewTemplate: {
        displayName: 'Renamed review',
        description: 'not in the mask: must not change',
        notificationConfig: {
          sendReminders: !before.notificationConfig?.sendReminders,
          sendKickoff: !before.notificationConfig?.sendKickoff,
        },
        columnConfig: {
          columns: ['ACCESS_REVIEW_TASK_COLUMN_ACCOUNT', 'ACCESS_REVIEW_TASK_COLUMN_APP'],
          orderedColumns: [{ builtin: 'ACCESS_REVIEW_TASK_COLUMN_ACCOUNT' }, { appUserAttributeKey: 'department' }],
        },
        accessReviewDuration: '604800s',
      },
      updateMask: 'displayName, notificationConfig.sendReminders,columnConfig,accessReviewDuration,reviewInstructions',
    });
    expect(r.status, r.text).toBe(200);
    assertResponse('POST', path, r.body);
    const after = r.body.accessReviewTemplate;
    expect(after.displayName).toBe('Renamed review');
    expect(after.description).toBe(before.description);
    expect(after.notificationConfig?.sendReminders).toBe(!before.notificationConfig?.sendReminders);
    expect(after.notificationConfig?.sendKickoff).toBe(before.notificationConfig?.sendKickoff);
    expect(after.columnConfig).toEqual({
      columns: ['ACCESS_REVIEW_TASK_COLUMN_ACCOUNT', 'ACCESS_REVIEW_TASK_COLUMN_APP'],
      orderedColumns: [{ builtin: 'ACCESS_REVIEW_TASK_COLUMN_ACCOUNT' }, { appUserAttributeKey: 'department' }],
    });
    expect(after.accessReviewDuration).toBe('604800s');
    expect(after.reviewInstructions).toBe('');
    expect(after.updatedAt! > before.updatedAt!).toBe(true);
    const {
      displayName: _a,
      notificationConfig: _b,
      columnConfig: _c,
      accessReviewDuration: _d,
      reviewInstructions: _e,
      updatedAt: _f,
      ...rest
    } = after;
    const {
      displayName: _g,
      notificationConfig: _h,
      columnConfig: _i,
      accessReviewDuration: _j,
      reviewInstructions: _k,
      updatedAt: _l,
      ...restBefore
    } = before;
    expect(rest).toEqual(restBefore);
    expect(t.journal().filter((e) => e.operation === 'updateTemplate' && e.objectId === id)).toHaveLength(1);
    // The next GET shows the change.
    expect(
      (await t.call<{ accessReviewTemplate: AccessReviewTemplate }>('GET', `/api/v1/access_review_template/${id}`)).body
        .accessReviewTemplate,
    ).toEqual(after);
  });

  it('refuses unknown, output-only and empty mask paths, bad values, and a different id -> 400; nothing changes', async () => {
    const t = tenant();
    const id = [...t.data.templates.keys()][2]!;
    const before = structuredClone(t.data.templates.get(id));
    const update = (body: object) => t.call('POST', `/api/v1/access_review_template/${id}`, body);
    expectError(
      await update({ accessReviewTemplate: { displayName: 'x' }, updateMask: 'displayName,colour' }),
      400,
      INVALID_ARGUMENT,
      /unknown path 'colour'/,
    );
    expectError(
      await update({ accessReviewTemplate: { displayName: 'x' }, updateMask: 'display_name' }),
      400,
      INVALID_ARGUMENT,
      /unknown path/,
    );
    expectError(
      await update({ accessReviewTemplate: {}, updateMask: 'notificationConfig.sendFax' }),
      400,
      INVALID_ARGUMENT,
      /unknown path/,
    );
    expectError(await update({ accessReviewTemplate: {}, updateMask: 'createdAt' }), 400, INVALID_ARGUMENT, /output only/);
    expectError(await update({ accessReviewTemplate: {}, updateMask: 'scopeType' }), 400, INVALID_ARGUMENT, /output only/);
    expectError(await update({ accessReviewTemplate: { displayName: 'x' }, updateMask: '' }), 400, INVALID_ARGUMENT, /updateMask/);
    expectError(await update({ accessReviewTemplate: { displayName: 'x' } }), 400, INVALID_ARGUMENT, /updateMask/);
    expectError(
      await update({ accessReviewTemplate: { displayName: 'x' }, updateMask: 'displayName,,description' }),
      400,
      INVALID_ARGUMENT,
      /empty path/,
    );
    expectError(await update({ updateMask: 'displayName' }), 400, INVALID_ARGUMENT, /accessReviewTemplate/);
    expectError(
      await update({ accessReviewTemplate: { displayName: 7 }, updateMask: 'displayName' }),
      400,
      INVALID_ARGUMENT,
      /displayName/,
    );
    expectError(
      await update({ accessReviewTemplate: { columnConfig: { columns: ['ACCESS_REVIEW_TASK_COLUMN_MOOD'] } }, updateMask: 'columnConfig' }),
      400,
      INVALID_ARGUMENT,
      /columns/,
    );
    expectError(
      await update({ accessReviewTemplate: { columnConfig: { orderedColumns: { x: 1 } } }, updateMask: 'columnConfig.orderedColumns' }),
      400,
      INVALID_ARGUMENT,
      /orderedColumns/,
    );
    expectError(
      await update({ accessReviewTemplate: { accessReviewDuration: 'P14D' }, updateMask: 'accessReviewDuration' }),
      400,
      INVALID_ARGUMENT,
      /duration/,
    );
    expectError(
      await update({ accessReviewTemplate: { id: 'other', displayName: 'x' }, updateMask: 'displayName' }),
      400,
      INVALID_ARGUMENT,
      /does not match/,
    );
    expect(t.data.templates.get(id)).toEqual(before);
    expectError(
      await t.call('POST', '/api/v1/access_review_template/nope', { accessReviewTemplate: {}, updateMask: 'displayName' }),
      404,
      NOT_FOUND,
    );
  });
});

describe('automations', () => {
  it('POST /api/v1/search/automations filters by app, draft, status, trigger type, refs and text', async () => {
    const t = tenant();
    const all = [...t.data.automations.values()];
    const search = async (body: object) => {
      const r = await t.call<{ list: Automation[]; nextPageToken: string }>('POST', '/api/v1/search/automations', {
        pageSize: 100,
        ...body,
      });
      expect(r.status, r.text).toBe(200);
      assertResponse('POST', '/api/v1/search/automations', r.body);
      return r.body.list.map((a) => a.id);
    };
    const ids = (f: (a: Automation) => boolean) => all.filter(f).map((a) => a.id);
    const one = all[3]!;
    expect(await search({ appId: one.appId })).toEqual(ids((a) => a.appId === one.appId));
    expect(await search({ appIds: [one.appId, all[5]!.appId] })).toEqual(ids((a) => a.appId === one.appId || a.appId === all[5]!.appId));
    expect(await search({ isDraft: true })).toEqual(ids((a) => a.isDraft === true));
    expect(await search({ statuses: ['AUTOMATION_STATUS_FILTER_ON'] })).toEqual(ids((a) => a.enabled === true));
    expect(await search({ statuses: ['AUTOMATION_STATUS_FILTER_OFF'] })).toEqual(ids((a) => !a.enabled));
    expect(await search({ triggerTypes: ['TRIGGER_TYPE_SCHEDULE', 'TRIGGER_TYPE_WEBHOOK'] })).toEqual(
      ids((a) => a.primaryTriggerType === 'TRIGGER_TYPE_SCHEDULE' || a.primaryTriggerType === 'TRIGGER_TYPE_WEBHOOK'),
    );
    expect(await search({ refs: [{ id: one.id }] })).toEqual([one.id]);
    expect(await search({ query: one.displayName!.slice(0, 12).toLowerCase() })).toContain(one.id);
    expectError(
      await t.call('POST', '/api/v1/search/automations', { triggerTypes: ['TRIGGER_TYPE_TELEPATHY'] }),
      400,
      INVALID_ARGUMENT,
      /triggerTypes/,
    );
    expectError(await t.call('POST', '/api/v1/search/automations', { isDraft: 'yes' }), 400, INVALID_ARGUMENT, /isDraft/);
    expectError(
      await t.call('POST', '/api/v1/search/automations', { sortField: 'AUTOMATION_SORT_FIELD_MOOD' }),
      400,
      INVALID_ARGUMENT,
      /sortField/,
    );
  });

  it('search sorts by a field in either direction, and walks every page of the sorted order', async () => {
    const t = tenant();
    for (const direction of ['SORT_DIRECTION_ASC', 'SORT_DIRECTION_DESC']) {
      const seen: Automation[] = [];
      let pageToken = '';
      do {
        const r = await t.call<{ list: Automation[]; nextPageToken: string }>('POST', '/api/v1/search/automations', {
          pageSize: 10,
          pageToken,
          sortField: 'AUTOMATION_SORT_FIELD_DISPLAY_NAME',
          direction,
        });
        expect(r.status, r.text).toBe(200);
        seen.push(...r.body.list);
        pageToken = r.body.nextPageToken;
      } while (pageToken);
      const names = seen.map((a) => a.displayName!.toLowerCase());
      const sorted = [...names].sort();
      expect(names).toEqual(direction === 'SORT_DIRECTION_ASC' ? sorted : sorted.reverse());
      expect(new Set(seen.map((a) => a.id)).size).toBe(t.data.automations.size);
    }
  });

  it('GET /api/v1/automations lists them all in insertion order; GET /api/v1/automations/{id} returns one', async () => {
    const t = tenant();
    const r = await t.call<{ list: Automation[]; nextPageToken: string }>('GET', '/api/v1/automations?page_size=100');
    expect(r.status).toBe(200);
    assertResponse('GET', '/api/v1/automations', r.body);
    expect(r.body.list.map((a) => a.id)).toEqual([...t.data.automations.keys()]);
    expect(r.body.nextPageToken).toBe('');
    const id = [...t.data.automations.keys()][0]!;
    const one = await t.call<{ automation: Automation }>('GET', `/api/v1/automations/${id}`);
    expect(one.status).toBe(200);
    assertResponse('GET', '/api/v1/automations/{id}', one.body);
    expect(one.body.automation.id).toBe(id);
    expectError(await t.call('GET', '/api/v1/automations/nope'), 404, NOT_FOUND);
  });
});

describe('access review campaigns', () => {
  it('GET /api/v1/access_reviews lists the campaign views; GET /api/v1/access_review/{id} returns the wrapper', async () => {
    const t = tenant();
    const list = await t.call<{ list: { accessReview: { id: string } }[]; nextPageToken: string }>(
      'GET',
      '/api/v1/access_reviews?page_size=100',
    );
    expect(list.status).toBe(200);
    assertResponse('GET', '/api/v1/access_reviews', list.body);
    expect(list.body.list.map((v) => v.accessReview.id)).toEqual([...t.data.campaigns.keys()]);
    const id = [...t.data.campaigns.keys()][0]!;
    const one = await t.call<AccessReviewResponse>('GET', `/api/v1/access_review/${id}`);
    expect(one.status).toBe(200);
    assertResponse('GET', '/api/v1/access_review/{id}', one.body);
    expect(one.body).toEqual({
      accessReview: {
        accessReview: t.data.campaigns.get(id),
        createdByUserPath: '',
        objectPermissions: { delete: true, edit: true, read: true, extra: {} },
        policyPath: '',
      },
      expanded: [],
    });
    expectError(await t.call('GET', '/api/v1/access_review/nope'), 404, NOT_FOUND);
  });

  it('POST /api/v1/access_review creates a draft campaign with its owners', async () => {
    const t = tenant();
    const owners = t.data.identityUserIds.slice(0, 2);
    const r = await t.call<AccessReviewResponse>('POST', '/api/v1/access_review', {
      displayName: 'Q1 privileged review',
      description: 'Created over the API',
      completionDate: '2027-01-31T00:00:00Z',
      ownerIds: owners,
      policyId: 'policy-1',
      notificationConfig: { sendClose: true, sendKickoff: false, sendReminders: true },
      scopeV2: { allUsers: {}, allGrants: {} },
      expandMask: { paths: ['*'] },
    });
    expect(r.status, r.text).toBe(200);
    assertResponse('POST', '/api/v1/access_review', r.body);
    const campaign = r.body.accessReview!.accessReview!;
    expect(campaign).toMatchObject({
      displayName: 'Q1 privileged review',
      description: 'Created over the API',
      completionDate: '2027-01-31T00:00:00.000Z',
      policyId: 'policy-1',
      state: 'ACCESS_REVIEW_STATE_DRAFT',
      notificationConfig: { sendClose: true, sendKickoff: false, sendReminders: true },
      scopeV2: { allUsers: {}, allGrants: {} },
      bindings: { ownerIds: owners },
    });
    expect((await t.call<AccessReviewResponse>('GET', `/api/v1/access_review/${campaign.id}`)).body).toEqual(r.body);
    expect(t.journal().filter((e) => e.operation === 'createCampaign' && e.objectId === campaign.id)).toHaveLength(1);
  });

  it("duplicateFrom copies the source campaign's setup into a new draft", async () => {
    const t = tenant();
    const source = [...t.data.campaigns.values()].find((c) => c.accessReviewTemplateId && c.state === 'ACCESS_REVIEW_STATE_OPEN')!;
    const r = await t.call<AccessReviewResponse>('POST', '/api/v1/access_review', { duplicateFrom: source.id, ownerIds: ['owner-1'] });
    expect(r.status, r.text).toBe(200);
    assertResponse('POST', '/api/v1/access_review', r.body);
    const copy = r.body.accessReview!.accessReview!;
    expect(copy.id).not.toBe(source.id);
    expect(copy).toMatchObject({
      accessReviewTemplateId: source.accessReviewTemplateId,
      scopeV2: source.scopeV2,
      columnConfig: source.columnConfig,
      policyId: source.policyId,
      displayName: `Copy of ${source.displayName}`,
      state: 'ACCESS_REVIEW_STATE_DRAFT',
      startedAt: null,
    });
    const named = await t.call<AccessReviewResponse>('POST', '/api/v1/access_review', {
      duplicateFrom: source.id,
      ownerIds: ['owner-1'],
      displayName: 'Named copy',
    });
    expect(named.body.accessReview?.accessReview?.displayName).toBe('Named copy');
  });

  it('errors: ownerIds missing or empty -> 400, a bad date -> 400, an unknown duplicateFrom -> 404', async () => {
    const t = tenant();
    const before = t.data.campaigns.size;
    expectError(await t.call('POST', '/api/v1/access_review', { displayName: 'x' }), 400, INVALID_ARGUMENT, /ownerIds/);
    expectError(await t.call('POST', '/api/v1/access_review', { displayName: 'x', ownerIds: [] }), 400, INVALID_ARGUMENT, /ownerIds/);
    expectError(
      await t.call('POST', '/api/v1/access_review', { displayName: 'x', ownerIds: [''] }),
      400,
      INVALID_ARGUMENT,
      /ownerIds\[0\]/,
    );
    expectError(
      await t.call('POST', '/api/v1/access_review', { displayName: 'x', ownerIds: 'owner-1' }),
      400,
      INVALID_ARGUMENT,
      /ownerIds/,
    );
    expectError(
      await t.call('POST', '/api/v1/access_review', { displayName: 'x', ownerIds: ['o'], completionDate: 'next week' }),
      400,
      INVALID_ARGUMENT,
      /completionDate/,
    );
    expectError(
      await t.call('POST', '/api/v1/access_review', { displayName: 'x', ownerIds: ['o'], notificationConfig: { sendClose: 'yes' } }),
      400,
      INVALID_ARGUMENT,
      /sendClose/,
    );
    expectError(await t.call('POST', '/api/v1/access_review', { ownerIds: ['o'], duplicateFrom: 'nope' }), 404, NOT_FOUND);
    expect(t.data.campaigns.size).toBe(before);
  });
});

describe('tasks', () => {
  function find(predicate: (task: Task) => boolean): Task {
    const task = [...tenant().data.tasks.values()].find(predicate);
    if (!task) throw new Error('no such task in the dataset');
    return task;
  }
  const openGrant = (task: Task) => Boolean(task.type?.grant) && task.state === 'TASK_STATE_OPEN' && !task.emergencyAccess;

  it('escalate sets emergencyAccess on an open grant task; a second escalation -> 400 FAILED_PRECONDITION', async () => {
    const t = tenant();
    const task = find(openGrant);
    const r = await t.call<TaskViewResponse>('POST', `/api/v1/tasks/${task.id}/action/escalate`, {
      comment: 'Production is down',
      policyStepId: task.policy?.current?.id,
      expandMask: { paths: ['app_id', 'app_user_id'] },
    });
    expect(r.status, r.text).toBe(200);
    assertResponse('POST', '/api/v1/tasks/{task_id}/action/escalate', r.body);
    expect(r.body.taskView?.task?.emergencyAccess).toBe(true);
    expect(r.body.taskView?.task?.id).toBe(task.id);
    expect(r.body.taskView?.appPath).toBe('expanded[0]');
    expect(r.body.expanded?.[0]).toMatchObject({ '@type': 'type.googleapis.com/c1.api.app.v1.App', id: task.type?.grant?.appId });
    expect(r.body.expanded?.[1]).toMatchObject({ '@type': 'type.googleapis.com/c1.api.app.v1.AppUser', id: task.type?.grant?.appUserId });
    // Each expanded object is the whole message, as the apps search serves the app.
    const apps = await t.call<{ list: unknown[] }>('POST', '/api/v1/search/apps', { appIds: [task.type?.grant?.appId] });
    const { '@type': _type, ...app } = r.body.expanded![0] as Record<string, unknown>;
    expect(app).toEqual(apps.body.list[0]);
    expect(t.data.tasks.get(task.id!)?.emergencyAccess).toBe(true);
    expectError(await t.call('POST', `/api/v1/tasks/${task.id}/action/escalate`, {}), 400, FAILED_PRECONDITION, /already escalated/);
    expect(t.journal().filter((e) => e.operation === 'escalateTask' && e.objectId === task.id)).toHaveLength(1);
    const get = await t.call<TaskViewResponse>('GET', `/api/v1/tasks/${task.id}`);
    expect(get.body.taskView?.task?.emergencyAccess).toBe(true);
  });

  it('escalate errors: not a grant task, a closed task, not the current step -> 400 FAILED_PRECONDITION; unknown task -> 404; bad expand path -> 400', async () => {
    const t = tenant();
    const revoke = find((x) => Boolean(x.type?.revoke));
    expectError(await t.call('POST', `/api/v1/tasks/${revoke.id}/action/escalate`, {}), 400, FAILED_PRECONDITION, /not a grant/);
    const closed = find((x) => Boolean(x.type?.grant) && x.state === 'TASK_STATE_CLOSED');
    expectError(await t.call('POST', `/api/v1/tasks/${closed.id}/action/escalate`, {}), 400, FAILED_PRECONDITION, /closed/);
    const open = find(openGrant);
    expectError(
      await t.call('POST', `/api/v1/tasks/${open.id}/action/escalate`, { policyStepId: 'another-step' }),
      400,
      FAILED_PRECONDITION,
      /current step/,
    );
    expectError(
      await t.call('POST', `/api/v1/tasks/${open.id}/action/escalate`, { expandMask: { paths: ['everything'] } }),
      400,
      INVALID_ARGUMENT,
      /expandMask/,
    );
    expectError(await t.call('POST', `/api/v1/tasks/${open.id}/action/escalate`, { comment: 42 }), 400, INVALID_ARGUMENT, /comment/);
    expect(t.data.tasks.get(open.id!)?.emergencyAccess).toBe(false);
    expectError(await t.call('POST', '/api/v1/tasks/nope/action/escalate', {}), 404, NOT_FOUND);
  });

  it('GET /api/v1/tasks/{id} returns the task view; unknown -> 404', async () => {
    const t = tenant();
    const task = find(() => true);
    const r = await t.call<TaskViewResponse>('GET', `/api/v1/tasks/${task.id}`);
    expect(r.status).toBe(200);
    assertResponse('GET', '/api/v1/tasks/{id}', r.body);
    // Served as the tenant keeps it, with its unset timestamps null or left out (views.ts).
    expect(r.body.taskView?.task).toEqual(unsetForm(t.data, task.id!, task));
    expectError(await t.call('GET', '/api/v1/tasks/nope'), 404, NOT_FOUND);
  });

  it('POST /api/v1/search/tasks filters by type, state, emergency status, refs and text', async () => {
    const t = tenant();
    const all = [...t.data.tasks.values()];
    const search = async (body: object) => {
      const r = await t.call<{ list: { task: Task }[]; nextPageToken: string }>('POST', '/api/v1/search/tasks', { pageSize: 100, ...body });
      expect(r.status, r.text).toBe(200);
      assertResponse('POST', '/api/v1/search/tasks', r.body);
      return r.body.list.map((v) => v.task.id);
    };
    const ids = (f: (x: Task) => boolean) => all.filter(f).map((x) => x.id);
    expect(await search({})).toEqual(ids(() => true));
    expect(await search({ taskTypes: [{ grant: {} }] })).toEqual(ids((x) => Boolean(x.type?.grant)));
    expect(await search({ taskTypes: [{ revoke: {} }, { certify: {} }] })).toEqual(ids((x) => Boolean(x.type?.revoke ?? x.type?.certify)));
    expect(await search({ taskStates: ['TASK_STATE_OPEN'] })).toEqual(ids((x) => x.state === 'TASK_STATE_OPEN'));
    expect(await search({ emergencyStatus: 'EMERGENCY' })).toEqual(ids((x) => x.emergencyAccess === true));
    expect(await search({ emergencyStatus: 'NON_EMERGENCY' })).toEqual(ids((x) => !x.emergencyAccess));
    expect(await search({ refs: [{ id: all[2]!.id }] })).toEqual([all[2]!.id]);
    expect(await search({ query: all[4]!.numericId })).toContain(all[4]!.id);
    expectError(await t.call('POST', '/api/v1/search/tasks', { taskStates: ['TASK_STATE_LIMBO'] }), 400, INVALID_ARGUMENT, /taskStates/);
    expectError(await t.call('POST', '/api/v1/search/tasks', { taskTypes: ['grant'] }), 400, INVALID_ARGUMENT, /taskTypes/);
    expectError(await t.call('POST', '/api/v1/search/tasks', { createdAfter: 'yesterday' }), 400, INVALID_ARGUMENT, /createdAfter/);
  });
});

describe('MCP toolsets and finding routing rules', () => {
  it('GET /api/v1/apps/{app_id}/mcp_toolsets/by_app_entitlement_id/{app_entitlement_id} finds the linked toolset', async () => {
    const t = tenant();
    const profile = [...t.data.toolsets.values()][0]!;
    const r = await t.call<{ profile: McpAccessProfile }>(
      'GET',
      `/api/v1/apps/${profile.appId}/mcp_toolsets/by_app_entitlement_id/${profile.appEntitlementId}`,
    );
    expect(r.status).toBe(200);
    assertResponse('GET', '/api/v1/apps/{app_id}/mcp_toolsets/by_app_entitlement_id/{app_entitlement_id}', r.body);
    expect(r.body.profile).toEqual(profile);
    const unlinked = [...t.data.entitlements.values()].find(
      (e) =>
        e.appId === profile.appId &&
        e.id !== profile.appEntitlementId &&
        ![...t.data.toolsets.values()].some((p) => p.appEntitlementId === e.id),
    )!;
    expectError(
      await t.call('GET', `/api/v1/apps/${profile.appId}/mcp_toolsets/by_app_entitlement_id/${unlinked.id}`),
      404,
      NOT_FOUND,
      /no MCP toolset/,
    );
    const otherApp = [...t.data.apps.keys()].find((id) => id !== profile.appId)!;
    expectError(
      await t.call('GET', `/api/v1/apps/${otherApp}/mcp_toolsets/by_app_entitlement_id/${profile.appEntitlementId}`),
      404,
      NOT_FOUND,
    );
    expectError(await t.call('GET', `/api/v1/apps/nope/mcp_toolsets/by_app_entitlement_id/${profile.appEntitlementId}`), 404, NOT_FOUND);
    // Linked later (a test changing the data): found at once.
    t.data.touch('toolsets', profile.id!, { appEntitlementId: unlinked.id });
    expect((await t.call('GET', `/api/v1/apps/${profile.appId}/mcp_toolsets/by_app_entitlement_id/${unlinked.id}`)).status).toBe(200);
  });

  it('GET /api/v1/mcp_toolsets/search lists profiles under `profiles`, with a text query', async () => {
    const t = tenant();
    const r = await t.call<{ profiles: McpAccessProfile[]; nextPageToken: string }>('GET', '/api/v1/mcp_toolsets/search?page_size=100');
    expect(r.status).toBe(200);
    assertResponse('GET', '/api/v1/mcp_toolsets/search', r.body);
    expect(r.body.profiles.map((p) => p.id)).toEqual([...t.data.toolsets.keys()]);
    const first = r.body.profiles[0]!;
    const q = await t.call<{ profiles: McpAccessProfile[] }>(
      'GET',
      `/api/v1/mcp_toolsets/search?query=${encodeURIComponent(first.displayName!)}`,
    );
    expect(q.body.profiles.map((p) => p.id)).toContain(first.id);
    expect(q.body.profiles.every((p) => p.displayName === first.displayName || p.description?.includes(first.displayName!))).toBe(true);
  });

  it('GET /api/v1/findings/routing-rules lists every rule (all four action kinds), optionally for one app', async () => {
    const t = tenant();
    const r = await t.call<{ list: { id: string; appId: string; action: Record<string, unknown> }[]; nextPageToken: string }>(
      'GET',
      '/api/v1/findings/routing-rules?page_size=100',
    );
    expect(r.status).toBe(200);
    assertResponse('GET', '/api/v1/findings/routing-rules', r.body);
    expect(r.body.list.map((x) => x.id)).toEqual([...t.data.routingRules.keys()]);
    const kinds = new Set(r.body.list.flatMap((x) => Object.keys(x.action)));
    expect([...kinds].sort()).toEqual(expect.arrayContaining(['acceptRisk', 'createTask', 'snooze', 'suppress']));
    const appId = r.body.list[0]!.appId;
    for (const param of ['app_id', 'appId']) {
      const one = await t.call<{ list: { appId: string }[] }>('GET', `/api/v1/findings/routing-rules?${param}=${appId}`);
      expect(one.body.list.length).toBeGreaterThan(0);
      expect(one.body.list.every((x) => x.appId === appId)).toBe(true);
    }
  });
});

describe('paths, methods and bodies', () => {
  it('an unknown path -> 404 NOT_FOUND; a known path with another method -> 405 UNIMPLEMENTED with Allow', async () => {
    const t = tenant();
    expectError(await t.call('GET', '/api/v1/no-such-thing'), 404, NOT_FOUND);
    expectError(await t.call('GET', '/api/v2/access_reviews'), 404, NOT_FOUND);
    const r = await t.call('DELETE', '/api/v1/access_reviews');
    expectError(r, 405, 12);
    expect(r.headers.get('allow')).toBe('GET');
    const scopes = await t.call('PUT', `/api/v1/apps/${someApp().id}/xaa/scopes`, {});
    expect(scopes.status).toBe(405);
    expect(scopes.headers.get('allow')).toBe('POST, GET');
  });

  it('a trailing or doubled slash is redirected (301) to the clean path, as the real gateway does', async () => {
    const t = tenant();
    const r = await t.call('GET', '/api/v1/access_reviews/?page_size=10');
    expect(r.status).toBe(301);
    expect(r.headers.get('location')).toBe('/api/v1/access_reviews?page_size=10');
    const task = [...t.data.tasks.keys()][0]!;
    const doubled = await t.call('GET', `/api/v1//tasks/${task}`);
    expect(doubled.status).toBe(301);
    expect(doubled.headers.get('location')).toBe(`/api/v1/tasks/${task}`);
  });

  it('an empty path parameter never matches; a bad percent-encoding -> 400', async () => {
    const t = tenant();
    expect((await t.call('GET', '/api/v1/access_review_template/%')).status).toBe(400);
    expectError(await t.call('GET', `/api/v1/access_review_template/${encodeURIComponent('a/b')}`), 404, NOT_FOUND);
  });

  it('a body over 1 MiB -> 413 with a google.rpc.Status', async () => {
    const r = await tenant().call('POST', '/api/v1/search/automations', { query: 'x'.repeat(1_100_000) });
    expectError(r, 413, INVALID_ARGUMENT, /larger/);
  });

  it('outside /api/v1, /auth/v1/token and /_tenant there is nothing', async () => {
    const r = await tenant().call('GET', '/');
    expectError(r, 404, NOT_FOUND);
    expectError(await tenant().call('GET', '/_tenant/nothing'), 404, NOT_FOUND);
    // A request target starting with `//` is a path, not a host.
    const raw = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${tenant().url}/`, { path: '//api/v1/access_reviews' }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(raw.status).toBe(404);
    assertStatus(JSON.parse(raw.body), NOT_FOUND);
  });
});

describe('journal: GET /_tenant/journal', () => {
  it('lists every applied mutation in order, with its request, client and X-Request-Id; the same as journal()', async () => {
    const t = tenant();
    const app = someApp();
    const r = await t.call(
      'POST',
      `/api/v1/apps/${app.id}/xaa/scopes`,
      { xaaResourceServerId: app.resourceServerIds[0], scopeValue: 'journal:check' },
      { 'X-Request-Id': 'req-42' },
    );
    expect(r.status).toBe(200);
    const http = await t.call<{ entries: { seq: number; requestId: string | null; request: { scopeValue?: string } }[] }>(
      'GET',
      '/_tenant/journal',
    );
    expect(http.status).toBe(200);
    expect(http.body.entries).toEqual(t.journal());
    expect(http.body.entries.map((e) => e.seq)).toEqual(http.body.entries.map((_, i) => i + 1));
    const last = http.body.entries.at(-1)!;
    expect(last).toMatchObject({ requestId: 'req-42', request: { scopeValue: 'journal:check' } });
    const ops = new Set(http.body.entries.map((e) => (e as unknown as { operation: string }).operation));
    expect([...ops].sort()).toEqual(['createCampaign', 'createScope', 'escalateTask', 'removeMembership', 'updateTemplate']);
  });
});
