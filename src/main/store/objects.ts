import type { Database, Statement } from 'better-sqlite3';
import { AUTOMATION_STEP_ACTION_KEYS, AUTOMATION_TRIGGER_KEYS } from '../../shared/api-types/automation';
import { kindOf } from '../../shared/api-types/common';
import {
  celExpressions,
  COLLECTIONS,
  decodeColumns,
  collection as descriptorOf,
  gatheringOf,
  getPath,
  str,
  targets,
  type CollectionId,
} from '../collections';
import { changedFields, fieldChanges } from './changes';
import { diffCounts, diffEntries, diffPage, type DiffDetail, type DiffQuery } from './diff';
import { filterSql, pageSql, sortSql, StoreQueryError, versionJoin } from './query';
import { textFilterSql } from './search';
import { rawCodec, type RawReader, type StoredRaw } from './raw-codec';
import type {
  AutomationRow,
  AutomationSection,
  ChangeKind,
  CollectionStatus,
  ColumnValue,
  DiffEntry,
  ListOptions,
  ObjectVersion,
  StoredObject,
  SyncRun,
  RunOrigin,
  RunStatus,
  WalkStatus,
} from './types';

export interface ObjectRow {
  collection: string;
  id: string;
  first_seen_run: number;
  last_seen_run: number;
  current_vid: number | null;
  valid_from: number;
  title: string;
  cols: string;
  raw: StoredRaw;
  raw_dict: number | null;
  fetched_at: string;
}

/** The columns every object read selects (objects `o`, versions `v`). */
export const OBJECT_COLUMNS =
  'o.collection, o.id, o.first_seen_run, o.last_seen_run, o.current_vid, v.valid_from, v.title, v.cols, v.raw, v.raw_dict, v.fetched_at';

/**
 * A stored object; `raw` is read (inflated), `json` parsed and `columns` decoded on first use, so
 * listing a million rows reads none, and an export (which reads the JSON) decodes no columns.
 */
class Stored implements StoredObject {
  collection: CollectionId;
  id: string;
  title: string;
  runId: number;
  fetchedAt: string;
  firstSeenRun: number;
  lastSeenRun: number;
  deleted: boolean;
  pending?: unknown;
  #json: unknown = undefined;
  #parsed = false;
  #raw: StoredRaw;
  #rawDict: number | null;
  readonly #reader: RawReader;

  constructor(row: ObjectRow, deleted: boolean, reader: RawReader) {
    this.collection = row.collection as CollectionId;
    this.id = row.id;
    this.title = row.title;
    this.#raw = row.raw;
    this.#rawDict = row.raw_dict;
    this.#reader = reader;
    // An own property (spreads and Object.keys see it, as when it was a plain field), read on first use.
    Object.defineProperty(this, 'raw', { enumerable: true, configurable: true, get: () => this.rawText() });
    let columns: Record<string, ColumnValue> | undefined;
    Object.defineProperty(this, 'columns', {
      enumerable: true,
      configurable: true,
      get: () => (columns ??= decodeColumns(descriptorOf(this.collection), row.cols)),
    });
    this.runId = row.valid_from;
    this.fetchedAt = row.fetched_at;
    this.firstSeenRun = row.first_seen_run;
    this.lastSeenRun = row.last_seen_run;
    this.deleted = deleted;
  }

  declare raw: string;
  declare columns: Record<string, ColumnValue>;

  private rawText(): string {
    if (this.#rawDict !== null) {
      this.#raw = this.#reader.text(this.#raw, this.#rawDict);
      this.#rawDict = null;
    }
    return this.#raw as string;
  }

  get json(): unknown {
    if (!this.#parsed) {
      this.#json = JSON.parse(this.raw);
      this.#parsed = true;
    }
    return this.#json;
  }

  toJSON(): Record<string, unknown> {
    const { collection, id, title, raw, columns, runId, fetchedAt, firstSeenRun, lastSeenRun, deleted, pending } = this;
    return {
      collection,
      id,
      title,
      raw,
      columns,
      runId,
      fetchedAt,
      firstSeenRun,
      lastSeenRun,
      deleted,
      ...(pending === undefined ? {} : { pending }),
    };
  }
}

export function toStoredObject(row: ObjectRow, asOfRun: number | undefined, reader: RawReader): StoredObject {
  return new Stored(row, asOfRun === undefined && row.current_vid === null, reader);
}

interface WalkSummaryRow {
  run_id: number;
  status: WalkStatus;
  pages: number;
  finished_at: string | null;
  error: string | null;
}

/** Reads of objects, runs, snapshots and changes. Every query is parameterized; names are checked against the descriptors. */
export class ObjectReader {
  private readonly s: Record<string, Statement>;
  private readonly codec: RawReader;

  constructor(private readonly db: Database) {
    this.codec = rawCodec(db);
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      runs: p('SELECT id, started_at, finished_at, status, collections, origin FROM sync_runs ORDER BY id DESC'),
      runExists: p('SELECT 1 FROM sync_runs WHERE id = ?'),
      lastCompleted: p(
        "SELECT run_id, status, pages, finished_at, error FROM sync_run_collections WHERE collection = ? AND status = 'completed' ORDER BY run_id DESC LIMIT 1",
      ),
      latestWalk: p(
        'SELECT run_id, status, pages, finished_at, error FROM sync_run_collections WHERE collection = ? ORDER BY run_id DESC LIMIT 1',
      ),
      count: p('SELECT count(*) FROM objects WHERE collection = ? AND current_vid IS NOT NULL'),
      current: p(
        `SELECT ${OBJECT_COLUMNS} FROM objects o JOIN object_versions v ON v.vid = o.current_vid WHERE o.collection = ? AND o.id = ?`,
      ),
      lastVersion: p(
        `SELECT ${OBJECT_COLUMNS} FROM objects o JOIN object_versions v ON v.oid = o.oid
         WHERE o.collection = ? AND o.id = ? ORDER BY v.valid_from DESC LIMIT 1`,
      ),
      asOf: p(
        `SELECT ${OBJECT_COLUMNS} FROM objects o JOIN object_versions v ON v.oid = o.oid AND v.valid_from <= ? AND (v.valid_to IS NULL OR v.valid_to > ?)
         WHERE o.collection = ? AND o.id = ?`,
      ),
      versions: p(
        `SELECT v.valid_from, v.valid_to, v.title, v.raw, v.raw_dict, v.hash FROM objects o JOIN object_versions v ON v.oid = o.oid
         WHERE o.collection = ? AND o.id = ? ORDER BY v.valid_from`,
      ),
      runTime: p(
        `SELECT coalesce(rc.finished_at, r.started_at) FROM sync_runs r
         LEFT JOIN sync_run_collections rc ON rc.run_id = r.id AND rc.collection = ? WHERE r.id = ?`,
      ),
    };
  }

  runs(): SyncRun[] {
    return (
      this.s.runs!.all() as {
        id: number;
        started_at: string;
        finished_at: string | null;
        status: RunStatus;
        collections: string;
        origin: RunOrigin;
      }[]
    ).map((r) => ({
      id: r.id,
      startedAt: r.started_at,
      finishedAt: r.finished_at,
      status: r.status,
      collections: JSON.parse(r.collections) as string[],
      origin: r.origin,
    }));
  }

  /** When the collection's data is from: the end of its last completed walk (null: none completed). */
  dataAsOf(collection: CollectionId): string | null {
    const done = this.s.lastCompleted!.get(collection) as WalkSummaryRow | undefined;
    return done?.finished_at ?? null;
  }

  /**
   * The run whose completed walk the collection's objects are exactly, when the store can vouch the
   * tenant held nothing else then: a full walk of the list (not a collection gathered by reference),
   * and no later walk stopped half-way. Null otherwise.
   */
  completeRun(collection: CollectionId): { runId: number; finishedAt: string } | null {
    if (gatheringOf(collection).gathering !== 'full walk') return null;
    const done = this.s.lastCompleted!.get(collection) as WalkSummaryRow | undefined;
    if (!done?.finished_at) return null;
    const latest = this.s.latestWalk!.get(collection) as WalkSummaryRow | undefined;
    const unfinished = latest !== undefined && latest.status !== 'completed';
    return unfinished && latest.pages > 0 ? null : { runId: done.run_id, finishedAt: done.finished_at };
  }

  collectionStatus(): CollectionStatus[] {
    return COLLECTIONS.map((d): CollectionStatus => {
      const done = this.s.lastCompleted!.get(d.id) as WalkSummaryRow | undefined;
      const latest = this.s.latestWalk!.get(d.id) as WalkSummaryRow | undefined;
      const unfinished = latest !== undefined && latest.status !== 'completed';
      return {
        collection: d.id,
        lastCompletedRunId: done?.run_id ?? null,
        dataAsOf: done?.finished_at ?? null,
        // A later walk that stored nothing yet leaves the completed snapshot intact.
        complete: done !== undefined && (!unfinished || latest.pages === 0),
        objectCount: this.s.count!.pluck().get(d.id) as number,
        interrupted: unfinished && latest.pages > 0,
        lastRunId: latest?.run_id ?? null,
        error: latest?.status === 'failed' ? latest.error : null,
      };
    });
  }

  private checkRun(runId: number | undefined): void {
    if (runId === undefined) return;
    if (!Number.isInteger(runId) || !this.s.runExists!.get(runId)) throw new StoreQueryError(`no sync run ${String(runId)}`);
  }

  getObject(collection: CollectionId, id: string, opts: { asOfRun?: number } = {}): StoredObject | null {
    descriptorOf(collection);
    const { asOfRun } = opts;
    this.checkRun(asOfRun);
    const row = (
      asOfRun === undefined
        ? (this.s.current!.get(collection, id) ?? this.s.lastVersion!.get(collection, id))
        : this.s.asOf!.get(asOfRun, asOfRun, collection, id)
    ) as ObjectRow | undefined;
    return row ? toStoredObject(row, asOfRun, this.codec) : null;
  }

  private selectSql(collection: CollectionId, opts: ListOptions, what: string, params: unknown[]): string {
    const d = descriptorOf(collection);
    this.checkRun(opts.asOfRun);
    const join = versionJoin(opts.asOfRun, params);
    params.push(collection);
    const where = ['o.collection = ?', ...filterSql(d, opts.filters, params), ...textFilterSql(collection, opts.text, params)];
    return `SELECT ${what} FROM objects o ${join} WHERE ${where.join(' AND ')}`;
  }

  listObjects(collection: CollectionId, opts: ListOptions = {}): { rows: StoredObject[]; total: number } {
    const d = descriptorOf(collection);
    const params: unknown[] = [];
    const base = this.selectSql(collection, opts, OBJECT_COLUMNS, params);
    const order = `ORDER BY ${sortSql(d, opts.sort ?? d.defaultSort)}o.id`;
    const rows = this.db.prepare(`${base} ${order} ${pageSql(opts.limit, opts.offset, params)}`).all(...params) as ObjectRow[];
    return { rows: rows.map((r) => toStoredObject(r, opts.asOfRun, this.codec)), total: this.countObjects(collection, opts) };
  }

  countObjects(collection: CollectionId, opts: Pick<ListOptions, 'asOfRun' | 'filters' | 'text'> = {}): number {
    const params: unknown[] = [];
    return this.db
      .prepare(this.selectSql(collection, opts, 'count(*)', params))
      .pluck()
      .get(...params) as number;
  }

  /**
   * Streams every object (matching the filters and text), in id order or by `sort` then id. The
   * connection is busy until the iteration ends.
   */
  *iterateObjects(
    collection: CollectionId,
    opts: Pick<ListOptions, 'asOfRun' | 'filters' | 'text' | 'sort'> = {},
  ): IterableIterator<StoredObject> {
    const params: unknown[] = [];
    const order = opts.sort ? sortSql(descriptorOf(collection), opts.sort) : '';
    const sql = `${this.selectSql(collection, opts, OBJECT_COLUMNS, params)} ORDER BY ${order}o.id`;
    for (const row of this.db.prepare(sql).iterate(...params) as IterableIterator<ObjectRow>)
      yield toStoredObject(row, opts.asOfRun, this.codec);
  }

  private runTime(collection: string, runId: number): string | null {
    return (this.s.runTime!.pluck().get(collection, runId) as string | null | undefined) ?? null;
  }

  history(collection: CollectionId, id: string): ObjectVersion[] {
    const d = descriptorOf(collection);
    const versions = (
      this.s.versions!.all(collection, id) as {
        valid_from: number;
        valid_to: number | null;
        title: string;
        raw: StoredRaw;
        raw_dict: number | null;
        hash: Buffer;
      }[]
    ).map((v) => ({ ...v, raw: this.codec.text(v.raw, v.raw_dict) }));
    const out: ObjectVersion[] = [];
    versions.forEach((v, i) => {
      const previous = versions[i - 1];
      const continues = previous !== undefined && previous.valid_to === v.valid_from;
      const [before, after] = continues ? [JSON.parse(previous.raw) as unknown, JSON.parse(v.raw) as unknown] : [null, null];
      const values = continues ? fieldChanges(before, after, d.diffRoot) : { changes: [], total: 0 };
      out.push({
        runId: v.valid_from,
        at: this.runTime(collection, v.valid_from),
        change: continues ? 'modified' : 'added',
        changedFields: continues ? changedFields(before, after, d.diffRoot) : [],
        fieldChanges: values.changes,
        fieldCount: values.total,
        raw: v.raw,
        title: v.title,
      });
      const next = versions[i + 1];
      if (v.valid_to !== null && (!next || next.valid_from !== v.valid_to)) {
        out.push({
          runId: v.valid_to,
          at: this.runTime(collection, v.valid_to),
          change: 'removed',
          changedFields: [],
          fieldChanges: [],
          fieldCount: 0,
          raw: null,
          title: v.title,
        });
      }
    });
    return out;
  }

  /**
   * What changed from the snapshot of run `fromRun` to that of `toRun`: objects added, removed, or
   * modified (with the fields that differ). See diff.ts.
   */
  diff(fromRun: number, toRun: number, opts: { collection?: CollectionId } = {}): DiffEntry[] {
    this.checkRuns(fromRun, toRun);
    if (opts.collection) descriptorOf(opts.collection);
    return diffEntries(this.db, fromRun, toRun, { collection: opts.collection });
  }

  /** How many objects changed per collection and kind of change between two runs. */
  diffCounts(fromRun: number, toRun: number): { collection: CollectionId; change: ChangeKind; count: number }[] {
    this.checkRuns(fromRun, toRun);
    return diffCounts(this.db, fromRun, toRun);
  }

  /** A page of the changes between two runs, with each changed value before and after. */
  diffPage(fromRun: number, toRun: number, query: DiffQuery & { offset: number; limit: number }): DiffDetail[] {
    this.checkRuns(fromRun, toRun);
    if (query.collection) descriptorOf(query.collection);
    return diffPage(this.db, fromRun, toRun, query);
  }

  private checkRuns(fromRun: number, toRun: number): void {
    this.checkRun(fromRun);
    this.checkRun(toRun);
    if (fromRun > toRun) throw new StoreQueryError(`the run compared from (${fromRun}) must not be after the run compared to (${toRun})`);
  }

  /** One row per trigger and per step (live and draft) of each automation, for views and reports. */
  automationRows(opts: { automationId?: string; asOfRun?: number } = {}): AutomationRow[] {
    const objects =
      opts.automationId !== undefined
        ? [this.getObject('automations', opts.automationId, { asOfRun: opts.asOfRun })].filter((o): o is StoredObject => o !== null)
        : this.iterateObjects('automations', { asOfRun: opts.asOfRun });
    const out: AutomationRow[] = [];
    const sections: [AutomationSection, string, readonly string[]][] = [
      ['trigger', 'triggers', AUTOMATION_TRIGGER_KEYS],
      ['step', 'automationSteps', AUTOMATION_STEP_ACTION_KEYS],
      ['draftTrigger', 'draftTriggers', AUTOMATION_TRIGGER_KEYS],
      ['draftStep', 'draftAutomationSteps', AUTOMATION_STEP_ACTION_KEYS],
    ];
    for (const obj of objects) {
      const a = obj.json;
      for (const [section, member, keys] of sections) {
        const items = getPath(a, member);
        if (!Array.isArray(items)) continue;
        items.forEach((item: unknown, index) => {
          const kind = kindOf(item, keys);
          const isStep = section === 'step' || section === 'draftStep';
          const base = `${member}[${index}]`;
          out.push({
            automationId: obj.id,
            automationName: obj.title,
            section,
            index,
            kind,
            name: isStep ? str(getPath(item, 'stepDisplayName')) || str(getPath(item, 'stepName')) || kind : kind,
            celExpressions: celExpressions(item, base),
            targets: targets(item, base),
          });
        });
      }
    }
    return out;
  }
}
