/**
 * The tenant's identity users and policies over real HTTP (`POST /search/users`, `POST
 * /search/policies`): every answer checked against the vendor's schemas, paging to the end, the
 * filters and their errors, and every user and policy id the other objects name is served.
 */
import { describe, expect, it } from 'vitest';
import { generateDataset } from '../../src/tenant/dataset';
import { assertResponse, assertStatus, type TestTenant, useTenant } from '../helpers/tenant';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const tenant = useTenant({ seed: 21 });

const SEARCH_USERS = '/api/v1/search/users';
const SEARCH_POLICIES = '/api/v1/search/policies';

async function walk(t: TestTenant, template: string, body: Json = {}): Promise<{ rows: Json[]; pages: number }> {
  const rows: Json[] = [];
  let pageToken = '';
  for (let pages = 1; pages < 1000; pages += 1) {
    const r = await t.call<Json>('POST', template, { ...body, pageToken });
    expect(r.status, r.text).toBe(200);
    assertResponse('POST', template, r.body);
    rows.push(...(r.body.list ?? []));
    pageToken = r.body.nextPageToken;
    if (!pageToken) return { rows, pages };
  }
  throw new Error('the walk did not end');
}

async function expectError(call: Promise<{ status: number; body: unknown }>, status: number, code: number, message: RegExp) {
  const r = await call;
  expect(r.status).toBe(status);
  assertStatus(r.body, code);
  expect((r.body as { message: string }).message).toMatch(message);
}

/** Every string under one of `keys` anywhere in `value` (lists of strings included). */
function valuesUnder(value: unknown, keys: ReadonlySet<string>, found: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => valuesUnder(v, keys, found));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      if (keys.has(k) && typeof v === 'string' && v) found.add(v);
      else if (keys.has(k) && Array.isArray(v)) v.filter((x) => typeof x === 'string' && x).forEach((x) => found.add(x as string));
      else valuesUnder(v, keys, found);
    }
  return found;
}

/** The members that name identity users across the tenant's objects. */
const USER_KEYS = new Set([
  'createdById',
  'createdByUserId',
  'identityUserId',
  'ownerIds',
  'approverIds',
  'userIds',
  'managerUserIds',
  'requestUserId',
  'subjectUserId',
]);
const POLICY_KEYS = new Set(['policyId', 'grantPolicyId', 'revokePolicyId', 'certifyPolicyId']);

const everyObject = (t: TestTenant): unknown[] =>
  (['apps', 'appUsers', 'scopes', 'automations', 'templates', 'campaigns', 'toolsets', 'routingRules', 'tasks'] as const).flatMap((n) => [
    ...t.data.collection(n).values(),
  ]);

describe('identity users', () => {
  it('pages to the end, each a UserView with a name and an email, and every user id the other objects name is one of them', async () => {
    const t = tenant();
    const { rows, pages } = await walk(t, SEARCH_USERS, { pageSize: 10 });
    expect(pages).toBe(4); // the demo's 40 people, 10 a page
    const ids = rows.map((row) => row.user.id as string);
    expect(ids).toEqual(t.data.identityUserIds);
    for (const row of rows) {
      expect(row.userId).toBe(row.user.id);
      expect(row.user.displayName).toMatch(/^\S+ \S+$/);
      expect(row.user.email).toMatch(/^[a-z0-9.]+@example\.com$/);
      expect(row.user.emails).toEqual([row.user.email]);
    }
    expect(new Set(rows.map((row) => row.user.email)).size).toBe(rows.length);
    const named = valuesUnder(everyObject(t), USER_KEYS);
    expect(named.size).toBeGreaterThan(20);
    for (const id of named) expect(ids, `user ${id}`).toContain(id);
  });

  it('filters by ids, refs, email, status and words, and refuses a malformed filter', async () => {
    const t = tenant();
    const [first, second] = t.data.identityUserIds as [string, string];
    const user = t.data.users.get(second)!;
    expect((await walk(t, SEARCH_USERS, { ids: [first] })).rows.map((r) => r.user.id)).toEqual([first]);
    expect((await walk(t, SEARCH_USERS, { refs: [{ id: second }] })).rows.map((r) => r.user.id)).toEqual([second]);
    expect((await walk(t, SEARCH_USERS, { email: user.email!.toUpperCase() })).rows.map((r) => r.user.id)).toEqual([second]);
    const byName = (await walk(t, SEARCH_USERS, { query: user.displayName })).rows;
    expect(byName.map((r) => r.user.id)).toContain(second);
    const disabled = (await walk(t, SEARCH_USERS, { userStatuses: ['DISABLED'] })).rows;
    expect(disabled.every((r) => r.user.status === 'DISABLED')).toBe(true);
    expect((await walk(t, SEARCH_USERS, { excludeIds: [first] })).rows).toHaveLength(t.data.identityUserIds.length - 1);
    await expectError(t.call('POST', SEARCH_USERS, { ids: 'x' }), 400, 3, /ids/);
    await expectError(t.call('POST', SEARCH_USERS, { refs: [{ id: 7 }] }), 400, 3, /refs\[0\]\.id/);
  });
});

describe('policies', () => {
  it('pages to the end, each a named Policy with its steps, and every policy id the other objects name is one of them', async () => {
    const t = tenant();
    const { rows } = await walk(t, SEARCH_POLICIES, { pageSize: 10 });
    expect(rows.length).toBe(t.data.policies.size);
    for (const policy of rows) {
      expect(policy.displayName).not.toBe('');
      expect(policy.policySteps.default.steps.length).toBeGreaterThan(0);
    }
    const ids = rows.map((p) => p.id as string);
    const named = valuesUnder(everyObject(t), POLICY_KEYS);
    expect(named.size).toBeGreaterThan(3);
    for (const id of named) expect(ids, `policy ${id}`).toContain(id);
    // Their approvers are identity users too.
    for (const id of valuesUnder(rows, USER_KEYS)) expect(t.data.identityUserIds).toContain(id);
  });

  it('filters by refs, type, name and words, and refuses a malformed filter', async () => {
    const t = tenant();
    const policy = [...t.data.policies.values()][1]!;
    expect((await walk(t, SEARCH_POLICIES, { refs: [{ id: policy.id }] })).rows.map((p) => p.id)).toEqual([policy.id]);
    const certify = (await walk(t, SEARCH_POLICIES, { policyTypes: ['POLICY_TYPE_CERTIFY'] })).rows;
    expect(certify.length).toBeGreaterThan(0);
    expect(certify.every((p) => p.policyType === 'POLICY_TYPE_CERTIFY')).toBe(true);
    expect((await walk(t, SEARCH_POLICIES, { displayName: policy.displayName })).rows.map((p) => p.id)).toEqual([policy.id]);
    expect((await walk(t, SEARCH_POLICIES, { query: 'approval' })).rows.length).toBeGreaterThan(0);
    await expectError(t.call('POST', SEARCH_POLICIES, { policyTypes: 'x' }), 400, 3, /policyTypes/);
  });
});

describe('generation', () => {
  it('is the same for the same seed, and the people and policies come after every other draw', () => {
    const a = generateDataset(5);
    const b = generateDataset(5);
    expect(JSON.stringify([...a.users.values()])).toBe(JSON.stringify([...b.users.values()]));
    expect(JSON.stringify([...a.policies.values()])).toBe(JSON.stringify([...b.policies.values()]));
    expect([...a.users.keys()]).toEqual(a.identityUserIds);
  });
});
