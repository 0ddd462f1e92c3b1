/**
 * The outbox against the reference tenant with faults: 5xx, 429 with Retry-After, connections
 * dropped after the change was applied. Every change ends succeeded (directly, or uncertain and
 * then reconciled), and the tenant's journal shows each applied exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, RateLimiter, type ApiClient } from '../../src/main/api/client';
import { openOutbox, type Outbox } from '../../src/main/outbox/queue';
import type { Store } from '../../src/main/store/db';
import { startTenant } from '../../src/tenant/server';
import {
  appliedCounts,
  escalatableTasks,
  openTestStore,
  removableMemberships,
  removalsCsv,
  resourceServers,
  tempDir,
  type JournalLike,
} from './outbox.helpers';

type Tenant = Awaited<ReturnType<typeof startTenant>>;

let tenant: Tenant;
let store: Store;
let outbox: Outbox;
let api: ApiClient;
let tmp: ReturnType<typeof tempDir>;

beforeAll(async () => {
  tenant = await startTenant({ port: 0, seed: 606, scale: 24 });
  tmp = tempDir();
  const opened = openTestStore(`${tmp.dir}/store.sqlite`, tenant.data);
  store = opened.store;
  outbox = openOutbox(opened.outboxStore);
  api = createApiClient({
    clientId: tenant.clientId,
    clientSecret: tenant.clientSecret,
    serverUrl: tenant.url,
    limiter: new RateLimiter(),
    backoffBaseMs: 20,
  });
});

afterAll(async () => {
  store?.close();
  await tenant?.close();
  tmp?.remove();
});

describe('outbox against the reference tenant with faults', () => {
  it('2,000 removals from CSV plus every other kind: all succeed or are reconciled, each applied exactly once', async () => {
    const removals = removableMemberships(tenant.data, 2000);
    const imported = outbox.importCsv(removalsCsv(removals), 'remove-membership');
    expect(imported.errors).toEqual([]);
    expect(imported.queued).toBe(2000);

    const servers = resourceServers(tenant.data, 3);
    for (let i = 0; i < 30; i += 1) {
      const rs = servers[i % servers.length]!;
      outbox.enqueue('create-scope', {
        ...rs,
        scopeValue: `outbox:it:${i}`,
        displayName: `Outbox scope ${i}`,
        classification: 'XAA_SCOPE_CLASSIFICATION_READ',
      });
    }
    for (const t of escalatableTasks(tenant.data, 10)) outbox.enqueue('escalate-task', { ...t, comment: 'outbox integration' });
    const templates = [...tenant.data.templates.values()].slice(0, 3) as unknown as { id: string; description?: string }[];
    for (const t of templates)
      outbox.enqueue('update-template', {
        templateId: t.id,
        changes: { description: `${t.description ?? ''} (updated by the outbox)`, notificationConfig: { sendReminders: true } },
      });
    const owner = tenant.data.identityUserIds[0]!;
    for (let i = 0; i < 10; i += 1)
      outbox.enqueue('create-campaign', { displayName: `Outbox campaign ${i}`, ownerIds: [owner], completionDate: '2031-01-31T17:00:00Z' });
    const campaignIds = [...tenant.data.campaigns.keys()];
    outbox.enqueue('create-campaign', { displayName: 'Outbox duplicate', ownerIds: [owner], duplicateFrom: campaignIds[0] });
    const all = outbox.list();
    const total = all.length;
    expect(total).toBeGreaterThan(2050);

    tenant.faults.set('error5xx=0.1,dropAfterApply=0.1,rate429=0.004,retryAfter=1');
    const first = await outbox.send(api, { concurrency: 16 });
    expect(first.succeeded + first.failed + first.uncertain + first.notSent).toBe(total);
    expect(first.failed).toBe(0);
    expect(first.uncertain).toBeGreaterThan(100); // the faults bit

    // Reconcile and send again until settled (faults stay on: reconciling must survive them too).
    for (let round = 0; round < 8 && outbox.pendingCount() > 0; round += 1) {
      await outbox.reconcile(api);
      await outbox.send(api, { concurrency: 16 });
    }
    tenant.faults.clear();
    const counts = outbox.counts();
    expect(counts).toMatchObject({ succeeded: total, failed: 0, uncertain: 0, queued: 0, sending: 0 });

    const journal = tenant.journal() as unknown as JournalLike[];
    const applied = appliedCounts(outbox.list(), journal);
    const wrong = [...applied.entries()].filter(([, n]) => n !== 1);
    expect(wrong).toEqual([]);
    expect(journal.length).toBe(total);

    // Results recorded, overlays gone, every attempt journaled with its digest.
    const scope = outbox.list({ kind: 'create-scope' })[0]!;
    expect(scope.result).toMatchObject({ scopeId: expect.any(String), appEntitlementId: expect.any(String) });
    expect(outbox.list({ kind: 'escalate-task' }).every((i) => i.result?.emergencyAccess === true)).toBe(true);
    expect(
      outbox.list({ kind: 'create-campaign' }).every((i) => typeof i.result?.campaignId === 'string' && i.result.campaignId !== ''),
    ).toBe(true);
    expect(outbox.overlays('memberships')).toEqual([]);
    const attempts = outbox.journal().filter((j) => j.event === 'send' || j.event === 'reconcile');
    expect(attempts.length).toBeGreaterThanOrEqual(total);
    expect(attempts.filter((j) => j.event === 'send').every((j) => /^[0-9a-f]{64}$/.test(j.requestDigest ?? ''))).toBe(true);
  }, 180_000);
});
