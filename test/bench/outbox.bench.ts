/**
 * Outbox throughput: 10,000 membership removals (imported from CSV) sent to the reference tenant
 * limited to 500 requests per second. Reports the achieved rate as a share of that limit and the
 * duplicates the tenant saw (must be 0).
 */
import { createApiClient, RateLimiter, type ApiEvent } from '../../src/main/api/client';
import { openOutbox } from '../../src/main/outbox/queue';
import { startTenant } from '../../src/tenant/server';
import { appliedCounts, openTestStore, removableMemberships, removalsCsv, tempDir, type JournalLike } from '../integration/outbox.helpers';

const LIMIT = 500;
const ITEMS = 10_000;
const CONCURRENCY = Number(process.env.OUTBOX_BENCH_CONCURRENCY ?? 128);

export async function benchOutbox(): Promise<Record<string, number | string>> {
  const tenant = await startTenant({ port: 0, seed: 500, scale: 130, faults: `rps=${LIMIT}` });
  const tmp = tempDir('attest-outbox-bench-');
  const { store, outboxStore } = openTestStore(`${tmp.dir}/store.sqlite`, tenant.data);
  try {
    const outbox = openOutbox(outboxStore);
    const importStarted = performance.now();
    const imported = outbox.importCsv(removalsCsv(removableMemberships(tenant.data, ITEMS)), 'remove-membership');
    const importMs = performance.now() - importStarted;
    if (imported.queued !== ITEMS)
      throw new Error(`imported ${imported.queued} of ${ITEMS}: ${JSON.stringify(imported.errors.slice(0, 3))}`);

    let rateLimited = 0;
    const api = createApiClient({
      clientId: tenant.clientId,
      clientSecret: tenant.clientSecret,
      serverUrl: tenant.url,
      // The connection's --rps setting: pace at the tenant's limit rather than bounce off it.
      limiter: new RateLimiter({ requestsPerSecond: LIMIT }),
      onEvent: (e: ApiEvent) => {
        if (e.type === 'rate-limited') rateLimited += 1;
      },
    });
    await api.getToken();
    const summary = await outbox.send(api, { concurrency: CONCURRENCY });
    const seconds = summary.elapsedMs / 1000;
    const rate = summary.requests / seconds;

    const journal = tenant.journal() as unknown as JournalLike[];
    const applied = appliedCounts(outbox.list(), journal);
    const duplicates = [...applied.values()].reduce((n, c) => n + Math.max(0, c - 1), 0);
    const missing = [...applied.values()].filter((c) => c === 0).length;
    return {
      items: ITEMS,
      limit_rps: LIMIT,
      achieved_rps: Math.round(rate * 10) / 10,
      share_of_limit: Math.round((rate / LIMIT) * 1000) / 1000,
      seconds: Math.round(seconds * 10) / 10,
      succeeded: summary.succeeded,
      failed: summary.failed,
      uncertain: summary.uncertain,
      duplicates,
      missing,
      http_429_waits: rateLimited,
      group_commits: summary.commits,
      commit_ms_avg: Math.round((summary.commitMs / Math.max(1, summary.commits)) * 100) / 100,
      csv_import_ms: Math.round(importMs),
    };
  } finally {
    store.close();
    await tenant.close();
    tmp.remove();
  }
}
