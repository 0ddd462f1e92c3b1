/**
 * Sync benchmarks against the reference tenant, which runs in its own process (`attest tenant`),
 * so that only the sync's own work lands on this process's threads:
 * (a) sync time / the time of a bare walk of the same pages with the same page sizes (and the same
 *     collections at a time, and the same reads by id) that throws every answer away;
 * (c) the event-loop lag (p99) of the calling thread while the sync runs in its worker;
 * (d) how sync time grows from 10,000 to 100,000 objects.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { createApiClient, type ApiClient } from '../../src/main/api/client';
import { paginate } from '../../src/main/api/paginate';
import { runSyncJob } from '../../src/main/jobs/sync-job';
import { openStore } from '../../src/main/store/db';
import { COLLECTIONS, getPath, isRecord, type CollectionDescriptor, type CollectionId } from '../../src/main/collections';
import { Limiter, syncTenant, type SyncSummary } from '../../src/main/sync/engine';
import { mapLimit } from '../../src/main/sync/pages';

const ROOT = new URL('../..', import.meta.url).pathname;
const SEED = 5;
/** Objects in the six synced collections per unit of tenant scale (campaigns 16, templates up to 8, automations 40, toolsets 12, routing rules 12, scopes 40). */
const OBJECTS_PER_UNIT = 128;

interface Tenant {
  url: string;
  clientId: string;
  clientSecret: string;
  stop(): Promise<void>;
}

/** Starts `attest tenant` in a child process and reads its one JSON line. */
async function startTenantProcess(scale: string, faults?: string): Promise<Tenant> {
  const args = [
    join(ROOT, 'bin/attest.mjs'),
    'tenant',
    '--port',
    '0',
    '--scale',
    scale,
    '--seed',
    String(SEED),
    ...(faults ? ['--faults', faults] : []),
  ];
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (l) => resolve(l));
    child.once('exit', (code) => reject(new Error(`attest tenant exited (${code})`)));
  });
  const info = JSON.parse(line) as { url: string; clientId: string; clientSecret: string };
  return {
    ...info,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * The baseline: every page of every collection, with the descriptors' endpoints and page sizes,
 * the same number of collections at a time, campaigns' and templates' reads by id (8 at a time),
 * templates after the collections that name them; each answer is thrown away.
 */
async function bareWalk(api: ApiClient, concurrency = 3): Promise<{ ms: number; pages: number; objects: number }> {
  const started = performance.now();
  let pages = 0;
  let objects = 0;
  const templateIds = new Set<string>();
  const noteTemplates = (obj: unknown) => {
    const campaignTemplate = getPath(obj, 'accessReview.accessReviewTemplateId');
    if (typeof campaignTemplate === 'string' && campaignTemplate) templateIds.add(campaignTemplate);
    for (const member of ['automationSteps', 'draftAutomationSteps']) {
      const steps = getPath(obj, member);
      if (Array.isArray(steps))
        for (const s of steps) {
          const id = getPath(s, 'createAccessReview.accessReviewTemplateId');
          if (typeof id === 'string' && id) templateIds.add(id);
        }
    }
  };
  const walk = async (d: CollectionDescriptor): Promise<void> => {
    if (d.byIds) {
      const ids = [...templateIds];
      for (let i = 0; i < ids.length; i += d.pageSize) {
        await mapLimit(ids.slice(i, i + d.pageSize), 8, (id) => d.byIds!.fetch(api, id).catch(() => null));
        pages += 1;
        objects += Math.min(d.pageSize, ids.length - i);
      }
      return;
    }
    for await (const step of paginate<unknown, { nextPageToken?: string | null }>((req, s) => d.fetchPage!(api, req, s) as never, {
      pageSize: d.pageSize,
    })) {
      const body = step.response.body as unknown;
      const rows = isRecord(body) && Array.isArray(body[d.listKey]) ? (body[d.listKey] as unknown[]) : [];
      rows.forEach(noteTemplates);
      if (d.detail) await mapLimit(rows, 8, (row) => d.detail!.fetch(api, d.detail!.idOfListItem(row)));
      pages += 1;
      objects += rows.length;
    }
  };
  const limiter = new Limiter(concurrency);
  const done = new Map<CollectionId, Promise<void>>();
  const schedule = (d: CollectionDescriptor): Promise<void> => {
    const known = done.get(d.id);
    if (known) return known;
    const deps = (d.byIds?.referencedBy ?? []).map((id) => schedule(COLLECTIONS.find((c) => c.id === id)!));
    const promise = Promise.all(deps).then(() => limiter.run(() => walk(d)));
    done.set(d.id, promise);
    return promise;
  };
  for (const d of [...COLLECTIONS].sort((a, b) => Number(a.byIds !== undefined) - Number(b.byIds !== undefined))) schedule(d);
  await Promise.all(done.values());
  return { ms: performance.now() - started, pages, objects };
}

const client = (t: Tenant) => createApiClient({ clientId: t.clientId, clientSecret: t.clientSecret, serverUrl: t.url });
const objectsOf = (s: SyncSummary) => s.collections.reduce((n, c) => n + c.fetched, 0);
const pagesOf = (s: SyncSummary) => s.collections.reduce((n, c) => n + c.pages, 0);

/**
 * A full sync in a worker thread into a new store, with the calling thread's event-loop lag.
 * `ms` runs from the call; `syncMs` from the worker's first event, leaving out the thread's start
 * (which, run from source, includes compiling the TypeScript of the worker's modules).
 */
async function workerSync(
  t: Tenant,
  dir: string,
  name: string,
): Promise<{ ms: number; syncMs: number; summary: SyncSummary; lagP99: number; lagMax: number; storeMB: number }> {
  const storeFile = join(dir, `${name}.sqlite`);
  const lag = monitorEventLoopDelay({ resolution: 5 });
  lag.enable();
  const started = performance.now();
  let firstEvent = 0;
  const summary = await runSyncJob(
    { storeFile, clientId: t.clientId, clientSecret: t.clientSecret, serverUrl: t.url },
    { onProgress: () => void (firstEvent ||= performance.now()) },
  );
  const ended = performance.now();
  lag.disable();
  if (summary.status !== 'completed')
    throw new Error(
      `sync ${summary.status}: ${summary.collections
        .map((c) => c.error)
        .filter(Boolean)
        .join('; ')}`,
    );
  return {
    ms: ended - started,
    syncMs: ended - firstEvent,
    summary,
    lagP99: lag.percentile(99) / 1e6,
    lagMax: lag.max / 1e6,
    storeMB: statSync(storeFile).size / 1e6,
  };
}

/** Network latency of a real tenant, for the second measurement of (a): 20 ms per request, plus up to 10. */
const REMOTE_LATENCY = 'latency=20,jitter=10';

export async function benchSync(): Promise<Record<string, number | string>> {
  const dir = mkdtempSync(join(tmpdir(), 'attest-bench-sync-'));
  const out: Record<string, number | string> = {};
  try {
    const tenant = await startTenantProcess('large');
    try {
      const api = client(tenant);
      const bare1 = await bareWalk(api);
      const worker = await workerSync(tenant, dir, 'worker');
      const bare2 = await bareWalk(api);
      // The same sync on the calling thread, for contrast (what the worker spares the main process).
      const store = openStore(join(dir, 'inline.sqlite'));
      const lag = monitorEventLoopDelay({ resolution: 5 });
      lag.enable();
      const t = performance.now();
      await syncTenant({ store, api: client(tenant) });
      const inlineMs = performance.now() - t;
      lag.disable();
      store.close();
      const bare = (bare1.ms + bare2.ms) / 2;
      Object.assign(out, {
        'tenant scale': 'large (loopback, no latency)',
        objects: objectsOf(worker.summary),
        pages: pagesOf(worker.summary),
        'bare walk s (mean of 2)': bare / 1000,
        'sync s (worker, from the call)': worker.ms / 1000,
        'sync s (worker, from its first event)': worker.syncMs / 1000,
        '(a) sync / bare walk (target <= 1.10)': worker.ms / bare,
        '(a) same, without the thread start': worker.syncMs / bare,
        '(c) calling thread lag p99 ms (target < 50)': worker.lagP99,
        'calling thread lag max ms': worker.lagMax,
        'store MB': Math.round(worker.storeMB),
        'sync s on the calling thread (contrast)': inlineMs / 1000,
        'lag p99 ms on the calling thread (contrast)': lag.percentile(99) / 1e6,
      });
    } finally {
      await tenant.stop();
    }
    // The same walk and sync when each answer takes as long as a real tenant's over the network.
    const remote = await startTenantProcess('large', REMOTE_LATENCY);
    try {
      const bare = await bareWalk(client(remote));
      const worker = await workerSync(remote, dir, 'remote');
      Object.assign(out, {
        'with latency: tenant faults': REMOTE_LATENCY,
        'with latency: bare walk s': bare.ms / 1000,
        'with latency: sync s (worker)': worker.ms / 1000,
        '(a) with latency: sync / bare walk': worker.ms / bare.ms,
        '(c) with latency: calling thread lag p99 ms': worker.lagP99,
      });
    } finally {
      await remote.stop();
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchSyncGrowth(): Promise<Record<string, number | string>> {
  const dir = mkdtempSync(join(tmpdir(), 'attest-bench-growth-'));
  const out: Record<string, number | string> = {};
  const results: { objects: number; ms: number }[] = [];
  try {
    for (const target of [10_000, 100_000]) {
      const tenant = await startTenantProcess(String(Math.round(target / OBJECTS_PER_UNIT)));
      try {
        const r = await workerSync(tenant, dir, `growth-${target}`);
        const objects = objectsOf(r.summary);
        results.push({ objects, ms: r.ms });
        out[`${target / 1000}k: objects`] = objects;
        out[`${target / 1000}k: sync s`] = r.ms / 1000;
        out[`${target / 1000}k: ms per 1,000 objects`] = r.ms / (objects / 1000);
      } finally {
        await tenant.stop();
      }
    }
    const [small, large] = results as [{ objects: number; ms: number }, { objects: number; ms: number }];
    out['(d) time ratio / object ratio (1.0 = linear)'] = large.ms / small.ms / (large.objects / small.objects);
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
