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
import type { OutboxApi } from './api-shape';
import {
  bulkTransition,
  checkChange,
  editItem,
  enqueueChange,
  importCsv,
  queueBatch,
  previewImport,
  recoverInterrupted,
  resolveId,
  transition,
  validationContext,
} from './actions';
import type { ImportKind } from './csv-import';
import { ensureSchema, OutboxDb, type ItemFilter, type OutboxStore } from './items';
import { journalInWords, summariesInWords } from './journal-words';
import { KINDS } from './kinds';
import { currentPolicyStep } from './kinds/escalate-task';
import { reconcileItems, retryAfterReading, type CheckedRetry } from './reconcile';
import { runSend, type SendOptions } from './sender';
import { upgradeQueued } from './upgrade';
import {
  OutboxStateError,
  type BulkAction,
  type BulkResult,
  type ChangePreview,
  type ImportPreview,
  type ImportResult,
  type JournalEntry,
  type JournalEntryInWords,
  type JournalFilter,
  type MutationKind,
  type OutboxBatch,
  type OutboxFilter,
  type OutboxItem,
  type OutboxState,
  type PendingOverlay,
  type QueuedItem,
  type ReconcileSummary,
  type SendSummary,
} from './types';

export * from './types';
export type { ItemFilter, OutboxStore } from './items';
export type { SendOptions } from './sender';
export { IMPORT_KINDS, importColumns, type ImportKind } from './csv-import';
export { READ_FIRST, type CheckedRetry } from './reconcile';

export interface Outbox {
  /** Validates (by the spec, then against the store) and queues a change; the store's warnings come with the item. */
  enqueue(kind: MutationKind, input: unknown, opts?: { source?: string }): QueuedItem;
  /**
   * Validates a change exactly as enqueue (or edit of item `editing`) would and says what would be
   * sent (update-template: the derived updateMask), queuing nothing; a refusal throws the same error.
   */
  check(kind: MutationKind, input: unknown, opts?: { editing?: string }): ChangePreview;
  /** The CSV as text, or as the file's bytes (then checked to be UTF-8, with the place of any bad bytes). */
  previewImport(csvText: string | Uint8Array, kind: ImportKind): ImportPreview;
  importCsv(csvText: string | Uint8Array, kind: ImportKind, opts?: { dryRun?: boolean; partial?: boolean; source?: string }): ImportResult;
  /** Queues changes of one kind as one named batch, all or none, with what `alongside` writes in the same transaction. */
  queueBatch(
    kind: MutationKind,
    changes: readonly { input: unknown; source: string }[],
    batch: { name: string; source: string },
    alongside?: (queued: { itemIds: string[]; batch: number }) => void,
  ): { itemIds: string[]; batch: { id: number; name: string } };
  /** The items a filter matches, in queue order (a page of them with `limit` and `offset`). */
  list(filter?: ItemFilter): OutboxItem[];
  /** How many items a filter matches. */
  count(filter?: OutboxFilter): number;
  /** The CSV imports, newest first, with their items per state. */
  batches(): OutboxBatch[];
  get(id: string): OutboxItem | null;
  edit(id: string, input: unknown): QueuedItem;
  discard(id: string): void;
  retry(id: string): void;
  resolve(id: string, note?: string): void;
  /**
   * Retries, resolves (with one note) or discards every item `filter` selects, in one transaction;
   * items whose state does not allow it are refused and reported, unknown ids change nothing.
   */
  bulk(action: BulkAction, filter: OutboxFilter, note?: string): BulkResult;
  /**
   * Retries what `filter` selects as nothing can be sent twice: uncertain items are read from the
   * tenant first (queued again only when not applied; refused without `api`), failed ones queued again.
   */
  retryChecked(api: OutboxApi | null, filter: OutboxFilter, opts?: { signal?: AbortSignal }): Promise<CheckedRetry>;
  send(api: OutboxApi, opts?: SendOptions): Promise<SendSummary>;
  recoverAfterCrash(): number;
  reconcile(api: OutboxApi, opts?: { concurrency?: number; signal?: AbortSignal; ids?: readonly string[] }): Promise<ReconcileSummary>;
  journal(filter?: JournalFilter): JournalEntry[];
  /** A page of the journal, each entry with its change in words (names from the store), and how many entries match. */
  journalInWords(filter: JournalFilter): { entries: JournalEntryInWords[]; total: number };
  /** Each item's summary in words: the names the store has for its ids, name first, the id beside it. By item id. */
  summariesInWords(items: readonly OutboxItem[]): Map<string, string>;
  pendingCount(): number;
  /** Items per state: all of them, or among those a filter matches (its `state` left out). */
  counts(filter?: OutboxFilter): Record<OutboxState, number>;
  overlays(collection: string, ids?: string[]): PendingOverlay[];
  /** Resolves an id or a unique prefix of one (for the CLI). */
  resolveId(idOrPrefix: string): string;
  /** A task's current policy step as the store holds it (what an escalation without a step is filled with), or null. */
  currentPolicyStep(taskId: string): string | null;
}

const RESOLVED_NOTE = 'marked resolved by the user';

/** Sending and reconciling take turns: one at a time per outbox. */
class SendLock {
  running = false;

  async run<T>(busyMessage: string, fn: () => Promise<T>): Promise<T> {
    if (this.running) throw new OutboxStateError(busyMessage);
    this.running = true;
    try {
      return await fn();
    } finally {
      this.running = false;
    }
  }
}

/** Opens the outbox of a store (its tables come with the store's migrations). */
export function openOutbox(store: OutboxStore): Outbox {
  ensureSchema(store.db);
  const o = new OutboxDb(store.db, store);
  // What lists, edits and sends read is what each kind builds now (see upgrade.ts).
  upgradeQueued(o);
  const ctx = validationContext(store);
  const lock = new SendLock();
  return {
    check: (kind, input, opts = {}) => checkChange(o, ctx, kind, input, opts.editing),
    enqueue: (kind, input, opts = {}) => enqueueChange(o, ctx, kind, input, opts.source),
    previewImport: (csvText, kind) => previewImport(o, ctx, csvText, kind),
    importCsv: (csvText, kind, opts = {}) => importCsv(o, ctx, csvText, kind, opts),
    queueBatch: (kind, changes, batch, alongside) => queueBatch(o, ctx, kind, changes, batch, alongside),
    list: (filter = {}) => o.list(filter),
    count: (filter = {}) => o.count(filter),
    batches: () => o.batches(),
    get: (id) => o.item(id),
    edit: (id, input) => editItem(o, ctx, id, input),
    discard: (id) => transition(o, id, 'discard'),
    retry: (id) => transition(o, id, 'retry'),
    resolve: (id, note) => transition(o, id, 'resolve', note ?? RESOLVED_NOTE),
    bulk: (action, filter, note) => bulkTransition(o, action, filter, action === 'resolve' ? (note ?? RESOLVED_NOTE) : note),
    send: (api, opts = {}) => lock.run('the outbox is already sending', () => runSend(o, api, opts)),
    recoverAfterCrash: () => (lock.running ? 0 : recoverInterrupted(o)),
    reconcile: (api, opts = {}) => lock.run('the outbox is sending: reconcile after the send ends', () => reconcileItems(o, api, opts)),
    retryChecked: (api, filter, opts = {}) =>
      lock.run('the outbox is sending: retry after the send ends', () => retryAfterReading(o, api, filter, opts)),
    journal: (filter) => o.journal.list(filter),
    journalInWords: (filter) => journalInWords(o, ctx, filter),
    summariesInWords: (items) => summariesInWords(ctx, items),
    pendingCount: () => o.pendingCount(),
    counts: (filter) => (filter ? o.countsWhere(filter) : o.counts()),
    overlays: (collection, ids) => o.overlays(collection, ids),
    resolveId: (idOrPrefix) => resolveId(o, idOrPrefix),
    currentPolicyStep: (taskId) => currentPolicyStep(taskId, ctx),
  };
}

export { KINDS };
