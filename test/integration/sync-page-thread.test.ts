import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/main/api/client';
import { COLLECTION_IDS } from '../../src/main/collections';
import { openStore, type Store } from '../../src/main/store/db';
import { PageWriterThread, WRITER_NICE } from '../../src/main/store/page-writer';
import { syncTenant } from '../../src/main/sync/engine';
import type { SyncStore } from '../../src/main/sync/target';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { differences, storedRaw, tempDir } from './sync.helpers';

/** What a store holds for every collection, and what a few words find in it. */
function holdings(store: Store, words: string[]): unknown {
  return {
    objects: Object.fromEntries(COLLECTION_IDS.map((c) => [c, [...storedRaw(store, c)].sort()])),
    found: words.map((w) =>
      store
        .search(w, { limit: 500 })
        .hits.map((h) => `${h.collection} ${h.id}`)
        .sort(),
    ),
    queued: store.db.prepare('SELECT count(*) FROM search_queue').pluck().get(),
  };
}

describe('pages committed on a thread of their own', () => {
  let tenant: ReferenceTenant;
  let tmp: ReturnType<typeof tempDir>;
  beforeAll(async () => {
    tenant = await startTenant({ port: 0, seed: 31, scale: 2 });
    tmp = tempDir();
  });
  afterAll(async () => {
    await tenant?.close();
    tmp?.remove();
  });
  const api = () => createApiClient({ clientId: tenant.clientId, clientSecret: tenant.clientSecret, serverUrl: tenant.url });
  const words = () => {
    const app = [...tenant.data.apps.values()][0]!;
    const user = [...tenant.data.appUsers.values()][0]!;
    return [app.displayName!.split(' ')[0]!, user.displayName!.split(' ')[0]!, 'okta', 'admin'];
  };

  it('store what one connection stores, searchable alike, and a resync through them writes no version', async () => {
    const threaded = openStore(join(tmp.dir, 'threaded.sqlite'));
    const inline = openStore(join(tmp.dir, 'inline.sqlite'));
    try {
      const a = await syncTenant({ store: threaded, api: api(), pageThread: true });
      const b = await syncTenant({ store: inline, api: api() });
      expect([a.status, b.status]).toEqual(['completed', 'completed']);
      // Each sync ends with its writes in the file and the WAL emptied (then only the hold's release
      // is written to it): no megabytes of it left on disk.
      for (const name of ['threaded', 'inline']) expect(statSync(join(tmp.dir, `${name}.sqlite-wal`)).size).toBeLessThan(64 * 1024);
      // The objects were written on the thread's connection: this one wrote only the run's bookkeeping.
      const writes = (s: Store) => s.db.prepare('SELECT total_changes()').pluck().get() as number;
      const objects = threaded.db.prepare('SELECT count(*) FROM objects').pluck().get() as number;
      expect(objects).toBeGreaterThan(1000);
      expect(writes(inline) - writes(threaded)).toBeGreaterThan(2 * objects);
      expect(differences(threaded, tenant.data)).toEqual([]);
      expect(holdings(threaded, words())).toEqual(holdings(inline, words()));
      expect((holdings(threaded, words()) as { found: string[][] }).found.every((hits) => hits.length > 0)).toBe(true);

      const versions = () => threaded.db.prepare('SELECT count(*) FROM object_versions').pluck().get();
      const before = versions();
      const again = await syncTenant({ store: threaded, api: api(), pageThread: true });
      expect(again.status).toBe('completed');
      expect(again.collections.every((c) => c.upserted === 0 && c.deleted === 0)).toBe(true);
      expect(versions()).toBe(before);
    } finally {
      threaded.close();
      inline.close();
    }
  });

  it.runIf(process.platform === 'linux')('run below the rest of the process, which keeps its own priority', async () => {
    // Each thread's nice value, by thread id (field 19 of /proc/self/task/<tid>/stat).
    const niceOfThreads = () =>
      new Map(
        readdirSync('/proc/self/task').map((tid) => {
          const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
          return [tid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])] as const;
        }),
      );
    const file = join(tmp.dir, 'nice.sqlite');
    openStore(file).close();
    const own = getPriority();
    const before = niceOfThreads();
    const thread = await PageWriterThread.start(file);
    try {
      const started = [...niceOfThreads()].filter(([tid]) => !before.has(tid)).map(([, nice]) => nice);
      expect(started).toContain(Math.min(19, own + WRITER_NICE));
      // The calling thread (the sync's) is where it was.
      expect(getPriority()).toBe(own);
    } finally {
      await thread.close();
    }
  });

  it("leave the pages to the sync's own connection when the thread cannot start", async () => {
    const store = openStore(join(tmp.dir, 'no-thread.sqlite'));
    try {
      // The thread's connection cannot open: its file would be inside a file.
      writeFileSync(join(tmp.dir, 'not-a-folder'), '');
      let started = false;
      const noThread: SyncStore = {
        sync: store.sync,
        startPageWriter: () => ((started = true), PageWriterThread.start(join(tmp.dir, 'not-a-folder', 'store.sqlite'))),
      };
      const summary = await syncTenant({ store: noThread, api: api(), pageThread: true });
      expect(started).toBe(true);
      expect(summary.status).toBe('completed');
      expect(differences(store, tenant.data)).toEqual([]);
    } finally {
      store.close();
    }
  });

  it('fail the walks they did not store when the thread ends mid-sync; the next sync resumes and ends equal to the tenant', async () => {
    const store = openStore(join(tmp.dir, 'ended.sqlite'));
    try {
      let thread: PageWriterThread | null = null;
      const ending: SyncStore = {
        sync: store.sync,
        startPageWriter: () => store.startPageWriter()!.then((t) => (thread = t)),
      };
      let pages = 0;
      const first = await syncTenant({
        store: ending,
        api: api(),
        pageThread: true,
        onProgress: (e) => {
          // Closed after the first commit that left its walk with pages to store: that walk, at least, fails.
          if (e.phase === 'collection' && e.state === 'running' && e.pages > 0 && (pages += 1) === 1) void thread!.close();
        },
      });
      expect(first.status).toBe('failed');
      const failed = first.collections.filter((c) => !c.complete);
      expect(failed.length).toBeGreaterThan(0);
      for (const c of failed) expect(c.error).toMatch(/page writer thread ended|not fetched because/);
      // What the thread committed is searchable, its queue indexed on this connection.
      expect(store.db.prepare('SELECT count(*) FROM search_queue').pluck().get()).toBe(0);

      const second = await syncTenant({ store, api: api(), pageThread: true });
      expect(second).toMatchObject({ status: 'completed', resumed: true, runId: first.runId });
      expect(differences(store, tenant.data)).toEqual([]);
    } finally {
      store.close();
    }
  });
});
