/** Tasks and the task view (spec "Task view", "Escalate task to emergency access"). */
import type {
  AccountStatusFilter,
  ActionOutcome,
  AppUserType,
  CertifyOutcome,
  ConnectorActionOperation,
  EmergencyStatusFilter,
  ExternalRefSource,
  FindingTaskOutcome,
  GrantOutcome,
  InsightRecommendation,
  OffboardingOutcome,
  PendingActionFilter,
  RevokeOutcome,
  StepApprovalType,
  TaskActionType,
  TaskOrigin,
  TaskProcessingType,
  TaskSearchCurrentStep,
  TaskSearchSortBy,
  TaskState,
  TaskTypeActionKind,
} from '../enums';
import type { AnyMessage, AppEntitlementRef, Duration, ExpandMask, JsonObject, ObjectPermissions, Page, Timestamp } from './common';
import type { TaskForm } from './form';
import type { TaskPolicy } from './policy';

/** A link from a task to an external ticket. */
export interface ExternalRef {
  externalRefSource?: ExternalRefSource;
  name?: string;
  url?: string;
}

/** A resource of an app: `{ appId, appResourceTypeId, id }`. */
export interface AppResourceRef {
  appId?: string;
  appResourceTypeId?: string;
  id?: string;
}

/** Task type `grant` (access request). */
export interface TaskTypeGrant {
  appEntitlementId?: string;
  appId?: string;
  appUserId?: string;
  identityUserId?: string;
  grantDuration?: Duration;
  outcome?: GrantOutcome;
  outcomeTime?: Timestamp;
  source?: { conversationId?: string; externalUrl?: string; integrationId?: string; isExtension?: boolean; requestId?: string } | null;
}

/** Task type `revoke`. */
export interface TaskTypeRevoke {
  appEntitlementId?: string;
  appId?: string;
  appUserId?: string;
  identityUserId?: string;
  outcome?: RevokeOutcome;
  outcomeTime?: Timestamp;
  resource?: AppResourceRef | null;
  source?: {
    expired?: { expiredAt?: Timestamp } | null;
    nonUsage?: { expiresAt?: Timestamp; lastLogin?: Timestamp } | null;
    request?: { requestUserId?: string } | null;
    review?: { accessReviewId?: string; certTicketId?: string } | null;
  } | null;
}

/** Task type `certify` (an access review item). */
export interface TaskTypeCertify {
  accessReviewId?: string;
  accessReviewSelection?: string;
  appEntitlementId?: string;
  appId?: string;
  appUserId?: string;
  identityUserId?: string;
  outcome?: CertifyOutcome;
  outcomeTime?: Timestamp;
  resource?: AppResourceRef | null;
}

/** Task type `offboarding`. */
export interface TaskTypeOffboarding {
  outcome?: OffboardingOutcome;
  outcomeTime?: Timestamp;
  subjectUserId?: string;
}

/** Task type `finding`. */
export interface TaskTypeFinding {
  findingId?: string;
  findingType?: string;
  outcome?: FindingTaskOutcome;
  outcomeTime?: Timestamp;
}

/** Task type `action`. */
export interface TaskTypeAction {
  actionId?: string;
  displayName?: string;
  type?: TaskTypeActionKind;
  outcome?: ActionOutcome;
  outcomeTime?: Timestamp;
  formValues?: JsonObject | null;
  createdAppEntitlementIds?: string[] | null;
  createdAppResourceId?: string;
  createdAppResourceTypeId?: string;
  actionInstance?: {
    displayName?: string;
    batonResourceActionRef?: {
      appId?: string;
      batonActionDisplayName?: string;
      batonActionName?: string;
      connectorId?: string;
      resourceTypeId?: string;
    } | null;
    connectorActionRef?: { appId?: string; connectorId?: string; operation?: ConnectorActionOperation } | null;
  } | null;
  finding?: { findingId?: string; findingType?: string } | null;
  scopeRole?: JsonObject | null;
  toolCall?: JsonObject | null;
}

/** A task's type (vendor field `type`): one member. */
export interface TaskTypeDetails {
  grant?: TaskTypeGrant | null;
  revoke?: TaskTypeRevoke | null;
  certify?: TaskTypeCertify | null;
  offboarding?: TaskTypeOffboarding | null;
  finding?: TaskTypeFinding | null;
  action?: TaskTypeAction | null;
}

/** The members of a task's type; `kindOf(task.type, TASK_TYPE_KEYS)` names it. */
export const TASK_TYPE_KEYS = [
  'grant',
  'revoke',
  'certify',
  'offboarding',
  'finding',
  'action',
] as const satisfies readonly (keyof TaskTypeDetails)[];

/** A task (request, revoke, review item...). */
export interface Task {
  id?: string;
  /** Numeric id, as a decimal string. */
  numericId?: string;
  displayName?: string;
  description?: string;
  analysisId?: string;
  createdByUserId?: string;
  actions?: TaskActionType[] | null;
  annotations?: AnyMessage[] | null;
  approverIds?: string[] | null;
  insightIds?: string[] | null;
  commentCount?: number;
  createdAt?: Timestamp;
  deletedAt?: Timestamp;
  data?: JsonObject | null;
  emergencyAccess?: boolean;
  externalRefs?: ExternalRef[] | null;
  origin?: TaskOrigin;
  form?: TaskForm | null;
  policy?: TaskPolicy | null;
  /** Vendor fields. */
  policyGenerationId?: string;
  processing?: TaskProcessingType;
  recommendation?: InsightRecommendation;
  revocationTargets?: { entitlementRef?: AppEntitlementRef | null }[] | null;
  state?: TaskState;
  stepApproverIds?: string[] | null;
  type?: TaskTypeDetails | null;
  updatedAt?: Timestamp;
  userId?: string;
}

/** The task fields of the spec. */
export const TASK_FIELDS = [
  'id',
  'numericId',
  'displayName',
  'description',
  'analysisId',
  'createdByUserId',
  'actions',
  'annotations',
  'approverIds',
  'insightIds',
  'commentCount',
  'createdAt',
  'deletedAt',
  'data',
  'emergencyAccess',
  'externalRefs',
  'origin',
  'form',
  'policy',
] as const satisfies readonly (keyof Task)[];

/** A task with the caller's view of it: JSONPaths into `expanded` and permissions. */
export interface TaskView {
  accessReviewPath?: string;
  appPath?: string;
  appUserLastUsagePath?: string;
  appUserPath?: string;
  approversPath?: string;
  createdByUserPath?: string;
  entitlementsPath?: string;
  identityUserPath?: string;
  insightsPath?: string;
  principalResourcePath?: string;
  resourceBindingsPath?: string;
  roleResourcePath?: string;
  scopeResourcePath?: string;
  stepApproversPath?: string;
  /** Vendor field. */
  userPath?: string;
  objectPermissions?: ObjectPermissions | null;
  task?: Task | null;
}

/** The task view fields of the spec. */
export const TASK_VIEW_FIELDS = [
  'accessReviewPath',
  'appPath',
  'appUserLastUsagePath',
  'appUserPath',
  'approversPath',
  'createdByUserPath',
  'entitlementsPath',
  'identityUserPath',
  'insightsPath',
  'principalResourcePath',
  'resourceBindingsPath',
  'roleResourcePath',
  'scopeResourcePath',
  'stepApproversPath',
  'objectPermissions',
  'task',
] as const satisfies readonly (keyof TaskView)[];

/** Answer of task actions (escalate...) and of `GET /api/v1/tasks/{id}`: `{ expanded, taskView }`. */
export interface TaskViewResponse {
  expanded?: AnyMessage[] | null;
  taskView?: TaskView | null;
  /** Task actions only (vendor field). */
  ticketActionId?: string;
}

/** Answer of `GET /api/v1/tasks/{id}`. */
export type GetTaskResponse = TaskViewResponse;

/** Body of `POST /api/v1/tasks/{task_id}/action/escalate`. */
export interface EscalateTaskRequest {
  comment?: string;
  expandMask?: ExpandMask | null;
  policyStepId?: string;
}

/** Answer of escalate: the task view; its task carries `emergencyAccess`. */
export type EscalateTaskResponse = TaskViewResponse;

/** Body of `POST /api/v1/search/tasks` (vendor shape). */
export interface SearchTasksRequest {
  pageSize?: number;
  pageToken?: string;
  query?: string;
  refs?: { id?: string }[] | null;
  expandMask?: ExpandMask | null;
  accessReviewIds?: string[] | null;
  accountOwnerIds?: string[] | null;
  accountStatuses?: AccountStatusFilter[] | null;
  accountTypes?: AppUserType[] | null;
  actorId?: string;
  appEntitlementIds?: string[] | null;
  appResourceIds?: string[] | null;
  appResourceTypeIds?: string[] | null;
  appUserSubjectIds?: string[] | null;
  applicationIds?: string[] | null;
  assignedOrStepApproverUserId?: string;
  assigneesInIds?: string[] | null;
  certifyOutcomes?: CertifyOutcome[] | null;
  createdAfter?: Timestamp;
  createdBefore?: Timestamp;
  currentStep?: TaskSearchCurrentStep;
  emergencyStatus?: EmergencyStatusFilter;
  excludeAppEntitlementIds?: string[] | null;
  excludeAppResourceTypeIds?: string[] | null;
  excludeApplicationIds?: string[] | null;
  excludeIds?: string[] | null;
  grantOutcomes?: GrantOutcome[] | null;
  includeActedAfter?: Timestamp;
  includeDeleted?: boolean;
  myWorkUserIds?: string[] | null;
  olderThanDuration?: Duration;
  openerIds?: string[] | null;
  openerOrSubjectUserId?: string;
  outcomeAfter?: Timestamp;
  outcomeBefore?: Timestamp;
  pendingActionFilter?: PendingActionFilter;
  previouslyActedOnIds?: string[] | null;
  requireApprovalReason?: boolean;
  requireDenialReason?: boolean;
  revokeOutcomes?: RevokeOutcome[] | null;
  sortBy?: TaskSearchSortBy;
  stepApprovalTypes?: StepApprovalType[] | null;
  subjectIds?: string[] | null;
  taskStates?: TaskState[] | null;
  taskTypes?: TaskTypeDetails[] | null;
  userEmploymentStatuses?: string[] | null;
}

/** Answer of search tasks: rows are task views. */
export interface SearchTasksResponse extends Page<TaskView> {
  expanded?: AnyMessage[] | null;
}
