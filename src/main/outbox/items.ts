/**
 * The outbox's rows and every statement on them: the item rows (`outbox_items`), their overlays
 * (`outbox_overlays`) and, through `Journal`, their journal. The other outbox modules (queue,
 * actions, sender, reconcile) hold the rules; the SQL is here.
 *
 * Every write goes through `durable`: one transaction under synchronous=FULL.
 */
import { randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import { Journal } from './journal';
import { descriptorOf, KINDS, type KindDescriptor, type PreparedChange, type RefreshedObject } from './kinds';
import type { MutationKind, OutboxBatch, OutboxFilter, OutboxItem, OutboxRequest, OutboxState, PendingOverlay } from './types';

/** What the outbox needs of the store: its database handle, and the synced objects. */
export interface OutboxStore {
  db: Database;
  /** A synced object (its last version; `deleted`: the last completed walk no longer saw it). */
  getObject?(collection: string, id: string): { json?: unknown; deleted?: boolean } | null | undefined;
  /** When a collection's data is from (its last completed walk), null when it never completed. */
  syncedAsOf?(collection: string): string | null;
  /** The run a collection's objects are all of the tenant's as of, or null (never complete, or gathered by reference). */
  completeRun?(collection: string): { runId: number; finishedAt: string } | null;
  /** The first current object whose columns hold these values, or null. */
  findObject?(collection: string, columns: Record<string, string>): { id: string; json: unknown } | null;
  /**
   * Keeps fresh copies of the objects that successes returned, so views show them before the next
   * sync (optional: without it, the next sync brings them). Returns the run that holds them, if any.
   */
  refreshObjects?(objects: RefreshedObject[]): { runId: number | null; stored: number };
}

/** A row of `outbox_items` as stored. */
export interface ItemRow {
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
  batch_id: number | null;
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

interface OverlayJoinRow {
  item_id: string;
  collection: string;
  object_id: string;
  effect: string;
  data_json: string;
  kind: string;
  state: string;
}

/** An active item (queued, sending or uncertain) holding a change's dedupe key. */
export interface ActiveItem {
  id: string;
  state: OutboxState;
}

export interface ItemFilter extends OutboxFilter {
  limit?: number | undefined;
  /** Items to pass over first (with `limit`: one page). */
  offset?: number | undefined;
}

interface BatchRow {
  id: number;
  name: string;
  source: string;
  kind: string;
  rows: number;
  created_at: string;
}

/** A batch to record (`createBatch`). */
export interface NewBatch {
  name: string;
  source: string;
  kind: MutationKind;
  rows: number;
  now: string;
}

/** The fields of a state change (`setState`); `note` and `lastError` are kept when null. */
export interface StateChange {
  id: string;
  state: OutboxState;
  now: string;
  note: string | null;
  lastError: string | null;
}

/** The recorded outcome of one attempt (`settle`). */
export interface SettleFields {
  id: string;
  attempt: number;
  state: OutboxState;
  now: string;
  status: number | null;
  lastError: string | null;
  result: string | null;
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
    batchId: r.batch_id ?? null,
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

function noCounts(): Record<OutboxState, number> {
  return { queued: 0, sending: 0, succeeded: 0, failed: 0, uncertain: 0, resolved: 0, discarded: 0 };
}

/** The WHERE clause of a filter, with its named parameters (ids as one JSON array: any number of them). */
function whereOf(filter: OutboxFilter): { sql: string; params: Record<string, unknown> } {
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  if (filter.ids) {
    where.push('id IN (SELECT value FROM json_each(@ids))');
    params.ids = JSON.stringify(filter.ids);
  }
  if (filter.state) {
    where.push('state = @state');
    params.state = filter.state;
  }
  if (filter.kind) {
    where.push('kind = @kind');
    params.kind = filter.kind;
  }
  if (filter.batch !== undefined) {
    where.push('batch_id = @batch');
    params.batch = filter.batch;
  }
  if (filter.error) {
    // The reason shown: the last error, or the note reconciling left. LIKE ignores ASCII case.
    where.push(`(last_error LIKE @error ESCAPE '\\' OR note LIKE @error ESCAPE '\\')`);
    params.error = `%${filter.error.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  }
  return { sql: where.length ? ` WHERE ${where.join(' AND ')}` : '', params };
}
const SYNC_FULL = 2;
/** Object ids per `IN (...)` list when reading overlays (well under SQLite's bound on parameters). */
const OVERLAY_CHUNK = 500;

/** Refuses a database without the outbox tables (they come with the store's migrations). */
export function ensureSchema(db: Database): void {
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'outbox_items'").get();
  if (!exists) {
    throw new Error('this store has no outbox tables: open it with the store (its migrations create them)');
  }
}

function prepareStatements(db: Database) {
  const update = (sets: string, where = 'id = ?') => db.prepare(`UPDATE outbox_items SET ${sets} WHERE ${where}`);
  return {
    insert: db.prepare(
      `INSERT INTO outbox_items (id, kind, kind_version, state, input_json, request_json, request_digest, target, dedupe_key, summary, source,
         batch_id, created_at, updated_at)
       VALUES (@id, @kind, @version, 'queued', @input, @request, @digest, @target, @dedupeKey, @summary, @source, @batch, @now, @now)`,
    ),
    insertBatch: db.prepare(
      `INSERT INTO outbox_batches (name, source, kind, rows, created_at) VALUES (@name, @source, @kind, @rows, @now)`,
    ),
    batches: db.prepare(`SELECT * FROM outbox_batches ORDER BY id DESC`),
    batchCounts: db.prepare(`SELECT batch_id, state, count(*) AS n FROM outbox_items WHERE batch_id IS NOT NULL GROUP BY batch_id, state`),
    insertOverlay: db.prepare(
      `INSERT OR REPLACE INTO outbox_overlays (item_id, collection, object_id, effect, data_json) VALUES (?, ?, ?, ?, ?)`,
    ),
    deleteOverlays: db.prepare(`DELETE FROM outbox_overlays WHERE item_id = ?`),
    byId: db.prepare(`SELECT * FROM outbox_items WHERE id = ?`),
    byState: db.prepare(`SELECT * FROM outbox_items WHERE state = ? ORDER BY seq`),
    attempts: db.prepare('SELECT attempts FROM outbox_items WHERE id = ?').pluck(),
    activeByKey: db.prepare(`SELECT id, state FROM outbox_items WHERE kind = ? AND dedupe_key = ? AND state IN ${ACTIVE_STATES} LIMIT 1`),
    otherActiveByKey: db.prepare(
      `SELECT id FROM outbox_items WHERE kind = ? AND dedupe_key = ? AND state IN ${ACTIVE_STATES} AND id <> ? LIMIT 1`,
    ),
    unsettledTargets: db.prepare(`SELECT target, min(seq) AS seq FROM outbox_items WHERE state IN ('sending','uncertain') GROUP BY target`),
    idsByPrefix: db.prepare(`SELECT id FROM outbox_items WHERE id LIKE ? ESCAPE '\\' LIMIT 2`).pluck(),
    pendingCount: db.prepare(`SELECT count(*) FROM outbox_items WHERE state IN ${ACTIVE_STATES}`).pluck(),
    counts: db.prepare('SELECT state, count(*) AS n FROM outbox_items GROUP BY state'),
    updateChange: update(
      `input_json = ?, request_json = ?, request_digest = ?, target = ?, dedupe_key = ?, summary = ?, kind_version = ?, updated_at = ?`,
    ),
    setState: update(
      `state = @state, updated_at = @now, note = coalesce(@note, note), last_error = coalesce(@lastError, last_error)`,
      'id = @id',
    ),
    claim: update(
      `state = 'sending', attempts = attempts + 1, updated_at = @now, last_sent_at = @now, first_sent_at = coalesce(first_sent_at, @now)`,
      `id = @id AND state = 'queued'`,
    ),
    settle: update(
      `state = @state, updated_at = @now, last_status = @status, last_error = @lastError, result_json = coalesce(@result, result_json)`,
      `id = @id AND attempts = @attempt AND state IN ('sending','uncertain')`,
    ),
    returnToQueue: update(
      `state = 'queued', updated_at = ?, last_status = ?, last_error = ?`,
      `id = ? AND attempts = ? AND state = 'sending'`,
    ),
    reconciledApplied: update(`state = 'succeeded', attempts = ?, updated_at = ?, last_error = NULL, result_json = ?, note = ?`),
    reconciledRequeued: update(`state = 'queued', attempts = ?, updated_at = ?, note = ?`),
    reconciledUnknown: update(`attempts = ?, updated_at = ?, note = ?`),
  };
}

/** The outbox's own database work. */
export class OutboxDb {
  readonly journal: Journal;
  readonly #stmt: ReturnType<typeof prepareStatements>;

  constructor(
    readonly db: Database,
    readonly store: OutboxStore,
  ) {
    this.journal = new Journal(db);
    this.#stmt = prepareStatements(db);
  }

  /**
   * One transaction under synchronous=FULL (restored afterwards, so the store's other writers keep
   * their setting). `immediate`: take the write lock at the start (reads inside then see what the
   * writes will be checked against).
   */
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

  // -- Reads ---------------------------------------------------------------------------------

  row(id: string): ItemRow | undefined {
    return this.#stmt.byId.get(id) as ItemRow | undefined;
  }

  item(id: string): OutboxItem | null {
    const r = this.row(id);
    return r ? rowToItem(r) : null;
  }

  /** The items in one state, in queue order, as stored. */
  rowsInState(state: OutboxState): ItemRow[] {
    return this.#stmt.byState.all(state) as ItemRow[];
  }

  /** The items in one state stored by an older version of their kind than the current one, in queue order. */
  rowsOlderThanKinds(state: OutboxState): ItemRow[] {
    const versions = JSON.stringify(Object.fromEntries(Object.values(KINDS).map((d) => [d.kind, d.version])));
    const sql = `SELECT * FROM outbox_items WHERE state = ? AND kind_version < coalesce((SELECT value FROM json_each(?) WHERE key = kind), 0)
      ORDER BY seq`;
    return this.db.prepare(sql).all(state, versions) as ItemRow[];
  }

  /** The active item (queued, sending, uncertain) holding this change, if any. */
  activeByKey(kind: MutationKind, dedupeKey: string): ActiveItem | undefined {
    return this.#stmt.activeByKey.get(kind, dedupeKey) as ActiveItem | undefined;
  }

  /** Another active item than `id` holding this change, if any. */
  otherActiveByKey(kind: MutationKind, dedupeKey: string, id: string): { id: string } | undefined {
    return this.#stmt.otherActiveByKey.get(kind, dedupeKey, id) as { id: string } | undefined;
  }

  /** Attempts made so far on an item. */
  attempts(id: string): number {
    return this.#stmt.attempts.get(id) as number;
  }

  /** Targets held by an unsettled item (sending or uncertain): target -> lowest seq. */
  unsettledTargets(): Map<string, number> {
    const held = new Map<string, number>();
    for (const r of this.#stmt.unsettledTargets.all() as { target: string; seq: number }[]) held.set(r.target, r.seq);
    return held;
  }

  /** The rows a filter matches, in queue order (a page of them with `limit` and `offset`). */
  rows(filter: ItemFilter = {}): ItemRow[] {
    const { sql, params } = whereOf(filter);
    const limit = filter.limit && filter.limit > 0 ? ` LIMIT ${Math.floor(filter.limit)}` : '';
    const offset = limit && filter.offset && filter.offset > 0 ? ` OFFSET ${Math.floor(filter.offset)}` : '';
    return this.db.prepare(`SELECT * FROM outbox_items${sql} ORDER BY seq${limit}${offset}`).all(params) as ItemRow[];
  }

  list(filter: ItemFilter = {}): OutboxItem[] {
    return this.rows(filter).map(rowToItem);
  }

  /** How many items a filter matches. */
  count(filter: OutboxFilter = {}): number {
    const { sql, params } = whereOf(filter);
    return this.db.prepare(`SELECT count(*) FROM outbox_items${sql}`).pluck().get(params) as number;
  }

  /** Items per state among those a filter matches (its `state` left out). */
  countsWhere(filter: OutboxFilter): Record<OutboxState, number> {
    const { sql, params } = whereOf({ ...filter, state: undefined });
    const out = noCounts();
    const rows = this.db.prepare(`SELECT state, count(*) AS n FROM outbox_items${sql} GROUP BY state`).all(params);
    for (const r of rows as { state: OutboxState; n: number }[]) out[r.state] = r.n;
    return out;
  }

  /** The imports, newest first, with their items per state now. */
  batches(): OutboxBatch[] {
    const counts = new Map<number, Record<OutboxState, number>>();
    for (const r of this.#stmt.batchCounts.all() as { batch_id: number; state: OutboxState; n: number }[]) {
      const c = counts.get(r.batch_id) ?? noCounts();
      c[r.state] = r.n;
      counts.set(r.batch_id, c);
    }
    return (this.#stmt.batches.all() as BatchRow[]).map((b) => ({
      id: b.id,
      name: b.name,
      source: b.source,
      kind: b.kind as MutationKind,
      rows: b.rows,
      createdAt: b.created_at,
      counts: counts.get(b.id) ?? noCounts(),
    }));
  }

  /** Up to two ids starting with `prefix` (taken literally). */
  idsByPrefix(prefix: string): string[] {
    return this.#stmt.idsByPrefix.all(`${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) as string[];
  }

  pendingCount(): number {
    return this.#stmt.pendingCount.get() as number;
  }

  counts(): Record<OutboxState, number> {
    const out = noCounts();
    for (const r of this.#stmt.counts.all() as { state: OutboxState; n: number }[]) out[r.state] = r.n;
    return out;
  }

  /** The pending changes on objects of `collection` (only those of `ids` when given), in queue order. */
  overlays(collection: string, ids?: string[]): PendingOverlay[] {
    const base = `SELECT v.item_id, v.collection, v.object_id, v.effect, v.data_json, i.kind, i.state
      FROM outbox_overlays v JOIN outbox_items i ON i.id = v.item_id WHERE v.collection = ?`;
    let rows: OverlayJoinRow[];
    if (ids && ids.length > 0) {
      rows = [];
      for (let i = 0; i < ids.length; i += OVERLAY_CHUNK) {
        const chunk = ids.slice(i, i + OVERLAY_CHUNK);
        const sql = `${base} AND v.object_id IN (${chunk.map(() => '?').join(',')}) ORDER BY i.seq`;
        rows.push(...(this.db.prepare(sql).all(collection, ...chunk) as OverlayJoinRow[]));
      }
    } else {
      rows = this.db.prepare(`${base} ORDER BY i.seq`).all(collection) as OverlayJoinRow[];
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
  }

  // -- Writes (call inside `durable`) ---------------------------------------------------------

  writeOverlays(itemId: string, d: KindDescriptor, input: Record<string, unknown>, fresh = false): void {
    if (!fresh) this.#stmt.deleteOverlays.run(itemId);
    for (const o of d.overlay(input, itemId))
      this.#stmt.insertOverlay.run(itemId, o.collection, o.objectId, o.effect, JSON.stringify(o.data));
  }

  deleteOverlays(itemId: string): void {
    this.#stmt.deleteOverlays.run(itemId);
  }

  /** Records an import; returns its id (its items are inserted with it). */
  createBatch(batch: NewBatch): number {
    return Number(this.#stmt.insertBatch.run(batch).lastInsertRowid);
  }

  /** Inserts a prepared change with its overlay and journal entry (`batch`: the import it is part of). */
  insert(change: PreparedChange, source: string | null, now: string, batch: number | null = null): string {
    const id = randomUUID();
    this.#stmt.insert.run({
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
      batch,
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
      // Why the user queued it, in the journal whether or not the API takes a comment.
      answer: typeof change.input.reason === 'string' ? `reason: ${change.input.reason}` : null,
      at: now,
    });
    return id;
  }

  /** Replaces a queued item's change (an edit); its overlays are rewritten by the caller. */
  updateChange(id: string, change: PreparedChange, now: string): void {
    const c = change;
    this.#stmt.updateChange.run(
      JSON.stringify(c.input),
      JSON.stringify(c.request),
      c.digest,
      c.target,
      c.dedupeKey,
      c.summary,
      c.version,
      now,
      id,
    );
  }

  setState(change: StateChange): void {
    this.#stmt.setState.run(change);
  }

  /** Marks a queued item `sending` (one more attempt); false when it is no longer queued. */
  claim(id: string, now: string): boolean {
    return this.#stmt.claim.run({ id, now }).changes === 1;
  }

  /** Records an attempt's outcome, if the item is still at that attempt and unsettled. */
  settle(fields: SettleFields): void {
    this.#stmt.settle.run(fields);
  }

  /** An attempt the server never handled: back to queued, the attempt's error kept. */
  returnToQueue(id: string, attempt: number, now: string, status: number | null, error: string): void {
    this.#stmt.returnToQueue.run(now, status, error, id, attempt);
  }

  /** Reconciliation found the change applied: succeeded, with what the server holds. */
  reconciledApplied(id: string, attempt: number, now: string, result: Record<string, unknown>, note: string): void {
    this.#stmt.reconciledApplied.run(attempt, now, JSON.stringify(result), note, id);
  }

  /** Reconciliation found the change not applied: queued again, in its original position. */
  reconciledRequeued(id: string, attempt: number, now: string, note: string): void {
    this.#stmt.reconciledRequeued.run(attempt, now, note, id);
  }

  /** Reconciliation could not tell: the item stays uncertain, with the note. */
  reconciledUnknown(id: string, attempt: number, now: string, note: string): void {
    this.#stmt.reconciledUnknown.run(attempt, now, note, id);
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
