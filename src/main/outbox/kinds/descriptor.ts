/** The shape every mutation kind's descriptor has (one file per kind beside this one). */
import type { OutboxApi } from '../api-shape';
import type { MutationKind, OutboxItem, OutboxRequest, OverlayEffect } from '../types';

export interface ValidationContext {
  /** The synced copy of an object in the local store (its JSON), or null. */
  synced(collection: string, id: string): Record<string, unknown> | null;
  /** The object as the store holds it, and whether the last completed walk no longer saw it; null: never stored. */
  stored(collection: string, id: string): { json: Record<string, unknown>; deleted: boolean } | null;
  /** When the collection's data is from (its last completed walk), or null when it was never synced completely. */
  syncedAsOf(collection: string): string | null;
  /**
   * The run the collection's objects are all of the tenant's as of (a full walk of its list that
   * ended, nothing later half-way), or null: an id it does not hold is then not in the tenant.
   */
  completeRun(collection: string): { runId: number; finishedAt: string } | null;
  /** The first current object of a collection whose columns hold these values (a scope by its value on a resource server), or null. */
  findObject(collection: string, columns: Record<string, string>): { id: string; json: Record<string, unknown> } | null;
}

/**
 * What the store says about a valid change before it is queued. `refuse`: the store is sure the
 * server would refuse it (an entitlement whose memberships the service does not manage, an id a
 * complete collection does not hold); `warn`: the store does not know an object of a partial
 * collection, or holds an older state (it may be stale), so the change is queued and the user told;
 * `unchecked`: the store holds none of a collection yet (never synced), so nothing was checked against it (the message names the collection, not the object).
 */
export interface StoreFinding {
  severity: 'refuse' | 'warn' | 'unchecked';
  /** The input field the finding is about. */
  field: string;
  message: string;
}

export interface StoreCheck {
  findings: StoreFinding[];
  /** Display names of the objects the input names, by input field (ids the store knows). */
  names: Record<string, string>;
}

export interface OverlayRow {
  collection: string;
  objectId: string;
  effect: OverlayEffect;
  data: Record<string, unknown>;
}

/** `resent`: the check itself sent the request again (kinds whose resend is the read). */
export type ReconcileVerdict =
  | {
      outcome: 'applied';
      result: Record<string, unknown>;
      note: string;
      httpStatus?: number;
      resent?: boolean;
      /** What the read found, to keep in the store (as a success's refresh). */
      refresh?: RefreshedObject[];
    }
  | { outcome: 'not-applied'; note: string; httpStatus?: number; resent?: boolean }
  | { outcome: 'unknown'; note: string; httpStatus?: number; resent?: boolean };

export interface ReconcileContext {
  api: OutboxApi;
  item: OutboxItem;
  signal?: AbortSignal;
}

/** A fresh copy of an object to keep in the store after a success; `json` null: the object is gone (a removed membership). */
export interface RefreshedObject {
  collection: string;
  id: string;
  json: Record<string, unknown> | null;
  /**
   * A related object the answer carried beside the one changed (its `expanded` list): stored only
   * when it is whole, as the store's copy tells (see storeFreshCopies), since a tenant may send a
   * projection of it.
   */
  related?: boolean;
}

/** How a CSV cell is read into the input: text as is, or typed (a bad value is an error at its line and column). */
export type CsvCellType = 'text' | 'boolean' | 'integer' | 'date-time' | 'duration' | 'enum' | 'enum-list' | 'text-list';

/** A CSV column of a kind's import. */
export interface CsvColumn {
  /** The header name (also accepted in snake_case, camelCase or with spaces). */
  name: string;
  /** The input field it fills: a dotted path fills a member of a nested object (`recurrenceRule.endDate`). */
  field: string;
  required: boolean;
  /** How the cell is read (default: text). An empty cell of an optional column sets nothing. */
  type?: CsvCellType;
  /** Enum values: a short form (the part after the prefix, any case) is accepted and expanded. */
  enumValues?: readonly string[];
}

/** A kind's CSV import: its columns, and how a row's cells become the kind's input. */
export interface CsvImport {
  columns: CsvColumn[];
  /** A header naming no column: ignored with a warning (default), or an error naming it. */
  unknownColumns?: 'warn' | 'refuse';
  /** Why a header name is refused (a member the server sets), or null: asked of unknown columns only. */
  refusedColumn?(name: string): string | null;
  /**
   * The kind's input from a row's cells (by field), before the check step: fills what the row does
   * not give from the store (an escalation's policy step); throws OutboxValidationError naming the field.
   */
  input?(cells: Record<string, unknown>, ctx: ValidationContext): Record<string, unknown>;
}

export interface KindDescriptor<I extends Record<string, unknown> = Record<string, unknown>> {
  kind: MutationKind;
  /** Bumped when the stored input shape changes; older items are upgraded before they are sent. */
  version: number;
  label: string;
  /**
   * The operation it sends, as the vendor's OpenAPI document names it (`POST /api/v1/access_review`):
   * its body never holds a member that list of read-only members names (src/shared/read-only-members.ts).
   */
  endpoint: string;
  /** Validates and normalizes; throws OutboxValidationError naming the field. */
  validate(input: unknown, ctx: ValidationContext): I;
  /** Checks a valid input against the synced objects of the store (see StoreFinding). */
  checkStore?(input: I, ctx: ValidationContext): StoreCheck;
  request(input: I): OutboxRequest;
  /** The object this item touches; items with the same target go out in queue order. */
  target(input: I): string;
  /** Two items with the same key are the same change (duplicates). */
  dedupeKey(input: I): string;
  summary(input: I): string;
  overlay(input: I, itemId: string): OverlayRow[];
  /** What a success records (ids the server created, flags it set). */
  result(body: unknown, input: I): Record<string, unknown>;
  /** Objects to refresh in the store after a success, when the answer carries them (or says what is gone). */
  refresh?(body: unknown, input: I): RefreshedObject[];
  /**
   * Objects a success changed that its answer does not carry, read back from the server once the
   * send has settled (an escalated task; the revoke task a removal created). A failed read is
   * ignored: the next sync brings them.
   */
  readBack?(ctx: { api: OutboxApi; input: I; result: Record<string, unknown>; signal?: AbortSignal }): Promise<RefreshedObject[]>;
  /** How an uncertain attempt is settled by reading the server. */
  reconcile(ctx: ReconcileContext & { input: I }): Promise<ReconcileVerdict>;
  /** How reconciliation works for this kind, in one sentence (shown to the user). */
  reconcileHow: string;
  upgrade?(input: Record<string, unknown>, fromVersion: number): Record<string, unknown>;
  /** The kind's CSV import, for kinds that fit a batch. */
  csv?: CsvImport;
}
