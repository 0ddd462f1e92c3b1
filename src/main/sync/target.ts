/**
 * What a sync needs of the store it fills: runs, checkpoints and page writes (the store's
 * SyncWriter is one). Declared here, on the sync's side, so that the engine and the store do not
 * import each other; TypeScript checks that a Store fits wherever one is handed to `syncTenant`.
 */
import type { CollectionId, PreparedObject } from '../collections';

export type RunStatus = 'running' | 'completed' | 'failed' | 'cancelled';

/** An object a page repeats as stored: its current version stays, the walk only saw it. */
export interface UnchangedObject {
  id: string;
  unchanged: { oid: number; vid: number };
}

/** One page of a walk as it is stored: its objects, and the checkpoint to fetch next ('' = it was the last). */
export interface PageToStore {
  objects: readonly (PreparedObject | UnchangedObject)[];
  next: string;
}

/** The recorded walk of one collection in a run: what the engine reads of it. */
export interface WalkRecord {
  collection: CollectionId;
  status: 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';
  /** Walk number: a refused page token starts the walk again under the next number. */
  walk: number;
  /** The page token to fetch next ('' = the first page). */
  checkpoint: string;
  pages: number;
}

export interface SyncTarget {
  /** Takes the store for this sync; throws (CoreError 'busy') while another sync holds it. */
  holdForSync(): { release(): void };
  /** After a sync: its writes moved from the WAL into the file and the WAL emptied, unless a reader is busy. */
  emptyWal?(): void;
  /** Starts a run, or picks up the last one if it did not complete; the walks of `collections` as recorded. */
  beginRun(collections: readonly CollectionId[]): { runId: number; resumed: boolean; walks: WalkRecord[] };
  startWalk(runId: number, collection: CollectionId): void;
  /** The last completed walk of `collection` in a sync run before `beforeRun`: what it fetched (for estimates), or null. */
  lastCompletedWalk(collection: CollectionId, beforeRun: number): { pages: number; fetched: number } | null;
  /**
   * A walk as recorded now, with the ids a by-id walk fetches or a split walk groups its parts by
   * (fixed by setPlan, kept across resumes).
   */
  walk(runId: number, collection: CollectionId): WalkRecord & { plan: string[] | null };
  /** Starts the walk again from the first page; returns the new walk number. */
  restartWalk(runId: number, collection: CollectionId): number;
  setPlan(runId: number, collection: CollectionId, ids: readonly string[]): void;
  /** The ids of the current objects of `collection` that walk `walk` of the run has not stored or seen. */
  unseenIds(runId: number, collection: CollectionId, walk: number): string[];
  /** The ids the current objects of `from` point at in `target`. */
  referencedIds(target: CollectionId, from: readonly CollectionId[]): string[];
  /** The ids of a collection read by id that an admin added (read along with the referenced ones). */
  addedIds(collection: CollectionId): string[];
  /** The ids of the current objects of `collection`, in order. */
  currentIds(collection: CollectionId): string[];
  /** Whether `collection` has any current object stored. */
  hasCurrent(collection: CollectionId): boolean;
  /** The stored objects of `collection` among `ids`, with the hash of their current versions. */
  currentHashes(collection: CollectionId, ids: readonly string[]): Map<string, { oid: number; vid: number; hash: Buffer }>;
  /**
   * Stores one page and its checkpoint in one transaction ('' next: the last page, which completes
   * the walk). An unchanged object (its current version as currentHashes gave it) is only marked seen.
   */
  commitPage(
    runId: number,
    collection: CollectionId,
    walk: number,
    objects: readonly (PreparedObject | UnchangedObject)[],
    next: string,
    fetchedAt: string,
  ): CommitResult;
  /** Stores pages of one walk in order, each as commitPage would, and the last one's checkpoint, in one transaction. */
  commitPages(runId: number, collection: CollectionId, walk: number, pages: readonly PageToStore[], fetchedAt: string): CommitResult;
  stopWalk(runId: number, collection: CollectionId, status: 'failed' | 'cancelled', error: string | null): void;
  finishRun(runId: number): RunStatus;
  /** Makes what was stored searchable now. */
  flushSearch(): void;
  /** Indexes every object still noted in the search queue (by any connection); returns how many. */
  indexQueued(): number;
  /** Refreshes the search's list of indexed words. */
  refreshSearchTerms(): void;
}

/** What storing pages did: objects added or changed, objects deleted (a last page), and whether the walk completed. */
export interface CommitResult {
  upserted: number;
  deleted: number;
  completed: boolean;
}

/** Where the pages of a sync commit: a thread of the store's own (see startPageWriter), or the target itself. */
export interface PageWriter {
  commitPages(...args: Parameters<SyncTarget['commitPages']>): Promise<CommitResult>;
  flushSearch(): Promise<void>;
  close(): Promise<void>;
}

/** A store as the sync sees it: its sync side, and a page writer of its own when it has one. */
export interface SyncStore {
  readonly sync: SyncTarget;
  startPageWriter?(): Promise<PageWriter> | null;
}
