/**
 * Sync benchmarks against the reference tenant, which runs in its own process (`attest tenant`),
 * so that only the sync's own work lands on this process's threads. Each figure is a ratio of
 * two measurements made side by side in the same run:
 * - on loopback, a sync and a resync of the unchanged tenant against a sequential bare walk of
 *   the same pages that throws every answer away (benchSync);
 * - over a simulated network, a sync against a bare walk of every list collection at once, walked
 *   before and after the sync (benchSyncLatency);
 * - growth: sync from 10,000 to 100,000 objects, the store's write path up to 1,000,000, and the
 *   first search keystroke after opening a million-object store (benchSyncGrowth, benchStoreGrowth).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { createApiClient, type ApiClient } from '../../src/main/api/client';
import { paginate } from '../../src/main/api/paginate';
import { runSyncJob } from '../../src/main/jobs/sync-job';
import { openStore, type Store } from '../../src/main/store/db';
import { COLLECTIONS, isRecord, type CollectionDescriptor, type CollectionId } from '../../src/main/collections';
import { matchesPerCollection } from '../../src/main/store/read-models';
import { syncTenant, type SyncSummary } from '../../src/main/sync/engine';
import { Limiter } from '../../src/main/sync/pages';
import { mapLimit } from '../../src/main/sync/pages';
import { UNIT_SIZES } from '../../src/tenant/dataset';
import { fillStore } from './search.bench';

const ROOT = new URL('../..', import.meta.url).pathname;
const SEED = 5;
/** The tenant of benchSync and benchSyncLatency: `large` unless ATTEST_BENCH_SCALE names another (a number of units, say, for a quick look). */
const SCALE = process.env.ATTEST_BENCH_SCALE || 'large';
/** The collections synced before the objects admins act on (apps, entitlements, app users, memberships, tasks). */
const EARLIER_COLLECTIONS: CollectionId[] = ['scopes', 'automations', 'templates', 'campaigns', 'toolsets', 'routing-rules'];

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

/** Every object a list collection's rows point at in a by-id collection (templates from campaigns and automations). */
function noteReferences(d: CollectionDescriptor, rows: unknown[], found: (target: CollectionId, id: string) => void): void {
  if (!d.references) return;
  for (const row of rows)
    for (const [target, ids] of Object.entries(d.references(row))) for (const id of ids ?? []) if (id) found(target as CollectionId, id);
}

/**
 * A bare client that only walks the pages, with the descriptors' endpoints and page sizes, and
 * throws each answer away: the floor a sync is measured against.
 * - `sequential`: one collection after another, one page after another; the objects read by id
 *   (templates) after the walks that name them, 8 at a time.
 * - `concurrent`: every list collection at the same time (one cursor each), and each object read
 *   by id as soon as a page names it (8 at a time).
 * - `split`: as `concurrent`, and each collection the API lets split walked in its parts at once:
 *   fixed parts (automations: drafts, published ON, published OFF) from the start, parts by groups
 *   of another collection's objects (grants by groups of apps, as many groups as the sync makes)
 *   as soon as that collection's walk has read them all.
 */
async function bareWalk(
  api: ApiClient,
  mode: 'sequential' | 'concurrent' | 'split',
  only: readonly CollectionId[] = COLLECTIONS.map((d) => d.id),
): Promise<{ ms: number; pages: number; objects: number; walkMs: Record<string, number> }> {
  const started = performance.now();
  let pages = 0;
  let objects = 0;
  const walked = COLLECTIONS.filter((d) => only.includes(d.id));
  const byIds = walked.filter((d) => d.byIds);
  const lists = walked.filter((d) => !d.byIds);
  const seen = new Set<string>();
  const reads: Promise<unknown>[] = [];
  const limiter = new Limiter(8);
  const readById = (target: CollectionId, id: string): void => {
    const key = `${target}/${id}`;
    if (seen.has(key)) return;
    seen.add(key);
    const d = byIds.find((b) => b.id === target);
    if (!d) return;
    reads.push(
      limiter.run(() =>
        d.byIds!.fetch(api, id).then(
          () => (objects += 1),
          () => null,
        ),
      ),
    );
  };
  const pending: [CollectionId, string][] = [];
  const found = mode === 'sequential' ? (target: CollectionId, id: string) => void pending.push([target, id]) : readById;
  /** When each walk ended, from the start (ms). */
  const walkMs: Record<string, number> = {};
  /** The ids each walk read, for the walks split by them. */
  const idsOf = new Map<CollectionId, Promise<string[]>>();
  type Fetch = (req: { pageSize: number; pageToken: string }, signal?: AbortSignal) => Promise<unknown>;
  const walkPages = async (d: CollectionDescriptor, fetch: Fetch, ids?: string[]): Promise<void> => {
    for await (const step of paginate<unknown, { nextPageToken?: string | null }>(fetch as never, { pageSize: d.pageSize })) {
      const body = step.response.body as unknown;
      const rows = isRecord(body) && Array.isArray(body[d.listKey]) ? (body[d.listKey] as unknown[]) : [];
      noteReferences(d, rows, found);
      if (d.detail) await mapLimit(rows, 8, (row) => d.detail!.fetch(api, d.detail!.idOfListItem(row)));
      if (ids) for (const row of rows) ids.push(d.idOf(row));
      pages += 1;
      objects += rows.length;
    }
  };
  const walk = (d: CollectionDescriptor): Promise<void> => walkOne(d).then(() => void (walkMs[d.id] = performance.now() - started));
  const walkOne = async (d: CollectionDescriptor): Promise<void> => {
    const split = mode === 'split' ? d.split : undefined;
    if (split?.parts) {
      await Promise.all(split.parts.map((part) => walkPages(d, (req, signal) => part.fetchPage(api, req, signal))));
      return;
    }
    if (split?.by) {
      const by = split.by;
      const all = await idsOf.get(by.from)!;
      const groups = Math.min(by.groups, all.length);
      const parts = Array.from({ length: groups }, (_, g) => all.filter((_, i) => i % groups === g));
      await Promise.all(parts.map((ids) => walkPages(d, (req, signal) => by.fetchPage(api, req, ids, signal))));
      return;
    }
    const ids: string[] = [];
    const walked = walkPages(d, (req, signal) => d.fetchPage!(api, req, signal), ids).then(() => ids);
    idsOf.set(d.id, walked);
    await walked;
  };
  if (mode === 'sequential') for (const d of lists) await walk(d);
  else {
    // The walks others are split by start first, so their ids are promised before anyone waits on them.
    const first = lists.filter((d) => !d.split?.by);
    const started = first.map(walk);
    await Promise.all([...started, ...lists.filter((d) => d.split?.by).map(walk)]);
  }
  for (const [target, id] of pending) readById(target, id);
  await Promise.all(reads);
  pages += byIds.length > 0 ? Math.ceil(seen.size / byIds[0]!.pageSize) : 0;
  for (const d of byIds) walkMs[d.id] = performance.now() - started;
  return { ms: performance.now() - started, pages, objects, walkMs };
}

/** Each walk's end, in seconds from the start, slowest first. */
const walkTimes = (ms: Record<string, number>): string =>
  Object.entries(ms)
    .sort((a, b) => b[1] - a[1])
    .map(([c, t]) => `${c} ${(t / 1000).toFixed(1)}`)
    .join(', ');

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

/** Network latency of a real tenant: 20 ms per request, plus up to 10. */
const REMOTE_LATENCY = 'latency=20,jitter=10';

/** The size of a store file with its WAL. */
function storeBytes(file: string): number {
  return [file, `${file}-wal`].reduce((n, f) => n + (existsSync(f) ? statSync(f).size : 0), 0);
}

/**
 * A sync on this thread (as `attest sync` runs it) into `file`; the tenant runs in its own process.
 * `received`: the bytes of the answers it read (token requests aside); `stored`: the store file
 * with its WAL once the sync ended (the store still open, as the app leaves it).
 */
async function inlineSync(
  t: Tenant,
  file: string,
  only?: readonly CollectionId[],
): Promise<{ ms: number; summary: SyncSummary; received: number; stored: number }> {
  const store = openStore(file);
  let received = 0;
  const api = createApiClient({
    clientId: t.clientId,
    clientSecret: t.clientSecret,
    serverUrl: t.url,
    onEvent: (e) => {
      if (e.type === 'response' && e.status >= 200 && e.status < 300) received += e.bytes;
    },
  });
  try {
    const started = performance.now();
    const summary = await syncTenant({ store, api, only, pageThread: true });
    const ms = performance.now() - started;
    const stored = storeBytes(file);
    if (summary.status !== 'completed')
      throw new Error(
        `sync ${summary.status}: ${summary.collections
          .map((c) => c.error)
          .filter(Boolean)
          .join('; ')}`,
      );
    return { ms, summary, received, stored };
  } finally {
    store.close();
  }
}

/** What a store holds: objects, versions, search entries, and a digest of the FTS index's own blocks (any index write changes them). */
function storeRows(file: string): { counts: Record<string, number>; index: string } {
  const store = openStore(file, { readonly: true });
  try {
    const count = (sql: string) => store.db.prepare(sql).pluck().get() as number;
    const digest = createHash('sha1');
    for (const row of store.db.prepare('SELECT id, block FROM search_index_data ORDER BY id').raw().iterate() as IterableIterator<
      [number, Buffer]
    >)
      digest.update(`${row[0]}:`).update(row[1]);
    return {
      counts: {
        objects: count('SELECT count(*) FROM objects'),
        versions: count('SELECT count(*) FROM object_versions'),
        'search entries': count('SELECT count(*) FROM search_index_docsize'),
      },
      index: digest.digest('hex'),
    };
  } finally {
    store.close();
  }
}

/**
 * On loopback, against the large tenant: a new sync and a resync of the unchanged tenant, each
 * against a sequential bare walk of the same pages; then the same sync in its worker, for the
 * calling thread's event-loop lag.
 */
export async function benchSync(): Promise<Record<string, number | string>> {
  const dir = mkdtempSync(join(tmpdir(), 'attest-bench-sync-'));
  try {
    const tenant = await startTenantProcess(SCALE);
    try {
      const api = client(tenant);
      const file = join(dir, 'store.sqlite');
      const bare1 = await bareWalk(api, 'sequential');
      const sync = await inlineSync(tenant, file);
      const before = storeRows(file);
      const bare2 = await bareWalk(api, 'sequential');
      const resync = await inlineSync(tenant, file);
      const after = storeRows(file);
      const worker = await workerSync(tenant, dir, 'worker');
      const bare = (bare1.ms + bare2.ms) / 2;
      // The same, without the objects admins act on (synced since): does the ratio hold with them?
      const earlierBare = await bareWalk(api, 'sequential', EARLIER_COLLECTIONS);
      const earlier = await inlineSync(tenant, join(dir, 'earlier.sqlite'), EARLIER_COLLECTIONS);
      const written = Object.entries(after.counts)
        .map(([k, v]) => `${k} ${v - before.counts[k]!}`)
        .join(', ');
      return {
        'tenant scale': `${SCALE} (loopback, no latency)`,
        objects: objectsOf(sync.summary),
        pages: pagesOf(sync.summary),
        'bare sequential walk s (mean of 2)': bare / 1000,
        'sync s': sync.ms / 1000,
        'resync of the unchanged tenant s': resync.ms / 1000,
        'sync / sequential bare walk (target <= 1.5)': sync.ms / bare,
        'resync / sequential bare walk (target <= 1.2)': resync.ms / bare,
        'without the admin objects: objects': objectsOf(earlier.summary),
        'without the admin objects: sync / sequential bare walk': earlier.ms / earlierBare.ms,
        'JSON received by the sync MB': sync.received / 1e6,
        'store MB after the sync (file and WAL)': sync.stored / 1e6,
        'store / JSON received (target <= 1.0)': sync.stored / sync.received,
        'resync: rows added': written,
        'resync: search index blocks unchanged': before.index === after.index ? 'yes' : 'no',
        'resync: objects upserted': resync.summary.collections.reduce((n, c) => n + c.upserted, 0),
        'sync s (worker, from the call)': worker.ms / 1000,
        'sync s (worker, from its first event)': worker.syncMs / 1000,
        'calling thread lag p99 ms while the worker syncs (target < 50)': worker.lagP99,
        'calling thread lag max ms': worker.lagMax,
        'store MB': Math.round(worker.storeMB),
      };
    } finally {
      await tenant.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Over a simulated network (every answer 20 to 30 ms late): a sync against every list collection walked at once, before and after it. */
export async function benchSyncLatency(): Promise<Record<string, number | string>> {
  const dir = mkdtempSync(join(tmpdir(), 'attest-bench-latency-'));
  try {
    const remote = await startTenantProcess(SCALE, REMOTE_LATENCY);
    try {
      // The bare walk before and after the sync: this machine's pace drifts over a run of minutes.
      const bareBefore = await bareWalk(client(remote), 'concurrent');
      const splitBefore = await bareWalk(client(remote), 'split');
      const sync = await inlineSync(remote, join(dir, 'store.sqlite'));
      const splitAfter = await bareWalk(client(remote), 'split');
      const bareAfter = await bareWalk(client(remote), 'concurrent');
      const bare = (bareBefore.ms + bareAfter.ms) / 2;
      const split = (splitBefore.ms + splitAfter.ms) / 2;
      const slowest = [...sync.summary.collections].sort((a, b) => b.ms - a.ms)[0]!;
      return {
        'tenant faults': `${REMOTE_LATENCY} (scale ${SCALE})`,
        objects: objectsOf(sync.summary),
        'bare concurrent walk s (before, after the sync)': `${(bareBefore.ms / 1000).toFixed(1)}, ${(bareAfter.ms / 1000).toFixed(1)}`,
        'sync s': sync.ms / 1000,
        'sync / concurrent bare walk, mean of the two (target <= 1.0)': sync.ms / bare,
        'bare split walk s (before, after the sync)': `${(splitBefore.ms / 1000).toFixed(1)}, ${(splitAfter.ms / 1000).toFixed(1)}`,
        'sync / split bare walk, mean of the two (target <= 1.10)': sync.ms / split,
        'longest collection walk in the sync': `${slowest.collection} ${(slowest.ms / 1000).toFixed(1)} s`,
        'walks in the sync (s)': sync.summary.collections.map((c) => `${c.collection} ${(c.ms / 1000).toFixed(1)}`).join(', '),
        'walks in the split bare walk, ended at (s)': walkTimes(splitAfter.walkMs),
      };
    } finally {
      await remote.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Tenant scale units for about `objects` synced objects (the dataset's sizes per unit of the synced collections). */
function scaleFor(objects: number): number {
  const camel = (id: string) => id.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
  const perUnit = COLLECTIONS.reduce((n, d) => n + ((UNIT_SIZES as Record<string, number>)[camel(d.id)] ?? 0), 0);
  return Math.round(objects / perUnit);
}

/**
 * How a sync's time grows with the tenant: 10,000 and 100,000 objects synced from a tenant on
 * loopback. (A tenant of 1,000,000 synced objects is beyond its largest scale and its memory: the
 * million is measured on the store's write path in benchStoreGrowth.)
 */
export async function benchSyncGrowth(): Promise<Record<string, number | string>> {
  const dir = mkdtempSync(join(tmpdir(), 'attest-bench-growth-'));
  const out: Record<string, number | string> = {};
  const results: { objects: number; ms: number }[] = [];
  try {
    for (const target of [10_000, 100_000]) {
      const tenant = await startTenantProcess(String(scaleFor(target)));
      try {
        const r = await inlineSync(tenant, join(dir, `growth-${target}.sqlite`));
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
    out['10k -> 100k: time ratio / object ratio (1.0 = linear)'] = large.ms / small.ms / (large.objects / small.objects);
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Typing "okta admin" into the search, a keystroke at a time (each as the screen asks: hits and counts per collection). */
const TYPED = 'okta admin';
const KEYSTROKES = Array.from(TYPED, (_, i) => TYPED.slice(0, i + 1)).filter((q) => !q.endsWith(' '));

/**
 * The store's write path (objects prepared and stored page by page as a sync does, generated
 * rather than fetched) at 10,000, 100,000 and 1,000,000 objects; then the million-object store
 * opened again and searched as typed: the first keystroke against the later ones.
 */
export async function benchStoreGrowth(): Promise<Record<string, number | string>> {
  const dir = mkdtempSync(join(tmpdir(), 'attest-bench-store-'));
  const out: Record<string, number | string> = {};
  const results: { objects: number; ms: number }[] = [];
  try {
    let file = '';
    for (const total of [10_000, 100_000, 1_000_000]) {
      file = join(dir, `store-${total}.sqlite`);
      const store = openStore(file);
      try {
        const ms = fillStore(store, total);
        results.push({ objects: total, ms });
        out[`${total / 1000}k: write path ms per 1,000 objects`] = ms / (total / 1000);
      } finally {
        store.close();
      }
    }
    const [a, b, c] = results as [{ objects: number; ms: number }, { objects: number; ms: number }, { objects: number; ms: number }];
    out['10k -> 100k: time ratio / object ratio (1.0 = linear)'] = b.ms / a.ms / (b.objects / a.objects);
    out['100k -> 1M: time ratio / object ratio (1.0 = linear)'] = c.ms / b.ms / (c.objects / b.objects);

    // Typed into a connection just opened (cold), then into one opened and warmed as the app does.
    const type = (store: Store) =>
      KEYSTROKES.map((q) => {
        const t = performance.now();
        store.search(q, { limit: 50 });
        matchesPerCollection(store, q);
        return performance.now() - t;
      });
    const session = (warm: boolean) => {
      const opened = performance.now();
      const store = openStore(file);
      try {
        const openMs = performance.now() - opened;
        const warmed = performance.now();
        if (warm) store.warmSearch();
        return { openMs, warmMs: performance.now() - warmed, times: type(store) };
      } finally {
        store.close();
      }
    };
    const cold = session(false);
    const warm = session(true);
    const later = warm.times.slice(1).sort((x, y) => x - y);
    Object.assign(out, {
      '1M store: open ms': warm.openMs,
      '1M store: warm-up ms (after opening, before typing)': warm.warmMs,
      '1M store: keystrokes': KEYSTROKES.join(' | '),
      '1M store: first keystroke ms, not warmed': cold.times[0]!,
      '1M store: first keystroke ms, warmed (target < 100)': warm.times[0]!,
      '1M store: later keystrokes median ms': later[Math.floor(later.length / 2)]!,
      '1M store: later keystrokes max ms': later.at(-1)!,
      '1M store: each keystroke ms': warm.times.map((t) => t.toFixed(0)).join(' | '),
    });
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
