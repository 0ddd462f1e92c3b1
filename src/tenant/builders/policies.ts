/**
 * The policies the other objects name (`policyId` of templates, campaigns and routing rules, the
 * grant, revoke and certify policies of apps), served by `POST /search/policies`. Their ids were
 * drawn first (BuildContext.policyIds); their bodies are drawn last, from a stream of their own.
 */
import type { Policy, PolicyStep } from '../../shared/api-types';
import type { PolicyType } from '../../shared/enums';
import type { Random } from '../random';
import type { BuildContext } from './context';

const POLICIES: readonly { name: string; type: PolicyType }[] = [
  { name: 'Manager approval', type: 'POLICY_TYPE_GRANT' },
  { name: 'App owner approval', type: 'POLICY_TYPE_GRANT' },
  { name: 'Security review', type: 'POLICY_TYPE_ACCESS_REQUEST' },
  { name: 'Direct revoke', type: 'POLICY_TYPE_REVOKE' },
  { name: 'Quarterly certification', type: 'POLICY_TYPE_CERTIFY' },
  { name: 'Two-step certification', type: 'POLICY_TYPE_CERTIFY' },
  { name: 'Provision by ticket', type: 'POLICY_TYPE_PROVISION' },
  { name: 'Emergency access', type: 'POLICY_TYPE_GRANT' },
];

function approval(ctx: BuildContext, r: Random): PolicyStep {
  return {
    approval: {
      allowDelegation: true,
      allowReassignment: r.chance(0.5),
      allowedReassignees: [],
      requireApprovalReason: r.chance(0.5),
      requireDenialReason: true,
      requireReassignmentReason: false,
      requiresStepUpProviderId: '',
      escalationEnabled: false,
      assigned: false,
      users: { allowSelfApproval: false, requireDistinctApprovers: r.chance(0.3), userIds: ctx.users(r, 1, 3) },
    },
  };
}

function provision(ctx: BuildContext, r: Random): PolicyStep {
  return {
    provision: {
      assigned: false,
      provisionPolicy: r.chance(0.5)
        ? { manual: { instructions: 'Make the change in the admin console', userIds: ctx.users(r, 1, 2) } }
        : { connector: { defaultBehavior: { connectorId: r.id() } } },
    },
  };
}

export function policies(ctx: BuildContext): void {
  const r = ctx.stream('policies:details');
  ctx.policyIds.forEach((id, i) => {
    const kind = POLICIES[i % POLICIES.length] as (typeof POLICIES)[number];
    const round = Math.floor(i / POLICIES.length);
    const displayName = round === 0 ? kind.name : `${kind.name} ${round + 1}`;
    const steps: PolicyStep[] =
      kind.type === 'POLICY_TYPE_REVOKE' || kind.type === 'POLICY_TYPE_PROVISION'
        ? [provision(ctx, r)]
        : kind.type === 'POLICY_TYPE_CERTIFY' && displayName.startsWith('Two-step')
          ? [approval(ctx, r), approval(ctx, r)]
          : [approval(ctx, r), provision(ctx, r)];
    const createdAt = ctx.past(r, 900, 200);
    const policy: Policy = {
      id,
      displayName,
      description: `${displayName}: ${steps.length} step${steps.length === 1 ? '' : 's'}`,
      policyType: kind.type,
      policySteps: { default: { steps } },
      rules: [],
      postActions: [],
      annotations: {},
      baselinePolicyId: '',
      reassignTasksToDelegates: false,
      systemBuiltin: false,
      createdAt,
      updatedAt: ctx.after(r, createdAt, 100),
    };
    ctx.data.policies.set(id, policy);
  });
}
