/**
 * What the user does to items: queue a change (alone or from a CSV), check one without queuing,
 * edit a queued one, discard, retry, resolve, and settle what a crash left `sending`. Each is one
 * durable transaction together with its overlay rows and its journal entry.
 */
import { fileErrorsOf, parseImport, type ImportKind } from './csv-import';
import { rowToItem, type ActiveItem, type ItemRow, type OutboxDb, type OutboxStore } from './items';
import { descriptorOf, prepareChange, type PreparedChange, type ValidationContext } from './kinds';
import {
  OutboxStateError,
  OutboxValidationError,
  type BulkAction,
  type BulkRefusal,
  type BulkResult,
  type ChangePreview,
  type ImportPreview,
  type ImportResult,
  type MutationKind,
  type OutboxFilter,
  type OutboxItem,
  type OutboxState,
  type ChangeWarning,
  type QueuedItem,
} from './types';

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Kinds' validation and store checks read the synced copies of objects from the store. */
export function validationContext(store: OutboxStore): ValidationContext {
  return {
    synced(collection, id) {
      const json = store.getObject?.(collection, id)?.json;
      return isRecord(json) ? json : null;
    },
    stored(collection, id) {
      const found = store.getObject?.(collection, id);
      return found && isRecord(found.json) ? { json: found.json, deleted: found.deleted === true } : null;
    },
    syncedAsOf: (collection) => store.syncedAsOf?.(collection) ?? null,
    completeRun: (collection) => store.completeRun?.(collection) ?? null,
    findObject(collection, columns) {
      const found = store.findObject?.(collection, columns);
      return found && isRecord(found.json) ? { id: found.id, json: found.json } : null;
    },
  };
}

function sameChangeQueued(existing: ActiveItem): OutboxValidationError {
  return new OutboxValidationError('input', `the same change is already in the outbox as item ${existing.id} (${existing.state})`);
}

export function mustGet(o: OutboxDb, id: string): OutboxItem {
  const item = o.item(id);
  if (!item) throw new OutboxStateError(`no outbox item ${id}`);
  return item;
}

/** Validates a change as enqueue (or the edit of item `editing`) would, and says what it would send. */
/** The store's warnings of a prepared change. */
export function warningsOf(change: PreparedChange): ChangeWarning[] {
  return change.warnings.map(({ field, message }) => ({ field, message }));
}

export function checkChange(o: OutboxDb, ctx: ValidationContext, kind: MutationKind, input: unknown, editing?: string): ChangePreview {
  const change = prepareChange(kind, input, ctx);
  const existing = o.activeByKey(kind, change.dedupeKey);
  if (existing && existing.id !== editing) throw sameChangeQueued(existing);
  const { request, summary, target, names } = change;
  return { kind, input: change.input, request, summary, target, warnings: warningsOf(change), names };
}

export function enqueueChange(o: OutboxDb, ctx: ValidationContext, kind: MutationKind, input: unknown, source?: string): QueuedItem {
  const change = prepareChange(kind, input, ctx);
  const id = o.durable(() => {
    const existing = o.activeByKey(kind, change.dedupeKey);
    if (existing) throw sameChangeQueued(existing);
    return o.insert(change, source ?? null, new Date().toISOString());
  });
  return { ...mustGet(o, id), warnings: warningsOf(change) };
}

export function previewImport(o: OutboxDb, ctx: ValidationContext, csvText: string | Uint8Array, kind: ImportKind): ImportPreview {
  return parseImport(csvText, kind, ctx, (k, key) => o.activeByKey(k, key)).preview;
}

export function importCsv(
  o: OutboxDb,
  ctx: ValidationContext,
  csvText: string | Uint8Array,
  kind: ImportKind,
  opts: { dryRun?: boolean; partial?: boolean; source?: string },
): ImportResult {
  const dryRun = opts.dryRun === true;
  const partial = opts.partial === true;
  const lookup = (k: MutationKind, key: string) => o.activeByKey(k, key);
  const nothing = { dryRun, partial, queued: 0, itemIds: [], batch: null };
  if (dryRun) return { ...parseImport(csvText, kind, ctx, lookup).preview, ...nothing };
  // Validated and written in one write transaction: the duplicate checks against the queue
  // hold for the rows written, and the rows are all written or none (partial: all valid ones).
  return o.durable(() => {
    const parsed = parseImport(csvText, kind, ctx, lookup);
    const { preview, changes } = parsed;
    const blocked = partial ? fileErrorsOf(parsed) > 0 : preview.errors.length > 0;
    if (blocked || changes.length === 0) return { ...preview, ...nothing };
    const now = new Date().toISOString();
    const source = opts.source ?? 'csv';
    const name = batchName(source);
    const batch = o.createBatch({ name, source, kind, rows: changes.length, now });
    const itemIds = changes.map((c) => o.insert(c.change, `${source}:${c.line}`, now, batch));
    return { ...preview, ...nothing, queued: itemIds.length, itemIds, batch: { id: batch, name } };
  }, true);
}

/**
 * Queues changes of one kind as one batch named `name` (a review worksheet's decisions), in one
 * durable transaction with `alongside` (what the caller records with them): all are queued, or none.
 */
export function queueBatch(
  o: OutboxDb,
  ctx: ValidationContext,
  kind: MutationKind,
  changes: readonly { input: unknown; source: string }[],
  batch: { name: string; source: string },
  alongside?: (queued: { itemIds: string[]; batch: number }) => void,
): { itemIds: string[]; batch: { id: number; name: string } } {
  return o.durable(() => {
    const prepared = changes.map((c) => ({ change: prepareChange(kind, c.input, ctx), source: c.source }));
    for (const { change } of prepared) {
      const existing = o.activeByKey(kind, change.dedupeKey);
      if (existing) throw sameChangeQueued(existing);
    }
    const now = new Date().toISOString();
    const id = o.createBatch({ name: batch.name, source: batch.source, kind, rows: prepared.length, now });
    const itemIds = prepared.map((p) => o.insert(p.change, p.source, now, id));
    alongside?.({ itemIds, batch: id });
    return { itemIds, batch: { id, name: batch.name } };
  }, true);
}

/** A batch's name: the file's name, from the import's source (`csv:/path/to/file.csv`, or the name itself). */
export function batchName(source: string): string {
  const path = source.replace(/^csv:/, '');
  return path.split(/[\\/]/).pop() || path || 'csv';
}

export function editItem(o: OutboxDb, ctx: ValidationContext, id: string, input: unknown): QueuedItem {
  let warnings: ChangeWarning[] = [];
  o.durable(() => {
    const item = mustGet(o, id);
    if (item.state !== 'queued') throw new OutboxStateError(`item ${id} is ${item.state}: only queued items can be edited`);
    const change = prepareChange(item.kind, input, ctx);
    warnings = warningsOf(change);
    const clash = o.otherActiveByKey(item.kind, change.dedupeKey, id);
    if (clash) throw new OutboxValidationError('input', `the same change is already in the outbox as item ${clash.id}`);
    const now = new Date().toISOString();
    o.updateChange(id, change, now);
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
  return { ...mustGet(o, id), warnings };
}

/** The user's decisions on an item: from which states each is allowed, and the state it leads to. */
export const TRANSITIONS = {
  discard: { allowed: ['queued', 'failed', 'uncertain'], next: 'discarded', verb: 'discarded' },
  // An uncertain item may have been applied: it is queued again only after a read (reconcile.ts, retryAfterReading).
  retry: { allowed: ['failed'], next: 'queued', verb: 'retried' },
  resolve: { allowed: ['failed', 'uncertain'], next: 'resolved', verb: 'marked resolved' },
} as const satisfies Record<string, { allowed: readonly OutboxState[]; next: OutboxState; verb: string }>;

export type Transition = keyof typeof TRANSITIONS;

function allowedText(event: Transition, state?: OutboxState): string {
  const { allowed, verb } = TRANSITIONS[event];
  const states = allowed.length > 1 ? `${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}` : allowed[0];
  const uncertain =
    event === 'retry' && state === 'uncertain' ? ': an uncertain one is read from the tenant first (retry it connected)' : '';
  return `only ${states} items can be ${verb}${uncertain}`;
}

function allows(event: Transition, state: OutboxState): boolean {
  return (TRANSITIONS[event].allowed as readonly OutboxState[]).includes(state);
}

/** Records one decision on an item whose state allows it: its new state, its overlays, its journal entry. */
function decide(o: OutboxDb, item: OutboxItem, event: Transition, note: string | null, now: string): void {
  const { next } = TRANSITIONS[event];
  o.setState({ id: item.id, state: next, now, note, lastError: null });
  if (next === 'discarded' || next === 'resolved') o.deleteOverlays(item.id);
  o.journal.append({
    itemId: item.id,
    kind: item.kind,
    target: item.target,
    attempt: item.attempts,
    event,
    requestDigest: item.requestDigest,
    outcome: next,
    answer: note,
    at: now,
  });
}

/** Applies a decision (discard, retry, resolve) to one item; refuses it in a state that does not allow it. */
export function transition(o: OutboxDb, id: string, event: Transition, note?: string): void {
  o.durable(() => {
    const item = mustGet(o, id);
    if (!allows(event, item.state)) throw new OutboxStateError(`item ${id} is ${item.state}: ${allowedText(event, item.state)}`);
    const clash = event === 'retry' && item.state === 'failed' ? o.otherActiveByKey(item.kind, o.row(id)!.dedupe_key, id) : undefined;
    if (clash) throw new OutboxStateError(`item ${id} cannot be retried: the same change is already in the outbox as item ${clash.id}`);
    decide(o, item, event, note ?? null, new Date().toISOString());
  });
}

/** Adds an item to the refusals of its state and reason. */
function refuse(refused: BulkRefusal[], row: ItemRow, reason: string): void {
  const state = row.state as OutboxState;
  let group = refused.find((r) => r.state === state && r.reason === reason);
  if (!group) refused.push((group = { state, reason, count: 0, itemIds: [] }));
  group.count += 1;
  group.itemIds.push(row.id);
}

/** Throws, naming them, when ids name no item (those in `found` are known): nothing is changed. */
export function refuseUnknownIds(o: OutboxDb, ids: readonly string[] | undefined, found: ReadonlySet<string> = new Set()): void {
  const unknown = (ids ?? []).filter((id) => !found.has(id) && !o.row(id));
  if (unknown.length === 0) return;
  const named = `${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? ` and ${unknown.length - 5} more` : ''}`;
  throw new OutboxStateError(`no outbox item ${named}: nothing was changed`);
}

/**
 * Applies a decision to every item a filter selects, in one transaction: the items whose state
 * allows it change; the others are left as they were and reported by state and reason. A retry is
 * also refused where the same change is active again (queued anew, or retried earlier in the same
 * action). Ids that name no item refuse the whole action, changing nothing.
 */
export function bulkTransition(o: OutboxDb, event: BulkAction, filter: OutboxFilter, note?: string): BulkResult {
  return o.durable(() => {
    const rows = o.rows(filter);
    refuseUnknownIds(o, filter.ids, new Set(rows.map((r) => r.id)));
    const result: BulkResult = {
      action: event,
      outcome: TRANSITIONS[event].next,
      matched: rows.length,
      changed: 0,
      itemIds: [],
      refused: [],
    };
    const now = new Date().toISOString();
    for (const row of rows) {
      if (!allows(event, row.state as OutboxState)) {
        refuse(result.refused, row, allowedText(event, row.state as OutboxState));
        continue;
      }
      // A failed item queued again must not become a second active copy of the same change.
      if (event === 'retry' && row.state === 'failed' && o.otherActiveByKey(row.kind as MutationKind, row.dedupe_key, row.id)) {
        refuse(result.refused, row, 'the same change is already in the outbox as another item');
        continue;
      }
      decide(o, rowToItem(row), event, note ?? null, now);
      result.changed += 1;
      result.itemIds.push(row.id);
    }
    return result;
  }, true);
}

/** Whatever is `sending` after a crash becomes `uncertain` (settled later by reconcile). Returns how many. */
export function recoverInterrupted(o: OutboxDb): number {
  return o.durable(() => {
    const rows = o.rowsInState('sending');
    const now = new Date().toISOString();
    for (const r of rows) {
      o.setState({
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
}

/** An item's id from the id or a unique prefix of at least 4 characters (for the CLI). */
export function resolveId(o: OutboxDb, idOrPrefix: string): string {
  const exact = o.row(idOrPrefix);
  if (exact) return exact.id;
  if (idOrPrefix.length < 4)
    throw new OutboxStateError(`'${idOrPrefix}' is too short to name an item: give at least 4 characters of its id`);
  const matches = o.idsByPrefix(idOrPrefix);
  if (matches.length === 0) throw new OutboxStateError(`no outbox item ${idOrPrefix}`);
  if (matches.length > 1) throw new OutboxStateError(`'${idOrPrefix}' names more than one item: give more of its id`);
  return matches[0] as string;
}
