/**
 * The reference tenant at `--scale large`: how long it takes to start (generate >= 100,000
 * objects, 200,000 memberships among them, and listen), the heap it keeps, and how fast it serves
 * pages over real HTTP on loopback (grants and an entitlement's members included).
 */
import { startTenant } from '../../src/tenant/server';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export async function benchTenant(): Promise<Record<string, number>> {
  // With --expose-gc the heap figure is what stays live, not what is waiting to be collected.
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  const tenant = await startTenant({ scale: 'large', seed: 1 });
  const startMs = performance.now() - started;
  gc?.();
  const heapMB = Math.round((process.memoryUsage().heapUsed - heapBefore) / 1e6);
  try {
    const counts = tenant.data.counts();
    const objects = Object.values(counts).reduce((a, b) => a + b, 0);
    const token = await fetch(`${tenant.url}/auth/v1/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: tenant.clientId, client_secret: tenant.clientSecret }),
    });
    const { access_token } = (await token.json()) as { access_token: string };
    const headers = { Authorization: `Bearer ${access_token}`, 'Content-Type': 'application/json' };

    /** Times `pages` consecutive pages of one walk; returns the sorted milliseconds per page. */
    async function walk(pages: number, next: (pageToken: string) => Promise<Response>): Promise<number[]> {
      const times: number[] = [];
      let pageToken = '';
      for (let i = 0; i < pages; i += 1) {
        const t0 = performance.now();
        const response = await next(pageToken);
        const body = (await response.json()) as { nextPageToken: string };
        times.push(performance.now() - t0);
        if (response.status !== 200) throw new Error(`page ${i}: ${response.status}`);
        pageToken = body.nextPageToken;
      }
      return times.sort((a, b) => a - b);
    }

    const post = (path: string, body: object) => fetch(`${tenant.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const get = (path: string) => fetch(`${tenant.url}${path}`, { headers });
    // Warm up the JIT and the connection pool before measuring.
    await walk(20, (pageToken) => post('/api/v1/search/xaa/scopes', { pageSize: 100, pageToken }));

    const scopes = await walk(200, (pageToken) => post('/api/v1/search/xaa/scopes', { pageSize: 100, pageToken }));
    const tasks = await walk(100, (pageToken) => post('/api/v1/search/tasks', { pageSize: 100, pageToken }));
    const campaigns = await walk(80, (pageToken) =>
      get(`/api/v1/access_reviews?page_size=100&page_token=${encodeURIComponent(pageToken)}`),
    );
    const automations = await walk(200, (pageToken) => post('/api/v1/search/automations', { pageSize: 10, pageToken }));
    // Resuming deep in the largest collection costs what the first page costs (keyset, not offset).
    const deepToken = await (async () => {
      let pageToken = '';
      for (let i = 0; i < 195; i += 1)
        pageToken = ((await (await post('/api/v1/search/xaa/scopes', { pageSize: 100, pageToken })).json()) as { nextPageToken: string })
          .nextPageToken;
      return pageToken;
    })();
    const deep = await walk(5, (pageToken) => post('/api/v1/search/xaa/scopes', { pageSize: 100, pageToken: pageToken || deepToken }));
    const grants = await walk(100, (pageToken) => post('/api/v1/search/grants', { pageSize: 100, pageToken }));
    // The members of the largest entitlement: a filtered walk over all memberships.
    const perEntitlement = new Map<string, number>();
    for (const m of tenant.data.memberships.values())
      perEntitlement.set(m.appEntitlementId, (perEntitlement.get(m.appEntitlementId) ?? 0) + 1);
    const [largestId] = [...perEntitlement].sort((a, b) => b[1] - a[1])[0] ?? [''];
    const largest = tenant.data.entitlements.get(largestId)!;
    const members = await walk(20, (pageToken) =>
      get(`/api/v1/apps/${largest.appId}/entitlements/${largest.id}/users?page_size=100&page_token=${encodeURIComponent(pageToken)}`),
    );
    const entitlements = await walk(50, (pageToken) => post('/api/v1/search/entitlements', { pageSize: 100, pageToken }));

    return {
      largeStartMs: Math.round(startMs),
      objects,
      automations: counts.automations,
      scopes: counts.scopes,
      memberships: counts.memberships,
      tasks: counts.tasks,
      heapMB,
      scopePage100P50Ms: percentile(scopes, 50),
      scopePage100P95Ms: percentile(scopes, 95),
      taskPage100P50Ms: percentile(tasks, 50),
      taskPage100P95Ms: percentile(tasks, 95),
      campaignPage100P50Ms: percentile(campaigns, 50),
      automationPage10P50Ms: percentile(automations, 50),
      automationPage10P95Ms: percentile(automations, 95),
      deepScopePage100P50Ms: percentile(deep, 50),
      grantPage100P50Ms: percentile(grants, 50),
      grantPage100P95Ms: percentile(grants, 95),
      membersPage100P50Ms: percentile(members, 50),
      entitlementPage100P50Ms: percentile(entitlements, 50),
    };
  } finally {
    await tenant.close();
  }
}
