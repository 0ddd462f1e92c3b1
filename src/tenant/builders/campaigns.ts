/** Access review campaigns. */
import type { AccessReview } from '../../shared/api-types';
import { ACCESS_REVIEW_STATE_VALUES } from '../../shared/enums';
import type { Random } from '../random';
import { DAY, iso, isFuture, known, riskScoreV3, type BuildContext } from './context';
import { columns, scopeSelector } from './scope-selectors';

/** A campaign's own fields (shared by generation, create and duplicate). */
export function campaign(ctx: BuildContext, r: Random, init: Partial<AccessReview> & { id: string; createdAt: string }): AccessReview {
  const app = ctx.app(r);
  const multi = r.chance(0.3);
  return {
    accessReviewTemplateId: '',
    createdById: ctx.user(r),
    policyId: r.pick(ctx.policyIds),
    scopingVersion: '2',
    displayName: 'Access review',
    description: '',
    reviewInstructions: 'Certify or revoke each grant.',
    state: 'ACCESS_REVIEW_STATE_DRAFT',
    errorState: 'ACCESS_REVIEW_ERROR_STATE_UNSPECIFIED',
    accuracyIssueAction: 'ACCURACY_ISSUE_ACTION_CONTINUE',
    autoCloseDecision: 'CLOSE_DECISION_NO_ACTION',
    defaultView: 'ACCESS_REVIEW_VIEW_TYPE_BY_USER',
    scopeType: 'ACCESS_REVIEW_SCOPE_TYPE_BY_ENTITLEMENTS',
    autoCloseCampaign: false,
    autoGenerateReport: true,
    autoResolve: r.chance(0.2),
    autoStartCampaign: false,
    exemptCertifiedAccessConflicts: false,
    hasAccuracySupport: r.chance(0.5),
    usePolicyOverride: false,
    bindings: {},
    campaignHealth: { checkedAt: init.createdAt, phantomLockedCount: 0 },
    campaignInsights: { markdown: '' },
    columnConfig: { columns: columns(ctx, r) },
    closedAt: null,
    completionDate: iso(Date.parse(init.createdAt) + 30 * DAY),
    connectorSourcesFrozenAt: null,
    scheduledStartDate: null,
    startedAt: null,
    updatedAt: init.createdAt,
    exclusionScope: { appUserStatuses: ['APP_USER_STATUS_DELETED'], appUserTypes: [] },
    inclusionScope: {
      appUserStatuses: ['APP_USER_STATUS_ENABLED'],
      appUserTypes: ['APP_USER_TYPE_USER'],
      managerIds: [],
      multiUserProfileAttributes: {},
      noAccountOwners: false,
      userIds: [],
      userStatuses: [],
    },
    expectedTicketCount: 0,
    multiApp: multi
      ? { appEntitlementDetails: {}, appEntitlements: { [app.id]: { appId: app.id, entitlementIds: [ctx.entitlementRef(r).id] } } }
      : null,
    singleApp: multi ? null : { appId: app.id },
    notificationConfig: { sendClose: true, sendKickoff: true, sendReminders: true },
    reviewerAttributeConfig: { bindings: [] },
    signatureConfig: { meaningOfSignature: '', requireSignature: false, stepUpProviderId: '', tspUrl: '' },
    scope: { appUserStatuses: ['APP_USER_STATUS_ENABLED'], appUserTypes: ['APP_USER_TYPE_USER'] },
    scopeV2: scopeSelector(ctx, r, r.int(6)),
    ...init,
  };
}

export function campaigns(ctx: BuildContext, count: number): void {
  const r = ctx.stream('campaigns');
  const templates = [...ctx.data.templates.values()];
  const states = known(ACCESS_REVIEW_STATE_VALUES);
  for (let i = 0; i < count; i += 1) {
    const template = r.chance(0.85) ? r.pick(templates) : undefined;
    const createdAt = ctx.past(r, 400, 1);
    const state =
      i < 4
        ? (['ACCESS_REVIEW_STATE_OPEN', 'ACCESS_REVIEW_STATE_CLOSED', 'ACCESS_REVIEW_STATE_DRAFT', 'ACCESS_REVIEW_STATE_REVIEW'] as const)[
            i
          ]
        : r.chance(0.6)
          ? 'ACCESS_REVIEW_STATE_OPEN'
          : r.pick(states);
    const started = state !== 'ACCESS_REVIEW_STATE_DRAFT' && state !== 'ACCESS_REVIEW_STATE_PENDING';
    const startedAt = started ? ctx.after(r, createdAt, 5) : null;
    const closed = state === 'ACCESS_REVIEW_STATE_CLOSED';
    const quarter = `Q${1 + Math.floor(new Date(createdAt).getUTCMonth() / 3)} ${new Date(createdAt).getUTCFullYear()}`;
    const c = campaign(ctx, r, {
      id: r.id(),
      createdAt,
      accessReviewTemplateId: template?.id ?? '',
      displayName: `${template?.displayName ?? 'Ad-hoc access review'} ${quarter}`,
      description: template?.description ?? 'One-off review requested by the security team',
      state,
      startedAt,
      closedAt: closed && startedAt ? ctx.after(r, startedAt, 30) : null,
      expectedTicketCount: r.range(10, 2000),
      campaignInsights: { markdown: `**${r.range(1, 40)}%** of grants were not used in 90 days.` },
      updatedAt: ctx.after(r, createdAt, 20),
    });
    if (isFuture(i)) {
      c.state = 'ACCESS_REVIEW_STATE_ARCHIVED';
      (c as Record<string, unknown>).riskScoreV3 = riskScoreV3(r);
      (c as Record<string, unknown>).aiSummaryV2 = { headline: 'Mostly stale contractor access', confidence: 0.82 };
    }
    ctx.data.campaigns.set(c.id as string, c);
  }
}
