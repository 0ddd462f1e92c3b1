/**
 * The decisions of access reviews, read from the store: one item per certify task (who was
 * reviewed for what, by whom, the decision and when), a summary per campaign, and for each revoke
 * decision its remediation: the revoke task it created and whether the access is gone in the
 * synced data. The certification report's sheets and a campaign's page in the app both show these.
 */
import { COLLECTIONS, getPath, isRecord, str, type CollectionId } from '../collections';
import type { StoredObject } from '../store/types';
import { enumText } from './cells';
import type { ReportStore } from './columns';
import { InvalidInputError } from './errors';

export type Decision = 'certified' | 'revoked' | 'outstanding' | 'other';

export interface CertificationItem {
  campaignId: string;
  campaign: string | null;
  taskId: string;
  taskNumber: string | null;
  /** The app user reviewed. */
  appUserId: string | null;
  subject: string | null;
  subjectEmail: string | null;
  appId: string | null;
  app: string | null;
  entitlementId: string | null;
  entitlement: string | null;
  /** Who the review was assigned to, named where the store knows them. */
  reviewers: string[];
  /** Who made the decision (the approval step's approver or denier), where the task says. */
  decidedBy: string | null;
  decision: Decision;
  /** The outcome as the API wrote it (`CERTIFY_OUTCOME_CERTIFIED`), and in words. */
  outcome: string | null;
  outcomeLabel: string | null;
  /** ISO time of the decision. */
  decidedAt: string | null;
  /** The API gives the number of comments on a task, not their text. */
  comments: number | null;
  state: string | null;
  stateLabel: string | null;
  /** Remediation of a revoke decision: the revoke task, its state, and whether the access is gone. */
  revokeTaskId: string | null;
  revokeTaskState: string | null;
  accessGone: boolean | null;
}

export interface CampaignSummary {
  campaignId: string;
  campaign: string | null;
  state: string | null;
  due: string | null;
  population: number;
  decided: number;
  certified: number;
  revoked: number;
  outstanding: number;
  /** Outstanding items of a campaign whose due date had passed when the data was synced. */
  overdue: number;
  /** Revoke decisions with a revoke task, and those whose access is gone from the synced memberships. */
  revokesWithTask: number;
  revokesGone: number;
}

export interface Certification {
  items: CertificationItem[];
  campaigns: CampaignSummary[];
  /** When the data read was synced (overdue is judged against it). */
  asOf: string | null;
}

const OUTCOME = {
  CERTIFY_OUTCOME_CERTIFIED: 'certified',
  CERTIFY_OUTCOME_DECERTIFIED: 'revoked',
  CERTIFY_OUTCOME_UNSPECIFIED: 'outstanding',
} as const satisfies Record<string, Decision>;

const decisionOf = (outcome: string | null): Decision =>
  outcome === null || outcome === '' ? 'outstanding' : ((OUTCOME as Record<string, Decision>)[outcome] ?? 'other');

const task = (o: StoredObject): unknown => getPath(o.json, 'task');
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x !== '') : []);
const accessKey = (entitlementId: unknown, appUserId: unknown): string => `${str(entitlementId)}\u0000${str(appUserId)}`;

/** The identity users' collection, where this version syncs one (names and emails for user ids). */
const USERS = COLLECTIONS.find((c) => (c.id as string) === 'users')?.id as CollectionId | undefined;

/**
 * Names an identity user id: the name the store holds for it where it syncs the users, else the id
 * itself. Read once per report or page (the same snapshot as the rows).
 */
export function userNamer(store: ReportStore, asOfRun?: number): (id: string) => string {
  if (!USERS) return (id) => id;
  const names = new Map<string, string>();
  for (const o of store.iterateObjects(USERS, { asOfRun })) if (o.title) names.set(o.id, o.title);
  return (id) => names.get(id) ?? id;
}

/** The user who approved or denied the task's last decided approval step (history, then the current step). */
function decider(t: unknown): string | null {
  const steps = [...(Array.isArray(getPath(t, 'policy.history')) ? (getPath(t, 'policy.history') as unknown[]) : [])];
  steps.push(getPath(t, 'policy.current'));
  let found: string | null = null;
  for (const step of steps) {
    const approval = getPath(step, 'approval');
    if (!isRecord(approval)) continue;
    const by = str(getPath(approval, 'approved.userId')) || str(getPath(approval, 'denied.userId'));
    if (by) found = by;
  }
  return found;
}

/** When the data read was synced: the run read as of, else the last completed run. */
function dataAsOf(store: ReportStore, asOfRun?: number): string | null {
  const completed = store.runs().filter((r) => r.status === 'completed');
  const run = asOfRun !== undefined ? completed.find((r) => r.id === asOfRun) : completed.sort((a, b) => a.id - b.id).at(-1);
  return run ? (run.finishedAt ?? run.startedAt) : null;
}

/**
 * The certify tasks of every campaign (or of one), with their names, decisions and remediation.
 * A campaign named that the store knows nothing of is an error.
 */
export function readCertification(store: ReportStore, opts: { asOfRun?: number; campaignId?: string } = {}): Certification {
  const { asOfRun, campaignId } = opts;
  const name = userNamer(store, asOfRun);
  const campaigns = new Map<string, { name: string | null; state: string | null; due: string | null }>();
  for (const o of store.iterateObjects('campaigns', { asOfRun })) {
    campaigns.set(o.id, {
      name: o.title || null,
      state: str(getPath(o.json, 'accessReview.state')) || null,
      due: str(getPath(o.json, 'accessReview.completionDate')) || null,
    });
  }
  const certify: StoredObject[] = [];
  // Revoke tasks by the certify task that created them, and by the access they remove.
  const revokeByCertTask = new Map<string, StoredObject>();
  const revokesByAccess = new Map<string, StoredObject[]>();
  for (const o of store.iterateObjects('tasks', { asOfRun })) {
    const type = getPath(task(o), 'type');
    const c = getPath(type, 'certify');
    if (isRecord(c) && (!campaignId || str(c.accessReviewId) === campaignId)) certify.push(o);
    const r = getPath(type, 'revoke');
    if (isRecord(r)) {
      const from = str(getPath(r, 'source.review.certTicketId'));
      if (from) revokeByCertTask.set(from, o);
      const key = accessKey(r.appEntitlementId, r.appUserId);
      const known = revokesByAccess.get(key);
      if (known) known.push(o);
      else revokesByAccess.set(key, [o]);
    }
  }
  if (campaignId && !campaigns.has(campaignId) && certify.length === 0)
    throw new InvalidInputError(`no campaign '${campaignId}' in the synced data: \`attest list campaigns\` lists them`);

  const apps = titles(store, 'apps', asOfRun);
  const entitlements = titles(store, 'entitlements', asOfRun);
  const appUsers = new Map<string, { name: string | null; email: string | null }>();
  for (const o of store.iterateObjects('app-users', { asOfRun }))
    appUsers.set(o.id, { name: o.title || null, email: str(o.columns.email) || null });

  const items: CertificationItem[] = certify.map((o) => {
    const t = task(o);
    const c = getPath(t, 'type.certify');
    const outcome = str(getPath(c, 'outcome')) || null;
    const appUserId = str(getPath(c, 'appUserId')) || null;
    const entitlementId = str(getPath(c, 'appEntitlementId')) || null;
    const appId = str(getPath(c, 'appId')) || null;
    const decision = decisionOf(outcome);
    const revoke =
      decision === 'revoked'
        ? (revokeByCertTask.get(o.id) ??
          revokeAfter(revokesByAccess.get(accessKey(entitlementId, appUserId)), str(getPath(t, 'createdAt'))))
        : undefined;
    const assigned = strings(getPath(t, 'stepApproverIds'));
    const reviewers = assigned.length ? assigned : strings(getPath(t, 'approverIds'));
    const by = decider(t);
    const reviewed = str(getPath(c, 'accessReviewId'));
    const state = str(getPath(t, 'state')) || null;
    const comments = Number(getPath(t, 'commentCount'));
    return {
      campaignId: reviewed,
      campaign: campaigns.get(reviewed)?.name ?? null,
      taskId: o.id,
      taskNumber: str(getPath(t, 'numericId')) || null,
      appUserId,
      subject: appUsers.get(appUserId ?? '')?.name ?? null,
      subjectEmail: appUsers.get(appUserId ?? '')?.email ?? null,
      appId,
      app: apps.get(appId ?? '') ?? null,
      entitlementId,
      entitlement: entitlements.get(entitlementId ?? '') ?? null,
      reviewers: reviewers.map(name),
      decidedBy: by ? name(by) : null,
      decision,
      outcome,
      outcomeLabel: enumText(outcome, 'CertifyOutcome'),
      decidedAt: decision === 'outstanding' ? null : str(getPath(c, 'outcomeTime')) || null,
      comments: Number.isFinite(comments) ? comments : null,
      state,
      stateLabel: enumText(state, 'TaskState'),
      revokeTaskId: revoke?.id ?? null,
      revokeTaskState: revoke ? enumText(str(getPath(task(revoke), 'state')), 'TaskState') : null,
      accessGone: null,
    };
  });

  // Whether each revoked access is still held: one pass over the memberships, looking up only the revoked ones.
  const revoked = new Map(items.filter((i) => i.decision === 'revoked').map((i) => [accessKey(i.entitlementId, i.appUserId), i]));
  if (revoked.size > 0) {
    const held = new Set<string>();
    for (const m of store.iterateObjects('memberships', { asOfRun })) {
      const key = accessKey(m.columns.appEntitlementId, m.columns.appUserId);
      if (revoked.has(key)) held.add(key);
    }
    for (const i of items) if (i.decision === 'revoked') i.accessGone = !held.has(accessKey(i.entitlementId, i.appUserId));
  }

  const compare = (a: string | null, b: string | null): number => (a ?? '\uffff').localeCompare(b ?? '\uffff');
  items.sort(
    (a, b) =>
      compare(a.campaign, b.campaign) ||
      compare(a.campaignId, b.campaignId) ||
      compare(a.subject, b.subject) ||
      compare(a.entitlement, b.entitlement) ||
      compare(a.taskId, b.taskId),
  );
  const asOf = dataAsOf(store, asOfRun);
  return { items, campaigns: summaries(items, campaigns, campaignId, asOf), asOf };
}

/** The first revoke of an access created once its review had begun (an earlier one is not its remediation). */
function revokeAfter(revokes: readonly StoredObject[] | undefined, since: string): StoredObject | undefined {
  const createdAt = (o: StoredObject): number => Date.parse(str(getPath(task(o), 'createdAt')));
  const from = Date.parse(since);
  return (revokes ?? []).filter((o) => !Number.isFinite(from) || createdAt(o) >= from).sort((a, b) => createdAt(a) - createdAt(b))[0];
}

function titles(store: ReportStore, collection: CollectionId, asOfRun?: number): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const o of store.iterateObjects(collection, { asOfRun })) out.set(o.id, o.title || null);
  return out;
}

/** Per campaign (every one in scope, with or without items): its population, decisions and remediation. */
function summaries(
  items: readonly CertificationItem[],
  campaigns: ReadonlyMap<string, { name: string | null; state: string | null; due: string | null }>,
  only: string | undefined,
  asOf: string | null,
): CampaignSummary[] {
  const ids = new Set([...(only ? [only] : campaigns.keys()), ...items.map((i) => i.campaignId)]);
  return [...ids]
    .map((id) => {
      const of = items.filter((i) => i.campaignId === id);
      const c = campaigns.get(id);
      const count = (test: (i: CertificationItem) => boolean): number => of.filter(test).length;
      const outstanding = count((i) => i.decision === 'outstanding');
      const overdue = c?.due && asOf && Date.parse(c.due) < Date.parse(asOf) ? outstanding : 0;
      return {
        campaignId: id,
        campaign: c?.name ?? null,
        state: enumText(c?.state ?? null, 'AccessReviewState'),
        due: c?.due ?? null,
        population: of.length,
        decided: of.length - outstanding,
        certified: count((i) => i.decision === 'certified'),
        revoked: count((i) => i.decision === 'revoked'),
        outstanding,
        overdue,
        revokesWithTask: count((i) => i.decision === 'revoked' && i.revokeTaskId !== null),
        revokesGone: count((i) => i.decision === 'revoked' && i.accessGone === true),
      };
    })
    .sort((a, b) => (a.campaign ?? '\uffff').localeCompare(b.campaign ?? '\uffff') || a.campaignId.localeCompare(b.campaignId));
}
