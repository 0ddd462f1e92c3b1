import type { CelExpression, CollectionId, ColumnValue } from '../collections';
import type { FieldChange } from './changes';

export type { FieldChange };

export type { ColumnValue };

export type RunStatus = 'running' | 'completed' | 'failed' | 'cancelled';
export type WalkStatus = 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';
/**
 * `sync`: a walk of the tenant; `outbox`: fresh copies of objects that sent changes returned;
 * `live`: objects read from the tenant one by one on request (a template added by id, a refresh).
 */
export type RunOrigin = 'sync' | 'outbox' | 'live';

export interface SyncRun {
  id: number;
  startedAt: string;
  finishedAt: string | null;
  status: RunStatus;
  collections: string[];
  origin: RunOrigin;
}

/** The walk of one collection in one run, as recorded. */
export interface RunCollection {
  runId: number;
  collection: CollectionId;
  status: WalkStatus;
  walk: number;
  /** The page token to fetch next ('' = the first page). */
  checkpoint: string;
  pages: number;
  fetched: number;
  upserted: number;
  deleted: number;
  startedAt: string | null;
  finishedAt: string | null;
  error: string | null;
}

export interface CollectionStatus {
  collection: CollectionId;
  /** The last run that walked this collection to its end. */
  lastCompletedRunId: number | null;
  /** When that walk ended: the data is as of then. */
  dataAsOf: string | null;
  /** The objects in the store are exactly that completed walk's (no later walk stopped half-way). */
  complete: boolean;
  /** Current (not deleted) objects. */
  objectCount: number;
  /** A later walk stopped before its end; the next sync resumes it from its checkpoint. */
  interrupted: boolean;
  /** The last run that touched this collection, and its error if that walk failed. */
  lastRunId: number | null;
  error: string | null;
}

export type FilterValue = string | number | boolean;
/** Column name -> value (or any of several values). Columns are those of the collection's descriptor, plus `id`. */
export type Filters = Record<string, FilterValue | readonly FilterValue[]>;

export interface StoredObject {
  collection: CollectionId;
  id: string;
  title: string;
  /** The JSON exactly as received. */
  raw: string;
  /** `raw`, parsed (on first access). */
  readonly json: unknown;
  columns: Record<string, ColumnValue>;
  /** The run that stored this version. */
  runId: number;
  fetchedAt: string;
  firstSeenRun: number;
  lastSeenRun: number;
  /** No completed walk has seen it since `deletedRun`; the version shown is its last one. */
  deleted: boolean;
  /** Local pending changes (filled in by the outbox's overlay, when it has one). */
  pending?: unknown;
}

export interface ListOptions {
  /** Read the snapshot of this run instead of the current data. */
  asOfRun?: number;
  filters?: Filters;
  /** Typed words the object's indexed text must match (as search matches them). */
  text?: string;
  sort?: { column: string; dir: 'asc' | 'desc' };
  limit?: number;
  offset?: number;
}

export interface SearchOptions {
  collection?: CollectionId;
  filters?: Filters;
  /** Default: by rank (best first). */
  sort?: { column: string; dir: 'asc' | 'desc' };
  limit?: number;
  offset?: number;
  /** Markers around matched words in snippets. Default « ». */
  highlight?: [string, string];
}

export interface SearchHit {
  collection: CollectionId;
  id: string;
  title: string;
  snippet: string;
  /** bm25 rank: lower is better. */
  rank: number;
  columns: Record<string, ColumnValue>;
}

export type ChangeKind = 'added' | 'removed' | 'modified';

export interface DiffEntry {
  collection: CollectionId;
  id: string;
  title: string;
  change: ChangeKind;
  /** Top-level fields that differ (for campaigns, fields of the campaign inside its wrapper). */
  changedFields: string[];
  /** Each value that differs, with its old and new value (the first ones; `fieldCount` counts them all). */
  fieldChanges: FieldChange[];
  fieldCount: number;
  /** The app and entitlement the object is of, where its collection names them (null otherwise). */
  appId: string | null;
  appEntitlementId: string | null;
}

export interface ObjectVersion {
  runId: number;
  /** When that run's walk of the collection ended (or the run started, if it did not end). */
  at: string | null;
  change: ChangeKind;
  changedFields: string[];
  /** Each value that differs from the version before, with its old and new value (the first ones; `fieldCount` counts them all). */
  fieldChanges: FieldChange[];
  fieldCount: number;
  /** The version's raw JSON (null for a removal). */
  raw: string | null;
  title: string;
}

export type AutomationSection = 'trigger' | 'step' | 'draftTrigger' | 'draftStep';

export interface AutomationRow {
  automationId: string;
  automationName: string;
  section: AutomationSection;
  index: number;
  /** The trigger or action member present (`schedule`, `sendEmail`, ...), or 'unknown'. */
  kind: string;
  /** Steps: stepDisplayName or stepName; triggers: the kind. */
  name: string;
  celExpressions: CelExpression[];
  /** Ids the trigger or step points at, as `path=value`. */
  targets: string[];
}
