import Database from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type { CollectionId } from '../collections';
import { migrate, MigrationError, pendingMigrations } from './migrate';
import { MIGRATIONS } from './migrations';
import { ObjectReader } from './objects';
import { PageWriterThread } from './page-writer';
import { ensureColumns } from './refresh-columns';
import { ensureSearchIndex, rebuildSearchIndex, recoverSearchQueue, searchObjects, warmSearch, type SearchResult } from './search';
import { SyncWriter } from './sync-writer';
import { rawCodec } from './raw-codec';
import type { DiffDetail, DiffQuery } from './diff';
import type {
  AutomationRow,
  ChangeKind,
  CollectionStatus,
  DiffEntry,
  ListOptions,
  ObjectVersion,
  SearchOptions,
  StoredObject,
  SyncRun,
} from './types';

export type * from './types';
export type { SearchResult } from './search';
export type { DiffDetail, DiffQuery } from './diff';
export { StoreQueryError } from './query';
export { MigrationError } from './migrate';

/**
 * The one door to a connection's SQLite file. Reads for views, search, diffs and reports; the
 * sync's writes through `sync`; `db` for the outbox's own tables (inside its own transactions).
 */
export interface Store {
  readonly db: Database.Database;
  readonly file: string;
  readonly readonly: boolean;
  /** Runs, checkpoints and page writes: used by the sync engine only. */
  readonly sync: SyncWriter;
  /**
   * A thread of its own that commits a sync's pages on its own connection (see page-writer.ts);
   * null for a store opened read-only or held in memory, which no other connection can reach.
   */
  startPageWriter(): Promise<PageWriterThread> | null;
  close(): void;
  /** Newest first. */
  runs(): SyncRun[];
  collectionStatus(): CollectionStatus[];
  /** When a collection's data is from (its last completed walk), null when no walk of it completed. */
  dataAsOf(collection: CollectionId): string | null;
  /** The run a collection's objects are all of the tenant's as of (a full walk that ended, nothing later half-way), or null. */
  completeRun(collection: CollectionId): { runId: number; finishedAt: string } | null;
  /** The current version (a deleted object's last one, flagged `deleted`), or the version as of a run. */
  getObject(collection: CollectionId, id: string, opts?: { asOfRun?: number }): StoredObject | null;
  listObjects(collection: CollectionId, opts?: ListOptions): { rows: StoredObject[]; total: number };
  /** Streams (for exports of millions of rows). The connection cannot write until the iteration ends. */
  iterateObjects(
    collection: CollectionId,
    opts?: Pick<ListOptions, 'asOfRun' | 'filters' | 'text' | 'sort'>,
  ): IterableIterator<StoredObject>;
  countObjects(collection: CollectionId, opts?: Pick<ListOptions, 'asOfRun' | 'filters' | 'text'>): number;
  /** `total` counts matches up to a cap (10,000; SEARCH_LIMITS); `capped` says there were more. */
  search(query: string, opts?: SearchOptions): SearchResult;
  /** Readies search (statements, the word list's and the index's first pages): for the app to run right after opening, before anyone types. */
  warmSearch(): void;
  diff(fromRun: number, toRun: number, opts?: { collection?: CollectionId }): DiffEntry[];
  /** Objects added, removed and modified per collection between two runs. */
  diffCounts(fromRun: number, toRun: number): { collection: CollectionId; change: ChangeKind; count: number }[];
  /** A page of the changes between two runs (by collection, then id), with each changed value before and after. */
  diffPage(fromRun: number, toRun: number, query: DiffQuery & { offset: number; limit: number }): DiffDetail[];
  history(collection: CollectionId, id: string): ObjectVersion[];
  automationRows(opts?: { automationId?: string; asOfRun?: number }): AutomationRow[];
}

export interface OpenStoreOptions {
  readonly?: boolean;
}

/**
 * A new store is its owner's alone, whatever the parent's mode: the folders it creates 0700, the
 * file 0600 (SQLite gives its -wal and -shm files the database file's mode). An existing file is left as it is.
 */
function createOwnerOnly(file: string): void {
  const dir = dirname(file);
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
  }
  if (existsSync(file)) return;
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
}

/** A migration that freed much of the file (see 0012-compact-store) asks for one VACUUM, outside its transaction. */
function vacuumIfPending(db: Database.Database): void {
  const pending = db.prepare("SELECT 1 FROM store_meta WHERE key = 'vacuum_pending'").get();
  if (!pending) return;
  db.exec('VACUUM');
  db.prepare("DELETE FROM store_meta WHERE key = 'vacuum_pending'").run();
}

/**
 * Opens (creating it if needed) a store file: WAL, foreign keys on, every migration applied, the
 * search index in step with the descriptors. A read-only open never changes the file and refuses
 * one that still needs a migration.
 */
export function openStore(file: string, opts: OpenStoreOptions = {}): Store {
  const readonly = opts.readonly === true;
  if (!readonly) createOwnerOnly(file);
  const db = new Database(file, { readonly, fileMustExist: readonly });
  try {
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 10000');
    if (!readonly) {
      db.pragma('journal_mode = WAL');
      // WAL + NORMAL: a crash of the process never loses a committed transaction.
      db.pragma('synchronous = NORMAL');
      // A larger WAL between checkpoints: a sync rewrites the same index pages page after page.
      db.pragma('wal_autocheckpoint = 10000');
      migrate(db, MIGRATIONS);
      rawCodec(db);
      // Columns extracted again: the facets in the index follow them.
      if (ensureColumns(db)) rebuildSearchIndex(db);
      else if (!ensureSearchIndex(db)) recoverSearchQueue(db);
      vacuumIfPending(db);
    } else if (pendingMigrations(db, MIGRATIONS).length > 0) {
      throw new MigrationError('this store needs an update that a read-only open cannot make; open it once for writing');
    } else rawCodec(db);
    db.pragma('cache_size = -32000');
  } catch (error) {
    db.close();
    throw error;
  }
  const reader = new ObjectReader(db);
  let writer: SyncWriter | null = null;
  return {
    db,
    file,
    readonly,
    get sync(): SyncWriter {
      if (readonly) throw new Error('this store was opened read-only');
      writer ??= new SyncWriter(db);
      return writer;
    },
    startPageWriter: () => (readonly || file === '' || file === ':memory:' ? null : PageWriterThread.start(file)),
    close: () => db.close(),
    runs: () => reader.runs(),
    collectionStatus: () => reader.collectionStatus(),
    dataAsOf: (collection) => reader.dataAsOf(collection),
    completeRun: (collection) => reader.completeRun(collection),
    getObject: (collection, id, o) => reader.getObject(collection, id, o),
    listObjects: (collection, o) => reader.listObjects(collection, o),
    iterateObjects: (collection, o) => reader.iterateObjects(collection, o),
    countObjects: (collection, o) => reader.countObjects(collection, o),
    search: (query, o) => searchObjects(db, query, o),
    warmSearch: () => warmSearch(db),
    diff: (from, to, o) => reader.diff(from, to, o),
    diffCounts: (from, to) => reader.diffCounts(from, to),
    diffPage: (from, to, q) => reader.diffPage(from, to, q),
    history: (collection, id) => reader.history(collection, id),
    automationRows: (o) => reader.automationRows(o),
  };
}
