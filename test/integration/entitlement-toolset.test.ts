/**
 * An entitlement's MCP toolset through the spec's lookup
 * (`GET /apps/{app_id}/mcp_toolsets/by_app_entitlement_id/{id}`) against the reference tenant
 * (127.0.0.1, random port) while online, and from a real synced SQLite store offline or when the
 * tenant stops answering, each answer saying which it is.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entitlementToolset } from '../../src/main/app/toolsets';
import { openWorkspace, type Workspace } from '../../src/main/app/workspace';
import { prepareConnection, recordConnection } from '../../src/main/app/saved-connections';
import type { McpAccessProfile } from '../../src/shared/api-types';
import { startTestTenant, type TestTenant } from '../helpers/tenant';
import { tempDir } from './outbox.helpers';
import { runCli } from './sync.helpers';

let tenant: TestTenant;
let tmp: ReturnType<typeof tempDir>;
let workspace: Workspace;
let env: NodeJS.ProcessEnv;
let closed = false;

beforeAll(async () => {
  tenant = await startTestTenant({ seed: 5 });
  tmp = tempDir('attest-toolset-');
  const dataDir = join(tmp.dir, 'data');
  recordConnection(dataDir, prepareConnection(dataDir, { clientId: tenant.clientId, serverUrl: tenant.url, name: 'tools' }));
  env = { ATTEST_CLIENT_SECRET: tenant.clientSecret, ATTEST_DATA_DIR: dataDir };
  const synced = await runCli(['sync', '--connection', 'tools'], env);
  expect(synced.code, synced.err).toBe(0);
  workspace = await openWorkspace(dataDir, 'tools', { env });
});
afterAll(async () => {
  workspace?.close();
  if (!closed) await tenant?.close();
  tmp?.remove();
});

const toolsets = (): McpAccessProfile[] => [...tenant.data.toolsets.values()];

describe("an entitlement's MCP toolset", () => {
  it('the tenant serves every toolset by its entitlement, and 404 for an entitlement without one', async () => {
    expect(toolsets().length).toBeGreaterThan(0);
    for (const t of toolsets()) {
      const res = await tenant.call<{ profile: McpAccessProfile }>(
        'GET',
        `/api/v1/apps/${t.appId}/mcp_toolsets/by_app_entitlement_id/${t.appEntitlementId}`,
      );
      expect(res.status).toBe(200);
      expect(res.body.profile.id).toBe(t.id);
    }
    const linked = new Set(toolsets().map((t) => t.appEntitlementId));
    const bare = [...tenant.data.entitlements.values()].find((e) => !linked.has(e.id))!;
    const res = await tenant.call('GET', `/api/v1/apps/${bare.appId}/mcp_toolsets/by_app_entitlement_id/${bare.id}`);
    expect(res.status).toBe(404);
  });

  it('online: the live lookup answers, the same toolset the store holds; none for an entitlement without one', async () => {
    const t = toolsets()[0]!;
    const live = await entitlementToolset(workspace, { online: true, appId: t.appId!, appEntitlementId: t.appEntitlementId! });
    expect(live).toMatchObject({ source: 'live', reason: null, toolset: { id: t.id, title: t.displayName } });
    expect(JSON.parse(live.toolset!.raw)).toMatchObject({ id: t.id, toolCount: t.toolCount, appEntitlementId: t.appEntitlementId });
    const stored = await entitlementToolset(workspace, { online: false, appId: t.appId!, appEntitlementId: t.appEntitlementId! });
    expect(stored.toolset?.id).toBe(live.toolset?.id);

    const linked = new Set(toolsets().map((x) => x.appEntitlementId));
    const bare = [...tenant.data.entitlements.values()].find((e) => !linked.has(e.id))!;
    const none = await entitlementToolset(workspace, { online: true, appId: bare.appId, appEntitlementId: bare.id });
    expect(none).toMatchObject({ source: 'live', toolset: null, reason: null });
  });

  it('offline: the store answers with its sync time and says why', async () => {
    const t = toolsets()[1]!;
    const answer = await entitlementToolset(workspace, { online: false, appId: t.appId!, appEntitlementId: t.appEntitlementId! });
    expect(answer).toMatchObject({ source: 'store', toolset: { id: t.id, title: t.displayName } });
    expect(answer.reason).toContain('offline');
    const asOf = workspace.store.collectionStatus().find((s) => s.collection === 'toolsets')!.dataAsOf;
    expect(asOf).not.toBeNull();
    expect(answer.asOf).toBe(asOf);
    // The store's answer is for that entitlement only, within its app.
    const wrongApp = await entitlementToolset(workspace, { online: false, appId: 'no-such-app', appEntitlementId: t.appEntitlementId! });
    expect(wrongApp.toolset).toBeNull();
  });

  it('attest toolset: the lookup live, the store with --offline, each saying which; a missing option is a usage error', async () => {
    const t = toolsets()[3]!;
    const args = ['toolset', '--connection', 'tools', '--app', t.appId!, '--entitlement', t.appEntitlementId!];
    const live = await runCli([...args, '--json'], env);
    expect(live.code, live.err).toBe(0);
    expect(JSON.parse(live.out)).toMatchObject({
      source: 'live',
      reason: null,
      toolset: { id: t.id, title: t.displayName, json: { id: t.id } },
    });
    const offline = await runCli([...args, '--offline'], env);
    expect(offline.code, offline.err).toBe(0);
    expect(offline.out.trim()).toBe(`${t.displayName} (${t.id})`);
    expect(offline.err).toMatch(/from the store, toolsets synced \S+ \(offline: the tenant is not reachable now\)/);
    const linked = new Set(toolsets().map((x) => x.appEntitlementId));
    const bare = [...tenant.data.entitlements.values()].find((e) => !linked.has(e.id))!;
    const none = await runCli(['toolset', '--connection', 'tools', '--app', bare.appId, '--entitlement', bare.id], env);
    expect(none.out.trim()).toBe('no MCP toolset is linked to this entitlement');
    expect(none.err).toMatch(/asked of the tenant at /);
    expect((await runCli(['toolset', '--connection', 'tools', '--app', t.appId!], env)).code).toBe(2);
  });

  it('a tenant that stops answering: the store answers, saying the lookup failed', async () => {
    const t = toolsets()[2]!;
    await tenant.close();
    closed = true;
    const answer = await entitlementToolset(workspace, { online: true, appId: t.appId!, appEntitlementId: t.appEntitlementId! });
    expect(answer).toMatchObject({ source: 'store', toolset: { id: t.id } });
    expect(answer.reason).toMatch(/^the tenant did not answer the lookup: /);
    expect(answer.reason).not.toContain(tenant.clientSecret);
  });
});
