/** Every endpoint function: method, path (encoded), query, body, read/mutation, and the page walk. */
import { describe, expect, it } from 'vitest';
import type { ApiClient, ApiRequest, ApiResponse } from '../../src/main/api/client';
import * as endpoints from '../../src/main/api/endpoints';
import { paginate, pageRows, type PageLike, type PageRequest } from '../../src/main/api/paginate';

function recorder(answer: (req: ApiRequest) => unknown = () => ({})) {
  const calls: ApiRequest[] = [];
  const api: ApiClient = {
    apiRoot: 'https://tenant.example.com/api/v1',
    clientId: 'a@tenant.example.com/attest',
    getToken: async () => 'tok',
    request: async <T>(req: ApiRequest): Promise<ApiResponse<T>> => {
      calls.push(req);
      const body = answer(req);
      return { status: 200, body: body as T, text: JSON.stringify(body) };
    },
  };
  return { api, calls };
}

describe('endpoints', () => {
  it('builds each request as the spec and the vendor document say', async () => {
    const { api, calls } = recorder();
    const signal = new AbortController().signal;
    await endpoints.createScope(api, 'app/1', { scopeValue: 'read:x', xaaResourceServerId: 'rs' }, { signal });
    await endpoints.removeMembership(api, 'app1', 'ent 1', { appUserId: 'u1' });
    await endpoints.updateAccessReviewTemplate(api, 'tpl1', { accessReviewTemplate: { displayName: 'n' }, updateMask: 'displayName' });
    await endpoints.searchAutomations(api, { pageSize: 10, query: 'q' });
    await endpoints.getAccessReview(api, 'c?1');
    await endpoints.createAccessReview(api, { displayName: 'c', ownerIds: ['u1'] });
    await endpoints.escalateTask(api, 't#1', { comment: 'now' });
    await endpoints.getMcpToolsetByEntitlement(api, 'app1', 'ent1');
    await endpoints.listRoutingRules(api, { pageSize: 100, pageToken: 'tk' }, { extraQuery: { app_id: 'app1' } });
    await endpoints.listAccessReviews(api, { pageSize: 100 });
    await endpoints.getAccessReviewTemplate(api, 'tpl1');
    await endpoints.searchMcpToolsets(api, { pageSize: 50, query: 'db' });
    await endpoints.searchScopes(api, { pageSize: 100, pageToken: 'p2' });
    await endpoints.listAppScopes(api, 'app1', { pageToken: '' });
    await endpoints.listAutomations(api, { pageSize: 10, pageToken: 'n' });
    await endpoints.searchTasks(api, { pageSize: 100 });
    await endpoints.getTask(api, 't1');
    const summary = calls.map((c) => [c.method, c.path, c.query ?? null, c.body ?? null, c.mutation ?? null]);
    expect(summary).toEqual([
      ['POST', '/apps/app%2F1/xaa/scopes', null, { scopeValue: 'read:x', xaaResourceServerId: 'rs' }, null],
      ['DELETE', '/apps/app1/entitlements/ent%201/remove-membership', null, { appUserId: 'u1' }, null],
      ['POST', '/access_review_template/tpl1', null, { accessReviewTemplate: { displayName: 'n' }, updateMask: 'displayName' }, null],
      ['POST', '/search/automations', null, { pageSize: 10, query: 'q' }, false],
      ['GET', '/access_review/c%3F1', null, null, null],
      ['POST', '/access_review', null, { displayName: 'c', ownerIds: ['u1'] }, null],
      ['POST', '/tasks/t%231/action/escalate', null, { comment: 'now' }, null],
      ['GET', '/apps/app1/mcp_toolsets/by_app_entitlement_id/ent1', null, null, null],
      ['GET', '/findings/routing-rules', { app_id: 'app1', page_size: 100, page_token: 'tk' }, null, null],
      ['GET', '/access_reviews', { page_size: 100, page_token: undefined }, null, null],
      ['GET', '/access_review_template/tpl1', null, null, null],
      ['GET', '/mcp_toolsets/search', { page_size: 50, page_token: undefined, query: 'db' }, null, null],
      ['POST', '/search/xaa/scopes', null, { pageSize: 100, pageToken: 'p2' }, false],
      ['GET', '/apps/app1/xaa/scopes', { page_size: undefined, page_token: undefined }, null, null],
      ['GET', '/automations', { page_size: 10, page_token: 'n' }, null, null],
      ['POST', '/search/tasks', null, { pageSize: 100 }, false],
      ['GET', '/tasks/t1', null, null, null],
    ]);
    expect(calls[0]!.signal).toBe(signal);
  });

  it('rejects (never throws synchronously) on an empty path parameter', async () => {
    const { api, calls } = recorder();
    const pending = endpoints.removeMembership(api, 'app1', '', { appUserId: 'u1' });
    await expect(pending).rejects.toMatchObject({ kind: 'invalid_input', message: expect.stringContaining('app_entitlement_id') });
    await expect(endpoints.getTask(api, ' ')).rejects.toMatchObject({ kind: 'invalid_input' });
    await expect(endpoints.listAppScopes(api, '..')).rejects.toMatchObject({ kind: 'invalid_input' });
    expect(calls).toHaveLength(0);
  });
});

describe('paginate', () => {
  function pages(tokens: Array<{ rows: string[]; next: string }>) {
    const seen: Array<{ pageSize: number; pageToken: string }> = [];
    const byToken = new Map<string, { rows: string[]; next: string }>();
    let previous = '';
    for (const page of tokens) {
      byToken.set(previous, page);
      previous = page.next;
    }
    const fetchPage = async (req: { pageSize: number; pageToken: string }) => {
      seen.push(req);
      const page = byToken.get(req.pageToken)!;
      const body = { list: page.rows, nextPageToken: page.next };
      return { status: 200, body, text: JSON.stringify(body) };
    };
    return { fetchPage, seen };
  }

  it('walks until nextPageToken is empty, through empty pages with a live token', async () => {
    const { fetchPage, seen } = pages([
      { rows: ['a', 'b'], next: 't1' },
      { rows: [], next: 't2' },
      { rows: [], next: 't3' },
      { rows: ['c'], next: '' },
    ]);
    const rows: string[] = [];
    const steps: Array<[string, string]> = [];
    for await (const step of paginate<string>(fetchPage, { pageSize: 100 })) {
      rows.push(...pageRows<string>(step.response.body));
      steps.push([step.pageToken, step.nextPageToken]);
    }
    expect(rows).toEqual(['a', 'b', 'c']);
    expect(steps).toEqual([
      ['', 't1'],
      ['t1', 't2'],
      ['t2', 't3'],
      ['t3', ''],
    ]);
    expect(seen.every((s) => s.pageSize === 100)).toBe(true);
  });

  it('clamps the page size and resumes from a saved token', async () => {
    const { fetchPage, seen } = pages([
      { rows: ['a'], next: 't1' },
      { rows: ['b'], next: 't2' },
      { rows: ['c'], next: '' },
    ]);
    const rows: string[] = [];
    for await (const step of paginate<string>(fetchPage, { pageSize: 500, startToken: 't1' }))
      rows.push(...(step.response.body.list ?? []));
    expect(rows).toEqual(['b', 'c']);
    expect(seen.map((s) => s.pageSize)).toEqual([100, 100]);
    const small = pages([{ rows: [], next: '' }]);
    for await (const _ of paginate<string>(small.fetchPage, { pageSize: 3 })) void _;
    expect(small.seen[0]!.pageSize).toBe(10);
  });

  it('accepts an empty page that hands back the same token, but not forever', async () => {
    let calls = 0;
    const fetchPage = async (req: { pageToken: string }) => {
      calls += 1;
      const body: PageLike & { list: string[] } = calls < 4 ? { list: [], nextPageToken: 'same' } : { list: ['x'], nextPageToken: '' };
      void req;
      return { status: 200, body, text: '' };
    };
    const rows: string[] = [];
    for await (const step of paginate(fetchPage, { pageSize: 10 })) rows.push(...step.response.body.list);
    expect(rows).toEqual(['x']);
    const stuck = async () => ({ status: 200, body: { list: [], nextPageToken: 'same' }, text: '' });
    const walk = async () => {
      for await (const _ of paginate(stuck, { pageSize: 10, maxRepeats: 5 })) void _;
    };
    await expect(walk()).rejects.toMatchObject({ kind: 'bad_response' });
  });

  it('walks every collection with the largest page allowed (automations: 10)', async () => {
    const { api, calls } = recorder((req) => {
      const token = (req.query?.page_token as string | undefined) ?? (req.body as { pageToken?: string } | undefined)?.pageToken ?? '';
      return token === '' ? { list: [1], profiles: [1], nextPageToken: 'n' } : { list: [2], profiles: [2], nextPageToken: '' };
    });
    for (const [name, walk] of Object.entries(endpoints.walks)) {
      calls.length = 0;
      const rows: unknown[] = [];
      const fetchPage = walk.fetchPage(api) as (req: PageRequest, signal?: AbortSignal) => Promise<ApiResponse<PageLike>>;
      for await (const step of paginate(fetchPage, { pageSize: walk.pageSize })) rows.push(...pageRows(step.response.body, walk.listKey));
      expect(rows, name).toEqual([1, 2]);
      expect(calls, name).toHaveLength(2);
      const size = calls[0]!.query?.page_size ?? (calls[0]!.body as { pageSize?: number }).pageSize;
      expect(size, name).toBe(name.toLowerCase().includes('automations') ? 10 : 100);
    }
  });
});
