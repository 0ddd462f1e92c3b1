/** Task policies: the current step instance and the history of done ones. */
import type { PolicyStepInstance, TaskPolicy } from '../../shared/api-types';
import type { Random } from '../random';
import { seconds, type BuildContext } from './context';
import { form } from './task-forms';

export function approvalStep(ctx: BuildContext, r: Random, active: boolean, at: string): PolicyStepInstance {
  return {
    id: r.id(),
    policyGenerationId: '1',
    state: active ? 'POLICY_STEP_STATE_ACTIVE' : 'POLICY_STEP_STATE_DONE',
    approval: {
      approval: {
        allowDelegation: true,
        allowReassignment: true,
        allowedReassignees: [],
        requireApprovalReason: false,
        requireDenialReason: true,
        requireReassignmentReason: false,
        requiresStepUpProviderId: '',
        escalationEnabled: true,
        escalation: {
          expiration: '86400',
          escalationComment: 'Escalated after a day',
          reassignToApprovers: { approverIds: ctx.users(r, 1, 2) },
        },
        assigned: true,
        users: { allowSelfApproval: false, requireDistinctApprovers: false, userIds: ctx.users(r, 1, 3) },
      },
      state: active ? 'APPROVAL_INSTANCE_STATE_WAITING' : 'APPROVAL_INSTANCE_STATE_DONE',
      assignedAt: at,
      approved: active ? null : { approvedAt: at, entitlements: [], stepUpTransactionId: '', userId: ctx.user(r) },
      escalationInstance: null,
    },
  };
}

/** A task's policy: history of done steps and the current one. */
export function policy(
  ctx: BuildContext,
  r: Random,
  kind: 'grant' | 'revoke' | 'other',
  open: boolean,
  target: { appId: string; appEntitlementId: string; appUserId: string },
  at: string,
): TaskPolicy {
  const provision: PolicyStepInstance = {
    id: r.id(),
    policyGenerationId: '1',
    state: open ? 'POLICY_STEP_STATE_ACTIVE' : 'POLICY_STEP_STATE_DONE',
    provision: {
      state: open ? 'PROVISION_INSTANCE_STATE_WAITING' : 'PROVISION_INSTANCE_STATE_DONE',
      provision: {
        assigned: true,
        provisionPolicy: r.chance(0.5)
          ? { manual: { instructions: 'Make the change in the admin console', userIds: ctx.users(r, 1, 2) } }
          : { connector: { defaultBehavior: { connectorId: r.id() } } },
        provisionTarget: { ...target, grantDuration: kind === 'grant' ? seconds(7 * 86400) : null },
      },
      completed: open
        ? null
        : { completedAt: at, entitlements: [{ appEntitlementId: target.appEntitlementId, appId: target.appId }], userId: ctx.user(r) },
      externalTicketId: '',
      externalTicketProvisionerConfigId: '',
      notificationId: '',
      workerActionInvocationId: '',
      webhookId: '',
      webhookInstanceId: '',
    },
  };
  if (kind === 'grant') {
    const history: PolicyStepInstance[] = [];
    if (r.chance(0.3))
      history.push({
        id: r.id(),
        policyGenerationId: '1',
        state: 'POLICY_STEP_STATE_DONE',
        form: {
          form: form(ctx, r),
          data: { justification: 'Need it for the migration project' },
          state: 'FORM_INSTANCE_STATE_DONE',
          completed: { completedAt: at, userId: ctx.user(r) },
        },
      });
    if (r.chance(0.2)) {
      history.push({
        id: r.id(),
        policyGenerationId: '1',
        state: 'POLICY_STEP_STATE_DONE',
        wait: {
          name: 'Wait for training',
          state: 'WAIT_INSTANCE_STATE_COMPLETED',
          condition: { condition: 'subject.training.completed' },
          commentOnFirstWait: 'Waiting for security training',
          commentOnTimeout: '',
          startedWaitingAt: at,
          timeout: null,
          timeoutDuration: seconds(3 * 86400),
          succeeded: { succeededAt: at },
        },
      });
    }
    if (open) return { current: approvalStep(ctx, r, true, at), history, next: [{ provision: provision.provision?.provision ?? null }] };
    history.push(approvalStep(ctx, r, false, at), provision);
    return {
      current: null,
      history: [
        ...history,
        { id: r.id(), policyGenerationId: '1', state: 'POLICY_STEP_STATE_DONE', accept: { acceptMessage: 'Access granted' } },
      ],
      next: [],
    };
  }
  if (kind === 'revoke') return { current: open ? provision : null, history: open ? [] : [provision], next: [] };
  const action: PolicyStepInstance = {
    id: r.id(),
    policyGenerationId: '1',
    state: open ? 'POLICY_STEP_STATE_ACTIVE' : 'POLICY_STEP_STATE_DONE',
    action: {
      action: { automation: { automationTemplateId: r.id() } },
      state: open ? 'ACTION_INSTANCE_STATE_RUNNING' : 'ACTION_INSTANCE_STATE_DONE',
      automation: { automationExecutionId: r.id() },
      success: open ? null : { outcomeTime: at },
    },
  };
  return open
    ? { current: action, history: [], next: [] }
    : {
        current: null,
        history: [
          action,
          { id: r.id(), policyGenerationId: '1', state: 'POLICY_STEP_STATE_DONE', reject: { rejectMessage: 'Closed by policy' } },
        ],
        next: [],
      };
}
