import type { Database, Statement } from 'better-sqlite3';
import { collection as descriptorOf, decodeColumns, facetsText, type CollectionId, type PreparedObject } from '../collections';
import { rawCodec, RawCodec, type StoredRaw } from './raw-codec';
import { nameKey, recoverSearchQueue, refreshSearchTerms, searchEntryOf, TERMS_STALE_KEY } from './search';
import { holdForSync, type SyncHold } from './sync-holder';
import type { RunCollection, RunOrigin, RunStatus, WalkStatus } from './types';

export interface RunStart {
  runId: number;
  /** True when an unfinished run was picked up again. */
  resumed: boolean;
  /** The recorded walk of each requested collection (completed ones included: nothing to do). */
  walks: RunCollection[];
}

interface WalkRow {
  run_id: number;
  collection: string;
  status: WalkStatus;
  walk: number;
  checkpoint: string;
  plan: string | null;
  pages: number;
  fetched: number;
  upserted: number;
  deleted: number;
  started_at: string | null;
  finished_at: string | null;
  error: string | null;
}

export function toRunCollection(row: WalkRow): RunCollection {
  return {
    runId: row.run_id,
    collection: row.collection as CollectionId,
    status: row.status,
    walk: row.walk,
    checkpoint: row.checkpoint,
    pages: row.pages,
    fetched: row.fetched,
    upserted: row.upserted,
    deleted: row.deleted,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    error: row.error,
  };
}

const now = (): string => new Date().toISOString();

/**
 * The sync's side of the store: runs, checkpoints, and the page writes. Every page's objects and
 * its checkpoint commit in one transaction; a walk's end (marking what it did not see as deleted)
 * is one transaction too. Nothing here talks to the network.
 */
/** The search entry of an object (null: it has none any more). */
interface SearchDoc {
  title: string;
  body: string;
  facets: string;
}

/** An object a page repeats unchanged (see currentHashes): storing it only marks it seen by the walk. */
export interface UnchangedObject {
  id: string;
  unchanged: { oid: number; vid: number };
}

/** One page of a walk as it is stored: its objects, and the checkpoint to fetch next ('' = it was the last). */
export interface PageToStore {
  objects: readonly (PreparedObject | UnchangedObject)[];
  next: string;
}

/** What storing pages did: objects added or changed, objects deleted (a last page), and whether the walk completed. */
export interface CommitResult {
  upserted: number;
  deleted: number;
  completed: boolean;
}

/** An object's row as stored: its current version (null: deleted) and that version's hash and run. */
interface StoredObject {
  oid: number;
  vid: number | null;
  hash: Buffer | null;
  valid_from: number | null;
}

function sameDoc(a: SearchDoc | null | undefined, b: SearchDoc): boolean {
  return a !== null && a !== undefined && a.title === b.title && a.body === b.body && a.facets === b.facets;
}

export class SyncWriter {
  private readonly s: Record<string, Statement>;
  private readonly codec: RawCodec;
  /** The raws a collection's raw dictionary is made from when the objects being stored are its first (see raw-codec.ts). */
  private samples: string[] = [];
  /**
   * Search entries to write, by oid, with whether the index holds an entry for it now. Noted in
   * `search_queue` in each page's transaction; written in batches by flushSearch.
   */
  private readonly pendingSearch = new Map<number, { doc: SearchDoc | null; indexed: boolean }>();
  /**
   * The collections found with no object at all when a page of theirs was stored (a first sync),
   * with the ids stored since: an object of such a collection that is not among them is new, and
   * nothing is looked up for it. Forgotten when a run begins and by any other write of objects.
   */
  private readonly freshIds = new Map<CollectionId, Set<string>>();
  /**
   * Pending search entries past which commitPage writes them out. Large batches: FTS5 makes one
   * segment of each (its buffer is sized for it, see migration 0015) and merges fewer, and a name
   * key index page is rewritten once per batch rather than once per page of objects.
   */
  searchBatch = 20_000;

  constructor(private readonly db: Database) {
    this.codec = rawCodec(db);
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      lastRun: p('SELECT id, status, collections FROM sync_runs ORDER BY id DESC LIMIT 1'),
      newRun: p("INSERT INTO sync_runs (started_at, status, collections) VALUES (?, 'running', ?)"),
      reopenRun: p("UPDATE sync_runs SET status = 'running', finished_at = NULL, collections = ? WHERE id = ?"),
      walkRows: p('SELECT * FROM sync_run_collections WHERE run_id = ?'),
      walkRow: p('SELECT * FROM sync_run_collections WHERE run_id = ? AND collection = ?'),
      newWalk: p("INSERT OR IGNORE INTO sync_run_collections (run_id, collection, status) VALUES (?, ?, 'pending')"),
      startWalk: p(
        "UPDATE sync_run_collections SET status = 'running', error = NULL, started_at = coalesce(started_at, ?) WHERE run_id = ? AND collection = ?",
      ),
      restartWalk: p("UPDATE sync_run_collections SET walk = walk + 1, checkpoint = '', plan = NULL WHERE run_id = ? AND collection = ?"),
      setPlan: p('UPDATE sync_run_collections SET plan = ? WHERE run_id = ? AND collection = ?'),
      checkpoint: p(
        `UPDATE sync_run_collections SET checkpoint = ?, pages = pages + ?, fetched = fetched + ?, upserted = upserted + ?
         WHERE run_id = ? AND collection = ? AND walk = ?`,
      ),
      endWalk: p(
        'UPDATE sync_run_collections SET status = ?, error = ?, finished_at = ?, deleted = deleted + ? WHERE run_id = ? AND collection = ?',
      ),
      finishRun: p('UPDATE sync_runs SET status = ?, finished_at = ? WHERE id = ?'),
      strayWalks: p("UPDATE sync_run_collections SET status = 'cancelled' WHERE run_id = ? AND status IN ('running', 'pending')"),

      // Every stored object among a page's ids, deleted ones too, with its current version's run
      // (one statement per page: a lookup per object cost more than the rest of its write).
      storedOf: p(
        `SELECT j.value AS id, o.oid, o.current_vid AS vid, o.current_hash AS hash, v.valid_from FROM json_each(?) j
         CROSS JOIN objects o ON o.collection = ? AND o.id = j.value LEFT JOIN object_versions v ON v.vid = o.current_vid`,
      ),
      // The page's ids drive the loop (CROSS JOIN keeps json_each outside), each looked up by the
      // (collection, id) key; left to itself the planner scanned every current object of the
      // collection for each page through objects_current, which made a walk quadratic.
      currentOf: p(
        `SELECT j.value AS id, o.oid, o.current_vid AS vid, o.current_hash AS hash FROM json_each(?) j
         CROSS JOIN objects o ON o.collection = ? AND o.id = j.value WHERE +o.current_vid IS NOT NULL`,
      ),
      // vids are one object's each, so oid in the set and current_vid in the set is the pair unchanged.
      seenAll: p(
        `UPDATE objects SET last_seen_run = ?, last_seen_walk = ?
         WHERE oid IN (SELECT value FROM json_each(?)) AND current_vid IN (SELECT value FROM json_each(?))`,
      ),
      // What the index holds for an object: made again from its stored version (the index keeps no copy).
      indexedVersion: p('SELECT o.collection, v.raw, v.raw_dict FROM object_versions v JOIN objects o ON o.oid = v.oid WHERE v.vid = ?'),
      termsStale: p(`INSERT OR IGNORE INTO store_meta (key, value) VALUES ('${TERMS_STALE_KEY}', '1')`),
      termsFresh: p(`DELETE FROM store_meta WHERE key = '${TERMS_STALE_KEY}'`),
      termsAreStale: p(`SELECT 1 FROM store_meta WHERE key = '${TERMS_STALE_KEY}'`).pluck(),
      newObject: p('INSERT INTO objects (collection, id, first_seen_run, last_seen_run, last_seen_walk) VALUES (?, ?, ?, ?, ?)'),
      anyObject: p('SELECT 1 FROM objects WHERE collection = ? LIMIT 1').pluck(),
      seen: p('UPDATE objects SET last_seen_run = ?, last_seen_walk = ? WHERE oid = ?'),
      setCurrent: p('UPDATE objects SET current_vid = ?, current_hash = ?, last_seen_run = ?, last_seen_walk = ? WHERE oid = ?'),
      setHash: p('UPDATE objects SET current_hash = ? WHERE oid = ?'),
      // The current name's key (search.ts nameKey) is written with the search entry (flushSearch).
      setNameKey: p('UPDATE objects SET name_key = ? WHERE oid = ?'),
      clearCurrent: p('UPDATE objects SET current_vid = NULL, current_hash = NULL, name_key = NULL WHERE oid = ?'),
      newVersion: p(
        'INSERT INTO object_versions (oid, valid_from, hash, title, cols, raw, raw_dict, refs, fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      rewriteVersion: p(
        'UPDATE object_versions SET hash = ?, title = ?, cols = ?, raw = ?, raw_dict = ?, refs = ?, fetched_at = ? WHERE vid = ?',
      ),
      closeVersion: p('UPDATE object_versions SET valid_to = ? WHERE vid = ?'),
      dropVersion: p('DELETE FROM object_versions WHERE vid = ?'),
      dropObjectIfEmpty: p('DELETE FROM objects WHERE oid = ? AND NOT EXISTS (SELECT 1 FROM object_versions WHERE oid = ?)'),
      indexDelete: p('DELETE FROM search_index WHERE rowid = ?'),
      indexInsert: p('INSERT INTO search_index (rowid, title, body, facets) VALUES (?, ?, ?, ?)'),
      enqueue: p('INSERT OR IGNORE INTO search_queue (oid) SELECT value FROM json_each(?)'),
      dequeue: p('DELETE FROM search_queue WHERE oid IN (SELECT value FROM json_each(?))'),
      currentIds: p('SELECT id FROM objects WHERE collection = ? AND current_vid IS NOT NULL ORDER BY id').pluck(),
      hasCurrent: p('SELECT 1 FROM objects WHERE collection = ? AND current_vid IS NOT NULL LIMIT 1').pluck(),
      unseenIds: p(
        'SELECT id FROM objects WHERE collection = ? AND current_vid IS NOT NULL AND NOT (last_seen_run = ? AND last_seen_walk = ?)',
      ).pluck(),
      unseen: p(`SELECT o.oid, o.current_vid AS vid, v.valid_from FROM objects o JOIN object_versions v ON v.vid = o.current_vid
                 WHERE o.collection = ? AND NOT (o.last_seen_run = ? AND o.last_seen_walk = ?)`),
    };
  }

  /** Takes the store for one sync (see sync-holder.ts): a second sync is refused while this one runs. */
  holdForSync(): SyncHold {
    return holdForSync(this.db);
  }

  /**
   * Starts a run for `collections`, or picks up the last run if it did not complete: under the
   * same id, every walk continues from its checkpoint and walks it already completed are not redone.
   */
  beginRun(collections: readonly CollectionId[]): RunStart {
    this.freshIds.clear();
    return this.db.transaction((): RunStart => {
      const last = this.s.lastRun!.get() as { id: number; status: RunStatus; collections: string } | undefined;
      let runId: number;
      let resumed = false;
      if (last && last.status !== 'completed') {
        runId = last.id;
        resumed = true;
        const all = [...new Set([...(JSON.parse(last.collections) as string[]), ...collections])];
        this.s.reopenRun!.run(JSON.stringify(all), runId);
      } else {
        runId = Number(this.s.newRun!.run(now(), JSON.stringify(collections)).lastInsertRowid);
      }
      for (const c of collections) this.s.newWalk!.run(runId, c);
      const rows = (this.s.walkRows!.all(runId) as WalkRow[]).filter((r) => collections.includes(r.collection as CollectionId));
      return { runId, resumed, walks: rows.map(toRunCollection) };
    })();
  }

  startWalk(runId: number, collection: CollectionId): void {
    this.s.startWalk!.run(now(), runId, collection);
  }

  private lastWalk: Statement | null = null;

  lastCompletedWalk(collection: CollectionId, beforeRun: number): { pages: number; fetched: number } | null {
    this.lastWalk ??= this.db.prepare(
      `SELECT c.pages, c.fetched FROM sync_run_collections c JOIN sync_runs r ON r.id = c.run_id
       WHERE c.collection = ? AND c.status = 'completed' AND c.run_id < ? AND r.origin = 'sync' ORDER BY c.run_id DESC LIMIT 1`,
    );
    return (this.lastWalk.get(collection, beforeRun) as { pages: number; fetched: number } | undefined) ?? null;
  }

  walk(runId: number, collection: CollectionId): RunCollection & { plan: string[] | null } {
    const row = this.s.walkRow!.get(runId, collection) as WalkRow | undefined;
    if (!row) throw new Error(`run ${runId} has no walk of ${collection}`);
    return { ...toRunCollection(row), plan: row.plan === null ? null : (JSON.parse(row.plan) as string[]) };
  }

  /** The server refused the checkpoint: the walk starts again from the first page. Returns the new walk number. */
  restartWalk(runId: number, collection: CollectionId): number {
    this.s.restartWalk!.run(runId, collection);
    return this.walk(runId, collection).walk;
  }

  /** Fixes the ids a by-id walk will fetch (kept across resumes). */
  setPlan(runId: number, collection: CollectionId, ids: readonly string[]): void {
    this.s.setPlan!.run(JSON.stringify(ids), runId, collection);
  }

  /**
   * Stores one page: each object (a new version only when its content changed) and the checkpoint
   * to fetch next, in one transaction. When `next` is '' the page was the last one and the walk is
   * completed in the same transaction (see completeWalk), so no crash can leave a finished walk
   * looking unstarted.
   */
  commitPage(
    runId: number,
    collection: CollectionId,
    walk: number,
    objects: readonly (PreparedObject | UnchangedObject)[],
    next: string,
    fetchedAt: string,
  ): CommitResult {
    return this.commitPages(runId, collection, walk, [{ objects, next }], fetchedAt);
  }

  /**
   * Stores pages of one walk, in the order they were taken, each as commitPage stores it (an
   * object on two of them is stored twice: the later copy is the run's version), and the checkpoint
   * after the last, in one transaction. Only the last may be the walk's last page.
   */
  commitPages(runId: number, collection: CollectionId, walk: number, pages: readonly PageToStore[], fetchedAt: string): CommitResult {
    const last = pages.at(-1);
    if (!last) throw new Error(`${collection}: no page to store`);
    if (pages.slice(0, -1).some((page) => page.next === '')) throw new Error(`${collection}: pages were stored after the last one`);
    const result = this.db.transaction(
      this.notingSearch(() => {
        let upserted = 0;
        let fetched = 0;
        for (const { objects } of pages) {
          fetched += objects.length;
          const unchanged = objects.filter((o): o is UnchangedObject => 'unchanged' in o);
          if (unchanged.length > 0) {
            const oids = JSON.stringify(unchanged.map((o) => o.unchanged.oid));
            const vids = JSON.stringify(unchanged.map((o) => o.unchanged.vid));
            const marked = this.s.seenAll!.run(runId, walk, oids, vids).changes;
            if (marked !== new Set(unchanged.map((o) => o.unchanged.oid)).size)
              throw new Error(`${collection}: stored objects changed while a page was being stored`);
          }
          const changed = objects.filter((o): o is PreparedObject => !('unchanged' in o));
          // A collection's first page stored makes its raw dictionary (see raw-codec.ts).
          this.samples = changed.map((o) => o.raw);
          // Looked up page by page: a page sees what the pages before it in this transaction stored.
          const stored = this.storedOfPage(collection, changed);
          for (const obj of changed) if (this.upsert(runId, collection, walk, obj, fetchedAt, stored.get(obj.id))) upserted += 1;
        }
        const moved = this.s.checkpoint!.run(last.next, pages.length, fetched, upserted, runId, collection, walk).changes;
        if (moved !== 1) throw new Error(`no running walk ${walk} of ${collection} in run ${runId}`);
        const deleted = last.next === '' ? this.completeWalk(runId, collection, walk) : 0;
        return { upserted, deleted, completed: last.next === '' };
      }),
    );
    const undo: NonNullable<typeof this.undoSearch> = [];
    this.undoSearch = undo;
    let completed = false;
    try {
      // Immediate: the write lock first, so a page never fails on another connection's commit made
      // after it began reading (pages may commit on a thread of their own, see page-writer.ts).
      const done = result.immediate();
      completed = done.completed;
      return done;
    } catch (error) {
      this.codec.settle(false);
      // What this transaction stored is gone again: the ids noted as stored may not be.
      this.freshIds.delete(collection);
      // The pages were rolled back, their queue rows with them: forget their search entries too.
      for (const [oid, earlier] of undo.reverse()) {
        if (earlier) this.pendingSearch.set(oid, earlier);
        else this.pendingSearch.delete(oid);
      }
      throw error;
    } finally {
      this.codec.settle(true);
      this.samples = [];
      this.undoSearch = null;
      // A completed walk leaves its collection searchable as it now is.
      if (completed || this.pendingSearch.size >= this.searchBatch) this.flushSearch();
    }
  }

  /**
   * The stored rows of a page's objects, as storedObjects; in a collection that had no object when
   * its pages began to be stored (see freshIds), only those this writer stored since are looked up.
   */
  private storedOfPage(collection: CollectionId, objects: readonly { id: string }[]): Map<string, StoredObject> {
    let fresh = this.freshIds.get(collection);
    if (!fresh && this.s.anyObject!.get(collection) === undefined) this.freshIds.set(collection, (fresh = new Set()));
    if (!fresh) return this.storedObjects(collection, objects);
    const again = objects.filter((o) => fresh.has(o.id));
    for (const o of objects) fresh.add(o.id);
    return this.storedObjects(collection, again);
  }

  /** The stored rows of `objects` (by id) in `collection`; objects not stored yet are absent. */
  private storedObjects(collection: CollectionId, objects: readonly { id: string }[]): Map<string, StoredObject> {
    if (objects.length === 0) return new Map();
    const rows = this.s.storedOf!.all(JSON.stringify(objects.map((o) => o.id)), collection) as (StoredObject & { id: string })[];
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** Stores `obj` over what `found` says is stored of it. Returns whether a version was written. */
  private upsert(
    runId: number,
    collection: CollectionId,
    walk: number,
    obj: PreparedObject,
    fetchedAt: string,
    found: StoredObject | undefined,
  ): boolean {
    const s = this.s;
    if (found && found.vid !== null && found.hash !== null && found.hash.equals(obj.hash)) {
      s.seen!.run(runId, walk, found.oid);
      return false;
    }
    const oid = found ? found.oid : Number(s.newObject!.run(collection, obj.id, runId, runId, walk).lastInsertRowid);
    const indexed = found !== undefined && found.vid !== null;
    // What the index holds (or will) for the object, read before its version is replaced.
    const before = indexed ? (this.pendingSearch.get(oid)?.doc ?? this.indexedDoc(found.vid!)) : undefined;
    const stored = RawCodec.encode(
      obj.raw,
      this.codec.dictionaryFor(collection, () => this.samples),
    );
    if (found && found.vid !== null && found.valid_from === runId) {
      // Already stored by this run (a page seen twice): one version per run, rewritten in place.
      s.rewriteVersion!.run(obj.hash, obj.title, obj.cols, stored.raw, stored.dict, obj.refs, fetchedAt, found.vid);
      s.setHash!.run(obj.hash, oid);
      s.seen!.run(runId, walk, oid);
    } else {
      if (found && found.vid !== null) s.closeVersion!.run(runId, found.vid);
      const vid = Number(
        s.newVersion!.run(oid, runId, obj.hash, obj.title, obj.cols, stored.raw, stored.dict, obj.refs, fetchedAt).lastInsertRowid,
      );
      s.setCurrent!.run(vid, obj.hash, runId, walk, oid);
    }
    const doc = this.searchDoc(collection, obj);
    // A change that leaves the searched text as it was leaves the index alone.
    if (!indexed || !sameDoc(before, doc)) this.queueSearch(oid, indexed, doc);
    return true;
  }

  /** The search entry of a prepared object. */
  private searchDoc(collection: CollectionId, obj: PreparedObject): SearchDoc {
    return {
      title: obj.title,
      body: obj.body,
      facets: obj.facets ?? facetsText(collection, decodeColumns(descriptorOf(collection), obj.cols)),
    };
  }

  /** The search entry the index holds for an object whose current version is `vid` (written from it, or queued). */
  private indexedDoc(vid: number): SearchDoc | undefined {
    const row = this.s.indexedVersion!.get(vid) as { collection: CollectionId; raw: StoredRaw; raw_dict: number | null } | undefined;
    return row ? searchEntryOf(row.collection, JSON.parse(this.codec.text(row.raw, row.raw_dict)) as unknown) : undefined;
  }

  /**
   * The stored objects of `collection` among `ids` and the hash of their current versions, read
   * before a page is prepared: an object whose hash the page repeats need not be prepared again
   * (commitPage then only marks it seen).
   */
  currentHashes(collection: CollectionId, ids: readonly string[]): Map<string, { oid: number; vid: number; hash: Buffer }> {
    const rows = this.s.currentOf!.all(JSON.stringify(ids), collection) as { id: string; oid: number; vid: number; hash: Buffer }[];
    return new Map(rows.map((r) => [r.id, r]));
  }

  /**
   * The walk reached its end: every current object it did not see is deleted as of this run, and
   * the walk is completed, in one transaction. Only a completed walk ever deletes. Returns how many.
   * (commitPage calls it for the last page; call it directly for a walk with no page at all.)
   */
  completeWalk(runId: number, collection: CollectionId, walk: number): number {
    return this.db.transaction(
      this.notingSearch((): number => {
        const s = this.s;
        const gone = s.unseen!.all(collection, runId, walk) as { oid: number; vid: number; valid_from: number }[];
        for (const g of gone) {
          s.clearCurrent!.run(g.oid);
          // A version this same run created (before a restart) never was in force at a completed run.
          if (g.valid_from === runId) {
            s.dropVersion!.run(g.vid);
            s.dropObjectIfEmpty!.run(g.oid, g.oid);
          } else s.closeVersion!.run(runId, g.vid);
          this.queueSearch(g.oid, true, null);
        }
        s.endWalk!.run('completed', null, now(), gone.length, runId, collection);
        return gone.length;
      }),
    )();
  }

  /** The walk stopped (an error, or cancelled); its checkpoint stays for the next sync. */
  stopWalk(runId: number, collection: CollectionId, status: 'failed' | 'cancelled', error: string | null): void {
    this.s.endWalk!.run(status, error, now(), 0, runId, collection);
  }

  /** Ends the run: completed when every walk in it completed, else failed (or cancelled when nothing failed). */
  finishRun(runId: number): RunStatus {
    return this.db.transaction((): RunStatus => {
      this.s.strayWalks!.run(runId);
      const rows = this.s.walkRows!.all(runId) as WalkRow[];
      const status: RunStatus = rows.every((r) => r.status === 'completed')
        ? 'completed'
        : rows.some((r) => r.status === 'failed')
          ? 'failed'
          : 'cancelled';
      this.s.finishRun!.run(status, now(), runId);
      return status;
    })();
  }

  /**
   * Stores fresh copies of objects that sent changes returned (origin `outbox`), or that were read
   * one by one on request (origin `live`), as a completed run of their own: views show them at once, and "as of" and diffs see them like any version.
   * `removed` are objects the tenant confirmed gone (a removed membership): they end as of this
   * run. The run has no walks, so it marks nothing else deleted and moves no collection's "data as of".
   * Nothing is stored while a sync run is open (running or interrupted: its walks decide what is
   * current, and it brings the objects anyway) or when every copy equals the stored version.
   * Returns the new run and how many objects it holds, or null.
   */
  storeFreshCopies(
    copies: readonly { collection: CollectionId; object: PreparedObject }[],
    removed: readonly { collection: CollectionId; id: string }[] = [],
    origin: Exclude<RunOrigin, 'sync'> = 'outbox',
  ): { runId: number; stored: number } | null {
    const stored = this.db
      .transaction(
        this.notingSearch((): { runId: number; stored: number } | null => {
          const last = this.s.lastRun!.get() as { status: RunStatus } | undefined;
          if (last && last.status !== 'completed') return null;
          this.freshIds.clear();
          const storedOne = (collection: CollectionId, id: string): StoredObject | undefined =>
            this.storedObjects(collection, [{ id }]).get(id);
          const changed = copies.filter(({ collection, object }) => !storedOne(collection, object.id)?.hash?.equals(object.hash));
          const gone = removed.flatMap(({ collection, id }) => {
            const found = storedOne(collection, id);
            return found && found.vid !== null ? [{ collection, oid: found.oid, vid: found.vid }] : [];
          });
          if (changed.length === 0 && gone.length === 0) return null;
          const at = now();
          const collections = [...new Set([...changed, ...gone].map((c) => c.collection))];
          const id = Number(
            this.db
              .prepare("INSERT INTO sync_runs (started_at, finished_at, status, collections, origin) VALUES (?, ?, 'completed', ?, ?)")
              .run(at, at, JSON.stringify(collections), origin).lastInsertRowid,
          );
          // Walk 0: no sync walk has that number, so a later walk still decides what it did not see.
          // (A few copies make no dictionary: they are kept as text until a sync makes one.)
          this.samples = [];
          for (const { collection, object } of changed) this.upsert(id, collection, 0, object, at, storedOne(collection, object.id));
          // Gone as of this run (a removal the tenant confirmed): its version closes, as a walk's end would close it.
          for (const g of gone) {
            this.s.clearCurrent!.run(g.oid);
            this.s.closeVersion!.run(id, g.vid);
            this.queueSearch(g.oid, true, null);
          }
          return { runId: id, stored: changed.length + gone.length };
        }),
      )
      // Immediate: the check of the last run and the new run are one step, whatever another connection does.
      .immediate();
    this.flushSearch();
    return stored;
  }

  /** While a page is being written: what its search entries replaced, to put back if it rolls back. */
  private undoSearch: [number, { doc: SearchDoc | null; indexed: boolean } | undefined][] | null = null;

  private queueSearch(oid: number, indexedNow: boolean, doc: SearchDoc | null): void {
    const earlier = this.pendingSearch.get(oid);
    this.undoSearch?.push([oid, earlier]);
    this.pendingSearch.set(oid, { doc, indexed: earlier ? earlier.indexed : indexedNow });
    this.toEnqueue.push(oid);
  }

  /** Oids noted by queueSearch in this transaction, written to `search_queue` by enqueueNoted. */
  private toEnqueue: number[] = [];

  /**
   * The body of a write transaction that may queue search entries: what it queued is noted in
   * `search_queue` in one statement before it commits, and forgotten if it throws (rolls back).
   */
  private notingSearch<T>(body: () => T): () => T {
    return () => {
      try {
        const result = body();
        if (this.toEnqueue.length > 0) this.s.enqueue!.run(JSON.stringify(this.toEnqueue));
        return result;
      } finally {
        this.toEnqueue = [];
      }
    };
  }

  /** Objects whose search entry is not written yet. */
  get searchBacklog(): number {
    return this.pendingSearch.size;
  }

  /**
   * Writes the pending search entries in one transaction, with the name keys of the objects they
   * are of (their queue rows go with them).
   */
  flushSearch(): void {
    if (this.pendingSearch.size === 0) return;
    const s = this.s;
    this.db
      .transaction(() => {
        for (const [oid, { doc, indexed }] of this.pendingSearch) {
          if (indexed) s.indexDelete!.run(oid);
          if (doc) s.indexInsert!.run(oid, doc.title, doc.body, doc.facets);
          s.setNameKey!.run(doc ? nameKey(doc.title) : null, oid);
        }
        s.dequeue!.run(JSON.stringify([...this.pendingSearch.keys()]));
        s.termsStale!.run();
      })
      .immediate();
    this.pendingSearch.clear();
  }

  /** Indexes every object still noted in the search queue (by any connection); returns how many. */
  /**
   * The WAL grows to tens of megabytes between checkpoints while a sync writes (wal_autocheckpoint)
   * and would keep that size on disk until the next one: after a sync its pages go into the file
   * and it is emptied. Not waited for: where a reader is in the middle of a read, the next
   * checkpoint does it.
   */
  emptyWal(): void {
    if (this.db.readonly || this.db.memory) return;
    const timeout = this.db.pragma('busy_timeout', { simple: true }) as number;
    try {
      this.db.pragma('busy_timeout = 0');
      this.db.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // Busy: left to the next checkpoint.
    } finally {
      this.db.pragma(`busy_timeout = ${timeout}`);
    }
  }

  indexQueued(): number {
    return recoverSearchQueue(this.db);
  }

  /** Refreshes the search's list of indexed words, when the index changed since it was made. */
  refreshSearchTerms(): void {
    if (this.s.termsAreStale!.get() === undefined) return;
    this.db.transaction(() => {
      refreshSearchTerms(this.db);
      this.s.termsFresh!.run();
    })();
  }

  /** The ids of the current objects of `collection` that walk `walk` of the run has not stored or seen. */
  unseenIds(runId: number, collection: CollectionId, walk: number): string[] {
    return this.s.unseenIds!.all(collection, runId, walk) as string[];
  }

  /** Whether `collection` has any current object stored. */
  hasCurrent(collection: CollectionId): boolean {
    return this.s.hasCurrent!.get(collection) !== undefined;
  }

  /** The ids of the current objects of `collection`, in order. */
  currentIds(collection: CollectionId): string[] {
    return this.s.currentIds!.all(collection) as string[];
  }

  /**
   * Adds ids to those of `collection` an admin added by id (see migration 0010-added-ids); an id
   * added before keeps its first time. Returns the ids that were not added yet.
   */
  addIds(collection: CollectionId, ids: readonly string[]): string[] {
    const insert = this.db.prepare('INSERT OR IGNORE INTO added_ids (collection, id, added_at) VALUES (?, ?, ?)');
    const at = now();
    return this.db.transaction(() => ids.filter((id) => insert.run(collection, id, at).changes > 0))();
  }

  /** Removes added ids of `collection` (the objects stay until a sync no longer reads them); returns those that were added. */
  removeAddedIds(collection: CollectionId, ids: readonly string[]): string[] {
    const remove = this.db.prepare('DELETE FROM added_ids WHERE collection = ? AND id = ?');
    return this.db.transaction(() => ids.filter((id) => remove.run(collection, id).changes > 0))();
  }

  /** The ids of `collection` added by id, in order. */
  addedIds(collection: CollectionId): string[] {
    return this.db.prepare('SELECT id FROM added_ids WHERE collection = ? ORDER BY id').pluck().all(collection) as string[];
  }

  /** The ids the current objects of `from` point at in `target` (templates from campaigns and automations). */
  referencedIds(target: CollectionId, from: readonly CollectionId[]): string[] {
    if (from.length === 0) return [];
    if (!/^[a-z-]+$/.test(target)) throw new Error(`bad collection id ${target}`);
    const rows = this.db
      .prepare(
        `SELECT DISTINCT j.value FROM objects o JOIN object_versions v ON v.vid = o.current_vid, json_each(v.refs, '$."${target}"') j
         WHERE o.collection IN (${from.map(() => '?').join(', ')}) AND v.refs IS NOT NULL AND j.type = 'text' AND j.value != '' ORDER BY j.value`,
      )
      .pluck()
      .all(...from) as string[];
    return rows;
  }
}
