/** Access review templates. */
import type { AccessReviewTemplate } from '../../shared/api-types';
import {
  ACCESS_REVIEW_SCOPE_TYPE_VALUES,
  ACCESS_REVIEW_VIEW_TYPE_VALUES,
  ACCURACY_ISSUE_ACTION_VALUES,
  CLOSE_DECISION_VALUES,
  FREQUENCY_VALUES,
} from '../../shared/enums';
import { DATASET_NOW, DAY, iso, isFuture, known, riskScoreV3, seconds, type BuildContext } from './context';
import { columns, scopeSelector } from './scope-selectors';

const TEMPLATE_NAMES = [
  'Quarterly SOX review',
  'Privileged access review',
  'Contractor access review',
  'New joiner 30-day review',
  'Dormant account sweep',
  'Production access attestation',
  'Finance systems review',
  'Customer data access review',
];

/**
 * `count` templates. `unreferenced`: templates no campaign or automation will name (built after
 * them, from a stream of their own, so the rest of the data stays as it was): a client can only
 * reach them by id.
 */
export function templates(ctx: BuildContext, count: number, unreferenced = false): void {
  const r = ctx.stream(unreferenced ? 'unreferenced-templates' : 'templates');
  const first = ctx.data.templates.size;
  for (let i = first; i < first + count; i += 1) {
    // Named in their own series; the index of the whole collection decides the rest (isFuture).
    const n = i - first;
    const base = (unreferenced ? 'Unscheduled ' : '') + (TEMPLATE_NAMES[n % TEMPLATE_NAMES.length] as string);
    const round = Math.floor(n / TEMPLATE_NAMES.length);
    const createdAt = ctx.past(r, 700, 60);
    const scheduled = r.chance(0.5);
    const t: AccessReviewTemplate & Record<string, unknown> = {
      id: r.id(),
      displayName: round === 0 ? base : `${base} (${round + 1})`,
      description: `${base}: recurring certification of who has access to what`,
      reviewInstructions: 'Revoke anything the person no longer needs. When in doubt, revoke.',
      accessReviewDuration: seconds(r.pick([14, 21, 30]) * 86400),
      annotations: { owner: 'grc-team', framework: r.pick(['SOX', 'SOC2', 'ISO27001', 'HIPAA']) },
      autoCloseCampaign: r.chance(0.5),
      autoGenerateReport: r.chance(0.7),
      autoStartCampaign: r.chance(0.4),
      exemptCertifiedAccessConflicts: r.chance(0.2),
      isCampaignScheduleEnabled: scheduled,
      usePolicyOverride: r.chance(0.3),
      columnConfig: { columns: columns(ctx, r) },
      inclusionScope: {
        appUserStatuses: ['APP_USER_STATUS_ENABLED'],
        appUserTypes: ['APP_USER_TYPE_USER', 'APP_USER_TYPE_SERVICE_ACCOUNT'],
        managerIds: [],
        multiUserProfileAttributes: {},
        noAccountOwners: false,
        userIds: [],
        userStatuses: ['USER_ENABLED'],
      },
      nextScheduledCampaignAt: scheduled ? iso(DATASET_NOW + r.range(1, 90) * DAY) : null,
      notificationConfig: { sendClose: r.chance(0.8), sendKickoff: true, sendReminders: r.chance(0.8) },
      occurrences: scheduled ? r.range(1, 12) : 0,
      policyId: r.pick(ctx.policyIds),
      recurrenceRule: scheduled
        ? {
            startDate: createdAt,
            endDate: null,
            interval: r.pick([1, 3, 6]),
            occurrences: null,
            frequency: r.pick(known(FREQUENCY_VALUES)),
          }
        : null,
      reviewerAttributeConfig: { bindings: [{ appId: ctx.app(r).id, attributeKey: 'manager' }] },
      scope: scopeSelector(ctx, r, i),
      signatureConfig: {
        meaningOfSignature: 'I attest this access is appropriate',
        requireSignature: r.chance(0.3),
        stepUpProviderId: '',
        tspUrl: '',
      },
      chatChannel: {
        channelId: `C0${r.range(10000000, 99999999)}`,
        description: 'Review notifications',
        name: 'access-reviews',
        isChannelId: true,
      },
      accuracyIssueAction: r.pick(known(ACCURACY_ISSUE_ACTION_VALUES)),
      autoCloseDecision: r.pick(known(CLOSE_DECISION_VALUES)),
      defaultView: r.pick(known(ACCESS_REVIEW_VIEW_TYPE_VALUES)),
      scopeType: r.pick(known(ACCESS_REVIEW_SCOPE_TYPE_VALUES)),
      createdAt,
      updatedAt: ctx.after(r, createdAt, 50),
      deletedAt: null,
    };
    if (isFuture(i)) {
      t.defaultView = 'ACCESS_REVIEW_VIEW_TYPE_BY_RISK';
      t.riskScoreV3 = riskScoreV3(r);
    }
    ctx.data.templates.set(t.id as string, t);
    if (!unreferenced) ctx.templateIds.push(t.id as string);
  }
}
