import type { Database } from 'better-sqlite3';
import { collection as descriptorOf, extractColumns, type CollectionId } from '../collections';
import { changedFields, fieldChanges, type FieldChange } from './changes';
import { rawCodec, type StoredRaw } from './raw-codec';
import type { ChangeKind, DiffEntry } from './types';

/**
 * What changed between the snapshots of two runs, read three ways from one statement: every
 * change (the CLI's diff, the diff report), the count of changes per collection and kind, and one
 * page of them with each changed value before and after (the app's Changes screen). Only versions
 * that began or ended between the two runs are looked at, so the cost follows the size of the
 * change, not of the store; a page reads the raw JSON of its own rows only.
 */

/** One changed object: `a` the version as of the first run, `b` as of the second (null: not there). */
const PAIRS = `
  WITH touched AS (
    SELECT oid FROM object_versions WHERE valid_from > @from AND valid_from <= @to
    UNION SELECT oid FROM object_versions WHERE valid_to > @from AND valid_to <= @to
  ),
  pairs AS (
    SELECT o.collection, o.id, a.vid AS a_vid, b.vid AS b_vid,
      CASE WHEN a.vid IS NULL THEN 'added' WHEN b.vid IS NULL THEN 'removed' ELSE 'modified' END AS change
    FROM touched t JOIN objects o ON o.oid = t.oid
    LEFT JOIN object_versions a ON a.oid = o.oid AND a.valid_from <= @from AND (a.valid_to IS NULL OR a.valid_to > @from)
    LEFT JOIN object_versions b ON b.oid = o.oid AND b.valid_from <= @to AND (b.valid_to IS NULL OR b.valid_to > @to)
    WHERE (a.vid IS NOT NULL OR b.vid IS NOT NULL) AND (a.vid IS NULL OR b.vid IS NULL OR a.hash <> b.hash)
  )`;

const WHERE = '(@c IS NULL OR collection = @c) AND (@k IS NULL OR change = @k)';

export interface DiffQuery {
  collection?: CollectionId | undefined;
  change?: ChangeKind | undefined;
}

/** A changed object with the values that differ (modified objects; none for added and removed ones). */
export interface DiffDetail {
  collection: CollectionId;
  id: string;
  title: string;
  change: ChangeKind;
  fields: FieldChange[];
  /** Every value that differs (`fields` lists the first ones). */
  fieldCount: number;
}

interface PairRow {
  collection: CollectionId;
  id: string;
  change: ChangeKind;
  a_raw: string | null;
  a_title: string | null;
  b_raw: string | null;
  b_title: string | null;
}

function params(from: number, to: number, query: DiffQuery) {
  return { from, to, c: query.collection ?? null, k: query.change ?? null };
}

function pairRows(db: Database, from: number, to: number, query: DiffQuery, page?: { offset: number; limit: number }): PairRow[] {
  // The page is chosen on the ids alone; only its rows' versions are read.
  const window = page ? 'LIMIT @limit OFFSET @offset' : '';
  const rows = db
    .prepare(
      `${PAIRS}, chosen AS (SELECT * FROM pairs WHERE ${WHERE} ORDER BY collection, id ${window})
       SELECT p.collection, p.id, p.change, a.raw AS a_raw, a.raw_dict AS a_dict, a.title AS a_title, b.raw AS b_raw, b.raw_dict AS b_dict, b.title AS b_title
       FROM chosen p LEFT JOIN object_versions a ON a.vid = p.a_vid LEFT JOIN object_versions b ON b.vid = p.b_vid
       ORDER BY p.collection, p.id`,
    )
    .all({ ...params(from, to, query), ...(page ?? {}) }) as (Omit<PairRow, 'a_raw' | 'b_raw'> & {
    a_raw: StoredRaw | null;
    a_dict: number | null;
    b_raw: StoredRaw | null;
    b_dict: number | null;
  })[];
  const codec = rawCodec(db);
  return rows.map((r) => ({
    ...r,
    a_raw: r.a_raw === null ? null : codec.text(r.a_raw, r.a_dict),
    b_raw: r.b_raw === null ? null : codec.text(r.b_raw, r.b_dict),
  }));
}

/**
 * Every change from run `from` to run `to`, with the top-level fields that differ, each value that
 * differs before and after (the first ones), and the app and entitlement the object is of, where
 * its collection names them (a membership, an entitlement, an app user, a task).
 */
export function diffEntries(db: Database, from: number, to: number, query: DiffQuery = {}): DiffEntry[] {
  return pairRows(db, from, to, query).map((r) => {
    const d = descriptorOf(r.collection);
    const before: unknown = r.a_raw === null ? null : JSON.parse(r.a_raw);
    const after: unknown = r.b_raw === null ? null : JSON.parse(r.b_raw);
    const found = r.change === 'modified' ? fieldChanges(before, after, d.diffRoot) : { changes: [], total: 0 };
    const columns = extractColumns(d, r.change === 'removed' ? before : after);
    const idOf = (name: string): string | null => (typeof columns[name] === 'string' && columns[name] ? columns[name] : null);
    return {
      collection: r.collection,
      id: r.id,
      title: (r.change === 'removed' ? r.a_title : r.b_title) ?? '',
      change: r.change,
      changedFields: r.change === 'modified' ? changedFields(before, after, d.diffRoot) : [],
      fieldChanges: found.changes,
      fieldCount: found.total,
      appId: r.collection === 'apps' ? r.id : idOf('appId'),
      appEntitlementId: r.collection === 'entitlements' ? r.id : idOf('appEntitlementId'),
    };
  });
}

/** How many objects were added, removed and modified per collection. */
export function diffCounts(db: Database, from: number, to: number): { collection: CollectionId; change: ChangeKind; count: number }[] {
  return db
    .prepare(`${PAIRS} SELECT collection, change, count(*) AS count FROM pairs GROUP BY collection, change ORDER BY collection, change`)
    .all(params(from, to, {})) as { collection: CollectionId; change: ChangeKind; count: number }[];
}

/** One page of the changes (by collection, then id), each modified object with its values before and after. */
export function diffPage(db: Database, from: number, to: number, query: DiffQuery & { offset: number; limit: number }): DiffDetail[] {
  const { offset, limit } = query;
  return pairRows(db, from, to, query, { offset, limit }).map((r) => {
    const found =
      r.change === 'modified'
        ? fieldChanges(JSON.parse(r.a_raw!), JSON.parse(r.b_raw!), descriptorOf(r.collection).diffRoot)
        : { changes: [], total: 0 };
    return {
      collection: r.collection,
      id: r.id,
      title: (r.change === 'removed' ? r.a_title : r.b_title) ?? '',
      change: r.change,
      fields: found.changes,
      fieldCount: found.total,
    };
  });
}
