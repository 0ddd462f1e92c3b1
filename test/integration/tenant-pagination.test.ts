/**
 * Pagination of the reference tenant over real HTTP: page-size clamping, unforgeable tokens, the
 * keyset walk under adds and deletes between pages, and byte-identical answers for one seed.
 */
import { describe, expect, it } from 'vitest';
import type { Scope } from '../../src/shared/api-types';
import { assertResponse, assertStatus, startTestTenant, type TestTenant, useTenant } from '../helpers/tenant';

// Four demo units: 160 scopes, enough for pages above the 100 cap.
const tenant = useTenant({ seed: 31, scale: 4 });

interface ScopePage {
  list: Scope[];
  nextPageToken: string;
}

async function searchScopes(t: TestTenant, body: object): Promise<ScopePage> {
  const r = await t.call<ScopePage>('POST', '/api/v1/search/xaa/scopes', body);
  expect(r.status, r.text).toBe(200);
  assertResponse('POST', '/api/v1/search/xaa/scopes', r.body);
  return r.body;
}

/** Every page of a scope search; returns the ids in order and the tokens that led to each page. */
async function walk(t: TestTenant, body: object = {}, pageSize = 10): Promise<{ ids: string[]; tokens: string[] }> {
  const ids: string[] = [];
  const tokens: string[] = [];
  let pageToken = '';
  do {
    const page = await searchScopes(t, { ...body, pageSize, pageToken });
    ids.push(...page.list.map((s) => s.id!));
    pageToken = page.nextPageToken;
    if (pageToken) tokens.push(pageToken);
  } while (pageToken);
  return { ids, tokens };
}

describe('page sizes (spec: 10 to 100, default 25)', () => {
  it('missing or 0 -> 25, below 10 -> 10, above 100 -> 100, in the body of a POST', async () => {
    const t = tenant();
    expect((await searchScopes(t, {})).list).toHaveLength(25);
    expect((await searchScopes(t, { pageSize: 0 })).list).toHaveLength(25);
    expect((await searchScopes(t, { pageSize: 3 })).list).toHaveLength(10);
    expect((await searchScopes(t, { pageSize: -4 })).list).toHaveLength(10);
    expect((await searchScopes(t, { pageSize: 37 })).list).toHaveLength(37);
    expect((await searchScopes(t, { pageSize: '40' })).list).toHaveLength(40);
    expect((await searchScopes(t, { pageSize: 500 })).list).toHaveLength(100);
  });

  it('and in the query of a GET (page_size, or pageSize as the gateway also takes)', async () => {
    const t = tenant();
    const count = async (query: string) => (await t.call<{ list: unknown[] }>('GET', `/api/v1/access_reviews${query}`)).body.list.length;
    expect(await count('')).toBe(25);
    expect(await count('?page_size=2')).toBe(10);
    expect(await count('?page_size=12')).toBe(12);
    expect(await count('?pageSize=12')).toBe(12);
    expect(await count('?page_size=1000')).toBe(t.data.campaigns.size < 100 ? t.data.campaigns.size : 100);
  });

  it('a page size that is not a whole number -> 400 INVALID_ARGUMENT', async () => {
    const t = tenant();
    for (const [method, path, body] of [
      ['GET', '/api/v1/access_reviews?page_size=ten', undefined],
      ['GET', '/api/v1/access_reviews?page_size=1.5', undefined],
      ['POST', '/api/v1/search/xaa/scopes', { pageSize: 'ten' }],
      ['POST', '/api/v1/search/xaa/scopes', { pageSize: 2.5 }],
    ] as const) {
      const r = await t.call(method, path, body);
      expect(r.status).toBe(400);
      assertStatus(r.body, 3);
    }
  });
});

describe('walks', () => {
  it('visit every object once, in insertion order, and end with an empty nextPageToken', async () => {
    const t = tenant();
    const { ids, tokens } = await walk(t);
    expect(ids).toEqual([...t.data.scopes.keys()]);
    expect(tokens).toHaveLength(Math.ceil(ids.length / 10) - 1);
    // The last page holds the last objects and no token, even when it is exactly full.
    const exact = await walk(t, {}, t.data.scopes.size / 2);
    expect(exact.tokens).toHaveLength(1);
  });

  it('resume from any token with the same remainder', async () => {
    const t = tenant();
    const { ids, tokens } = await walk(t, { stateFilter: ['XAA_SCOPE_STATE_ENABLED'] });
    for (const [i, token] of tokens.entries()) {
      const page = await searchScopes(t, { stateFilter: ['XAA_SCOPE_STATE_ENABLED'], pageSize: 10, pageToken: token });
      expect(page.list.map((s) => s.id)).toEqual(ids.slice((i + 1) * 10, (i + 2) * 10));
    }
  });

  it('page sizes may change between pages of one walk', async () => {
    const t = tenant();
    const first = await searchScopes(t, { pageSize: 10 });
    const second = await searchScopes(t, { pageSize: 30, pageToken: first.nextPageToken });
    expect([...first.list, ...second.list].map((s) => s.id)).toEqual([...t.data.scopes.keys()].slice(0, 40));
  });

  it('stay right when objects are added and deleted between pages (keyset, not offset)', async () => {
    const t = await startTestTenant({ seed: 32 });
    try {
      const before = [...t.data.scopes.keys()];
      const first = await searchScopes(t, { pageSize: 10 });
      expect(first.list.map((s) => s.id)).toEqual(before.slice(0, 10));
      // Between pages: delete two already served (one is the cursor itself), one not yet served,
      // and add two new ones (they go to the end of the walk).
      t.data.scopes.delete(before[3]!);
      t.data.scopes.delete(before[9]!);
      t.data.scopes.delete(before[15]!);
      const added = ['new-scope-a', 'new-scope-b'];
      for (const id of added) t.data.scopes.set(id, { ...structuredClone(t.data.scopes.get(before[0]!)!), id, scopeValue: id });
      const rest: string[] = [];
      let pageToken = first.nextPageToken;
      while (pageToken) {
        const page = await searchScopes(t, { pageSize: 10, pageToken });
        rest.push(...page.list.map((s) => s.id!));
        pageToken = page.nextPageToken;
      }
      expect(rest).toEqual([...before.slice(10).filter((id) => id !== before[15]), ...added]);
    } finally {
      await t.close();
    }
  });

  it('an empty collection: an empty list and an empty token', async () => {
    const t = await startTestTenant({ seed: 33 });
    try {
      t.data.routingRules.clear();
      const r = await t.call<{ list: unknown[]; nextPageToken: string }>('GET', '/api/v1/findings/routing-rules');
      expect(r.status).toBe(200);
      assertResponse('GET', '/api/v1/findings/routing-rules', r.body);
      expect(r.body).toEqual({ list: [], nextPageToken: '' });
    } finally {
      await t.close();
    }
  });
});

describe('page tokens cannot be forged or misused', () => {
  async function refused(t: TestTenant, pageToken: string, field = 'pageToken', reason?: RegExp) {
    const r = await t.call('POST', '/api/v1/search/xaa/scopes', { pageSize: 10, pageToken });
    expect(r.status, r.text).toBe(400);
    assertStatus(r.body, 3);
    const body = r.body as { message: string; details: { fieldViolations: { field: string }[] }[] };
    expect(body.details[0]?.fieldViolations[0]?.field).toBe(field);
    if (reason) expect(body.message).toMatch(reason);
  }

  it('a tampered token -> 400 INVALID_ARGUMENT (payload or signature changed)', async () => {
    const t = tenant();
    const token = (await searchScopes(t, { pageSize: 10 })).nextPageToken;
    const [payload, mac] = token.split('.') as [string, string];
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { s: number };
    const forged = Buffer.from(JSON.stringify({ ...decoded, s: decoded.s + 50 })).toString('base64url');
    await refused(t, `${forged}.${mac}`, 'pageToken', /not issued by this tenant or was altered/);
    const flipped = mac.startsWith('A') ? `B${mac.slice(1)}` : `A${mac.slice(1)}`;
    await refused(t, `${payload}.${flipped}`);
    await refused(t, 'garbage', 'pageToken', /malformed/);
    await refused(t, `${payload}.`);
  });

  it('a token from another tenant -> 400, even from one with the same seed and data', async () => {
    const t = tenant();
    const other = await startTestTenant({ seed: 99, scale: 4 });
    const same = await startTestTenant({ seed: 31, scale: 4 });
    try {
      await refused(t, (await searchScopes(other, { pageSize: 10 })).nextPageToken, 'pageToken', /not issued by this tenant/);
      await refused(t, (await searchScopes(same, { pageSize: 10 })).nextPageToken, 'pageToken', /not issued by this tenant/);
    } finally {
      await other.close();
      await same.close();
    }
  });

  it('a token of another listing or other filters -> 400', async () => {
    const t = tenant();
    const automations = await t.call<{ nextPageToken: string }>('POST', '/api/v1/search/automations', { pageSize: 10 });
    await refused(t, automations.body.nextPageToken, 'pageToken', /another listing/);
    const filtered = (await searchScopes(t, { pageSize: 10, stateFilter: ['XAA_SCOPE_STATE_ENABLED'] })).nextPageToken;
    await refused(t, filtered, 'pageToken', /other filters/);
    // A GET names its own field.
    const r = await t.call('GET', `/api/v1/access_reviews?page_token=${encodeURIComponent(filtered)}`);
    expect(r.status).toBe(400);
    expect((r.body as { details: { fieldViolations: { field: string }[] }[] }).details[0]?.fieldViolations[0]?.field).toBe('page_token');
    // Per-app scope lists are separate listings: a token of one app is refused by another.
    const apps = [...new Set([...t.data.scopes.values()].map((s) => s.appId!))];
    const appWithMany = apps.find((a) => [...t.data.scopes.values()].filter((s) => s.appId === a).length > 10)!;
    const appToken = (await t.call<{ nextPageToken: string }>('GET', `/api/v1/apps/${appWithMany}/xaa/scopes?page_size=10`)).body
      .nextPageToken;
    expect(appToken).not.toBe('');
    const otherApp = apps.find((a) => a !== appWithMany)!;
    expect((await t.call('GET', `/api/v1/apps/${otherApp}/xaa/scopes?page_token=${encodeURIComponent(appToken)}`)).status).toBe(400);
  });
});

describe('determinism', () => {
  it('the same seed gives byte-identical answers, but for the opaque page tokens; another seed does not', async () => {
    const requests: [string, string, object?][] = [
      ['POST', '/api/v1/search/xaa/scopes', { pageSize: 50 }],
      ['POST', '/api/v1/search/automations', { pageSize: 10 }],
      ['GET', '/api/v1/access_reviews?page_size=100'],
      ['GET', '/api/v1/mcp_toolsets/search?page_size=100'],
      ['GET', '/api/v1/findings/routing-rules?page_size=100'],
      ['POST', '/api/v1/search/tasks', { pageSize: 100 }],
    ];
    const texts = async (t: TestTenant) => {
      const out: string[] = [];
      const masked = (text: string) => text.replace(/"nextPageToken":"[^"]*"/, '"nextPageToken":"<token>"');
      for (const [method, path, body] of requests) {
        const first = await t.call(method, path, body);
        out.push(masked(first.text));
        const token = (first.body as { nextPageToken: string }).nextPageToken;
        if (token)
          out.push(
            masked(
              (
                await t.call(
                  method,
                  method === 'GET' ? `${path}&page_token=${encodeURIComponent(token)}` : path,
                  method === 'GET' ? undefined : { ...body, pageToken: token },
                )
              ).text,
            ),
          );
      }
      const template = [...t.data.templates.keys()][0]!;
      out.push((await t.call('GET', `/api/v1/access_review_template/${template}`)).text);
      return out;
    };
    const a = await startTestTenant({ seed: 5 });
    const b = await startTestTenant({ seed: 5 });
    const c = await startTestTenant({ seed: 6 });
    try {
      const [ta, tb, tc] = [await texts(a), await texts(b), await texts(c)];
      expect(ta).toEqual(tb);
      ta.forEach((text, i) => expect(text).not.toEqual(tc[i]));
      // Reading an unchanged collection twice gives the same bytes, tokens included.
      const first = await a.call('POST', '/api/v1/search/xaa/scopes', { pageSize: 10 });
      expect((await a.call('POST', '/api/v1/search/xaa/scopes', { pageSize: 10 })).text).toBe(first.text);
      expect(await texts(a)).toEqual(ta);
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });
});
