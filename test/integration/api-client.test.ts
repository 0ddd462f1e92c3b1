/**
 * The API client against the reference tenant over real HTTP on a random loopback port: both token
 * flows, token lifetime, one mint under load, 401 re-mint, 429 in both Retry-After forms, 5xx for
 * reads and mutations, the dropped-connection fault, cut-off and HTML bodies, every endpoint, and
 * the tenant's refusal of bad credentials.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, RateLimiter, tokenMints, type ApiClient, type ApiClientOptions, type ApiEvent } from '../../src/main/api/client';
import { CredentialError, parseClientId, parseClientSecret } from '../../src/main/api/credentials';
import * as endpoints from '../../src/main/api/endpoints';
import { paginate, pageRows, type PageLike, type PageRequest } from '../../src/main/api/paginate';
import type { ApiResponse } from '../../src/main/api/client';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { failure } from '../helpers/api-errors';

let tenant: ReferenceTenant;
let scopeCounter = 0;

beforeAll(async () => {
  tenant = await startTenant({ port: 0, seed: 4 });
});
afterAll(async () => {
  await tenant?.close();
});
afterEach(() => tenant.faults.clear());

function client(extra: Partial<ApiClientOptions> = {}, t: ReferenceTenant = tenant): ApiClient {
  return createApiClient({ clientId: t.clientId, clientSecret: t.clientSecret, backoffBaseMs: 20, ...extra });
}

function anyCampaignId(): string {
  return tenant.data.campaigns.keys().next().value as string;
}

function scopeTarget() {
  const app = [...tenant.data.apps.values()].find((a) => a.resourceServerIds.length > 0)!;
  return { appId: app.id, xaaResourceServerId: app.resourceServerIds[0]! };
}

function newScope(api: ApiClient) {
  const { appId, xaaResourceServerId } = scopeTarget();
  scopeCounter += 1;
  const scopeValue = `attest:it-${Date.now().toString(36)}-${scopeCounter}`;
  const call = endpoints.createScope(api, appId, {
    xaaResourceServerId,
    scopeValue,
    displayName: `Integration ${scopeCounter}`,
    description: 'created by the API client integration test',
    classification: 'XAA_SCOPE_CLASSIFICATION_READ',
    state: 'XAA_SCOPE_STATE_UNSPECIFIED',
  });
  return { call, scopeValue };
}

const applied = (scopeValue: string) => tenant.journal().filter((e) => JSON.stringify(e.request).includes(scopeValue));

describe('token flows', () => {
  it('gets a token with a signed assertion (default) and with the basic secret form', async () => {
    for (const auth of ['assertion', 'secret'] as const) {
      const events: ApiEvent[] = [];
      const api = client({ auth, onEvent: (e) => events.push(e) });
      const response = await endpoints.getAccessReview(api, anyCampaignId());
      expect(response.status).toBe(200);
      expect(response.body.accessReview?.accessReview?.id).toBe(anyCampaignId());
      expect(events.filter((e) => e.type === 'token-minted')).toEqual([{ type: 'token-minted', auth, expiresInSeconds: 3600 }]);
    }
  });

  it('is refused, as an auth error with the reason, for a key or secret that is not the client’s', async () => {
    const other = tenant.issueCredentials();
    for (const auth of ['assertion', 'secret'] as const) {
      const api = createApiClient({ clientId: tenant.clientId, clientSecret: other.clientSecret, auth });
      const error = await failure(api.getToken());
      expect(error.kind).toBe('auth');
      expect(error.status).toBe(401);
      expect(error.oauthError).toBe('invalid_client');
      expect(error.message).not.toContain(other.clientSecret);
    }
    const unknown = createApiClient({ clientId: `nobody@${new URL(tenant.url).host}/attest`, clientSecret: tenant.clientSecret });
    expect((await failure(unknown.getToken())).message).toMatch(/unknown client/);
  });

  it('refuses every malformed credential locally, each with its own message', async () => {
    const messages = new Set<string>();
    const host = new URL(tenant.url).host;
    for (const id of [
      '',
      `x${host}/attest`,
      `@${host}/attest`,
      `a@${host}`,
      `a@/attest`,
      'a@127.0.0.1:99999/attest',
      'a@bad_host/attest',
    ]) {
      try {
        parseClientId(id);
        throw new Error(`accepted ${id}`);
      } catch (error) {
        expect(error).toBeInstanceOf(CredentialError);
        messages.add((error as Error).message);
      }
    }
    const payload = tenant.clientSecret.split(':v1:')[1]!;
    const jwk = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, string>;
    const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    for (const secret of [
      '',
      `token:${tenant.domain}:v1:${payload}`,
      `secret-token:${tenant.domain}:v9:${payload}`,
      `secret-token:${tenant.domain}:v1:${payload}!`,
      `secret-token:${tenant.domain}:v1:${Buffer.from('nope').toString('base64url')}`,
      `secret-token:${tenant.domain}:v1:${enc({ ...jwk, kty: 'EC' })}`,
      `secret-token:${tenant.domain}:v1:${enc({ ...jwk, crv: 'X25519' })}`,
      `secret-token:${tenant.domain}:v1:${enc({ kty: 'OKP', crv: 'Ed25519', x: jwk.x })}`,
    ]) {
      try {
        await parseClientSecret(secret);
        throw new Error('accepted a bad secret');
      } catch (error) {
        expect(error).toBeInstanceOf(CredentialError);
        expect((error as Error).message).not.toContain(jwk.d);
        messages.add((error as Error).message);
      }
    }
    expect(messages.size).toBe(15);
  });
});

describe('token lifetime', () => {
  it('re-mints before expiry with a short token TTL, never meeting a 401', async () => {
    const shortLived = await startTenant({ port: 0, seed: 5, tokenTtlSeconds: 2 });
    try {
      const events: ApiEvent[] = [];
      const api = client({ onEvent: (e) => events.push(e) }, shortLived);
      const started = Date.now();
      let calls = 0;
      while (Date.now() - started < 3200) {
        await endpoints.listRoutingRules(api, { pageSize: 10 });
        calls += 1;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(calls).toBeGreaterThanOrEqual(10);
      expect(events.filter((e) => e.type === 'reauth')).toHaveLength(0);
      // A 2 s token is renewed at half its life: about every second, never once per call.
      const mints = events.filter((e) => e.type === 'token-minted').length;
      expect(mints).toBeGreaterThanOrEqual(3);
      expect(mints).toBeLessThan(calls);
    } finally {
      await shortLived.close();
    }
  });

  it('mints one token for 50 concurrent calls', async () => {
    tenant.faults.set('latency=30');
    const events: ApiEvent[] = [];
    const api = client({ onEvent: (e) => events.push(e) });
    const answers = await Promise.all(Array.from({ length: 50 }, () => endpoints.listRoutingRules(api, { pageSize: 10 })));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(tokenMints(api)).toBe(1);
    expect(events.filter((e) => e.type === 'token-request')).toHaveLength(1);
  });

  it('a 401 re-mints once and retries once, for reads and mutations alike', async () => {
    tenant.faults.set('tokenExpireEarly=1');
    const events: ApiEvent[] = [];
    const api = client({ onEvent: (e) => events.push(e) });
    await endpoints.listRoutingRules(api, {}); // token 1, first use
    await endpoints.getAccessReview(api, anyCampaignId()); // token 1 dead -> 401 -> token 2
    const { call, scopeValue } = newScope(api); // token 2 dead -> 401 -> token 3
    const created = await call;
    expect(created.body.scope?.scopeValue).toBe(scopeValue);
    expect(events.filter((e) => e.type === 'reauth')).toHaveLength(2);
    expect(tokenMints(api)).toBe(3);
    expect(applied(scopeValue)).toHaveLength(1);
  });
});

describe('429, Retry-After and the shared limiter', () => {
  for (const form of ['1', 'date'] as const) {
    it(`waits for Retry-After (${form === 'date' ? 'HTTP-date' : 'seconds'}) and then succeeds, mutation included`, async () => {
      const api = client();
      await api.getToken();
      tenant.faults.set(`rate429=1,retryAfter=${form}`);
      const events: ApiEvent[] = [];
      const watched = createApiClient({ clientId: tenant.clientId, clientSecret: tenant.clientSecret, onEvent: (e) => events.push(e) });
      await watched.getToken();
      setTimeout(() => tenant.faults.clear(), 300);
      const started = Date.now();
      const { call, scopeValue } = newScope(watched);
      const created = await call;
      const waited = Date.now() - started;
      expect(created.status).toBe(200);
      expect(waited).toBeGreaterThanOrEqual(900);
      expect(waited).toBeLessThan(form === 'date' ? 4000 : 3000);
      const limited = events.filter((e) => e.type === 'rate-limited');
      expect(limited.length).toBeGreaterThanOrEqual(1);
      expect(applied(scopeValue)).toHaveLength(1);
    });
  }

  it('a burst over the rate limit completes: every sender honours the same Retry-After', async () => {
    tenant.faults.set('rps=10');
    const limiter = new RateLimiter();
    const api = client({ limiter, maxRetries: 6 });
    await api.getToken();
    const answers = await Promise.all(Array.from({ length: 30 }, () => endpoints.listRoutingRules(api, { pageSize: 10 })));
    expect(answers).toHaveLength(30);
  });

  it('gives up with rate_limited when the tenant keeps refusing', async () => {
    tenant.faults.set('rate429=1,retryAfter=0');
    const error = await failure(endpoints.listRoutingRules(client({ maxRetries: 2 }), {}));
    expect(error.kind).toBe('rate_limited');
    expect(error.status).toBe(429);
    expect(error.attempts).toBe(3);
  });
});

describe('5xx and dropped connections', () => {
  it('retries reads through a share of 500/503 answers', async () => {
    tenant.faults.set('error5xx=0.4');
    const events: ApiEvent[] = [];
    const api = client({ maxRetries: 8, backoffBaseMs: 5, onEvent: (e) => events.push(e) });
    for (let i = 0; i < 10; i += 1) expect((await endpoints.getAccessReview(api, anyCampaignId())).status).toBe(200);
    expect(events.filter((e) => e.type === 'retry').length).toBeGreaterThan(0);
  });

  it('never resends a mutation answered 500/503', async () => {
    tenant.faults.set('error5xx=1');
    const events: ApiEvent[] = [];
    const api = client({ onEvent: (e) => events.push(e) });
    const { call, scopeValue } = newScope(api);
    const error = await failure(call);
    expect(error.kind).toBe('server');
    expect([500, 503]).toContain(error.status);
    expect(error.attempts).toBe(1);
    expect(events.filter((e) => e.type === 'request')).toHaveLength(1);
    expect(applied(scopeValue)).toHaveLength(0);
  });

  it('a read that keeps failing ends as a server error after its retries', async () => {
    tenant.faults.set('error5xx=1');
    const error = await failure(endpoints.listRoutingRules(client({ maxRetries: 2, backoffBaseMs: 5 }), {}));
    expect(error.kind).toBe('server');
    expect(error.attempts).toBe(3);
  });

  it('a connection dropped after the change was applied is uncertain, and the change arrived exactly once', async () => {
    tenant.faults.set('dropAfterApply=1');
    const api = client();
    const { call, scopeValue } = newScope(api);
    const error = await failure(call);
    expect(error.kind).toBe('uncertain');
    expect(error.mayHaveApplied).toBe(true);
    expect(error.message).toMatch(/may have been applied/);
    tenant.faults.clear();
    expect(applied(scopeValue)).toHaveLength(1);
    // Reconciling by reading finds it.
    const found = await endpoints.searchScopes(api, { query: scopeValue, pageSize: 100 });
    expect((found.body.list ?? []).some((s) => s.scopeValue === scopeValue)).toBe(true);
  });
});

describe('broken bodies', () => {
  it('a body cut off mid-way: a clear bad_response for a read, uncertain for a mutation', async () => {
    tenant.faults.set('truncate=1');
    const read = await failure(endpoints.listRoutingRules(client({ maxRetries: 1, backoffBaseMs: 5 }), {}));
    expect(read.kind).toBe('bad_response');
    expect(read.status).toBe(200);
    expect(read.message).toMatch(/cut off/);
    const { call, scopeValue } = newScope(client());
    const write = await failure(call);
    expect(write.kind).toBe('uncertain');
    expect(applied(scopeValue)).toHaveLength(1);
  });

  it('a 200 with an HTML page: a clear bad_response naming the content type', async () => {
    tenant.faults.set('html=1');
    const error = await failure(endpoints.getAccessReview(client(), anyCampaignId()));
    expect(error.kind).toBe('bad_response');
    expect(error.status).toBe(200);
    expect(error.message).toMatch(/text\/html.*not JSON/);
  });

  it('an occasional cut-off read is retried transparently', async () => {
    tenant.faults.set('truncate=0.3');
    const api = client({ maxRetries: 8, backoffBaseMs: 5 });
    for (let i = 0; i < 10; i += 1) expect((await endpoints.listRoutingRules(api, {})).status).toBe(200);
  });
});

describe('endpoints against the tenant', () => {
  it('walks every collection through empty pages with a live token, asking for the largest page', async () => {
    const api = client();
    const totals: Record<string, number> = {};
    for (const [name, walk] of Object.entries(endpoints.walks)) {
      const fetchPage = walk.fetchPage(api) as (req: PageRequest, signal?: AbortSignal) => Promise<ApiResponse<PageLike>>;
      let rows = 0;
      for await (const step of paginate(fetchPage, { pageSize: walk.pageSize })) rows += pageRows(step.response.body, walk.listKey).length;
      totals[name] = rows;
    }
    tenant.faults.set('emptyPages=0.5');
    let emptyPages = 0;
    for (const [name, walk] of Object.entries(endpoints.walks)) {
      const fetchPage = walk.fetchPage(api) as (req: PageRequest, signal?: AbortSignal) => Promise<ApiResponse<PageLike>>;
      let rows = 0;
      let empty = 0;
      for await (const step of paginate(fetchPage, { pageSize: walk.pageSize })) {
        const n = pageRows(step.response.body, walk.listKey).length;
        rows += n;
        if (n === 0 && step.nextPageToken) empty += 1;
      }
      expect(rows, name).toBe(totals[name]);
      emptyPages += empty;
    }
    expect(emptyPages).toBeGreaterThan(0);
    expect(totals.automations).toBe(tenant.data.automations.size);
    expect(totals.scopes).toBe(tenant.data.scopes.size);
  });

  it('resumes a walk from a saved token', async () => {
    const api = client();
    const fetchPage = endpoints.walks.automations.fetchPage(api);
    const all: string[] = [];
    let saved = '';
    for await (const step of paginate(fetchPage, { pageSize: 10 })) {
      all.push(...(step.response.body.list ?? []).map((a) => a.id!));
      if (all.length === 10) saved = step.nextPageToken;
    }
    const rest: string[] = [];
    for await (const step of paginate(fetchPage, { pageSize: 10, startToken: saved }))
      rest.push(...(step.response.body.list ?? []).map((a) => a.id!));
    expect(rest).toEqual(all.slice(10));
  });

  it('calls every endpoint of the spec and keeps unknown fields and enum values', async () => {
    const api = client();
    const campaignId = anyCampaignId();
    const campaign = await endpoints.getAccessReview(api, campaignId);
    const templateId = [...tenant.data.templates.keys()][0]!;
    expect((await endpoints.getAccessReviewTemplate(api, templateId)).body.accessReviewTemplate?.id).toBe(templateId);
    const updated = await endpoints.updateAccessReviewTemplate(api, templateId, {
      accessReviewTemplate: { displayName: 'Renamed by the client test' },
      updateMask: 'displayName',
    });
    expect(updated.body.accessReviewTemplate?.displayName).toBe('Renamed by the client test');
    const ownerId = tenant.data.identityUserIds[0]!;
    const createdCampaign = await endpoints.createAccessReview(api, {
      displayName: 'Client test campaign',
      ownerIds: [ownerId],
      duplicateFrom: campaignId,
    });
    expect(createdCampaign.body.accessReview?.accessReview?.displayName).toBe('Client test campaign');
    expect(campaign.text.length).toBeGreaterThan(10);

    const automations = await endpoints.searchAutomations(api, { pageSize: 10 });
    expect(automations.body.list?.length).toBeGreaterThan(0);
    expect((await endpoints.listAutomations(api, { pageSize: 10 })).body.list?.length).toBeGreaterThan(0);
    expect((await endpoints.listAccessReviews(api, { pageSize: 100 })).body.list?.length).toBeGreaterThan(0);

    const toolset = [...tenant.data.toolsets.values()][0]!;
    const byEntitlement = await endpoints.getMcpToolsetByEntitlement(api, toolset.appId!, toolset.appEntitlementId!);
    expect(byEntitlement.body.profile?.id).toBe(toolset.id);
    expect((await endpoints.searchMcpToolsets(api, { pageSize: 100 })).body.profiles?.length).toBeGreaterThan(0);
    expect((await endpoints.listRoutingRules(api, { pageSize: 100 })).body.list?.length).toBeGreaterThan(0);

    const { appId } = scopeTarget();
    expect((await endpoints.listAppScopes(api, appId, { pageSize: 100 })).body.scopes?.length).toBeGreaterThan(0);
    const scopes = await endpoints.searchScopes(api, { pageSize: 100 });
    // Unknown enum values and fields arrive untouched, in the body and the raw text.
    const future = (scopes.body.list ?? []).find((s) => s.classification === 'XAA_SCOPE_CLASSIFICATION_QUANTUM');
    expect(future).toBeDefined();
    expect((future as Record<string, unknown>).riskScoreV3).toBeDefined();
    expect(scopes.text).toContain('XAA_SCOPE_CLASSIFICATION_QUANTUM');
    expect(JSON.parse(scopes.text)).toEqual(scopes.body);

    const tasks = await endpoints.searchTasks(api, { pageSize: 100 });
    const taskViews = tasks.body.list ?? [];
    expect(taskViews.length).toBeGreaterThan(0);
    const taskId = taskViews[0]!.task!.id!;
    expect((await endpoints.getTask(api, taskId)).body.taskView?.task?.id).toBe(taskId);
    const grantTask = [...tenant.data.tasks.values()].find((t) => t.type && 'grant' in t.type && t.type.grant);
    if (!grantTask) throw new Error('the tenant has no grant task');
    const escalated = await endpoints.escalateTask(api, grantTask.id!, { comment: 'client test' });
    expect(escalated.body.taskView?.task?.emergencyAccess).toBe(true);

    const membership = [...tenant.data.memberships.values()].find(
      (m) => tenant.data.entitlements.get(m.appEntitlementId)?.kind === 'catalog',
    )!;
    const removed = await endpoints.removeMembership(api, membership.appId, membership.appEntitlementId, {
      appUserId: membership.appUserId,
    });
    expect(removed.body.revokeTaskId).toBeTruthy();
    // Not a member any more: 404, not_found.
    const again = await failure(
      endpoints.removeMembership(api, membership.appId, membership.appEntitlementId, { appUserId: membership.appUserId }),
    );
    expect(again.kind).toBe('not_found');
    expect(again.grpcCode).toBe(5);

    const { call } = newScope(api);
    const created = await call;
    const duplicate = await failure(
      endpoints.createScope(api, appId, {
        xaaResourceServerId: created.body.scope!.xaaResourceServerId!,
        scopeValue: created.body.scope!.scopeValue!,
        displayName: 'dup',
      }),
    );
    expect(duplicate.kind).toBe('conflict');
    const invalid = await failure(
      endpoints.createScope(api, appId, {
        xaaResourceServerId: created.body.scope!.xaaResourceServerId!,
        scopeValue: 'has space',
        displayName: 'bad',
      }),
    );
    expect(invalid.kind).toBe('invalid_input');
    expect(invalid.message).toMatch(/scopeValue/);
  });

  it('refuses empty path segments before sending: the tenant never sees them', async () => {
    const api = client();
    const before = tenant.journal().length;
    const events: ApiEvent[] = [];
    const watched = client({ onEvent: (e) => events.push(e) });
    for (const path of ['/access_reviews/', '/access_review//x', '/apps//xaa/scopes']) {
      expect((await failure(watched.request({ method: 'GET', path }))).kind).toBe('invalid_input');
    }
    await expect(endpoints.getAccessReview(api, '')).rejects.toMatchObject({ kind: 'invalid_input' });
    await expect(endpoints.removeMembership(api, 'app', '', { appUserId: 'u' })).rejects.toMatchObject({ kind: 'invalid_input' });
    expect(events.filter((e) => e.type === 'request' || e.type === 'token-request')).toHaveLength(0);
    expect(tenant.journal()).toHaveLength(before);
  });
});
