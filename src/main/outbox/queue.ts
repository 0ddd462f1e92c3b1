/**
 * The durable outbox: changes queued offline, alone or in bulk, sent later; nothing lost, nothing
 * silently sent twice. Rules: docs "Outbox" (ARCHITECTURE.md).
 *
 * - Every state change is one transaction with `synchronous=FULL`, together with its overlay rows
 *   and its journal entry.
 * - An item is `sending` (durably) before its request leaves; whatever is `sending` at a crash is
 *   `uncertain` at the next start (`recoverAfterCrash`) and settled by `reconcile`, which reads the
 *   server where a read exists.
 */
import { randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { OutboxApi } from './api-shape';
import { parseImport } from './csv-import';
import { Journal } from './journal';
import {
  descriptorOf,
  KINDS,
  prepareChange,
  type KindDescriptor,
  type PreparedChange,
  type RefreshedObject,
  type ValidationContext,
} from './kinds';
import { reconcileItems } from './reconcile';
import { runSend, type SendOptions } from './sender';
import {
  OutboxStateError,
  OutboxValidationError,
  type ChangePreview,
  type ImportPreview,
  type ImportResult,
  type JournalEntry,
  type JournalFilter,
  type MutationKind,
  type OutboxItem,
  type OutboxRequest,
  type OutboxState,
  type PendingOverlay,
  type ReconcileSummary,
  type SendSummary,
} from './types';

export * from './types';
export type { SendOptions } from './sender';

/** What the outbox needs of the store: its database handle, and the synced objects. */
export interface OutboxStore {
  db: Database;
  getObject?(collection: string, id: string): { json?: unknown } | null | undefined;
  /**
   * Keeps fresh copies of the objects that successes returned, so views show them before the next
   * sync (optional: without it, the next sync brings them). Returns the run that holds them, if any.
   */
  refreshObjects?(objects: RefreshedObject[]): { runId: number | null; stored: number };
}

export interface Outbox {
  enqueue(kind: MutationKind, input: unknown, opts?: { source?: string }): OutboxItem;
  /**
   * Validates a change exactly as enqueue (or edit of item `editing`) would and says what would be
   * sent (update-template: the derived updateMask), queuing nothing; a refusal throws the same error.
   */
  check(kind: MutationKind, input: unknown, opts?: { editing?: string }): ChangePreview;
  /** The CSV as text, or as the file's bytes (then checked to be UTF-8, with the place of any bad bytes). */
  previewImport(csvText: string | Uint8Array, kind: 'remove-membership' | 'create-scope'): ImportPreview;
  importCsv(
    csvText: string | Uint8Array,
    kind: 'remove-membership' | 'create-scope',
    opts?: { dryRun?: boolean; source?: string },
  ): ImportResult;
  list(filter?: { state?: OutboxState; kind?: MutationKind; limit?: number }): OutboxItem[];
  get(id: string): OutboxItem | null;
  edit(id: string, input: unknown): OutboxItem;
  discard(id: string): void;
  retry(id: string): void;
  resolve(id: string, note?: string): void;
  send(api: OutboxApi, opts?: SendOptions): Promise<SendSummary>;
  recoverAfterCrash(): number;
  reconcile(api: OutboxApi, opts?: { concurrency?: number; signal?: AbortSignal }): Promise<ReconcileSummary>;
  journal(filter?: JournalFilter): JournalEntry[];
  pendingCount(): number;
  /** Items per state. */
  counts(): Record<OutboxState, number>;
  overlays(collection: string, ids?: string[]): PendingOverlay[];
  /** Resolves an id or a unique prefix of one (for the CLI). */
  resolveId(idOrPrefix: string): string;
}

interface ItemRow {
  seq: number;
  id: string;
  kind: string;
  kind_version: number;
  state: string;
  input_json: string;
  request_json: string;
  request_digest: string;
  target: string;
  dedupe_key: string;
  summary: string;
  source: string | null;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  result_json: string | null;
  note: string | null;
  created_at: string;
  updated_at: string;
  first_sent_at: string | null;
  last_sent_at: string | null;
}

export function rowToItem(r: ItemRow): OutboxItem {
  return {
    id: r.id,
    seq: r.seq,
    kind: r.kind as MutationKind,
    kindVersion: r.kind_version,
    state: r.state as OutboxState,
    input: JSON.parse(r.input_json) as Record<string, unknown>,
    request: JSON.parse(r.request_json) as OutboxRequest,
    requestDigest: r.request_digest,
    target: r.target,
    summary: r.summary,
    source: r.source,
    attempts: r.attempts,
    lastStatus: r.last_status,
    lastError: r.last_error,
    result: r.result_json ? (JSON.parse(r.result_json) as Record<string, unknown>) : null,
    note: r.note,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    firstSentAt: r.first_sent_at,
    lastSentAt: r.last_sent_at,
  };
}

const ACTIVE_STATES = "('queued','sending','uncertain')";
const SYNC_FULL = 2;

/**
 * The outbox's own database work. Every write goes through `durable`: one transaction under
 * synchronous=FULL (restored afterwards, so the store's other writers keep their setting).
 */
export class OutboxDb {
  readonly journal: Journal;
  readonly stmt;

  constructor(
    readonly db: Database,
    readonly store: OutboxStore,
  ) {
    this.journal = new Journal(db);
    this.stmt = {
      insert: db.prepare(
        `INSERT INTO outbox_items (id, kind, kind_version, state, input_json, request_json, request_digest, target, dedupe_key, summary, source, created_at, updated_at)
         VALUES (@id, @kind, @version, 'queued', @input, @request, @digest, @target, @dedupeKey, @summary, @source, @now, @now)`,
      ),
      insertOverlay: db.prepare(
        `INSERT OR REPLACE INTO outbox_overlays (item_id, collection, object_id, effect, data_json) VALUES (?, ?, ?, ?, ?)`,
      ),
      deleteOverlays: db.prepare(`DELETE FROM outbox_overlays WHERE item_id = ?`),
      byId: db.prepare(`SELECT * FROM outbox_items WHERE id = ?`),
      activeByKey: db.prepare(`SELECT id, state FROM outbox_items WHERE kind = ? AND dedupe_key = ? AND state IN ${ACTIVE_STATES} LIMIT 1`),
      setState: db.prepare(
        `UPDATE outbox_items SET state = @state, updated_at = @now, note = coalesce(@note, note), last_error = coalesce(@lastError, last_error) WHERE id = @id`,
      ),
      claim: db.prepare(
        `UPDATE outbox_items SET state = 'sending', attempts = attempts + 1, updated_at = @now, last_sent_at = @now, first_sent_at = coalesce(first_sent_at, @now)
         WHERE id = @id AND state = 'queued'`,
      ),
      settle: db.prepare(
        `UPDATE outbox_items SET state = @state, updated_at = @now, last_status = @status, last_error = @lastError, result_json = coalesce(@result, result_json)
         WHERE id = @id AND attempts = @attempt AND state IN ('sending','uncertain')`,
      ),
    };
  }

  /** `immediate`: take the write lock at the start (reads inside then see what the writes will be checked against). */
  durable<T>(fn: () => T, immediate = false): T {
    const previous = this.db.pragma('synchronous', { simple: true }) as number;
    if (previous !== SYNC_FULL) this.db.pragma('synchronous = FULL');
    try {
      const txn = this.db.transaction(fn);
      return immediate ? txn.immediate() : txn();
    } finally {
      if (previous !== SYNC_FULL) this.db.pragma(`synchronous = ${previous}`);
    }
  }

  row(id: string): ItemRow | undefined {
    return this.stmt.byId.get(id) as ItemRow | undefined;
  }

  item(id: string): OutboxItem | null {
    const r = this.row(id);
    return r ? rowToItem(r) : null;
  }

  writeOverlays(itemId: string, d: KindDescriptor, input: Record<string, unknown>, fresh = false): void {
    if (!fresh) this.stmt.deleteOverlays.run(itemId);
    for (const o of d.overlay(input, itemId))
      this.stmt.insertOverlay.run(itemId, o.collection, o.objectId, o.effect, JSON.stringify(o.data));
  }

  /** Inserts a prepared change with its overlay and journal entry (call inside `durable`). */
  insert(change: PreparedChange, source: string | null, now: string): string {
    const id = randomUUID();
    this.stmt.insert.run({
      id,
      kind: change.kind,
      version: change.version,
      input: JSON.stringify(change.input),
      request: JSON.stringify(change.request),
      digest: change.digest,
      target: change.target,
      dedupeKey: change.dedupeKey,
      summary: change.summary,
      source,
      now,
    });
    this.writeOverlays(id, descriptorOf(change.kind), change.input, true);
    this.journal.append({
      itemId: id,
      kind: change.kind,
      target: change.target,
      attempt: 0,
      event: 'queued',
      requestDigest: change.digest,
      outcome: 'queued',
      at: now,
    });
    return id;
  }

  /** Keeps fresh copies of objects that successes returned (when the store can). */
  refresh(objects: RefreshedObject[]): { runId: number | null; stored: number } {
    if (!this.store.refreshObjects || objects.length === 0) return { runId: null, stored: 0 };
    try {
      return this.store.refreshObjects(objects);
    } catch {
      // A refresh is a convenience: the outcomes are recorded, and the next sync brings the objects.
      return { runId: null, stored: 0 };
    }
  }
}

function sameChangeQueued(existing: { id: string; state: string }): OutboxValidationError {
  return new OutboxValidationError('input', `the same change is already in the outbox as item ${existing.id} (${existing.state})`);
}

function ensureSchema(db: Database): void {
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'outbox_items'").get();
  if (!exists) {
    throw new Error('this store has no outbox tables: open it with the store (its migrations create them)');
  }
}

/** Opens the outbox of a store (its tables come with the store's migrations). */
export function openOutbox(store: OutboxStore): Outbox {
  const db = store.db;
  ensureSchema(db);
  const o = new OutboxDb(db, store);
  let sendRunning = false;

  const ctx: ValidationContext = {
    synced(collection, id) {
      const found = store.getObject?.(collection, id);
      const json = found?.json;
      return json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : null;
    },
  };

  function mustGet(id: string): OutboxItem {
    const item = o.item(id);
    if (!item) throw new OutboxStateError(`no outbox item ${id}`);
    return item;
  }

  function transition(id: string, allowed: OutboxState[], next: OutboxState, event: string, note?: string): void {
    o.durable(() => {
      const item = mustGet(id);
      if (!allowed.includes(item.state)) {
        const verb = { discard: 'discarded', retry: 'retried', resolve: 'marked resolved' }[event] ?? event;
        const states = allowed.length > 1 ? `${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}` : allowed[0];
        throw new OutboxStateError(`item ${id} is ${item.state}: only ${states} items can be ${verb}`);
      }
      const now = new Date().toISOString();
      o.stmt.setState.run({ id, state: next, now, note: note ?? null, lastError: null });
      if (next === 'discarded' || next === 'resolved') o.stmt.deleteOverlays.run(id);
      o.journal.append({
        itemId: id,
        kind: item.kind,
        target: item.target,
        attempt: item.attempts,
        event,
        requestDigest: item.requestDigest,
        outcome: next,
        answer: note ?? null,
        at: now,
      });
    });
  }

  const outbox: Outbox = {
    check(kind, input, opts = {}) {
      const change = prepareChange(kind, input, ctx);
      const existing = o.stmt.activeByKey.get(kind, change.dedupeKey) as { id: string; state: string } | undefined;
      if (existing && existing.id !== opts.editing) throw sameChangeQueued(existing);
      return { kind, input: change.input, request: change.request, summary: change.summary, target: change.target };
    },

    enqueue(kind, input, opts = {}) {
      const change = prepareChange(kind, input, ctx);
      const id = o.durable(() => {
        const existing = o.stmt.activeByKey.get(kind, change.dedupeKey) as { id: string; state: string } | undefined;
        if (existing) throw sameChangeQueued(existing);
        return o.insert(change, opts.source ?? null, new Date().toISOString());
      });
      return mustGet(id);
    },

    previewImport(csvText, kind) {
      return parseImport(csvText, kind, ctx, (k, key) => o.stmt.activeByKey.get(k, key) as { id: string; state: OutboxState } | undefined)
        .preview;
    },

    importCsv(csvText, kind, opts = {}) {
      const dryRun = opts.dryRun === true;
      const lookup = (k: MutationKind, key: string) => o.stmt.activeByKey.get(k, key) as { id: string; state: OutboxState } | undefined;
      if (dryRun) return { ...parseImport(csvText, kind, ctx, lookup).preview, dryRun, queued: 0, itemIds: [] };
      // Validated and written in one write transaction: the duplicate checks against the queue
      // hold for the rows written, and the rows are all written or none.
      return o.durable(() => {
        const { preview, changes } = parseImport(csvText, kind, ctx, lookup);
        if (preview.errors.length > 0 || changes.length === 0) return { ...preview, dryRun, queued: 0, itemIds: [] };
        const now = new Date().toISOString();
        const itemIds = changes.map((c) => o.insert(c.change, `${opts.source ?? 'csv'}:${c.line}`, now));
        return { ...preview, dryRun, queued: itemIds.length, itemIds };
      }, true);
    },

    list(filter = {}) {
      const where: string[] = [];
      const params: unknown[] = [];
      if (filter.state) {
        where.push('state = ?');
        params.push(filter.state);
      }
      if (filter.kind) {
        where.push('kind = ?');
        params.push(filter.kind);
      }
      const limit = filter.limit && filter.limit > 0 ? ` LIMIT ${Math.floor(filter.limit)}` : '';
      const rows = db
        .prepare(`SELECT * FROM outbox_items${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY seq${limit}`)
        .all(...params) as ItemRow[];
      return rows.map(rowToItem);
    },

    get: (id) => o.item(id),

    edit(id, input) {
      o.durable(() => {
        const item = mustGet(id);
        if (item.state !== 'queued') throw new OutboxStateError(`item ${id} is ${item.state}: only queued items can be edited`);
        const change = prepareChange(item.kind, input, ctx);
        const clash = db
          .prepare(`SELECT id FROM outbox_items WHERE kind = ? AND dedupe_key = ? AND state IN ${ACTIVE_STATES} AND id <> ? LIMIT 1`)
          .get(item.kind, change.dedupeKey, id) as { id: string } | undefined;
        if (clash) throw new OutboxValidationError('input', `the same change is already in the outbox as item ${clash.id}`);
        const now = new Date().toISOString();
        db.prepare(
          `UPDATE outbox_items SET input_json = ?, request_json = ?, request_digest = ?, target = ?, dedupe_key = ?, summary = ?, kind_version = ?, updated_at = ? WHERE id = ?`,
        ).run(
          JSON.stringify(change.input),
          JSON.stringify(change.request),
          change.digest,
          change.target,
          change.dedupeKey,
          change.summary,
          change.version,
          now,
          id,
        );
        o.writeOverlays(id, descriptorOf(item.kind), change.input);
        o.journal.append({
          itemId: id,
          kind: item.kind,
          target: change.target,
          attempt: item.attempts,
          event: 'edit',
          requestDigest: change.digest,
          outcome: 'queued',
          at: now,
        });
      });
      return mustGet(id);
    },

    discard: (id) => transition(id, ['queued', 'failed', 'uncertain'], 'discarded', 'discard'),
    retry: (id) => transition(id, ['failed', 'uncertain'], 'queued', 'retry'),
    resolve: (id, note) => transition(id, ['failed', 'uncertain'], 'resolved', 'resolve', note ?? 'marked resolved by the user'),

    async send(api, opts = {}) {
      if (sendRunning) throw new OutboxStateError('the outbox is already sending');
      sendRunning = true;
      try {
        return await runSend(o, api, opts);
      } finally {
        sendRunning = false;
      }
    },

    recoverAfterCrash() {
      if (sendRunning) return 0;
      return o.durable(() => {
        const rows = db.prepare(`SELECT * FROM outbox_items WHERE state = 'sending' ORDER BY seq`).all() as ItemRow[];
        const now = new Date().toISOString();
        for (const r of rows) {
          o.stmt.setState.run({
            id: r.id,
            state: 'uncertain',
            now,
            note: null,
            lastError: 'interrupted while sending: the change may or may not have been applied',
          });
          o.journal.append({
            itemId: r.id,
            kind: r.kind as MutationKind,
            target: r.target,
            attempt: r.attempts,
            event: 'interrupted',
            requestDigest: r.request_digest,
            outcome: 'uncertain',
            answer: 'the app stopped while this request was in flight',
            at: now,
          });
        }
        return rows.length;
      });
    },

    async reconcile(api, opts = {}) {
      if (sendRunning) throw new OutboxStateError('the outbox is sending: reconcile after the send ends');
      sendRunning = true;
      try {
        return await reconcileItems(o, api, opts);
      } finally {
        sendRunning = false;
      }
    },

    journal: (filter) => o.journal.list(filter),

    pendingCount() {
      return db.prepare(`SELECT count(*) FROM outbox_items WHERE state IN ${ACTIVE_STATES}`).pluck().get() as number;
    },

    counts() {
      const out = { queued: 0, sending: 0, succeeded: 0, failed: 0, uncertain: 0, resolved: 0, discarded: 0 } as Record<
        OutboxState,
        number
      >;
      for (const r of db.prepare('SELECT state, count(*) AS n FROM outbox_items GROUP BY state').all() as {
        state: OutboxState;
        n: number;
      }[])
        out[r.state] = r.n;
      return out;
    },

    overlays(collection, ids) {
      const base = `SELECT v.item_id, v.collection, v.object_id, v.effect, v.data_json, i.kind, i.state
        FROM outbox_overlays v JOIN outbox_items i ON i.id = v.item_id WHERE v.collection = ?`;
      type Row = { item_id: string; collection: string; object_id: string; effect: string; data_json: string; kind: string; state: string };
      let rows: Row[];
      if (ids && ids.length > 0) {
        rows = [];
        for (let i = 0; i < ids.length; i += 500) {
          const chunk = ids.slice(i, i + 500);
          rows.push(
            ...(db
              .prepare(`${base} AND v.object_id IN (${chunk.map(() => '?').join(',')}) ORDER BY i.seq`)
              .all(collection, ...chunk) as Row[]),
          );
        }
      } else {
        rows = db.prepare(`${base} ORDER BY i.seq`).all(collection) as Row[];
      }
      return rows.map((r) => ({
        itemId: r.item_id,
        kind: r.kind as MutationKind,
        state: r.state as OutboxState,
        collection: r.collection,
        objectId: r.object_id,
        effect: r.effect as PendingOverlay['effect'],
        data: JSON.parse(r.data_json) as Record<string, unknown>,
      }));
    },

    resolveId(idOrPrefix) {
      const exact = o.row(idOrPrefix);
      if (exact) return exact.id;
      if (idOrPrefix.length < 4)
        throw new OutboxStateError(`'${idOrPrefix}' is too short to name an item: give at least 4 characters of its id`);
      const matches = db
        .prepare(`SELECT id FROM outbox_items WHERE id LIKE ? ESCAPE '\\' LIMIT 2`)
        .pluck()
        .all(`${idOrPrefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) as string[];
      if (matches.length === 0) throw new OutboxStateError(`no outbox item ${idOrPrefix}`);
      if (matches.length > 1) throw new OutboxStateError(`'${idOrPrefix}' names more than one item: give more of its id`);
      return matches[0] as string;
    },
  };
  return outbox;
}

export { KINDS };
