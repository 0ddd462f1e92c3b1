/** Test doubles for the outbox unit tests: an in-memory API and a throwaway store. */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiRequest, ApiResponse } from '../../src/main/api/client';
import { ApiError } from '../../src/main/api/errors';
import { migrate } from '../../src/main/store/migrate';
import m0100 from '../../src/main/store/migrations/0100-outbox';
import m0101 from '../../src/main/store/migrations/0101-outbox-batches';
import { openOutbox, type Outbox, type OutboxStore } from '../../src/main/outbox/queue';

export type Fault = 'drop-after-apply' | 'server-before' | 'auth' | 'network' | 'rate-limited' | 'gateway-before' | null;

export interface FakeCall {
  method: string;
  path: string;
  body: unknown;
  mutation: boolean;
}

/** A tiny tenant in memory, with an "applied" log (every mutation that changed something). */
export class FakeApi {
  memberships = new Set<string>();
  scopes: Record<string, unknown>[] = [];
  tasks = new Map<string, { emergencyAccess: boolean }>();
  templates = new Map<string, Record<string, unknown>>();
  campaigns: Record<string, unknown>[] = [];
  calls: FakeCall[] = [];
  applied: { method: string; path: string; body: unknown }[] = [];
  inFlight = 0;
  maxInFlight = 0;
  delayMs = 0;
  /** Decides a fault per call (called for every request). */
  fault: (call: FakeCall, index: number) => Fault = () => null;
  private ids = 0;

  async request<T>(req: ApiRequest): Promise<ApiResponse<T>> {
    const call: FakeCall = { method: req.method, path: req.path, body: req.body, mutation: req.mutation ?? req.method !== 'GET' };
    const index = this.calls.push(call) - 1;
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs));
      else await Promise.resolve();
      const fault = this.fault(call, index);
      if (fault === 'auth') throw new ApiError('auth', `${req.method} ${req.path} failed with HTTP 401: token rejected`, { status: 401 });
      if (fault === 'network') throw new ApiError('network', `${req.method} ${req.path} was not sent: connect ECONNREFUSED`);
      if (fault === 'rate-limited') throw new ApiError('rate_limited', 'still rate limited', { status: 429, retryAfterMs: 5 });
      if (fault === 'server-before')
        throw new ApiError('server', `${req.method} ${req.path} failed with HTTP 503: unavailable`, { status: 503, grpcCode: 14 });
      if (fault === 'gateway-before') throw new ApiError('uncertain', 'a gateway answered 504', { status: 504 });
      const body = this.handle(req);
      if (fault === 'drop-after-apply')
        throw new ApiError('uncertain', `${req.method} ${req.path} may have been applied: socket hang up. It was not resent`);
      return { status: 200, body: body as T, text: JSON.stringify(body) };
    } finally {
      this.inFlight -= 1;
    }
  }

  private fail(kind: 'not_found' | 'conflict' | 'invalid_input', status: number, grpcCode: number, message: string): never {
    throw new ApiError(kind, message, { status, grpcCode });
  }

  private handle(req: ApiRequest): unknown {
    const body = (req.body ?? {}) as Record<string, unknown>;
    let m = /^\/apps\/([^/]+)\/entitlements\/([^/]+)\/remove-membership$/.exec(req.path);
    if (m && req.method === 'DELETE') {
      const key = `${decodeURIComponent(m[1]!)}/${decodeURIComponent(m[2]!)}/${String(body.appUserId)}`;
      if (!this.memberships.has(key)) this.fail('not_found', 404, 5, `membership of ${String(body.appUserId)} not found`);
      this.memberships.delete(key);
      this.applied.push({ method: req.method, path: req.path, body });
      return { revokeTaskId: `rt-${++this.ids}` };
    }
    if (req.path === '/search/grants') {
      // The members of an entitlement, filtered by entitlement and app user as the vendor's search is.
      const refs = (body.entitlementRefs ?? []) as { appId?: string; id: string }[];
      const users = (body.appUserIds ?? []) as string[];
      const list = [...this.memberships]
        .map((key) => key.split('/') as [string, string, string])
        .filter(
          ([appId, ent, user]) =>
            refs.some((r) => r.id === ent && (!r.appId || r.appId === appId)) && (!users.length || users.includes(user)),
        )
        .map(([appId, appEntitlementId, appUserId]) => ({ appEntitlementUserBinding: { appId, appEntitlementId, appUserId } }));
      return { list, nextPageToken: '' };
    }
    if (req.path === '/search/tasks') return { list: [], nextPageToken: '' };
    m = /^\/apps\/([^/]+)\/xaa\/scopes$/.exec(req.path);
    if (m && req.method === 'POST') {
      const appId = decodeURIComponent(m[1]!);
      if (
        this.scopes.some((s) => s.appId === appId && s.xaaResourceServerId === body.xaaResourceServerId && s.scopeValue === body.scopeValue)
      ) {
        this.fail('conflict', 409, 6, `scope ${String(body.scopeValue)} already exists`);
      }
      const scope = {
        id: `sc-${++this.ids}`,
        appId,
        ...body,
        appEntitlementId: `ent-${this.ids}`,
        state: body.state ?? 'XAA_SCOPE_STATE_PENDING_REVIEW',
      };
      this.scopes.push(scope);
      this.applied.push({ method: req.method, path: req.path, body });
      return { scope };
    }
    if (req.path === '/search/xaa/scopes') {
      const list = this.scopes.filter((s) => (body.query ? String(s.scopeValue).includes(String(body.query)) : true));
      return { list, nextPageToken: '' };
    }
    m = /^\/tasks\/([^/]+)\/action\/escalate$/.exec(req.path);
    if (m) {
      const task = this.tasks.get(decodeURIComponent(m[1]!));
      if (!task) this.fail('not_found', 404, 5, 'task not found');
      if (task.emergencyAccess) this.fail('invalid_input', 400, 9, 'task is already in emergency access');
      task.emergencyAccess = true;
      this.applied.push({ method: req.method, path: req.path, body });
      return { taskView: { task: { id: decodeURIComponent(m[1]!), emergencyAccess: true } }, expanded: [] };
    }
    m = /^\/tasks\/([^/]+)$/.exec(req.path);
    if (m && req.method === 'GET') {
      const task = this.tasks.get(decodeURIComponent(m[1]!));
      if (!task) this.fail('not_found', 404, 5, 'task not found');
      return { taskView: { task: { id: decodeURIComponent(m[1]!), emergencyAccess: task.emergencyAccess } } };
    }
    m = /^\/access_review_template\/([^/]+)$/.exec(req.path);
    if (m) {
      const id = decodeURIComponent(m[1]!);
      const t = this.templates.get(id);
      if (!t) this.fail('not_found', 404, 5, 'template not found');
      if (req.method === 'GET') return { accessReviewTemplate: t };
      const patch = body.accessReviewTemplate as Record<string, unknown>;
      for (const path of String(body.updateMask).split(',')) t[path] = patch[path];
      this.applied.push({ method: req.method, path: req.path, body });
      return { accessReviewTemplate: t };
    }
    if (req.path === '/access_review' && req.method === 'POST') {
      const c = {
        id: `ar-${++this.ids}`,
        displayName: body.displayName,
        createdAt: new Date().toISOString(),
        state: 'ACCESS_REVIEW_STATE_DRAFT',
      };
      this.campaigns.push({ ...c, ownerIds: body.ownerIds });
      this.applied.push({ method: req.method, path: req.path, body });
      return { accessReview: { accessReview: c } };
    }
    if (req.path === '/access_reviews') {
      return { list: this.campaigns.map((c) => ({ accessReview: c })), nextPageToken: '' };
    }
    throw new ApiError('not_found', `no route ${req.method} ${req.path}`, { status: 404 });
  }
}

export interface TestOutbox {
  outbox: Outbox;
  db: Database.Database;
  /** Synced objects by `collection/id`. */
  synced: Map<string, Record<string, unknown>>;
  /** Synced objects (`collection/id`) the last walk no longer saw. */
  gone: Set<string>;
  /** When each collection was last synced completely (absent: never). */
  asOf: Map<string, string>;
  /** Collections whose objects are all of the tenant's as of a run (a full walk that ended; absent: partial). */
  complete: Map<string, { runId: number; finishedAt: string }>;
  dir: string;
  file: string;
  close(): void;
}

export function openTestOutbox(): TestOutbox {
  const dir = mkdtempSync(join(tmpdir(), 'attest-outbox-'));
  const file = join(dir, 'store.sqlite');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  migrate(db, [m0100, m0101]);
  const synced = new Map<string, Record<string, unknown>>();
  const gone = new Set<string>();
  const asOf = new Map<string, string>();
  const complete = new Map<string, { runId: number; finishedAt: string }>();
  const store: OutboxStore = {
    db,
    getObject: (collection, id) => {
      const json = synced.get(`${collection}/${id}`);
      return json ? { json, deleted: gone.has(`${collection}/${id}`) } : null;
    },
    syncedAsOf: (collection) => asOf.get(collection) ?? null,
    completeRun: (collection) => complete.get(collection) ?? null,
    refreshObjects: (copies) => {
      for (const c of copies) {
        // As the store keeps them: a removed object's last version stays, marked gone.
        if (c.json) {
          synced.set(`${c.collection}/${c.id}`, c.json);
          gone.delete(`${c.collection}/${c.id}`);
        } else gone.add(`${c.collection}/${c.id}`);
      }
      return { runId: null, stored: copies.length };
    },
  };
  return {
    outbox: openOutbox(store),
    db,
    synced,
    gone,
    asOf,
    complete,
    dir,
    file,
    close() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
