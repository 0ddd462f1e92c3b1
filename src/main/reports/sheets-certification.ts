/**
 * The certification sheets: one row per reviewed item (certify task) with its reviewers, decision,
 * date and remediation, and one row per campaign summing them up. Both read one Certification
 * (./certification.ts), loaded when the first of them is written.
 */
import { readCertification, type CampaignSummary, type Certification, type CertificationItem } from './certification';
import { col, dateColumns, isoDate, type ReportColumn, type ReportParams, type ReportSheet, type ReportSources } from './columns';
import { sheet } from './columns';

/** One Certification per export: both sheets share it (read while no rows stream). */
const loaded = new WeakMap<ReportSources, Certification>();

function certificationOf(sources: ReportSources, params: ReportParams): Certification {
  let found = loaded.get(sources);
  if (!found) loaded.set(sources, (found = readCertification(sources.store, { asOfRun: params.asOfRun, campaignId: params.campaign })));
  return found;
}

const DECISION_WORDS: Record<CertificationItem['decision'], string> = {
  certified: 'Certified',
  revoked: 'Revoked',
  outstanding: 'Outstanding',
  other: 'Other',
};

export function certificationSheet(sources: ReportSources, params: ReportParams): ReportSheet {
  const columns: ReportColumn<CertificationItem>[] = [
    col('Campaign ID', 'text', (i) => i.campaignId, { source: 'task.type.certify.accessReviewId' }),
    col('Campaign', 'text', (i) => i.campaign, { width: 30, about: "the campaign's name (campaigns)" }),
    col('Task ID', 'text', (i) => i.taskId, { source: 'task.id', about: 'the certify task of this item' }),
    col('Task number', 'text', (i) => i.taskNumber, { source: 'task.numericId' }),
    col('Subject', 'text', (i) => i.subject, { width: 24, about: 'the name of the app user reviewed (app users)' }),
    col('Subject email', 'text', (i) => i.subjectEmail, { width: 30, about: "the reviewed app user's email (app users)" }),
    col('App user ID', 'text', (i) => i.appUserId, { source: 'task.type.certify.appUserId' }),
    col('App', 'text', (i) => i.app, { width: 24, about: "the app's name (apps)" }),
    col('Entitlement', 'text', (i) => i.entitlement, { width: 30, about: "the entitlement's name (entitlements)" }),
    col('Entitlement ID', 'text', (i) => i.entitlementId, { source: 'task.type.certify.appEntitlementId' }),
    col('Reviewers', 'text', (i) => (i.reviewers.length ? i.reviewers.join(', ') : null), {
      width: 30,
      source: 'task.stepApproverIds, else task.approverIds',
      about: 'who the review is assigned to (named where the store holds the users, else their ids)',
    }),
    col('Decided by', 'text', (i) => i.decidedBy, {
      width: 24,
      source: 'task.policy.*.approval.approved.userId, approval.denied.userId',
      about: 'who approved or denied the review step, where the task records it',
    }),
    col('Decision', 'enum', (i) => DECISION_WORDS[i.decision], {
      source: 'task.type.certify.outcome',
      about: 'Certified (access kept), Revoked (decertified), Outstanding (no decision yet), or Other (see Outcome)',
    }),
    col('Outcome', 'enum', (i) => i.outcomeLabel, {
      source: 'task.type.certify.outcome',
      about: 'the outcome as the API names it, in words',
    }),
    ...dateColumns<CertificationItem>('Decided at', (i) => i.decidedAt, 'task.type.certify.outcomeTime'),
    col('Comments', 'int', (i) => i.comments, {
      source: 'task.commentCount',
      about: 'how many comments the task holds (the API gives their number, not their text)',
    }),
    col('State', 'enum', (i) => i.stateLabel, { source: 'task.state', about: "the certify task's state" }),
    col('Revoke task ID', 'text', (i) => i.revokeTaskId, {
      source: 'task.type.revoke.source.review.certTicketId, else the first revoke of that access created since the review began',
      about: 'for a revoke decision: the revoke task that removes the access',
    }),
    col('Revoke task state', 'enum', (i) => i.revokeTaskState, { about: "the revoke task's state" }),
    col('Access gone', 'bool', (i) => i.accessGone, {
      about: 'for a revoke decision: true when the synced memberships no longer hold that access, false when they still do',
    }),
  ];
  return sheet('Certification', columns, () => certificationOf(sources, params).items, {
    about:
      'one row per reviewed item (certify task): subject, app, entitlement, reviewers, decision and when, and for a revoke its remediation',
  });
}

export function certificationSummarySheet(sources: ReportSources, params: ReportParams): ReportSheet {
  const columns: ReportColumn<CampaignSummary>[] = [
    col('Campaign ID', 'text', (c) => c.campaignId, { source: 'accessReview.id' }),
    col('Campaign', 'text', (c) => c.campaign, 30),
    col('State', 'enum', (c) => c.state, { source: 'accessReview.state' }),
    col('Due (UTC)', 'date', (c) => isoDate(c.due), { source: 'accessReview.completionDate', about: 'when the campaign is due, in UTC' }),
    col('Population', 'int', (c) => c.population, { about: 'the reviewed items (certify tasks) of the campaign' }),
    col('Decided', 'int', (c) => c.decided),
    col('Certified', 'int', (c) => c.certified),
    col('Revoked', 'int', (c) => c.revoked),
    col('Outstanding', 'int', (c) => c.outstanding, { about: 'items without a decision' }),
    col('Overdue', 'int', (c) => c.overdue, {
      about: 'outstanding items of a campaign whose due date had passed when the data was synced',
    }),
    col('Revokes with a task', 'int', (c) => c.revokesWithTask, { about: 'revoke decisions for which a revoke task exists' }),
    col('Revokes done', 'int', (c) => c.revokesGone, { about: 'revoke decisions whose access is gone from the synced memberships' }),
  ];
  return sheet('Certification summary', columns, () => certificationOf(sources, params).campaigns, {
    about:
      'one row per campaign: its population and how many items are decided, certified, revoked, outstanding and overdue; remediation counts',
  });
}
