/**
 * The outbox as the fronts queue, list and decide on changes: its mutation kinds, the kinds a
 * CSV can queue, its states, the errors it refuses a change with, and the shapes of its items,
 * batches and journal. A workspace opens the outbox itself (workspace.ts); sending is tasks/send.
 */
export {
  IMPORT_KINDS,
  MUTATION_KINDS,
  OUTBOX_STATES,
  OutboxStateError,
  OutboxValidationError,
  type BulkAction,
  type BulkResult,
  type CheckedRetry,
  type ImportResult,
  type ImportKind,
  type JournalEntryInWords,
  type MutationKind,
  type Outbox,
  type OutboxBatch,
  type OutboxFilter,
  type OutboxItem,
  type OutboxState,
  type QueuedItem,
  type SendSummary,
} from '../outbox/queue';
