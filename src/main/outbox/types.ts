/** The shapes of the outbox, shared by its modules, the CLI and the IPC handlers. */

export const MUTATION_KINDS = ['create-scope', 'remove-membership', 'escalate-task', 'update-template', 'create-campaign'] as const;
export type MutationKind = (typeof MUTATION_KINDS)[number];

export const OUTBOX_STATES = ['queued', 'sending', 'succeeded', 'failed', 'uncertain', 'resolved', 'discarded'] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

/** The exact request an item sends (path relative to the API root). */
export interface OutboxRequest {
  method: 'POST' | 'DELETE';
  path: string;
  body: Record<string, unknown>;
}

export interface OutboxItem {
  id: string;
  /** Queue position: items touching the same object go out in this order. */
  seq: number;
  kind: MutationKind;
  kindVersion: number;
  state: OutboxState;
  /** The validated, normalized input. */
  input: Record<string, unknown>;
  request: OutboxRequest;
  /** sha256 (hex) of the canonical JSON of the request. */
  requestDigest: string;
  /** The object the item touches, e.g. `membership:app/ent/user`; per-object order follows it. */
  target: string;
  summary: string;
  source: string | null;
  /** The import (CSV) the item came from, if any. */
  batchId: number | null;
  attempts: number;
  lastStatus: number | null;
  /** The server's reason (google.rpc.Status message) or what went wrong. */
  lastError: string | null;
  result: Record<string, unknown> | null;
  note: string | null;
  createdAt: string;
  updatedAt: string;
  firstSentAt: string | null;
  lastSentAt: string | null;
}

/**
 * Which items: all criteria given must hold (none given: every item). `error` is text found in the
 * reason shown for the item (its last error, or the note reconciling left), any case.
 */
export interface OutboxFilter {
  ids?: string[] | undefined;
  state?: OutboxState | undefined;
  kind?: MutationKind | undefined;
  /** The import batch (`OutboxBatch.id`). */
  batch?: number | undefined;
  error?: string | undefined;
}

/** One CSV import: its name (the file's), where it came from, when, and its items per state now. */
export interface OutboxBatch {
  id: number;
  name: string;
  source: string;
  kind: MutationKind;
  /** Items it queued. */
  rows: number;
  createdAt: string;
  counts: Record<OutboxState, number>;
}

export type BulkAction = 'retry' | 'resolve' | 'discard';

/** Items of a selection that a bulk action left as they were, and why. */
export interface BulkRefusal {
  /** Their state (the same for all of them). */
  state: OutboxState;
  reason: string;
  count: number;
  itemIds: string[];
}

/** What a bulk action touched: the items changed (all to `outcome`), and those it refused, grouped by reason. */
export interface BulkResult {
  action: BulkAction;
  /** The state the changed items are in now. */
  outcome: OutboxState;
  /** Items the selection named or matched. */
  matched: number;
  changed: number;
  itemIds: string[];
  refused: BulkRefusal[];
}

/** What the store does not know about a change (or holds in an older state): the change is queued all the same. */
export interface ChangeWarning {
  /** The input field it is about. */
  field: string;
  message: string;
}

/** What a valid change would send, before it is queued. */
export interface ChangePreview {
  kind: MutationKind;
  /** The validated, normalized input (update-template: with its derived `updateMask` and the values `before`). */
  input: Record<string, unknown>;
  request: OutboxRequest;
  summary: string;
  target: string;
  /** The store's warnings: unknown objects, a user who was not a member at the last sync... */
  warnings: ChangeWarning[];
  /** The names the store has for the ids of the input, by input field. */
  names: Record<string, string>;
}

/** A queued item, with the store's warnings about its change. */
export type QueuedItem = OutboxItem & { warnings: ChangeWarning[] };

/** A refused input: names the field and says what is wrong. */
export class OutboxValidationError extends Error {
  override name = 'OutboxValidationError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** An action that the item's state does not allow (editing a sent item, retrying a queued one...). */
export class OutboxStateError extends Error {
  override name = 'OutboxStateError';
}

export interface ImportRowError {
  /** 1-based physical line of the file. */
  line: number;
  /** 1-based column of the field, 0 when the problem is the whole row or file. */
  column: number;
  field: string;
  message: string;
}

export interface ImportDuplicate {
  line: number;
  /** The first line of the file holding the same change (in-file duplicates). */
  firstLine?: number;
  /** The queued item holding the same change (duplicates against the queue). */
  itemId?: string;
  itemState?: OutboxState;
  key: string;
}

export interface ImportPreviewRow {
  line: number;
  input: Record<string, unknown>;
  summary: string;
  /** The names the store has for the row's ids, by input field. */
  names: Record<string, string>;
}

export interface ImportPreview {
  kind: MutationKind;
  /** Data rows read (empty lines excluded). */
  rows: number;
  /** Rows that would be queued: valid and not duplicates. */
  valid: ImportPreviewRow[];
  errors: ImportRowError[];
  duplicatesInFile: ImportDuplicate[];
  duplicatesInQueue: ImportDuplicate[];
  /** Notes that do not block the import (ignored extra columns...). */
  warnings: string[];
  /** The store's warnings about rows that are queued all the same (an unknown id, not a member), by line and column. */
  rowWarnings: ImportRowError[];
  /** The data rows refused (each has one of `errors`); the rest of `errors` is about the file itself and stops any import. */
  refused: number;
  /** The refused rows as a CSV to fix and import again (their fields, line and reason), or null when none was refused. */
  rejectsCsv: string | null;
}

export interface ImportResult extends ImportPreview {
  dryRun: boolean;
  /** A partial import: the valid rows are queued though other rows were refused. */
  partial: boolean;
  /** How many items were queued: all valid rows (partial: despite refused rows), or 0 when any row has an error or on a dry run. */
  queued: number;
  itemIds: string[];
  /** The batch the queued items belong to (null: nothing was queued). */
  batch: { id: number; name: string } | null;
}

export type SendProgressPhase = 'started' | 'item' | 'paused' | 'finished';

export interface SendProgress {
  phase: SendProgressPhase;
  itemId?: string;
  kind?: MutationKind;
  state?: OutboxState;
  message?: string;
  done: number;
  total: number;
  succeeded: number;
  failed: number;
  uncertain: number;
  ratePerSecond: number | null;
}

export interface PauseInfo {
  reason: 'auth' | 'network' | 'rate_limited' | 'cancelled';
  message: string;
}

export interface SendSummary {
  total: number;
  succeeded: number;
  failed: number;
  uncertain: number;
  /** Items left queued: not reached because of a pause or cancel, or waiting behind an unsettled item on the same object. */
  notSent: number;
  /** Items waiting behind an uncertain or in-flight item on the same object. */
  blocked: string[];
  paused: PauseInfo | null;
  cancelled: boolean;
  elapsedMs: number;
  requests: number;
  /** Synced collections whose objects the sent changes created or changed: sync them to refresh the views. */
  touched: string[];
  /** Fresh copies of those objects stored from the answers, as one run (null: none, or a sync run was open). */
  refreshed: { runId: number | null; stored: number };
  /** Group transactions written (each one disk flush), and the time they took. */
  commits: number;
  commitMs: number;
}

export type ReconcileOutcome = 'applied' | 'not-applied' | 'unknown';

export interface ReconcileSummary {
  examined: number;
  /** Found applied on the server: now succeeded. */
  applied: number;
  /** Found not applied: queued again (in their original queue position). */
  requeued: number;
  /** Still uncertain: no read can tell; the user decides (retry, discard or resolve). */
  unknown: number;
  details: { itemId: string; outcome: ReconcileOutcome; note: string }[];
  paused: PauseInfo | null;
  /** What the reads of applied items found, stored as one run (null: nothing new, or a sync run was open). */
  refreshed: { runId: number | null; stored: number };
}

export interface JournalEntry {
  seq: number;
  itemId: string;
  kind: MutationKind;
  target: string;
  attempt: number;
  /** What happened: 'send', 'interrupted', 'reconcile', 'discard', 'resolve', 'retry'... */
  event: string;
  requestDigest: string | null;
  method: string | null;
  path: string | null;
  httpStatus: number | null;
  outcome: string;
  answer: string | null;
  at: string;
}

export interface JournalFilter {
  itemId?: string | undefined;
  kind?: MutationKind | undefined;
  /** The entry's outcome (the state the item was left in): succeeded, failed, uncertain, queued… */
  outcome?: string | undefined;
  /** The import batch of the entry's item. */
  batch?: number | undefined;
  /** Entries at or after this time (ISO 8601). */
  since?: string | undefined;
  /** Entries before this time (ISO 8601). */
  until?: string | undefined;
  limit?: number | undefined;
  /** Entries to pass over first (with `limit`: one page). */
  offset?: number | undefined;
  /** Newest first (default: in the order they were written). */
  newestFirst?: boolean | undefined;
}

/** A journal entry with its change told in words: the objects it names, by the names the store has for them. */
export interface JournalEntryInWords extends JournalEntry {
  /** The item's summary with each id the store knows given with its name: `remove user Ada Lovelace (u1) from …`. */
  change: string;
  batchId: number | null;
}

export type OverlayEffect = 'pending-creation' | 'pending-removal' | 'pending-update' | 'pending-escalation';

export interface PendingOverlay {
  itemId: string;
  kind: MutationKind;
  state: OutboxState;
  collection: string;
  objectId: string;
  effect: OverlayEffect;
  data: Record<string, unknown>;
}
