/**
 * Network loss in the middle of a send: the link to the tenant (a TCP proxy here) goes down and
 * comes back. Requests in flight become uncertain, the rest wait; the send pauses, probes, resumes
 * by itself; reconciliation settles the uncertain ones. Every change is applied exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, RateLimiter } from '../../src/main/api/client';
import { openOutbox, type SendProgress } from '../../src/main/outbox/queue';
import type { Store } from '../../src/main/store/db';
import { startTenant } from '../../src/tenant/server';
import { startRelay } from '../helpers/relay';
import { appliedCounts, openTestStore, removableMemberships, tempDir, type JournalLike } from './outbox.helpers';

type Tenant = Awaited<ReturnType<typeof startTenant>>;
let tenant: Tenant;
let tmp: ReturnType<typeof tempDir>;
let store: Store;

beforeAll(async () => {
  tenant = await startTenant({ port: 0, seed: 31, scale: 4, faults: 'latency=10,jitter=10' });
  tmp = tempDir('attest-outbox-net-');
  store = openTestStore(`${tmp.dir}/store.sqlite`, tenant.data).store;
});
afterAll(async () => {
  store?.close();
  await tenant?.close();
  tmp?.remove();
});

describe('network loss during a send', () => {
  it('pauses, probes, resumes when the link is back; uncertain items are reconciled; nothing applied twice', async () => {
    const outbox = openOutbox(store);
    for (const r of removableMemberships(tenant.data, 200)) outbox.enqueue('remove-membership', r);
    const link = await startRelay(Number(new URL(tenant.url).port));
    const api = createApiClient({
      clientId: tenant.clientId,
      clientSecret: tenant.clientSecret,
      serverUrl: link.url,
      limiter: new RateLimiter(),
      maxRetries: 1,
      backoffBaseMs: 10,
    });

    let cut = false;
    const pauses: SendProgress[] = [];
    const summary = await outbox.send(api, {
      concurrency: 6,
      resumeOnNetwork: { probeEveryMs: 50, maxWaitMs: 20_000 },
      onProgress: (e) => {
        if (e.phase === 'paused') pauses.push(e);
        if (!cut && e.done >= 60) {
          cut = true;
          void link.down().then(() => setTimeout(() => void link.up(), 400));
        }
      },
    });
    expect(cut).toBe(true);
    expect(pauses.length).toBeGreaterThan(0);
    expect(pauses[0]?.message).toMatch(/cannot be reached/);
    expect(summary.paused).toBeNull();
    expect(summary.notSent).toBe(0);
    expect(summary.succeeded + summary.uncertain).toBe(200);

    const rec = await outbox.reconcile(api);
    expect(rec.unknown).toBe(0);
    if (outbox.counts().queued > 0) await outbox.send(api);
    expect(outbox.counts()).toMatchObject({ succeeded: 200, uncertain: 0, queued: 0 });
    const applied = appliedCounts(outbox.list(), tenant.journal() as unknown as JournalLike[]);
    expect([...applied.values()].every((n) => n === 1)).toBe(true);
    await link.down();
  }, 60_000);

  it('without resumeOnNetwork it pauses at once and keeps the rest queued', async () => {
    const outbox = openOutbox(store);
    const rows = removableMemberships(tenant.data, 5);
    for (const r of rows) outbox.enqueue('remove-membership', r);
    const link = await startRelay(Number(new URL(tenant.url).port));
    const url = link.url;
    await link.down();
    const api = createApiClient({
      clientId: tenant.clientId,
      clientSecret: tenant.clientSecret,
      serverUrl: url,
      limiter: new RateLimiter(),
      maxRetries: 0,
    });
    const summary = await outbox.send(api);
    expect(summary.paused).toMatchObject({
      reason: 'network',
      message: expect.stringMatching(/cannot be reached.*send again when online/),
    });
    expect(outbox.counts()).toMatchObject({ queued: 5, sending: 0 });
  });
});
