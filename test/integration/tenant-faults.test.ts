/**
 * Every fault kind of the reference tenant over real HTTP: what the client sees, whether a
 * mutation was applied, that faults spare /_tenant and the token endpoint, and that they are
 * deterministic under the seed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Faults, parseFaultSpec } from '../../src/tenant/faults';
import { assertStatus, startTestTenant, type TestTenant, useTenant } from '../helpers/tenant';

const tenant = useTenant({ seed: 41 });
afterEach(() => tenant().faults.clear());

function createScopeBody(t: TestTenant, scopeValue: string) {
  const app = [...t.data.apps.values()][1]!;
  return { path: `/api/v1/apps/${app.id}/xaa/scopes`, body: { xaaResourceServerId: app.resourceServerIds[0], scopeValue } };
}

const scopeExists = (t: TestTenant, value: string) => [...t.data.scopes.values()].some((s) => s.scopeValue === value);

describe('fault spec', () => {
  it('parses the documented syntax and refuses anything else', () => {
    expect(
      parseFaultSpec(
        'latency=20,jitter=30,error5xx=0.1,rate429=0.05,retryAfter=date,rps=500,truncate=0.01,html=0.01,dropAfterApply=0.1,emptyPages=0.2,tokenExpireEarly=0.2',
      ),
    ).toEqual({
      latency: 20,
      jitter: 30,
      error5xx: 0.1,
      rate429: 0.05,
      retryAfter: 'date',
      rps: 500,
      truncate: 0.01,
      html: 0.01,
      dropAfterApply: 0.1,
      emptyPages: 0.2,
      tokenExpireEarly: 0.2,
    });
    expect(parseFaultSpec(' retryAfter = 3 , ')).toEqual({ retryAfter: 3 });
    expect(parseFaultSpec('')).toEqual({});
    expect(parseFaultSpec('cycleTokens=2')).toEqual({ cycleTokens: 2 });
    for (const bad of [
      'teleport=1',
      'error5xx=1.5',
      'error5xx=-0.1',
      'latency=soon',
      'latency',
      'retryAfter=tomorrow',
      'rps=0',
      'html=',
      'cycleTokens=0',
      'cycleTokens=1.5',
    ]) {
      expect(() => parseFaultSpec(bad), bad).toThrow();
    }
    expect(() => tenant().faults.set('teleport=1')).toThrow(/unknown fault/);
  });

  it('can be read, set and cleared over HTTP through /_tenant/faults', async () => {
    const t = tenant();
    const set = await t.call('POST', '/_tenant/faults', { spec: 'latency=5,error5xx=0.25' });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ faults: { latency: 5, error5xx: 0.25 } });
    expect((await t.call('GET', '/_tenant/faults')).body).toEqual({ faults: { latency: 5, error5xx: 0.25 } });
    const bad = await t.call('POST', '/_tenant/faults', { spec: 'error5xx=2' });
    expect(bad.status).toBe(400);
    assertStatus(bad.body, 3);
    expect((await t.call('POST', '/_tenant/faults', { spec: 7 })).status).toBe(400);
    expect((await t.call('DELETE', '/_tenant/faults')).body).toEqual({ faults: {} });
  });
});

describe('fault kinds', () => {
  it('latency delays API answers and the token endpoint', async () => {
    const t = tenant();
    t.faults.set('latency=150');
    let started = performance.now();
    expect((await t.call('GET', '/api/v1/findings/routing-rules')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(145);
    started = performance.now();
    expect((await t.tokenRequest({ grant_type: 'client_credentials', client_id: t.clientId, client_secret: t.clientSecret })).status).toBe(
      200,
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(145);
  });

  it('jitter adds a uniform 0..MS on top, drawn from the seed', () => {
    const a = new Faults(41);
    const b = new Faults(41);
    const c = new Faults(42);
    for (const f of [a, b, c]) f.set({ latency: 10, jitter: 40 });
    const draws = (f: Faults) => Array.from({ length: 200 }, () => f.delay());
    const [da, db, dc] = [draws(a), draws(b), draws(c)];
    expect(da).toEqual(db);
    expect(da).not.toEqual(dc);
    expect(Math.min(...da)).toBeGreaterThanOrEqual(10);
    expect(Math.max(...da)).toBeLessThan(50);
    expect(Math.max(...da) - Math.min(...da)).toBeGreaterThan(30);
  });

  it('error5xx answers 500 INTERNAL or 503 UNAVAILABLE before handling: a mutation is not applied', async () => {
    const t = tenant();
    t.faults.set('error5xx=1');
    const statuses = new Set<number>();
    for (let i = 0; i < 20; i += 1) {
      const r = await t.call('GET', '/api/v1/access_reviews');
      statuses.add(r.status);
      assertStatus(r.body, r.status === 500 ? 13 : 14);
    }
    expect([...statuses].sort()).toEqual([500, 503]);
    const { path, body } = createScopeBody(t, 'fault:error5xx');
    const before = t.journal().length;
    expect([500, 503]).toContain((await t.call('POST', path, body)).status);
    expect(scopeExists(t, 'fault:error5xx')).toBe(false);
    expect(t.journal()).toHaveLength(before);
  });

  it('rate429 answers 429 RESOURCE_EXHAUSTED with Retry-After in seconds (default 1, or as set)', async () => {
    const t = tenant();
    t.faults.set('rate429=1');
    const r = await t.call('POST', '/api/v1/search/automations', {});
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('1');
    assertStatus(r.body, 8);
    expect((r.body as { details: { '@type': string; retryDelay: string }[] }).details[0]).toEqual({
      '@type': 'type.googleapis.com/google.rpc.RetryInfo',
      retryDelay: '1s',
    });
    t.faults.set('rate429=1,retryAfter=3');
    expect((await t.call('GET', '/api/v1/access_reviews')).headers.get('retry-after')).toBe('3');
  });

  it('retryAfter=date sends Retry-After as an HTTP-date a second or two ahead', async () => {
    const t = tenant();
    t.faults.set('rate429=1,retryAfter=date');
    const r = await t.call('GET', '/api/v1/access_reviews');
    expect(r.status).toBe(429);
    const header = r.headers.get('retry-after')!;
    expect(header).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    const ahead = Date.parse(header) - Date.now();
    expect(ahead).toBeGreaterThan(0);
    expect(ahead).toBeLessThanOrEqual(3000);
  });

  it('rps limits requests per second: beyond the budget 429 with Retry-After, then it recovers', async () => {
    const t = tenant();
    await t.accessToken();
    // A budget of 2 per second: the third request within the same second is over it.
    t.faults.set('rps=2');
    const answers: { status: number; retryAfter: string | null }[] = [];
    for (let i = 0; i < 8; i += 1) {
      const r = await t.call('GET', '/api/v1/findings/routing-rules');
      answers.push({ status: r.status, retryAfter: r.headers.get('retry-after') });
      if (r.status === 429) assertStatus(r.body, 8);
    }
    expect(answers.slice(0, 2).map((a) => a.status)).toEqual([200, 200]);
    const limited = answers.filter((a) => a.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(1);
    expect(limited.every((a) => Number(a.retryAfter) >= 1)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await t.call('GET', '/api/v1/findings/routing-rules')).status).toBe(200);
  });

  it('truncate cuts a 200 body halfway after announcing its full length; the mutation was applied', async () => {
    const t = tenant();
    t.faults.set('truncate=1');
    const response = await fetch(`${t.url}/api/v1/access_reviews?page_size=50`, {
      headers: { Authorization: `Bearer ${await t.accessToken()}` },
    });
    expect(response.status).toBe(200);
    expect(Number(response.headers.get('content-length'))).toBeGreaterThan(1000);
    await expect(response.text()).rejects.toThrow();
    const { path, body } = createScopeBody(t, 'fault:truncate');
    const created = await fetch(`${t.url}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${await t.accessToken()}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    await expect(created.text()).rejects.toThrow();
    expect(scopeExists(t, 'fault:truncate')).toBe(true);
  });

  it('html answers 200 with an HTML page instead of JSON; the request is not handled', async () => {
    const t = tenant();
    t.faults.set('html=1');
    const r = await t.call('GET', '/api/v1/access_reviews');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    expect(r.text).toMatch(/^<!DOCTYPE html>/);
    expect(r.body).toBeUndefined();
    const { path, body } = createScopeBody(t, 'fault:html');
    expect((await t.call('POST', path, body)).status).toBe(200);
    expect(scopeExists(t, 'fault:html')).toBe(false);
  });

  it('dropAfterApply applies a mutation, then drops the connection without an answer (exactly once in the journal); reads are spared', async () => {
    const t = tenant();
    await t.accessToken();
    t.faults.set('dropAfterApply=1');
    expect((await t.call('GET', '/api/v1/access_reviews')).status).toBe(200);
    const { path, body } = createScopeBody(t, 'fault:drop');
    await expect(t.call('POST', path, body)).rejects.toThrow();
    expect(scopeExists(t, 'fault:drop')).toBe(true);
    expect(t.journal().filter((e) => (e.request as { scopeValue?: string }).scopeValue === 'fault:drop')).toHaveLength(1);
    t.faults.clear();
    // Sending it again is refused as a duplicate: the client must reconcile, not resend.
    expect((await t.call('POST', path, body)).status).toBe(409);
  });

  it('aborted refuses a mutation with 409 ABORTED before handling it (nothing applied, no journal entry); reads are spared', async () => {
    const t = tenant();
    await t.accessToken();
    t.faults.set('aborted=1');
    expect((await t.call('GET', '/api/v1/access_reviews')).status).toBe(200);
    const { path, body } = createScopeBody(t, 'fault:aborted');
    const refused = await t.call<{ code: number; message: string }>('POST', path, body);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe(10);
    expect(scopeExists(t, 'fault:aborted')).toBe(false);
    expect(t.journal().filter((e) => (e.request as { scopeValue?: string }).scopeValue === 'fault:aborted')).toHaveLength(0);
    t.faults.clear();
    expect((await t.call('POST', path, body)).status).toBe(200);
  });

  it('emptyPages answers some pages empty with a live token at the same place; the walk still sees everything once', async () => {
    const t = tenant();
    const walk = async () => {
      const ids: string[] = [];
      let empties = 0;
      let pageToken = '';
      do {
        const r = await t.call<{ list: { id: string }[]; nextPageToken: string }>('POST', '/api/v1/search/xaa/scopes', {
          pageSize: 10,
          pageToken,
        });
        expect(r.status).toBe(200);
        if (r.body.list.length === 0) {
          empties += 1;
          expect(r.body.nextPageToken).not.toBe('');
        }
        ids.push(...r.body.list.map((s) => s.id));
        pageToken = r.body.nextPageToken;
      } while (pageToken);
      return { ids, empties };
    };
    t.faults.set('emptyPages=0.5');
    const first = await walk();
    expect(first.ids).toEqual([...t.data.scopes.keys()]);
    expect(first.empties).toBeGreaterThan(0);
    // Deterministic: the same spec again gives the same empty pages.
    t.faults.set('emptyPages=0.5');
    expect((await walk()).empties).toBe(first.empties);
  });

  it('cycleTokens=N makes the page fetched with the N-th token hand back the first token: a cycle of N', async () => {
    const t = tenant();
    /** The tokens a walk of the scopes is handed, in order, for `pages` pages (a cycle never ends by itself). */
    const tokens = async (pages: number) => {
      const seen: string[] = [];
      let pageToken = '';
      for (let page = 0; page < pages; page += 1) {
        const r = await t.call<{ list: unknown[]; nextPageToken: string }>('POST', '/api/v1/search/xaa/scopes', {
          pageSize: 10,
          pageToken,
        });
        expect(r.status).toBe(200);
        expect(r.body.list).toHaveLength(10);
        pageToken = r.body.nextPageToken;
        seen.push(pageToken);
      }
      return seen;
    };
    t.faults.set('cycleTokens=1');
    const [a, ...rest] = await tokens(4);
    expect(rest).toEqual([a, a, a]);
    t.faults.set('cycleTokens=2');
    const two = await tokens(6);
    expect(two[0]).not.toBe(two[1]);
    expect(two).toEqual([two[0], two[1], two[0], two[1], two[0], two[1]]);
    t.faults.set('cycleTokens=3');
    const three = await tokens(7);
    expect(new Set(three.slice(0, 3)).size).toBe(3);
    expect(three.slice(3)).toEqual([...three.slice(0, 3), three[0]]);
  });

  it('tokenExpireEarly makes a token die after its first API request, long before expires_in', async () => {
    const t = tenant();
    t.faults.set('tokenExpireEarly=1');
    const mint = async () => {
      const r = await t.tokenRequest({ grant_type: 'client_credentials', client_id: t.clientId, client_secret: t.clientSecret });
      expect((r.body as { expires_in: number }).expires_in).toBe(3600);
      return { Authorization: `Bearer ${(r.body as { access_token: string }).access_token}` };
    };
    const headers = await mint();
    // The test hooks do not spend it.
    expect((await fetch(`${t.url}/_tenant/journal`, { headers })).status).toBe(200);
    expect((await fetch(`${t.url}/api/v1/access_reviews`, { headers })).status).toBe(200);
    const second = await fetch(`${t.url}/api/v1/access_reviews`, { headers });
    expect(second.status).toBe(401);
    const body = await second.json();
    assertStatus(body, 16);
    expect(body.message).toMatch(/expired/);
    expect((await fetch(`${t.url}/api/v1/access_reviews`, { headers: await mint() })).status).toBe(200);
  });
});

describe('scope of faults', () => {
  it('never touch /_tenant, and give the token endpoint latency only', async () => {
    const t = tenant();
    await t.accessToken();
    t.faults.set('error5xx=1,rate429=1,html=1,truncate=1,tokenExpireEarly=0');
    expect((await t.call('GET', '/_tenant/journal')).status).toBe(200);
    const token = await t.tokenRequest({ grant_type: 'client_credentials', client_id: t.clientId, client_secret: t.clientSecret });
    expect(token.status).toBe(200);
    expect(token.body).toHaveProperty('access_token');
  });

  it('are deterministic under the seed: the same sequence of answers for the same requests', async () => {
    const statuses = async (seed: number) => {
      const t = await startTestTenant({ seed, faults: 'error5xx=0.3,rate429=0.2,html=0.1' });
      try {
        const out: number[] = [];
        for (let i = 0; i < 40; i += 1) out.push((await t.call('GET', '/api/v1/findings/routing-rules')).status);
        return out.join(',');
      } finally {
        await t.close();
      }
    };
    const a = await statuses(7);
    expect(await statuses(7)).toBe(a);
    expect(await statuses(8)).not.toBe(a);
    expect(new Set(a.split(','))).toEqual(new Set(['200', '500', '503', '429']));
  });
});
