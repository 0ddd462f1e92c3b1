/**
 * What the user does to items: queue a change (alone or from a CSV), check one without queuing,
 * edit a queued one, discard, retry, resolve, and settle what a crash left `sending`. Each is one
 * durable transaction together with its overlay rows and its journal entry.
 */
import { parseImport, type ImportKind } from './csv-import';
import type { ActiveItem, OutboxDb, OutboxStore } from './items';
import { descriptorOf, prepareChange, type PreparedChange, type ValidationContext } from './kinds';
import {
  OutboxStateError,
  OutboxValidationError,
  type ChangePreview,
  type ImportPreview,
  type ImportResult,
  type MutationKind,
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
  opts: { dryRun?: boolean; source?: string },
): ImportResult {
  const dryRun = opts.dryRun === true;
  const lookup = (k: MutationKind, key: string) => o.activeByKey(k, key);
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
  retry: { allowed: ['failed', 'uncertain'], next: 'queued', verb: 'retried' },
  resolve: { allowed: ['failed', 'uncertain'], next: 'resolved', verb: 'marked resolved' },
} as const satisfies Record<string, { allowed: readonly OutboxState[]; next: OutboxState; verb: string }>;

export type Transition = keyof typeof TRANSITIONS;

/** Applies a decision (discard, retry, resolve) to one item; refuses it in a state that does not allow it. */
export function transition(o: OutboxDb, id: string, event: Transition, note?: string): void {
  const { allowed, next, verb } = TRANSITIONS[event];
  o.durable(() => {
    const item = mustGet(o, id);
    if (!(allowed as readonly OutboxState[]).includes(item.state)) {
      const states = allowed.length > 1 ? `${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}` : allowed[0];
      throw new OutboxStateError(`item ${id} is ${item.state}: only ${states} items can be ${verb}`);
    }
    const now = new Date().toISOString();
    o.setState({ id, state: next, now, note: note ?? null, lastError: null });
    if (next === 'discarded' || next === 'resolved') o.deleteOverlays(id);
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
