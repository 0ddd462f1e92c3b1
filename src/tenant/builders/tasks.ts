/** Tasks: grants, revokes, certifications and offboardings, open and closed. */
import type { Task, TaskTypeDetails } from '../../shared/api-types';
import { INSIGHT_RECOMMENDATION_VALUES, TASK_ORIGIN_VALUES } from '../../shared/enums';
import type { Random } from '../random';
import { isFuture, known, riskScoreV3, seconds, type BuildContext } from './context';
import { form } from './task-forms';
import { policy } from './task-policies';

export type RevokeTarget = { appId: string; appEntitlementId: string; appUserId: string };

/** A task's own fields; `type` decides the rest. */
export function task(
  ctx: BuildContext,
  r: Random,
  init: {
    id: string;
    numericId: string;
    type: TaskTypeDetails;
    kind: 'grant' | 'revoke' | 'other';
    open: boolean;
    createdAt: string;
    target: { appId: string; appEntitlementId: string; appUserId: string };
    title: string;
  },
): Task {
  const updatedAt = ctx.after(r, init.createdAt, 10);
  const approvers = ctx.users(r, 1, 3);
  return {
    id: init.id,
    numericId: init.numericId,
    displayName: init.title,
    description: '',
    analysisId: '',
    createdByUserId: ctx.user(r),
    actions: init.open
      ? [
          'TASK_ACTION_TYPE_CLOSE',
          'TASK_ACTION_TYPE_COMMENT',
          'TASK_ACTION_TYPE_REASSIGN',
          ...(init.kind === 'grant'
            ? (['TASK_ACTION_TYPE_APPROVE', 'TASK_ACTION_TYPE_DENY', 'TASK_ACTION_TYPE_ESCALATE_TO_EMERGENCY_ACCESS'] as const)
            : []),
        ]
      : [],
    annotations: [],
    approverIds: approvers,
    insightIds: [],
    commentCount: r.int(4),
    createdAt: init.createdAt,
    deletedAt: null,
    data: {},
    emergencyAccess: false,
    externalRefs: r.chance(0.2)
      ? [{ externalRefSource: 'JIRA', name: `IT-${r.range(100, 9999)}`, url: 'https://jira.example.com/browse/IT' }]
      : [],
    origin: init.kind === 'revoke' ? 'TASK_ORIGIN_API' : r.pick(known(TASK_ORIGIN_VALUES)),
    form: init.kind === 'grant' && r.chance(0.3) ? form(ctx, r) : null,
    policy: policy(ctx, r, init.kind, init.open, init.target, updatedAt),
    policyGenerationId: '1',
    processing: init.open ? 'TASK_PROCESSING_TYPE_WAITING' : 'TASK_PROCESSING_TYPE_DONE',
    recommendation: r.pick(known(INSIGHT_RECOMMENDATION_VALUES)),
    revocationTargets: [],
    state: init.open ? 'TASK_STATE_OPEN' : 'TASK_STATE_CLOSED',
    stepApproverIds: init.open ? approvers : [],
    type: init.type,
    updatedAt,
    userId: ctx.user(r),
  };
}

/** The revoke task a removal from an access profile creates. */
export function revokeTask(ctx: BuildContext, target: RevokeTarget, requestedBy: string): Task {
  const r = ctx.stream(`revoke:${target.appEntitlementId}:${target.appUserId}:${ctx.data.tasks.size}`);
  const entitlement = ctx.data.entitlements.get(target.appEntitlementId);
  const user = ctx.data.appUsers.get(target.appUserId);
  return task(ctx, r, {
    id: ctx.data.newId(),
    numericId: ctx.data.newNumericId(),
    kind: 'revoke',
    open: true,
    createdAt: new Date().toISOString(),
    target,
    title: `Revoke ${entitlement?.displayName ?? target.appEntitlementId} from ${user?.displayName ?? target.appUserId}`,
    type: {
      revoke: {
        ...target,
        identityUserId: user?.identityUserId ?? '',
        outcome: 'REVOKE_OUTCOME_UNSPECIFIED',
        outcomeTime: null,
        resource: null,
        source: { request: { requestUserId: requestedBy } },
      },
    },
  });
}

export function tasks(ctx: BuildContext, count: number): void {
  const r = ctx.stream('tasks');
  const users = [...ctx.data.appUsers.values()];
  const campaigns = [...ctx.data.campaigns.keys()];
  const grantable = ctx.entitlementList.filter((e) => e.kind !== 'scope');
  for (let i = 0; i < count; i += 1) {
    const e = r.pick(grantable);
    const u = r.pick(users);
    const target = { appId: e.appId, appEntitlementId: e.id, appUserId: u.id };
    // Task 0 is an open grant task and task 1 a closed revoke: every scale has something to escalate and something not to.
    const roll = i === 0 ? 0 : i === 1 ? 0.6 : r.float();
    const kind = roll < 0.5 ? 'grant' : roll < 0.7 ? 'revoke' : 'other';
    const open = i === 0 ? true : i === 1 ? false : r.chance(0.6);
    const outcomeTime = open ? null : ctx.past(r, 30);
    let type: TaskTypeDetails;
    let title: string;
    if (kind === 'grant') {
      type = {
        grant: {
          ...target,
          identityUserId: u.identityUserId,
          grantDuration: seconds(7 * 86400),
          outcome: open ? 'GRANT_OUTCOME_UNSPECIFIED' : 'GRANT_OUTCOME_GRANTED',
          outcomeTime,
          source: null,
        },
      };
      title = `Grant ${e.displayName} to ${u.displayName}`;
    } else if (kind === 'revoke') {
      type = {
        revoke: {
          ...target,
          identityUserId: u.identityUserId,
          outcome: open ? 'REVOKE_OUTCOME_UNSPECIFIED' : 'REVOKE_OUTCOME_REVOKED',
          outcomeTime,
          resource: null,
          source: null,
        },
      };
      title = `Revoke ${e.displayName} from ${u.displayName}`;
    } else if (r.chance(0.6) && campaigns.length > 0) {
      type = {
        certify: {
          ...target,
          accessReviewId: r.pick(campaigns),
          accessReviewSelection: '',
          identityUserId: u.identityUserId,
          outcome: open ? 'CERTIFY_OUTCOME_UNSPECIFIED' : 'CERTIFY_OUTCOME_CERTIFIED',
          outcomeTime,
          resource: null,
        },
      };
      title = `Review ${e.displayName} of ${u.displayName}`;
    } else {
      type = {
        offboarding: {
          outcome: open ? 'OFFBOARDING_OUTCOME_UNSPECIFIED' : 'OFFBOARDING_OUTCOME_DONE',
          outcomeTime,
          subjectUserId: u.identityUserId,
        },
      };
      title = `Offboard ${u.displayName}`;
    }
    const t = task(ctx, r, {
      id: r.id(),
      numericId: ctx.data.newNumericId(),
      type,
      kind,
      open,
      createdAt: ctx.past(r, 120, 1),
      target,
      title,
    });
    if (kind === 'grant' && !open && r.chance(0.1)) t.emergencyAccess = true;
    if (isFuture(i)) {
      t.origin = 'TASK_ORIGIN_AGENT';
      (t as Record<string, unknown>).riskScoreV3 = riskScoreV3(r);
    }
    ctx.data.tasks.set(t.id as string, t);
  }
}
