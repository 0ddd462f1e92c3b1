/**
 * Spreadsheet access reviews, for both fronts: a review worksheet out (the memberships of an
 * entitlement, an app or a campaign's apps, for a reviewer to mark Keep or Revoke offline), and its
 * decisions in (verified cell by cell against what was exported, Revokes queued as one batch).
 * Both work offline: only sending the removals needs the tenant.
 */
import { randomBytes } from 'node:crypto';
import { renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { importReview, recordWorksheet, type ReviewImportResult } from '../reports/review-import';
import { reviewRows, writeWorksheet, type ReviewScope } from '../reports/review-worksheet';
import type { EvidenceSigner } from '../reports/signing';
import { InvalidInputError } from '../reports/errors';
import type { Workspace } from './workspace';

export { DECISIONS, isReviewWorksheet, REVIEW_FORM, verifyReviewWorksheet, type ReviewVerification } from '../reports/review-worksheet';
export type { ImportedDecision, ReviewImportResult } from '../reports/review-import';

export interface ReviewExportOptions {
  out: string;
  scope: ReviewScope;
  reviewer?: string | undefined;
  asOfRun?: number | undefined;
  appVersion: string;
  signer?: EvidenceSigner | undefined;
}

export interface ReviewExportResult {
  file: string;
  worksheetId: string;
  rows: number;
  sha256: string;
  scope: string;
  signedBy: string | null;
}

/** The scope in words, each id with the name the store has for it. */
function scopeText(workspace: Workspace, scope: ReviewScope): string {
  const named = (collection: 'apps' | 'entitlements' | 'campaigns', id: string): string => {
    const title = workspace.store.getObject(collection, id)?.title;
    return title ? `${title} (${id})` : id;
  };
  const parts: string[] = [];
  if (scope.entitlements?.length) parts.push(`entitlement ${scope.entitlements.map((id) => named('entitlements', id)).join(', ')}`);
  if (scope.apps?.length) parts.push(`app ${scope.apps.map((id) => named('apps', id)).join(', ')}`);
  if (scope.campaign) parts.push(`campaign ${named('campaigns', scope.campaign)}`);
  return parts.join('; ');
}

/** Writes a review worksheet from the store and keeps what it holds, to check the returned one against. */
export async function exportReviewWorksheet(workspace: Workspace, o: ReviewExportOptions): Promise<ReviewExportResult> {
  const { store } = workspace;
  const rows = reviewRows(store, o.scope, o.asOfRun);
  if (!rows.length) throw new InvalidInputError('no membership in that scope: there is nothing to review');
  const scope = scopeText(workspace, o.scope);
  const run = o.asOfRun ?? store.completeRun('memberships')?.runId ?? null;
  // Written beside the target and renamed at the end: a failed export leaves no half-written file,
  // and a file already at the target (--force) as it was.
  const temp = join(dirname(o.out), `.${basename(o.out)}.${randomBytes(6).toString('hex')}.tmp.xlsx`);
  try {
    const written = await writeWorksheet(rows, {
      out: temp,
      scope: o.scope,
      scopeText: scope,
      reviewer: o.reviewer ?? null,
      asOfRun: run,
      dataAsOf: store.dataAsOf('memberships'),
      tenant: workspace.connection.hostname,
      appVersion: o.appVersion,
      signer: o.signer,
    });
    // Recorded first: a worksheet handed out is always one the store can check.
    recordWorksheet(store.db, { ...written, file: o.out }, { scope, reviewer: o.reviewer ?? null, asOfRun: run });
    renameSync(temp, o.out);
    return { file: o.out, worksheetId: written.id, rows: written.rows, sha256: written.sha256, scope, signedBy: written.signedBy };
  } finally {
    rmSync(temp, { force: true });
  }
}

/** Reads a returned worksheet; unless refused or a dry run, queues its Revokes and records its decisions. */
export function importReviewWorksheet(workspace: Workspace, file: string, opts: { dryRun?: boolean } = {}): Promise<ReviewImportResult> {
  return importReview(workspace.store, workspace.outbox, file, opts);
}
