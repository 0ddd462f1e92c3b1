/**
 * Review decisions in: a returned worksheet is read with verify's reader and compared, cell by
 * cell, with what the store kept of it at export (every cell but Decision and Comment); then each
 * Revoke queues one membership removal (one batch named after the worksheet), and every decision,
 * Keep included, is recorded with the reviewer and the worksheet's hash. And their proof: per
 * decision, the outbox item and its state, the revoke task, and whether the latest sync still
 * holds the membership.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Database } from 'better-sqlite3';
import { membershipId } from '../collections';
import type { Outbox } from '../outbox/queue';
import type { OutboxItem } from '../outbox/types';
import type { StoredObject } from '../store/types';
import {
  COVER_SHEET,
  DECISION_COL,
  decisionOf,
  DECISIONS,
  isEditable,
  readWorksheet,
  REVIEW_SHEET,
  rowDecision,
  WORKSHEET_ID_LABEL,
  type CanonicalSheet,
  type CanonicalWorksheet,
  type Decision,
  type RowDecision,
  type WrittenWorksheet,
} from './review-worksheet';
import { columnName } from './xlsx-reader';

/** The store a review reads: its tables, and the memberships it holds. */
export interface ReviewDb {
  db: Database;
  getObject(collection: 'memberships', id: string, opts?: { asOfRun?: number }): StoredObject | null;
  completeRun(collection: 'memberships'): { runId: number; finishedAt: string } | null;
}

interface WorksheetRecord {
  id: string;
  name: string;
  scope: string;
  reviewer: string | null;
  as_of_run: number | null;
  sha256: string;
  canonical_json: string;
  exported_at: string;
}

/** Keeps what was exported, so an import can name each cell changed since. */
export function recordWorksheet(
  db: Database,
  w: WrittenWorksheet,
  meta: { scope: string; reviewer: string | null; asOfRun: number | null },
): void {
  db.prepare(
    `INSERT INTO review_worksheets (id, name, scope, reviewer, as_of_run, sha256, canonical_json, exported_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(w.id, basename(w.file), meta.scope, meta.reviewer, meta.asOfRun, w.sha256, JSON.stringify(w.canonical), new Date().toISOString());
}

/** A decision as the import reads it, and what became of it. */
export interface ImportedDecision extends RowDecision {
  decision: Decision;
  /** The outbox item a Revoke queued (null: a Keep, a dry run, or skipped). */
  itemId: string | null;
  /** Why a Revoke queued nothing (it cannot be removed, is gone already, is queued already). */
  skipped: string | null;
}

export interface ReviewImportResult {
  file: string;
  fileSha256: string;
  worksheet: { id: string; name: string; sha256: string; reviewer: string | null; scope: string } | null;
  /** Why the worksheet is refused (each change named by cell or row); empty: accepted. */
  refused: string[];
  decisions: ImportedDecision[];
  /** Rows without a decision. */
  undecided: number[];
  batch: { id: number; name: string } | null;
  dryRun: boolean;
}

const shown = (json: string | undefined): string => (json === undefined || json === 'null' ? '(empty)' : json);

/** The cell-by-cell differences of a sheet from what was exported, its editable cells left out. */
function sheetChanges(name: string, exported: CanonicalSheet, read: CanonicalSheet, editable: boolean): string[] {
  const out: string[] = [];
  const before = new Map(exported.rows.map((r) => [r.n, r.cells]));
  const after = new Map(read.rows.map((r) => [r.n, r.cells]));
  const skip = (n: number, c: number): boolean => editable && n > 1 && isEditable(c);
  const fixed = (cells: string[], n: number): string[] => cells.map((c, i) => (skip(n, i) ? 'null' : c));
  const holds = (cells: string[], n: number): string =>
    fixed(cells, n)
      .filter((c) => c !== 'null')
      .join(', ');
  for (const n of [...new Set([...before.keys(), ...after.keys()])].sort((a, b) => a - b)) {
    const was = before.get(n);
    const now = after.get(n);
    if (!was && now) {
      if (holds(now, n)) out.push(`'${name}' row ${n}: added (${holds(now, n)})`);
      continue;
    }
    if (was && !now) {
      out.push(`'${name}' row ${n}: removed (it held ${holds(was, n)})`);
      continue;
    }
    const width = Math.max(was!.length, now!.length);
    for (let c = 0; c < width; c += 1) {
      if (skip(n, c)) continue;
      const a = was![c] ?? 'null';
      const b = now![c] ?? 'null';
      if (a !== b) out.push(`'${name}'!${columnName(c)}${n}: ${shown(a)} → ${shown(b)}`);
    }
  }
  return out;
}

/** Why the guidance is not as exported: the Decision list or a sheet's protection. */
function guidanceChanges(exported: string, read: string): string[] {
  if (exported === read) return [];
  type Guidance = { sheet: string; protected: boolean; validations: { type: string; sqref: string; list: string }[] }[];
  const words = (v: Guidance[number]['validations']): string => v.map((x) => `${x.sqref} ${x.type} ${x.list}`).join('; ') || 'none';
  const was = JSON.parse(exported) as Guidance;
  const now = JSON.parse(read) as Guidance;
  const out: string[] = [];
  for (const w of was) {
    const n = now.find((s) => s.sheet === w.sheet);
    if (!n) continue;
    if (w.protected && !n.protected) out.push(`the sheet '${w.sheet}' is no longer protected`);
    if (JSON.stringify(w.validations) !== JSON.stringify(n.validations))
      out.push(`the sheet '${w.sheet}' has its Decision list changed: exported ${words(w.validations)}, now ${words(n.validations)}`);
  }
  return out.length ? out : [`the worksheet's guidance (Decision list, protection) changed: exported ${exported}, now ${read}`];
}

/** The differences of a returned worksheet from what was exported (empty: every evidence cell is as exported). */
export function worksheetChanges(exported: CanonicalWorksheet, read: CanonicalWorksheet): string[] {
  return [
    ...sheetChanges(COVER_SHEET, exported.cover, read.cover, false),
    ...sheetChanges(REVIEW_SHEET, exported.review, read.review, true),
    ...guidanceChanges(exported.guidance, read.guidance),
  ];
}

const commentOf = (value: unknown): string | null => {
  if (value === undefined || value === null) return null;
  const text = (value instanceof Date ? value.toISOString() : String(value)).trim();
  return text || null;
};

/**
 * Reads a returned worksheet and, unless it is refused or `dryRun`, queues its removals and records
 * its decisions. Refused (nothing queued or recorded): a file the reader refuses, a worksheet this
 * store did not export, any evidence cell changed, a row added or removed, a Decision outside the
 * list, a worksheet whose decisions were imported already.
 */
export async function importReview(
  store: ReviewDb,
  outbox: Outbox,
  file: string,
  opts: { dryRun?: boolean } = {},
): Promise<ReviewImportResult> {
  const dryRun = opts.dryRun === true;
  const fileSha256 = createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
  const result: ReviewImportResult = { file, fileSha256, worksheet: null, refused: [], decisions: [], undecided: [], batch: null, dryRun };
  const read = await readWorksheet(file);
  const id = read.coverValue(WORKSHEET_ID_LABEL);
  const record =
    typeof id === 'string'
      ? (store.db.prepare('SELECT * FROM review_worksheets WHERE id = ?').get(id) as WorksheetRecord | undefined)
      : undefined;
  if (!record) {
    result.refused.push(
      typeof id === 'string'
        ? `this store exported no review worksheet ${id}: import it where it was exported (attest export review)`
        : `not a review worksheet: its '${COVER_SHEET}' sheet names no ${WORKSHEET_ID_LABEL}`,
    );
    result.refused.push(...read.problems);
    return result;
  }
  result.worksheet = { id: record.id, name: record.name, sha256: record.sha256, reviewer: record.reviewer, scope: record.scope };
  result.refused.push(...read.problems, ...worksheetChanges(JSON.parse(record.canonical_json) as CanonicalWorksheet, read.canonical));
  if (!result.refused.length && read.sha256 !== record.sha256)
    result.refused.push(`the worksheet hashes as ${read.sha256}, not as exported (${record.sha256})`);
  const earlier = store.db.prepare('SELECT min(imported_at) AS at FROM review_decisions WHERE worksheet_id = ?').get(record.id) as {
    at: string | null;
  };
  if (earlier.at) result.refused.push(`the decisions of this worksheet were imported already, at ${earlier.at}`);

  const rows: { d: RowDecision & { decision: Decision } }[] = [];
  for (const row of read.reviewRows) {
    const { decision, comment, d } = rowDecision(row);
    const chosen = decisionOf(decision);
    if (chosen === undefined) {
      result.refused.push(
        `'${REVIEW_SHEET}'!${columnName(DECISION_COL)}${row.number}: ${JSON.stringify(decision)} is not a decision (${DECISIONS.join(' or ')})`,
      );
      continue;
    }
    if (chosen === null) {
      if (d.appUserId) result.undecided.push(row.number);
      continue;
    }
    rows.push({ d: { ...d, decision: chosen, comment: commentOf(comment) } });
  }
  if (result.refused.length) return result;

  const latest = store.completeRun('memberships');
  for (const { d } of rows) {
    const decided: ImportedDecision = { ...d, itemId: null, skipped: null };
    if (d.decision === 'Revoke') decided.skipped = revokeSkipped(store, outbox, d, latest?.runId);
    result.decisions.push(decided);
  }
  if (dryRun) return result;

  const revokes = result.decisions.filter((d) => d.decision === 'Revoke' && !d.skipped);
  const importedAt = new Date().toISOString();
  const record_ = (queued: { itemIds: string[]; batch: number } | null): void => {
    revokes.forEach((d, i) => (d.itemId = queued?.itemIds[i] ?? null));
    const insert = store.db.prepare(
      `INSERT INTO review_decisions (worksheet_id, worksheet_name, worksheet_sha256, file_sha256, row_number, app_id, entitlement_id,
         app_user_id, subject, decision, comment, reviewer, item_id, batch_id, skipped, imported_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const note = store.db.prepare('UPDATE outbox_items SET note = ? WHERE id = ?');
    for (const d of result.decisions) {
      insert.run(
        record.id,
        record.name,
        record.sha256,
        fileSha256,
        d.row,
        d.appId,
        d.entitlementId,
        d.appUserId,
        d.subject,
        d.decision,
        d.comment,
        record.reviewer,
        d.itemId,
        queued?.batch ?? null,
        d.skipped,
        importedAt,
      );
      // The API's removal takes no comment: the reviewer's stays with the item.
      if (d.itemId && d.comment) note.run(`review comment (${record.name} row ${d.row}): ${d.comment}`, d.itemId);
    }
  };
  if (revokes.length) {
    const queued = outbox.queueBatch(
      'remove-membership',
      revokes.map((d) => ({
        input: { appId: d.appId, appEntitlementId: d.entitlementId, appUserId: d.appUserId },
        source: `review:${record.name}:${d.row}`,
      })),
      { name: record.name, source: `review:${file}` },
      record_,
    );
    result.batch = queued.batch;
  } else store.db.transaction(() => record_(null))();
  return result;
}

/** Why a Revoke queues nothing, or null. */
function revokeSkipped(store: ReviewDb, outbox: Outbox, d: RowDecision, latestRun: number | undefined): string | null {
  if (!d.removable.startsWith('yes') && !d.removable.startsWith('unknown')) return `cannot be removed (${d.removable})`;
  const held = store.getObject('memberships', membershipId(d.entitlementId, d.appUserId));
  if (!held || held.deleted) return `already gone${latestRun ? ` (sync run ${latestRun})` : ''}`;
  try {
    outbox.check('remove-membership', { appId: d.appId, appEntitlementId: d.entitlementId, appUserId: d.appUserId });
  } catch (error) {
    return (error as Error).message;
  }
  return null;
}

/** One decision with its proof, as the Review decisions sheet shows it. */
export interface ReviewDecisionRow {
  worksheet: string;
  worksheetSha256: string;
  row: number;
  subject: string | null;
  appUserId: string;
  entitlementId: string;
  appId: string;
  decision: Decision;
  comment: string | null;
  reviewer: string | null;
  importedAt: string;
  itemId: string | null;
  itemState: string | null;
  revokeTaskId: string | null;
  /** "gone" or "present" in the latest complete sync of memberships (null: none). */
  latestSync: 'gone' | 'present' | null;
  latestRun: number | null;
  /** removed, kept, still present, queued, skipped: why... */
  outcome: string;
}

interface DecisionRecord {
  worksheet_name: string;
  worksheet_sha256: string;
  row_number: number;
  subject: string | null;
  app_user_id: string;
  entitlement_id: string;
  app_id: string;
  decision: Decision;
  comment: string | null;
  reviewer: string | null;
  imported_at: string;
  item_id: string | null;
  skipped: string | null;
}

/** Every recorded decision, in import order, with its outbox item and what the latest sync says. */
export function reviewDecisionRows(store: ReviewDb, item: (id: string) => OutboxItem | null): ReviewDecisionRow[] {
  const latest = store.completeRun('memberships');
  const records = store.db.prepare('SELECT * FROM review_decisions ORDER BY seq').all() as DecisionRecord[];
  return records.map((r) => {
    const it = r.item_id ? item(r.item_id) : null;
    const held = latest ? store.getObject('memberships', membershipId(r.entitlement_id, r.app_user_id), { asOfRun: latest.runId }) : null;
    const latestSync = latest ? (held && !held.deleted ? 'present' : 'gone') : null;
    const task = it?.result && typeof it.result.revokeTaskId === 'string' && it.result.revokeTaskId ? it.result.revokeTaskId : null;
    const outcome =
      r.decision === 'Keep'
        ? latestSync === 'gone'
          ? 'kept, but gone in the latest sync'
          : 'kept'
        : r.skipped
          ? `not queued: ${r.skipped}`
          : latestSync === 'gone' && it?.state === 'succeeded'
            ? 'removed'
            : latestSync === 'present' && it?.state === 'succeeded'
              ? 'removal sent, still present in the latest sync'
              : `removal ${it?.state ?? 'missing'}`;
    return {
      worksheet: r.worksheet_name,
      worksheetSha256: r.worksheet_sha256,
      row: r.row_number,
      subject: r.subject,
      appUserId: r.app_user_id,
      entitlementId: r.entitlement_id,
      appId: r.app_id,
      decision: r.decision,
      comment: r.comment,
      reviewer: r.reviewer,
      importedAt: r.imported_at,
      itemId: r.item_id,
      itemState: it?.state ?? null,
      revokeTaskId: task,
      latestSync,
      latestRun: latest?.runId ?? null,
      outcome,
    };
  });
}

/** Per worksheet: decided, kept, revoked, removed, still present. */
export function reviewTotals(rows: readonly ReviewDecisionRow[]) {
  const out = new Map<
    string,
    { worksheet: string; sha256: string; decided: number; kept: number; revoked: number; removed: number; stillPresent: number }
  >();
  for (const r of rows) {
    const key = `${r.worksheet}\u0000${r.worksheetSha256}`;
    const t = out.get(key) ?? {
      worksheet: r.worksheet,
      sha256: r.worksheetSha256,
      decided: 0,
      kept: 0,
      revoked: 0,
      removed: 0,
      stillPresent: 0,
    };
    t.decided += 1;
    if (r.decision === 'Keep') t.kept += 1;
    else {
      t.revoked += 1;
      if (r.outcome === 'removed') t.removed += 1;
      else if (r.latestSync === 'present') t.stillPresent += 1;
    }
    out.set(key, t);
  }
  return [...out.values()];
}
