/**
 * Reading one object from the tenant now, through its collection's GET (a campaign through the
 * spec's `GET /access_review/{id}` wrapper, a template, an automation or a task through the
 * vendor's GETs): the answer is stored as a fresh copy, in a run of its own (origin `live`), as
 * the outbox stores the objects sent changes return, and compared with the version the store held.
 * Also the reads of templates by id, which the app and `attest template add` share.
 */
import { ApiError } from '../api/errors';
import type { ApiClient } from '../api/client';
import { collection as descriptorOf, COLLECTIONS, prepareObject, type CollectionId, type ReceivedObject } from '../collections';
import { CoreError, firstLineOf } from '../errors';
import { fieldChanges, type FieldChange } from '../store/changes';
import { fetchOne } from '../sync/pages';
import type { Workspace } from './workspace';

/** The longest one read may take. */
const READ_TIMEOUT_MS = 30_000;

/** Whether the API has a GET of one object of this collection (a live read is possible). */
export function liveReadable(collection: CollectionId): boolean {
  return descriptorOf(collection).readOne !== undefined;
}

/** The collections whose objects can be read one by one (their descriptors name a GET of one object). */
export function liveReadableCollections(): CollectionId[] {
  return COLLECTIONS.filter((d) => d.readOne !== undefined).map((d) => d.id);
}

/** The API client for a read that needs the tenant, or a clear error saying why there is none. */
export async function apiForLiveRead(workspace: Workspace, what: string): Promise<ApiClient> {
  try {
    return workspace.api ?? (await workspace.requireApi());
  } catch (error) {
    // A missing or unreachable secret keeps its own error (and its advice); no client at all is said in these words.
    if (!(error instanceof CoreError)) throw error;
    throw new CoreError(
      'offline',
      `${what} reads it from the tenant, which needs a connection to it: ${firstLineOf(error, 'no API client')}`,
    );
  }
}

/**
 * One object as its collection's GET answers it, the member that is stored (byte-exact), or null
 * when the tenant answers 404. An answer that is not that object (another id) is refused.
 */
export async function readOne(api: ApiClient, collection: CollectionId, id: string, signal?: AbortSignal): Promise<ReceivedObject | null> {
  const descriptor = descriptorOf(collection);
  const one = descriptor.readOne;
  if (!one) throw new CoreError('unsupported', `The API has no read of one ${collection} object: sync to refresh it`);
  const found = await fetchOne(one.fetch, api, id, one.member, collection, signal ?? AbortSignal.timeout(READ_TIMEOUT_MS));
  if (found && descriptor.idOf(found.json) !== id)
    throw new ApiError('bad_response', `${collection} ${id}: the tenant answered with another object ('${descriptor.idOf(found.json)}')`);
  return found;
}

/** Where the fresh copies went. */
export interface StoredCopies {
  /** The run that holds them, or null (see `note`). */
  runId: number | null;
  /** Why nothing was stored when something changed (a sync that did not complete holds the store), else null. */
  note: string | null;
}

/** Stores objects just read as fresh copies (origin `live`): a new version of each that changed. */
export function storeLiveCopies(
  workspace: Workspace,
  objects: readonly { collection: CollectionId; object: ReceivedObject }[],
): StoredCopies {
  const { store } = workspace;
  const prepared = objects.map(({ collection, object }) => ({ collection, object: prepareObject(descriptorOf(collection), object) }));
  const stored = store.sync.storeFreshCopies(prepared, [], 'live');
  if (stored) return { runId: stored.runId, note: null };
  const changed = prepared.some(({ collection, object }) => {
    const current = store.getObject(collection, object.id);
    return !current || current.deleted || current.raw !== object.raw;
  });
  return {
    runId: null,
    note: changed
      ? 'not stored: a sync that did not complete holds the store (its walks decide what is current); the next sync stores it'
      : null,
  };
}

export interface LiveRead {
  collection: CollectionId;
  id: string;
  title: string;
  /** When the tenant answered. */
  readAt: string;
  /** The object's JSON as the tenant sent it now. */
  raw: string;
  /** The version the store held before (its run; deleted: its last version), or null when it held none. */
  before: { runId: number; fetchedAt: string; deleted: boolean } | null;
  /** The run that holds the fresh copy; null when nothing changed (or see `note`). */
  runId: number | null;
  /** What differs from the version the store held (the first ones), and how many values differ. */
  changes: FieldChange[];
  changeCount: number;
  note: string | null;
}

/**
 * Reads one object from the tenant now and stores it as a fresh copy (a new version when it
 * changed), with what changed since the version the store held. Offline, a read that fails, or a
 * 404: a clear error, and the store is left as it was.
 */
export async function readLive(
  workspace: Workspace,
  collection: CollectionId,
  id: string,
  opts: { signal?: AbortSignal } = {},
): Promise<LiveRead> {
  const descriptor = descriptorOf(collection);
  if (!descriptor.readOne)
    throw new CoreError(
      'unsupported',
      `The API has no read of one ${collection} object (live reads: ${liveReadableCollections().join(', ')}); sync to refresh it`,
    );
  const api = await apiForLiveRead(workspace, `Refreshing ${collection} ${id}`);
  const readAt = new Date().toISOString();
  const found = await readOne(api, collection, id, opts.signal);
  if (!found)
    throw new CoreError(
      'not_found',
      `The tenant has no ${collection} object ${id} (404). The store was left as it was; the next sync marks it deleted if it was synced.`,
    );
  const held = workspace.store.getObject(collection, id);
  const stored = storeLiveCopies(workspace, [{ collection, object: found }]);
  const diff = held ? fieldChanges(held.json, found.json, descriptor.diffRoot) : { changes: [], total: 0 };
  return {
    collection,
    id,
    title: descriptor.searchText(found.json).title || id,
    readAt,
    raw: found.raw,
    before: held ? { runId: held.runId, fetchedAt: held.fetchedAt, deleted: held.deleted } : null,
    runId: stored.runId,
    changes: diff.changes,
    changeCount: diff.total,
    note: stored.note,
  };
}
