import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSyncJob, SyncJobError, type SyncJobInput } from '../../src/main/jobs/sync-job';
import { openStore } from '../../src/main/store/db';
import type { SyncProgress } from '../../src/main/sync/engine';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { differences, tempDir } from './sync.helpers';

describe('sync job in a worker thread', () => {
  let tenant: ReferenceTenant;
  let tmp: ReturnType<typeof tempDir>;
  let input: SyncJobInput;

  beforeAll(async () => {
    tenant = await startTenant({ port: 0, seed: 21, scale: 4, faults: 'latency=1' });
    tmp = tempDir();
    input = {
      storeFile: join(tmp.dir, 'store.sqlite'),
      clientId: tenant.clientId,
      clientSecret: tenant.clientSecret,
      serverUrl: tenant.url,
    };
  });
  afterAll(async () => {
    await tenant?.close();
    tmp?.remove();
  });

  it('cancels at a page boundary, leaves the store resumable, and the next job resumes and completes', async () => {
    const controller = new AbortController();
    const events: SyncProgress[] = [];
    const reader = openStore(input.storeFile);
    let countsDuringSync = 0;
    try {
      const cancelled = await runSyncJob(input, {
        signal: controller.signal,
        onProgress: (e) => {
          events.push(e);
          // The calling thread keeps reading its own connection while the worker writes.
          countsDuringSync = reader.countObjects('automations');
          if (e.collection === 'automations' && e.pages >= 3) controller.abort();
        },
      });
      expect(cancelled.status).toBe('cancelled');
      // Every walk runs at once: those the cancel found under way stopped at a page boundary (automations,
      // whose page sent it, may have read its last page by the time the cancel reached the thread).
      const stopped = cancelled.collections.filter((c) => !c.complete);
      expect(stopped.length).toBeGreaterThan(0);
      for (const c of stopped) expect(c).toMatchObject({ complete: false, errorKind: 'cancelled' });
      expect(events[0]).toMatchObject({ phase: 'started', runId: cancelled.runId });
      expect(countsDuringSync).toBeGreaterThan(0);
      expect(reader.search('a').total).toBeGreaterThan(0); // what the worker indexed is searchable here
      const check = openStore(input.storeFile);
      expect(check.db.pragma('integrity_check', { simple: true })).toBe('ok');
      check.close();
      const status = reader.collectionStatus();
      const halfWay = stopped.filter((c) => c.pages > 0);
      expect(halfWay.length).toBeGreaterThan(0);
      for (const c of halfWay)
        expect(status.find((s) => s.collection === c.collection)).toMatchObject({ interrupted: true, complete: false });

      const lag = monitorEventLoopDelay({ resolution: 5 });
      lag.enable();
      const done = await runSyncJob(input);
      lag.disable();
      expect(done).toMatchObject({ runId: cancelled.runId, resumed: true, status: 'completed' });
      expect(differences(reader, tenant.data)).toEqual([]);
      // Not a timing assertion (see the bench): only that the thread was never blocked for long.
      expect(lag.max / 1e6).toBeLessThan(2_000);
    } finally {
      reader.close();
    }
  });

  it('reports a refused credential as an auth error of the job', async () => {
    const other = await startTenant({ port: 0, seed: 22 });
    try {
      const wrong = { ...input, clientSecret: other.clientSecret, storeFile: join(tmp.dir, 'other.sqlite') };
      const summary = await runSyncJob(wrong);
      expect(summary.status).toBe('failed');
      const kinds = Object.fromEntries(summary.collections.map((c) => [c.collection, c.errorKind]));
      expect(kinds).toEqual({
        campaigns: 'auth',
        templates: 'blocked',
        automations: 'auth',
        toolsets: 'auth',
        'routing-rules': 'auth',
        scopes: 'auth',
        apps: 'auth',
        entitlements: 'auth',
        'app-users': 'auth',
        memberships: 'auth',
        tasks: 'auth',
        users: 'auth',
        policies: 'auth',
      });
      await expect(runSyncJob({ ...input, clientId: 'not a client id' })).rejects.toBeInstanceOf(SyncJobError);
    } finally {
      await other.close();
    }
  });
});
