/** A task's policy: step instances, the approval step definition, provision policies (spec "Task policy"). */
import type {
  ActionInstanceState,
  ApprovalAgentFailureAction,
  ApprovalAgentMode,
  ApprovalInstanceState,
  FormInstanceState,
  PolicyScopeSlot,
  PolicyStepState,
  PolicyType,
  ProvisionInstanceState,
  WaitInstanceState,
} from '../enums';
import type { Duration, Int64String, JsonObject, MarkerObject, Timestamp } from './common';
import type { TaskForm } from './form';

/** An entitlement as policies name it: `{ appEntitlementId, appId }`. */
export interface AppEntitlementReference {
  appEntitlementId?: string;
  appId?: string;
}

// ---- Step outcomes shared by several bodies ----

/** The step was reassigned. */
export interface ReassignedAction {
  newPolicyStepId?: string;
  reassignedAt?: Timestamp;
  userId?: string;
}

/** The step was reassigned because of an error. */
export interface ReassignedByErrorAction {
  description?: string;
  errorCode?: string;
  errorUserId?: string;
  erroredAt?: Timestamp;
  newPolicyStepId?: string;
  reassignedAt?: Timestamp;
}

/** The step was restarted. */
export interface RestartAction {
  oldPolicyStepId?: string;
  restartedAt?: Timestamp;
  userId?: string;
}

/** The step was skipped. */
export interface SkippedAction {
  newPolicyStepId?: string;
  skippedAt?: Timestamp;
  userId?: string;
}

// ---- Action step ----

/** What an action step runs: one target. `workerResourceAction` is named `batonResourceAction` by the vendor. */
export interface PolicyAction {
  automation?: { automationTemplateId?: string } | null;
  workerResourceAction?: { workerResourceActionId?: string } | null;
  /** The vendor's name for `workerResourceAction`. */
  batonResourceAction?: { batonResourceActionId?: string } | null;
  clientIdApproval?: MarkerObject | null;
}

/** `{ outcomeTime }` of a finished action. */
export interface ActionOutcome {
  outcomeTime?: Timestamp;
}

/** Step instance body `action`. */
export interface ActionInstance {
  action?: PolicyAction | null;
  state?: ActionInstanceState;
  automation?: { automationExecutionId?: string } | null;
  workerResourceActionInstance?: { workerActionInvocationId?: string } | null;
  /** The vendor's name for `workerResourceActionInstance`. */
  batonResourceActionInstance?: { batonActionInvocationId?: string } | null;
  clientIdApprovalInstance?: { clientIdUrl?: string } | null;
  success?: ActionOutcome | null;
  cancelled?: ActionOutcome | null;
  denied?: ActionOutcome | null;
  error?: { errorCode?: string; errorMessage?: string; outcomeTime?: Timestamp } | null;
}

// ---- Approval step ----

/** Approval by an agent. */
export interface AgentApproval {
  agentFailureAction?: ApprovalAgentFailureAction;
  agentMode?: ApprovalAgentMode;
  agentUserId?: string;
  instructions?: string;
  policyIds?: string[] | null;
  reassignToUserIds?: string[] | null;
}

/** What happens when an approval escalates: one of cancel, skip, reassign, replace policy. */
export interface Escalation {
  /** Minutes, as a decimal string. */
  expiration?: Int64String;
  escalationComment?: string;
  cancelTicket?: MarkerObject | null;
  skipStep?: MarkerObject | null;
  reassignToApprovers?: { approverIds?: string[] | null } | null;
  replacePolicy?: { policyId?: string } | null;
}

/** Fallback members shared by most approver sources. */
export interface ApproverFallback {
  fallback?: boolean;
  fallbackUserIds?: string[] | null;
  fallbackGroupIds?: AppEntitlementReference[] | null;
  isGroupFallbackEnabled?: boolean;
}

/** Approver source `appOwners`. */
export interface AppOwnerApproval {
  allowSelfApproval?: boolean;
  requireDistinctApprovers?: boolean;
}

/** Approver sources `entitlementOwners` and `resourceOwners`. */
export interface OwnerApproval extends ApproverFallback {
  allowSelfApproval?: boolean;
  requireDistinctApprovers?: boolean;
}

/** Approver source `expression`. */
export interface ExpressionApproval extends ApproverFallback {
  allowSelfApproval?: boolean;
  requireDistinctApprovers?: boolean;
  expressions?: string[] | null;
  assignedUserIds?: string[] | null;
}

/** Approver source `group`. */
export interface GroupApproval extends ApproverFallback {
  allowSelfApproval?: boolean;
  requireDistinctApprovers?: boolean;
  appGroupId?: string;
  appId?: string;
}

/** Approver source `manager`. */
export interface ManagerApproval extends ApproverFallback {
  allowSelfApproval?: boolean;
  requireDistinctApprovers?: boolean;
  assignedUserIds?: string[] | null;
}

/** Approver source `self`. */
export interface SelfApproval extends ApproverFallback {
  assignedUserIds?: string[] | null;
}

/** Approver source `users`. */
export interface UserApproval {
  allowSelfApproval?: boolean;
  requireDistinctApprovers?: boolean;
  userIds?: string[] | null;
}

/** Approver source `webhook`. */
export interface WebhookApproval {
  webhookId?: string;
}

/** The approval step definition: its options and one approver source. */
export interface ApprovalDefinition {
  agent?: AgentApproval | null;
  allowDelegation?: boolean;
  allowReassignment?: boolean;
  allowedReassignees?: string[] | null;
  requireApprovalReason?: boolean;
  requireDenialReason?: boolean;
  requireReassignmentReason?: boolean;
  requiresStepUpProviderId?: string;
  escalationEnabled?: boolean;
  escalation?: Escalation | null;
  assigned?: boolean;
  appOwners?: AppOwnerApproval | null;
  entitlementOwners?: OwnerApproval | null;
  resourceOwners?: OwnerApproval | null;
  expression?: ExpressionApproval | null;
  group?: GroupApproval | null;
  manager?: ManagerApproval | null;
  self?: SelfApproval | null;
  users?: UserApproval | null;
  webhook?: WebhookApproval | null;
}

/** The approver sources of an approval; `kindOf(approval, APPROVER_SOURCE_KEYS)` names one (`agent` is an approver too). */
export const APPROVER_SOURCE_KEYS = [
  'appOwners',
  'entitlementOwners',
  'resourceOwners',
  'expression',
  'group',
  'manager',
  'self',
  'users',
  'webhook',
  'agent',
] as const satisfies readonly (keyof ApprovalDefinition)[];

/** An escalation as it happened on an approval instance. */
export interface EscalationInstance {
  alreadyEscalated?: boolean;
  expiresAt?: Timestamp;
  escalationComment?: string;
  cancelTicket?: MarkerObject | null;
  skipStep?: MarkerObject | null;
  reassignToApprovers?: { approverIds?: string[] | null } | null;
  replacePolicy?: { policyId?: string } | null;
}

/** Step instance body `approval`. */
export interface ApprovalInstance {
  approval?: ApprovalDefinition | null;
  state?: ApprovalInstanceState;
  assignedAt?: Timestamp;
  approved?: {
    approvedAt?: Timestamp;
    entitlements?: AppEntitlementReference[] | null;
    stepUpTransactionId?: string;
    userId?: string;
  } | null;
  denied?: { deniedAt?: Timestamp; userId?: string } | null;
  escalationInstance?: EscalationInstance | null;
  reassigned?: ReassignedAction | null;
  reassignedByError?: ReassignedByErrorAction | null;
  restarted?: RestartAction | null;
  skipped?: SkippedAction | null;
}

// ---- Form step ----

/** Step instance body `form`. */
export interface FormInstance {
  form?: TaskForm | null;
  data?: JsonObject | null;
  state?: FormInstanceState;
  completed?: { completedAt?: Timestamp; userId?: string } | null;
  reassigned?: ReassignedAction | null;
  restarted?: RestartAction | null;
  skipped?: SkippedAction | null;
}

// ---- Provision step ----

/** Who provisions a manual provision: one source. */
export interface ProvisionerAssignment {
  appOwners?: { allowReassignment?: boolean; fallbackUserIds?: string[] | null } | null;
  entitlementOwners?: { allowReassignment?: boolean; fallbackUserIds?: string[] | null } | null;
  expression?: { allowReassignment?: boolean; expressions?: string[] | null; fallbackUserIds?: string[] | null } | null;
  group?: { allowReassignment?: boolean; appGroupId?: string; appId?: string; fallbackUserIds?: string[] | null } | null;
  manager?: { allowReassignment?: boolean; fallbackUserIds?: string[] | null } | null;
  users?: { allowReassignment?: boolean; userIds?: string[] | null } | null;
}

/** Provision variant `connector`: one of account, defaultBehavior, deleteAccount. */
export interface ConnectorProvision {
  account?: {
    config?: JsonObject | null;
    connectorId?: string;
    doNotSave?: MarkerObject | null;
    saveToVault?: { vaultIds?: string[] | null } | null;
    schemaId?: string;
  } | null;
  defaultBehavior?: { connectorId?: string } | null;
  deleteAccount?: { connectorId?: string } | null;
}

/** How access is provisioned: one variant. */
export interface ProvisionPolicy {
  action?: { actionName?: string; appId?: string; connectorId?: string; displayName?: string } | null;
  connector?: ConnectorProvision | null;
  delegated?: { appId?: string; entitlementId?: string; implicit?: boolean } | null;
  externalTicket?: { appId?: string; connectorId?: string; externalTicketProvisionerConfigId?: string; instructions?: string } | null;
  manual?: { assignee?: ProvisionerAssignment | null; instructions?: string; userIds?: string[] | null } | null;
  multiStep?: { provisionSteps?: ProvisionPolicy[] | null } | null;
  unconfigured?: MarkerObject | null;
  webhook?: { webhookId?: string } | null;
  /** Vendor variant. */
  devicePlacement?: { vaultBoundaryId?: string } | null;
}

/** The provision policy variants; `kindOf(policy, PROVISION_POLICY_KEYS)` names one. */
export const PROVISION_POLICY_KEYS = [
  'action',
  'connector',
  'delegated',
  'externalTicket',
  'manual',
  'multiStep',
  'unconfigured',
  'webhook',
  'devicePlacement',
] as const satisfies readonly (keyof ProvisionPolicy)[];

/** What is provisioned to whom. */
export interface ProvisionTarget {
  appEntitlementId?: string;
  appId?: string;
  appUserId?: string;
  grantDuration?: Duration;
}

/** A provision step: the policy and the target. */
export interface Provision {
  assigned?: boolean;
  provisionPolicy?: ProvisionPolicy | null;
  provisionTarget?: ProvisionTarget | null;
}

/** Step instance body `provision`. */
export interface ProvisionInstance {
  state?: ProvisionInstanceState;
  provision?: Provision | null;
  cancelled?: { cancelledAt?: Timestamp; cancelledByUserId?: string } | null;
  completed?: { completedAt?: Timestamp; entitlements?: AppEntitlementReference[] | null; userId?: string } | null;
  errored?: { description?: string; errorCode?: string; erroredAt?: Timestamp } | null;
  externalTicketId?: string;
  externalTicketProvisionerConfigId?: string;
  notificationId?: string;
  workerActionInvocationId?: string;
  /** The vendor's name for `workerActionInvocationId`. */
  batonActionInvocationId?: string;
  webhookId?: string;
  webhookInstanceId?: string;
  reassignedByError?: ReassignedByErrorAction | null;
  skipped?: SkippedAction | null;
  /** Vendor field. */
  waitingOn?: {
    devicePlacement?: { recipientUserId?: string; vaultBoundaryId?: string } | null;
    entitlementMerge?: { appEntitlementId?: string; appId?: string } | null;
    fallbackAt?: Timestamp;
    startedWaitingAt?: Timestamp;
  } | null;
}

// ---- Wait step ----

/** Step instance body `wait`. */
export interface WaitInstance {
  name?: string;
  state?: WaitInstanceState;
  condition?: { condition?: string } | null;
  commentOnFirstWait?: string;
  commentOnTimeout?: string;
  startedWaitingAt?: Timestamp;
  timeout?: Timestamp;
  timeoutDuration?: Duration;
  untilTime?: { durationIfExists?: Duration; untilTime?: Timestamp } | null;
  succeeded?: { succeededAt?: Timestamp } | null;
  timedOut?: { timedOutAt?: Timestamp } | null;
  skipped?: SkippedAction | null;
}

// ---- Step instances and the policy instance ----

/** One step of a task's policy as it runs: `id`, generation, state, and one body. */
export interface PolicyStepInstance {
  id?: string;
  policyGenerationId?: string;
  state?: PolicyStepState;
  accept?: { acceptMessage?: string } | null;
  reject?: { rejectMessage?: string } | null;
  action?: ActionInstance | null;
  approval?: ApprovalInstance | null;
  form?: FormInstance | null;
  provision?: ProvisionInstance | null;
  wait?: WaitInstance | null;
}

/** The bodies of a step instance; `kindOf(step, POLICY_STEP_BODY_KEYS)` names a step. */
export const POLICY_STEP_BODY_KEYS = [
  'accept',
  'reject',
  'action',
  'approval',
  'form',
  'provision',
  'wait',
] as const satisfies readonly (keyof PolicyStepInstance)[];

/** A wait step as defined in a policy. */
export interface WaitDefinition {
  name?: string;
  commentOnFirstWait?: string;
  commentOnTimeout?: string;
  condition?: { condition?: string } | null;
  duration?: { duration?: Duration } | null;
  timeoutDuration?: Duration;
  untilTime?: { hours?: number; minutes?: number; timezone?: string } | null;
}

/** A step as defined in a policy (the steps still to come are in `next`). */
export interface PolicyStep {
  accept?: { acceptMessage?: string } | null;
  reject?: { rejectMessage?: string } | null;
  action?: PolicyAction | null;
  approval?: ApprovalDefinition | null;
  form?: { form?: TaskForm | null } | null;
  provision?: Provision | null;
  wait?: WaitDefinition | null;
}

/** A policy (vendor shape, carried by `policy.policy`). */
export interface Policy {
  id?: string;
  displayName?: string;
  description?: string;
  annotations?: Record<string, string>;
  baselinePolicyId?: string;
  policySteps?: Record<string, { steps?: PolicyStep[] | null }>;
  policyType?: PolicyType;
  postActions?: { certifyRemediateImmediately?: boolean | null }[] | null;
  reassignTasksToDelegates?: boolean;
  rules?: { condition?: string; policyId?: string | null; policyKey?: string; stepKey?: string | null }[] | null;
  scope?: { appEntitlementId?: string; appId?: string; slot?: PolicyScopeSlot } | null;
  systemBuiltin?: boolean;
  createdAt?: Timestamp;
  updatedAt?: Timestamp;
  deletedAt?: Timestamp;
}

/** A task's policy: the current step, the history, and (vendor fields) the steps to come and the policy. */
export interface TaskPolicy {
  current?: PolicyStepInstance | null;
  history?: PolicyStepInstance[] | null;
  next?: PolicyStep[] | null;
  policy?: Policy | null;
}
