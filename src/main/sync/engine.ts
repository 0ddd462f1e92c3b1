import type { SyncProgress } from '../../shared/contract';
import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import {
  collection as descriptorOf,
  COLLECTIONS,
  hashOf,
  prepareObject,
  type PreparedObject,
  type CollectionDescriptor,
  type CollectionId,
  type ReceivedObject,
  type SplitPart,
} from '../collections';
import { CursorSet, readAheadPages, readCheckpoint, UnreadableCheckpoint } from './cursors';
import { EarlyReads } from './early-reads';
import { fetchOne, fetchRow, idPages, Limiter, listPages, mapLimit, type FetchedPage } from './pages';
import type { PageToStore, PageWriter, RunStatus, SyncStore, SyncTarget, UnchangedObject, WalkRecord } from './target';

export type { SyncProgress };

export interface CollectionSummary {
  collection: CollectionId;
  /** Objects received by this sync (this process; a resumed walk counts from its checkpoint). */
  fetched: number;
  pages: number;
  /** Objects added or changed. */
  upserted: number;
  /** Objects no longer on the tenant, deleted as of this run. */
  deleted: number;
  /** The walk reached the end of the collection (now or earlier in the same run). */
  complete: boolean;
  /** Continued an earlier walk of the same run from its checkpoint. */
  resumed: boolean;
  /** Times the walk started over because the tenant refused a page token. */
  restarts: number;
  ms: number;
  error?: string;
  /** The API client's error kind (auth, network, bad_response, cancelled, ...). */
  errorKind?: string;
  /**
   * Ids added by id (see `attest template add`) that the tenant no longer has: it answered 404, so
   * they are gone from the store as of this run, but stay added (an admin removes them) and are
   * reported on every sync until then.
   */
  gone?: string[];
}

export interface SyncSummary {
  runId: number;
  status: RunStatus;
  /** An unfinished run was picked up again. */
  resumed: boolean;
  ms: number;
  collections: CollectionSummary[];
}

export interface SyncOptions {
  /** The store to fill (its sync side). */
  store: SyncStore;
  api: ApiClient;
  only?: readonly CollectionId[];
  /** Collections walked at the same time (default 8). */
  concurrency?: number;
  /**
   * Commit the pages on a thread of the store's own, when it has one (see startPageWriter), as
   * `attest sync` and the app do; by default on the store's connection in this thread.
   */
  pageThread?: boolean;
  signal?: AbortSignal;
  onProgress?: (event: SyncProgress) => void;
}

/**
 * Collections walked at the same time: every collection at once, so the longest walk alone sets
 * the pace (a fixed number fell behind as collections were added: the last ones waited for a slot).
 */
const DEFAULT_CONCURRENCY = COLLECTIONS.length;

type Estimate = Pick<SyncProgress, 'expectedPages' | 'expectedItems' | 'etaSeconds'>;
/** A progress event of the engine before its run id is added; without an estimate, none is known. */
type WalkEvent = Omit<SyncProgress, 'runId' | keyof Estimate> & Partial<Estimate>;
const NO_ESTIMATE: Estimate = { expectedPages: null, expectedItems: null, etaSeconds: null };

/**
 * The most pages of a walk stored in one transaction: as many as its cursors read ahead, which
 * arrived while its last commit was made (see CursorSet.takeArrived). A crash costs these and the
 * pages read ahead.
 */
export const pagesPerCommit = (descriptor: CollectionDescriptor): number => readAheadPages(descriptor.pageSize);

/** How often a walk may start over from the first page after the tenant refused its token. */
const MAX_RESTARTS = 2;

function errorKind(error: unknown): string {
  const kind = (error as { kind?: unknown })?.kind;
  if (typeof kind === 'string') return kind;
  if ((error as Error)?.name === 'AbortError') return 'cancelled';
  return 'internal';
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A refused page token: the tenant answered 400 (invalid input) to a request that carried one. */
function isRejectedToken(error: unknown, token: string): boolean {
  return token !== '' && errorKind(error) === 'invalid_input';
}

/**
 * Syncs the tenant into the store. Starts a run (or resumes the last one if it did not complete),
 * walks the collections a few at a time, each page to its end (an empty page with a live token is
 * not the end), storing each page with its checkpoint in one transaction while the next page is
 * already being fetched. Templates wait for campaigns and automations, whose objects name them.
 * One collection failing (a truncated or HTML page, say) stops that collection only; cancelling
 * stops all at a page boundary. The store stays consistent and resumable in every case.
 */
export async function syncTenant(opts: SyncOptions): Promise<SyncSummary> {
  // One sync per store at a time, whichever process runs it: a second is refused, naming the first.
  const hold = opts.store.sync.holdForSync();
  try {
    const pages = pageWriterOf(opts);
    try {
      return await syncHeld(opts, pages);
    } finally {
      await pages.close();
      opts.store.sync.emptyWal?.();
    }
  } finally {
    hold.release();
  }
}

/**
 * Where the pages commit: on a thread of the store's own when asked for, which starts while the
 * first pages are fetched (they wait for it); otherwise on the store's own connection.
 */
function pageWriterOf(opts: SyncOptions): PageWriter {
  const inline = inlinePages(opts.store.sync);
  const starting = opts.pageThread === true ? opts.store.startPageWriter?.() : null;
  if (!starting) return inline;
  // A thread that cannot start leaves the pages to this thread: slower, not wrong.
  const ready = starting.catch((): PageWriter => inline);
  return {
    commitPages: async (...args) => (await ready).commitPages(...args),
    flushSearch: async () => (await ready).flushSearch(),
    close: async () => (await ready).close(),
  };
}

/** Pages committed on the store's own connection, in this thread. */
function inlinePages(target: SyncTarget): PageWriter {
  return {
    commitPages: async (...args) => target.commitPages(...args),
    flushSearch: async () => target.flushSearch(),
    close: async () => {},
  };
}

async function syncHeld(opts: SyncOptions, pages: PageWriter): Promise<SyncSummary> {
  const started = performance.now();
  const { store, api, signal } = opts;
  const ids = opts.only && opts.only.length > 0 ? [...new Set(opts.only)].map((id) => descriptorOf(id).id) : COLLECTIONS.map((c) => c.id);
  const order = COLLECTIONS.map((c) => c.id).filter((id) => ids.includes(id));
  const start = store.sync.beginRun(order);
  const { runId } = start;
  const emit = (event: WalkEvent): void => opts.onProgress?.({ runId, ...NO_ESTIMATE, ...event });
  emit({ phase: 'started', collection: null, state: 'running', pages: 0, items: 0, ratePerSecond: null, error: null });

  const limiter = new Limiter(Math.max(1, opts.concurrency ?? DEFAULT_CONCURRENCY));
  const walks = new Map(start.walks.map((w) => [w.collection, w]));
  // The objects read by id that this run still has to walk are read as soon as a page names them.
  const early = new EarlyReads(
    api,
    start.walks
      .filter((w) => w.status !== 'completed')
      .flatMap((w) => (descriptorOf(w.collection).byIds ? [descriptorOf(w.collection)] : [])),
    signal,
  );
  const done = new Map<CollectionId, Promise<CollectionSummary>>();
  // A collection read by id starts once the walks in this run that name its ids have ended.
  const schedule = (id: CollectionId): Promise<CollectionSummary> => {
    const known = done.get(id);
    if (known) return known;
    const walk = walks.get(id)!;
    const descriptor = descriptorOf(id);
    const deps = (descriptor.byIds?.referencedBy ?? []).filter((d) => walks.has(d)).map(schedule);
    const splitBy = descriptor.split?.by?.from;
    const splitDep = splitBy && walks.has(splitBy) ? schedule(splitBy) : Promise.resolve(null);
    const promise = Promise.all([Promise.all(deps), splitDep]).then(([before, splitFrom]) => {
      // Ids gathered from walks that did not complete would be a guess: wait for the next sync.
      const blocked = before.filter((b) => !b.complete).map((b) => b.collection);
      if (blocked.length > 0 && walk.status !== 'completed') return blockedWalk(store, runId, walk, blocked, signal, emit);
      // Parts by the objects of another collection only when its walk in this run read all of them.
      const splitReady = splitFrom?.complete === true;
      return limiter.run(() => walkCollection({ store, pages, api, early, runId, signal, emit }, descriptor, walk, splitReady));
    });
    done.set(id, promise);
    return promise;
  };
  for (const walk of start.walks)
    emit({ phase: 'collection', collection: walk.collection, state: 'queued', pages: 0, items: 0, ratePerSecond: null, error: null });
  // Collections that others wait for are queued first.
  for (const walk of [...start.walks].sort(
    (a, b) => Number(descriptorOf(a.collection).byIds !== undefined) - Number(descriptorOf(b.collection).byIds !== undefined),
  ))
    schedule(walk.collection);
  let collections: CollectionSummary[];
  try {
    collections = await Promise.all(order.map(schedule));
  } finally {
    await early.close();
    // Whatever was stored is searchable when the sync returns, however it ended. A page writer
    // thread that ended early (its walks failed with the reason) leaves its entries to the queue
    // its pages noted: they are indexed from there.
    await pages.flushSearch().catch(() => store.sync.indexQueued());
  }
  const status = store.sync.finishRun(runId);
  if (collections.some((c) => c.pages > 0)) store.sync.refreshSearchTerms();
  emit({
    phase: 'finished',
    collection: null,
    state: status === 'completed' ? 'done' : status === 'cancelled' ? 'cancelled' : 'failed',
    pages: 0,
    items: 0,
    ratePerSecond: null,
    error: null,
  });
  return { runId, status, resumed: start.resumed, ms: Math.round(performance.now() - started), collections };
}

function blockedWalk(
  store: SyncStore,
  runId: number,
  recorded: WalkRecord,
  blockedBy: CollectionId[],
  signal: AbortSignal | undefined,
  emit: (event: WalkEvent) => void,
): CollectionSummary {
  const id = recorded.collection;
  const cancelled = signal?.aborted === true;
  const error = cancelled
    ? 'cancelled'
    : `${id}: not fetched because ${blockedBy.join(' and ')} did not complete (the next sync resumes them)`;
  store.sync.stopWalk(runId, id, cancelled ? 'cancelled' : 'failed', error);
  emit({ phase: 'collection', collection: id, state: cancelled ? 'cancelled' : 'failed', pages: 0, items: 0, ratePerSecond: null, error });
  return {
    collection: id,
    fetched: 0,
    pages: 0,
    upserted: 0,
    deleted: 0,
    complete: false,
    resumed: false,
    restarts: 0,
    ms: 0,
    error,
    errorKind: cancelled ? 'cancelled' : 'blocked',
  };
}

function emptySummary(collection: CollectionId): CollectionSummary {
  return { collection, fetched: 0, pages: 0, upserted: 0, deleted: 0, complete: false, resumed: false, restarts: 0, ms: 0 };
}

/** What the walks of one run share. */
interface RunContext {
  store: SyncStore;
  pages: PageWriter;
  api: ApiClient;
  early: EarlyReads;
  runId: number;
  signal: AbortSignal | undefined;
  emit: (event: WalkEvent) => void;
}

async function walkCollection(
  run: RunContext,
  descriptor: CollectionDescriptor,
  recorded: WalkRecord,
  splitReady: boolean,
): Promise<CollectionSummary> {
  const { store, pages, api, early, runId, signal, emit } = run;
  const started = performance.now();
  const id = descriptor.id;
  const summary = emptySummary(id);
  // What this walk should fetch, once known (see expectationOf): pages against it give the estimate.
  let expected: { pages: number; items: number } | null = null;
  const progress = (state: SyncProgress['state'], error: string | null = null): void => {
    const seconds = (performance.now() - started) / 1000;
    const left = expected && state === 'running' && summary.pages > 0 ? expected.pages - summary.pages : 0;
    emit({
      phase: 'collection',
      collection: id,
      state,
      pages: summary.pages,
      items: summary.fetched,
      ratePerSecond: seconds > 0 ? summary.fetched / seconds : null,
      error,
      expectedPages: expected?.pages ?? null,
      expectedItems: expected?.items ?? null,
      etaSeconds: left > 0 ? (seconds / summary.pages) * left : null,
    });
  };
  if (recorded.status === 'completed') {
    summary.complete = true;
    progress('done');
    return summary;
  }
  const writer = store.sync;
  writer.startWalk(runId, id);
  let state = writer.walk(runId, id);
  // Nothing of the collection stored yet (its first sync): no page can repeat a stored object, so
  // none is looked up (a page this walk already stored and reads again is told unchanged when committed).
  const lookUpStored = writer.hasCurrent(id);
  summary.resumed = state.checkpoint !== '' || state.pages > 0;
  // A walk by id knows its ids once it has them (below); a list walk, what it fetched last time.
  if (!descriptor.byIds) {
    expected = expectationOf(store.sync.lastCompletedWalk(id, runId), state.pages);
    progress('running');
  }

  let plan: string[] | null = null;
  const added = descriptor.byIds ? writer.addedIds(id) : [];
  if (descriptor.byIds) {
    plan = state.plan ?? [...new Set([...writer.referencedIds(id, descriptor.byIds.referencedBy), ...added])].sort();
    if (state.plan === null) writer.setPlan(runId, id, plan);
    expected = expectationOf(
      { pages: Math.max(1, Math.ceil(plan.length / descriptor.pageSize)), fetched: plan.length },
      state.pages,
      descriptor.pageSize,
    );
    progress('running');
  }
  // The ids a split walk groups its parts by, fixed for the run like a by-id walk's (none: one cursor).
  const splitIds = descriptor.split?.by ? (state.plan ?? (splitReady ? writer.currentIds(descriptor.split.by.from) : [])) : null;
  if (splitIds && state.plan === null) writer.setPlan(runId, id, splitIds);
  const parts = partsOf(descriptor, splitIds);
  const walkFrom = cursorsOf(descriptor, api, plan, parts, signal, (objectId) => early.take(id, objectId));
  const restart = (): CursorSet => {
    state = { ...state, walk: writer.restartWalk(runId, id), checkpoint: '' };
    if (plan === null && splitIds) writer.setPlan(runId, id, splitIds);
    return walkFrom('');
  };
  let cursors: CursorSet;
  try {
    cursors = walkFrom(state.checkpoint);
  } catch (error) {
    if (!(error instanceof UnreadableCheckpoint)) throw error;
    cursors = restart();
  }
  try {
    for (;;) {
      const read = await cursors.take();
      if ('error' in read) {
        if (!plan && isRejectedToken(read.error, read.token) && summary.restarts < MAX_RESTARTS) {
          // The tenant no longer knows this token (it may have restarted): walk again from the start.
          summary.restarts += 1;
          cursors.close();
          cursors = restart();
          continue;
        }
        throw read.error;
      }
      if (signal?.aborted) throw signal.reason ?? new Error('cancelled');
      // The pages that arrived meanwhile are stored with this one, in one transaction: a walk waits
      // for one commit per batch, where it waited for one per page behind every other walk's.
      const batch = [read, ...cursors.takeArrived(pagesPerCommit(descriptor) - 1)];
      const toStore = await pagesToStore(run, descriptor, state.walk, cursors, batch, parts.length > 1, lookUpStored);
      const result = await pages.commitPages(runId, id, state.walk, toStore, new Date().toISOString());
      summary.pages += toStore.length;
      summary.fetched += toStore.reduce((n, p) => n + p.objects.length, 0);
      summary.upserted += result.upserted;
      summary.deleted += result.deleted;
      if (result.completed) break;
      progress('running');
    }
    summary.complete = true;
    const gone = goneOfAdded(writer, id, added, plan);
    if (gone.length > 0) summary.gone = gone;
    summary.ms = Math.round(performance.now() - started);
    progress('done');
    return summary;
  } catch (error) {
    const cancelled = signal?.aborted === true || errorKind(error) === 'cancelled';
    summary.error = cancelled ? 'cancelled' : `${id}: ${message(error)}`;
    summary.errorKind = cancelled ? 'cancelled' : errorKind(error);
    summary.ms = Math.round(performance.now() - started);
    writer.stopWalk(runId, id, cancelled ? 'cancelled' : 'failed', summary.error);
    progress(cancelled ? 'cancelled' : 'failed', summary.error);
    return summary;
  } finally {
    cursors.close();
  }
}

/** The ids added by id that a completed walk read (its plan) but that are not current now: the tenant answered 404. */
function goneOfAdded(writer: SyncTarget, id: CollectionId, added: readonly string[], plan: readonly string[] | null): string[] {
  if (added.length === 0 || !plan) return [];
  const planned = new Set(plan);
  const current = writer.currentHashes(id, added);
  return added.filter((a) => planned.has(a) && !current.has(a));
}

/**
 * The independent walks of a list: the fixed parts of a split collection, one per group of
 * `splitIds` for a collection split by another's objects, or the one list.
 */
export function partsOf(descriptor: CollectionDescriptor, splitIds: readonly string[] | null): SplitPart[] {
  const split = descriptor.split;
  if (split?.parts) return split.parts;
  const by = split?.by;
  if (by && splitIds && splitIds.length > 0) {
    const groups = Math.min(by.groups, splitIds.length);
    return Array.from({ length: groups }, (_, g) => {
      const ids = splitIds.filter((_, i) => i % groups === g);
      return { key: `${by.from}-${g + 1}`, fetchPage: (api, req, signal) => by.fetchPage(api, req, ids, signal) };
    });
  }
  return [{ key: '', fetchPage: descriptor.fetchPage! }];
}

/**
 * Taken pages made ready to store together, each with the checkpoint after it. The cursors read
 * on while they are stored; what they name in walks still to come is read now. The last page of a
 * split walk brings the objects no part returned that a read by id still finds.
 */
/** Lets the event loop handle what arrived (network answers) before going on. */
const yieldToAnswers = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function pagesToStore(
  run: RunContext,
  descriptor: CollectionDescriptor,
  walk: number,
  cursors: CursorSet,
  batch: readonly { key: string; page: FetchedPage }[],
  split: boolean,
  lookUpStored: boolean,
): Promise<PageToStore[]> {
  const { store, api, early, runId, signal } = run;
  const toStore: PageToStore[] = [];
  const inBatch = new Set<string>();
  for (const [i, { key, page }] of batch.entries()) {
    // Between pages, the answers that arrived meanwhile are handled first: preparing a batch of
    // eight pages at once held up every other walk's next request (over a network, the chains of
    // one page after another, as automations' are, waited on it page after page).
    if (i > 0) await yieldToAnswers();
    cursors.advance(key, page);
    early.note(descriptor, page.objects);
    const checkpoint = cursors.checkpoint();
    let objects = page.objects;
    if (checkpoint === '' && split)
      objects = objects.concat(await unseenStill(store.sync, api, runId, descriptor, walk, objects, inBatch, signal));
    toStore.push({ objects: await pageItems(store.sync, descriptor, objects, lookUpStored, inBatch), next: checkpoint });
  }
  return toStore;
}

/**
 * The cursors of a walk from a checkpoint: the ids of `plan` (a walk by id), or the `parts` of the
 * list. Throws UnreadableCheckpoint when the checkpoint is not one of them.
 */
function cursorsOf(
  descriptor: CollectionDescriptor,
  api: ApiClient,
  plan: readonly string[] | null,
  parts: readonly SplitPart[],
  signal: AbortSignal | undefined,
  readEarly: (id: string) => Promise<ReceivedObject | null> | undefined,
): (checkpoint: string) => CursorSet {
  const open = (key: string, token: string): AsyncIterator<FetchedPage> =>
    (plan
      ? idPages(descriptor, api, plan, token, signal, readEarly)
      : listPages(descriptor, api, token, signal, parts.find((p) => p.key === key)!.fetchPage, key))[Symbol.asyncIterator]();
  return (checkpoint) =>
    new CursorSet(
      readCheckpoint(
        checkpoint,
        parts.map((p) => p.key),
      ),
      open,
      readAheadPages(descriptor.pageSize),
    );
}

/**
 * Before the last page of a split walk is stored (which deletes what the walk did not see): the
 * objects none of its parts returned, read by id. Those still there had moved from one part's
 * filter to another's while the parts were walked; they go with the last page. `inBatch`: the ids
 * of the pages stored with it, which the store has not seen yet.
 */
async function unseenStill(
  writer: SyncStore['sync'],
  api: ApiClient,
  runId: number,
  descriptor: CollectionDescriptor,
  walk: number,
  lastPage: readonly ReceivedObject[],
  inBatch: ReadonlySet<string>,
  signal: AbortSignal | undefined,
): Promise<ReceivedObject[]> {
  const split = descriptor.split!;
  const onPage = new Set(lastPage.map((o) => descriptor.idOf(o.json)));
  const ids = writer.unseenIds(runId, descriptor.id, walk).filter((objectId) => !onPage.has(objectId) && !inBatch.has(objectId));
  const found = await mapLimit(ids, 8, (objectId) =>
    split.member === null
      ? fetchRow(descriptor, split.fetchOne, api, objectId, signal)
      : fetchOne(split.fetchOne, api, objectId, split.member, descriptor.id, signal),
  );
  return found.filter((o): o is ReceivedObject => o !== null);
}

/**
 * A page made ready to store: an object whose text hashes as its stored current version's is
 * only marked seen (nothing of it is extracted again); the others are prepared whole. `inBatch`
 * holds the ids of the pages stored before it in the same transaction (this page's are added): one
 * of those is prepared whole, since what the store holds of it may change before this page is stored.
 */
/**
 * Objects prepared between two looks at the network's answers: a batch prepared in one go held
 * every chain of small pages over a network (automations') up for its next request, page after
 * page. 25 at a time took a sync over latency from 1.19x to 1.13x the split bare client; 10 at a
 * time cost more in turns of the event loop than it gave.
 */
const PREPARED_BETWEEN_ANSWERS = 25;

async function pageItems(
  writer: SyncStore['sync'],
  descriptor: CollectionDescriptor,
  objects: readonly ReceivedObject[],
  lookUpStored: boolean,
  inBatch: Set<string>,
): Promise<(PreparedObject | UnchangedObject)[]> {
  const ids = objects.map((o) => descriptor.idOf(o.json));
  // A page that lists an object twice is not a page to trust (which copy is current?): it fails.
  const seen = new Set<string>();
  for (const id of ids) {
    if (!id) continue;
    if (seen.has(id)) throw new ApiError('bad_response', `${descriptor.id} page: the id '${id}' is listed twice`);
    seen.add(id);
  }
  const stored = lookUpStored ? writer.currentHashes(descriptor.id, ids) : new Map<string, { oid: number; vid: number; hash: Buffer }>();
  const earlier = new Set(ids.filter((id) => inBatch.has(id)));
  for (const id of ids) if (id) inBatch.add(id);
  const items: (PreparedObject | UnchangedObject)[] = [];
  for (const [i, o] of objects.entries()) {
    if (i > 0 && i % PREPARED_BETWEEN_ANSWERS === 0) await yieldToAnswers();
    const hash = hashOf(o.raw);
    const current = ids[i] && !earlier.has(ids[i]) ? stored.get(ids[i]) : undefined;
    items.push(
      current?.hash.equals(hash) ? { id: ids[i]!, unchanged: { oid: current.oid, vid: current.vid } } : prepareObject(descriptor, o, hash),
    );
  }
  return items;
}

/**
 * What a walk should still fetch: the pages and objects of `whole` (the last completed walk of the
 * collection, or the ids a walk by id reads) less the `donePages` a resumed walk stored already
 * (objects: as many per page as the last walk had, or `perPage`). Null when nothing is known.
 */
function expectationOf(
  whole: { pages: number; fetched: number } | null,
  donePages: number,
  perPage = whole && whole.pages > 0 ? whole.fetched / whole.pages : 0,
): { pages: number; items: number } | null {
  if (!whole || whole.pages === 0) return null;
  const pages = Math.max(0, whole.pages - donePages);
  return { pages, items: Math.max(0, Math.round(whole.fetched - donePages * perPage)) };
}
