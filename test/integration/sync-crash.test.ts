import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareConnection, recordConnection } from '../../src/main/app/saved-connections';
import { openStore } from '../../src/main/store/db';
import { collection as descriptorOf } from '../../src/main/collections';
import { readAheadPages } from '../../src/main/sync/cursors';
import { pagesPerCommit } from '../../src/main/sync/engine';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { differences, tempDir } from './sync.helpers';

const ROOT = new URL('../..', import.meta.url).pathname;

/**
 * The most pages a kill can cost a walk (`walk`: a collection, or a part of one as 'automations
 * drafts'): those read ahead, and those of the commit under way.
 */
function bound(walk: string): number {
  const descriptor = descriptorOf(walk.split(' ')[0]!);
  return readAheadPages(descriptor.pageSize) + pagesPerCommit(descriptor);
}

const KILLS = 20;

/** Which collection a request belongs to, and the page it asks for (list token, or one id of a by-id page). */
function classify(method: string, url: URL, body: string): { collection: string; page: string; byId: boolean } | null {
  if (!url.pathname.startsWith('/api/v1/')) return null; // the token endpoint
  const path = url.pathname.slice('/api/v1'.length);
  const token =
    method === 'GET' ? (url.searchParams.get('page_token') ?? '') : ((JSON.parse(body || '{}') as { pageToken?: string }).pageToken ?? '');
  if (path === '/access_reviews') return { collection: 'campaigns', page: `list ${token}`, byId: false };
  if (path.startsWith('/access_review/')) return { collection: 'campaigns', page: path, byId: true };
  if (path.startsWith('/access_review_template/')) return { collection: 'templates', page: path, byId: true };
  if (path === '/search/automations') {
    // Walked as three parts at once (drafts, published on, published off): a page is a part's token.
    const filter = JSON.parse(body || '{}') as { isDraft?: boolean; statuses?: string[] };
    return { collection: `automations ${filter.isDraft ? 'drafts' : (filter.statuses ?? []).join('+')}`, page: token, byId: false };
  }
  if (path.startsWith('/automations/')) return { collection: 'automations by id', page: path, byId: true };
  if (path === '/search/grants') {
    // Walked as four parts at once, by groups of apps: a page is a part's token; a grant read by id names its app user.
    const filter = JSON.parse(body || '{}') as { appIds?: string[]; appUserIds?: string[] };
    if (filter.appUserIds) return { collection: 'memberships by id', page: filter.appUserIds.join('+'), byId: true };
    return { collection: `memberships ${(filter.appIds ?? ['all'])[0]}`, page: token, byId: false };
  }
  if (path === '/mcp_toolsets/search') return { collection: 'toolsets', page: token, byId: false };
  if (path === '/findings/routing-rules') return { collection: 'routing-rules', page: token, byId: false };
  if (path === '/search/xaa/scopes') return { collection: 'scopes', page: token, byId: false };
  const searched: Record<string, string> = {
    '/search/apps': 'apps',
    '/search/entitlements': 'entitlements',
    '/search/app_users': 'app-users',
    '/search/tasks': 'tasks',
  };
  if (searched[path]) return { collection: searched[path], page: token, byId: false };
  return null;
}

interface Attempt {
  requests: { collection: string; page: string; byId: boolean }[];
  onRequest?: (n: number) => void;
}

/**
 * A loopback proxy in front of the tenant that sees every request the sync makes (so the test can
 * count refetched pages) and lets the test kill the syncing process at the n-th request.
 */
async function countingProxy(target: string): Promise<{ url: string; attempt: Attempt; server: Server }> {
  const state: { attempt: Attempt } = { attempt: { requests: [] } };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', target);
      const hit = classify(req.method ?? 'GET', url, body.toString('utf8'));
      const attempt = state.attempt;
      if (hit) {
        attempt.requests.push(hit);
        attempt.onRequest?.(attempt.requests.length);
      }
      const upstream = httpRequest(url, { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      res.on('close', () => upstream.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    get attempt() {
      return state.attempt;
    },
    set attempt(a: Attempt) {
      state.attempt = a;
    },
  };
}

/** A small deterministic PRNG, so a failure can be replayed with the same kill points. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return ((s ^ (s >>> 13)) >>> 0) / 2 ** 32;
  };
}

describe('sync crash safety', () => {
  let tenant: ReferenceTenant;
  let proxy: Awaited<ReturnType<typeof countingProxy>>;
  let tmp: ReturnType<typeof tempDir>;
  let storeFile: string;
  const env = (): NodeJS.ProcessEnv => ({
    ...process.env,
    ATTEST_CLIENT_SECRET: tenant.clientSecret,
    ATTEST_DATA_DIR: join(tmp.dir, 'data'),
  });

  beforeAll(async () => {
    // About 9,600 objects across the thirteen collections (automations 10 to a page: 60 pages; memberships 60 pages).
    tenant = await startTenant({ port: 0, seed: 31, scale: 15 });
    proxy = await countingProxy(tenant.url);
    tmp = tempDir('attest-sync-crash-');
    const dataDir = join(tmp.dir, 'data');
    const connection = prepareConnection(dataDir, { clientId: tenant.clientId, serverUrl: proxy.url, name: 'crash' });
    recordConnection(dataDir, connection);
    storeFile = connection.storeFile;
  });
  afterAll(async () => {
    await new Promise((resolve) => proxy?.server.close(resolve));
    await tenant?.close();
    tmp?.remove();
  });

  const startSync = (): ChildProcess =>
    spawn(process.execPath, [join(ROOT, 'bin/attest.mjs'), 'sync', '--connection', 'crash', '--json'], {
      env: env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  const exited = (child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }> =>
    new Promise((resolve) => {
      let out = '';
      let err = '';
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
      child.on('exit', (code, signal) => resolve({ code, signal, out, err }));
    });

  it(`survives ${KILLS} SIGKILLs at random moments, refetching at most the pages read ahead and those of one commit per walk each time, and ends equal to the tenant`, async () => {
    const random = prng(20261122);
    // Kill points spread over the whole sync, templates (fetched last) included: each attempt is
    // killed after a random number of requests, around its share of the requests still to make
    // (plus room for the page it refetches), and
    // always before the sync could end.
    const d = tenant.data;
    const templates = new Set(
      [...d.campaigns.values()]
        .map((c) => c.accessReviewTemplateId)
        .concat(
          [...d.automations.values()].flatMap((a) => (a.automationSteps ?? []).map((s) => s.createAccessReview?.accessReviewTemplateId)),
        ),
    );
    const total =
      Math.ceil(d.campaigns.size / 100) +
      // Automations: three walks at once, each up to one page longer than a third of the one walk.
      Math.ceil(d.automations.size / 10) +
      3 +
      Math.ceil(d.scopes.size / 100) +
      Math.ceil(d.toolsets.size / 100) +
      Math.ceil(d.routingRules.size / 100) +
      templates.size +
      [d.apps, d.entitlements, d.appUsers, d.memberships, d.tasks].reduce((n, c) => n + Math.ceil(c.size / 100), 0) +
      // Memberships: four walks at once, each up to one page longer than a quarter of the one walk.
      4;

    const seen = new Set<string>();
    const refetched: Record<string, number>[] = [];
    for (let kill = 0; kill < KILLS; kill += 1) {
      const remaining = total - seen.size;
      const share = remaining / (KILLS - kill + 1) + 60;
      const killAt = Math.max(3, Math.min(remaining - 20, 3 + Math.floor(random() * 2 * share)));
      const delayMs = Math.floor(random() * 25);
      const child = startSync();
      const attempt: Attempt = { requests: [] };
      attempt.onRequest = (n) => {
        if (n === killAt) setTimeout(() => child.kill('SIGKILL'), delayMs);
      };
      proxy.attempt = attempt;
      const result = await exited(child);
      expect(result.signal, `attempt ${kill + 1} ended before its kill: ${result.err}`).toBe('SIGKILL');

      // The file is sound after every kill.
      const db = new Database(storeFile);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      db.close();

      // Pages this attempt asked for that an earlier attempt had already fetched.
      const again: Record<string, { list: number; byId: number }> = {};
      for (const r of attempt.requests) {
        const key = `${r.collection} ${r.page}`;
        if (seen.has(key)) {
          again[r.collection] ??= { list: 0, byId: 0 };
          again[r.collection]![r.byId ? 'byId' : 'list'] += 1;
        }
      }
      for (const r of attempt.requests) seen.add(`${r.collection} ${r.page}`);
      // A by-id page is up to 100 reads (templates).
      refetched.push(Object.fromEntries(Object.entries(again).map(([c, n]) => [c, Math.max(n.list, Math.ceil(n.byId / 100))])));
    }
    // The kills did land mid-page (some page was asked for again), and never more than the pages read
    // ahead and those of one commit per walk (each part of a split collection is a walk): the pages on their way
    // to the page writer thread and those its cursor read ahead meanwhile. Everything before them was committed.
    expect(refetched.filter((pages) => Object.keys(pages).length > 0).length).toBeGreaterThan(KILLS / 2);
    if (process.env.ATTEST_TEST_VERBOSE)
      process.stderr.write(`${total} requests; refetched pages per attempt: ${JSON.stringify(refetched)}\n`);
    expect(refetched.some((pages) => pages.templates === 1)).toBe(true);
    for (const [i, pages] of refetched.entries()) {
      for (const [collection, n] of Object.entries(pages))
        expect(n, `attempt ${i + 1}: ${collection} refetched ${n} pages`).toBeLessThanOrEqual(bound(collection));
    }

    proxy.attempt = { requests: [] };
    const last = await exited(startSync());
    expect(last.code, last.err).toBe(0);
    const summary = JSON.parse(last.out) as { runId: number; status: string; resumed: boolean };
    expect(summary).toMatchObject({ status: 'completed', resumed: true });
    const store = openStore(storeFile);
    try {
      expect(differences(store, tenant.data)).toEqual([]);
      // Every attempt resumed the same run.
      expect(store.runs().map((r) => [r.id, r.status])).toEqual([[summary.runId, 'completed']]);
      // The search index caught up with every kill: one entry per current object, nothing queued.
      const current = store.db.prepare('SELECT count(*) FROM objects WHERE current_vid IS NOT NULL').pluck().get();
      expect(store.db.prepare('SELECT count(*) FROM search_index').pluck().get()).toBe(current);
      expect(store.db.prepare('SELECT count(*) FROM search_queue').pluck().get()).toBe(0);
      expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      store.close();
    }
  }, 300_000);
});
