/**
 * The proof of spreadsheet access reviews: one row per decision imported from a review worksheet
 * (who decided, from which worksheet, when imported, the outbox item and its state, the revoke task,
 * whether the latest sync still holds the membership), and the totals per worksheet.
 */
import { col, dateColumns, sheet, type ReportColumn, type ReportSheet, type ReportSources } from './columns';
import { reviewTotals, type ReviewDecisionRow } from './review-import';

const decisions = (sources: ReportSources): ReviewDecisionRow[] => sources.reviewDecisions?.() ?? [];

export function reviewDecisionsSheet(sources: ReportSources): ReportSheet {
  const columns: ReportColumn<ReviewDecisionRow>[] = [
    col('Worksheet', 'text', (r) => r.worksheet, 30),
    col('Worksheet SHA-256', 'text', (r) => r.worksheetSha256, {
      width: 30,
      about: 'the hash of the worksheet as exported (its Cover states it)',
    }),
    col('Row', 'int', (r) => r.row, { about: "the decision's row on the worksheet's Review sheet" }),
    col('Subject', 'text', (r) => r.subject, 24),
    col('App user ID', 'text', (r) => r.appUserId),
    col('Entitlement ID', 'text', (r) => r.entitlementId),
    col('App ID', 'text', (r) => r.appId),
    col('Decision', 'enum', (r) => r.decision),
    col('Comment', 'text', (r) => r.comment, 40),
    col('Reviewer', 'text', (r) => r.reviewer, { width: 24, about: 'the reviewer the worksheet was exported for (--reviewer)' }),
    ...dateColumns<ReviewDecisionRow>('Imported', (r) => r.importedAt),
    col('Outbox item', 'text', (r) => r.itemId, { width: 36, about: 'the removal a Revoke queued' }),
    col('Item state', 'enum', (r) => r.itemState),
    col('Revoke task', 'text', (r) => r.revokeTaskId, { about: 'the revoke task the API answered the removal with (access profiles)' }),
    col('In latest sync', 'enum', (r) => r.latestSync, {
      about: 'whether the latest complete sync of memberships still holds the membership',
    }),
    col('Latest sync run', 'int', (r) => r.latestRun),
    col('Outcome', 'text', (r) => r.outcome, {
      width: 36,
      about: 'kept; removed (sent, and gone in the latest sync); still present; not queued, and why',
    }),
  ];
  return sheet('Review decisions', columns, () => decisions(sources), {
    about: 'one row per decision imported from a review worksheet (attest review import), with the proof of each removal',
  });
}

export function reviewTotalsSheet(sources: ReportSources): ReportSheet {
  type Totals = ReturnType<typeof reviewTotals>[number];
  const columns: ReportColumn<Totals>[] = [
    col('Worksheet', 'text', (t) => t.worksheet, 30),
    col('Worksheet SHA-256', 'text', (t) => t.sha256, 30),
    col('Decided', 'int', (t) => t.decided),
    col('Kept', 'int', (t) => t.kept),
    col('Revoked', 'int', (t) => t.revoked),
    col('Removed', 'int', (t) => t.removed, { about: 'revoked, sent, and gone in the latest sync' }),
    col('Still present', 'int', (t) => t.stillPresent, { about: 'revoked, and still held in the latest sync' }),
  ];
  return sheet('Review totals', columns, () => reviewTotals(decisions(sources)), {
    about: 'per review worksheet: its decisions, kept, revoked, removed and still present',
  });
}
