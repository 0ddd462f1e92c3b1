/** Automations: steps, triggers, search (spec "Automation", "Search automations"). */
import type {
  AppUserType,
  AutomationSortField,
  AutomationStatusFilter,
  AutomationTaskType,
  CircuitBreakerPeriod,
  GrantFilterType,
  GrantJustificationType,
  GrantSourceFilter,
  SortDirection,
  StoreCredentialAuthType,
  StoreCredentialVaultType,
  TaskUserRelation,
  TriggerType,
  UserStatus,
} from '../enums';
import type { AppEntitlementRef, ConnectorRef, Duration, Int64String, JsonObject, MarkerObject, Page, Timestamp, UserRef } from './common';

/** Reference to an automation (template): `{ id }`. */
export interface AutomationTemplateRef {
  id?: string;
}

/** `{ context }`: the automation's input context. */
export interface AutomationContext {
  context?: JsonObject | null;
}

// ---- Entitlement inclusion / exclusion members (createRevokeTasksV2, grantEntitlements, grant triggers) ----

/** `inclusionCriteria`. */
export interface EntitlementInclusionCriteria {
  appIds?: string[] | null;
  complianceFrameworkIds?: string[] | null;
  resourceTypeIds?: string[] | null;
  riskLevelIds?: string[] | null;
}

/** `inclusionList`. */
export interface EntitlementInclusionList {
  appEntitlementRefs?: AppEntitlementRef[] | null;
}

/** `inclusionListCel`. */
export interface EntitlementInclusionListCel {
  appEntitlementRefsCel?: string;
}

/** `exclusionCriteria`. */
export interface EntitlementExclusionCriteria {
  excludedAppIds?: string[] | null;
  excludedComplianceFrameworkIds?: string[] | null;
  excludedResourceTypeIds?: string[] | null;
  excludedRiskLevelIds?: string[] | null;
}

/** `exclusionList`. */
export interface EntitlementExclusionList {
  excludedAppEntitlementRefs?: AppEntitlementRef[] | null;
}

/** `exclusionListCel`. */
export interface EntitlementExclusionListCel {
  excludedAppEntitlementRefsCel?: string;
}

/** grantEntitlements `inclusionCriteria`: as for revoke tasks, without `resourceTypeIds`. */
export type GrantEntitlementInclusionCriteria = Omit<EntitlementInclusionCriteria, 'resourceTypeIds'>;

/** grantEntitlements `exclusionCriteria`: as for revoke tasks, without `excludedResourceTypeIds`. */
export type GrantEntitlementExclusionCriteria = Omit<EntitlementExclusionCriteria, 'excludedResourceTypeIds'>;

// ---- Step actions ----

/** Step action `accountLifecycleAction`. */
export interface AccountLifecycleAction {
  accountInContext?: MarkerObject | null;
  accountRef?: { accountIdCel?: string } | null;
  actionName?: string;
  connectorRef?: ConnectorRef | null;
}

/** Step action `callFunction`. */
export interface CallFunction {
  args?: Record<string, string>;
  functionId?: string;
}

/** Step action `connectorAction`. */
export interface ConnectorAction {
  actionName?: string;
  argsTemplate?: JsonObject | null;
  connectorRef?: ConnectorRef | null;
  resourceTypeId?: string;
}

/** `connectorCreateAccount.userProperties`. */
export interface ConnectorCreateAccountUserProperties {
  displayNameCel?: string;
  emailCel?: string;
  profileAttributeCel?: string;
  usernameCel?: string;
}

/** Step action `connectorCreateAccount`. */
export interface ConnectorCreateAccount {
  connectorRef?: ConnectorRef | null;
  passwordCel?: string;
  userIdCel?: string | null;
  userProperties?: ConnectorCreateAccountUserProperties | null;
}

/** Step action `createAccessReview`. Its `accessReviewTemplateId` names a template to sync. */
export interface CreateAccessReviewAction {
  accessReviewTemplateCel?: string;
  accessReviewTemplateId?: string;
  campaignName?: string;
  useSubjectUser?: boolean;
  userIdsCel?: string;
  userRefs?: UserRef[] | null;
}

/** Step action `createRevokeTasks` (superseded by `createRevokeTasksV2`). */
export interface CreateRevokeTasks {
  appEntitlementRefs?: AppEntitlementRef[] | null;
  appEntitlementRefsCel?: string;
  excludedAppEntitlementRefs?: AppEntitlementRef[] | null;
  excludedAppEntitlementRefsCel?: string;
  revokeAll?: boolean;
  useSubjectUser?: boolean;
  userIdCel?: string;
  userRef?: UserRef | null;
}

/** Step action `createRevokeTasksV2`. */
export interface CreateRevokeTasksV2 {
  exclusionCriteria?: EntitlementExclusionCriteria | null;
  exclusionList?: EntitlementExclusionList | null;
  exclusionListCel?: EntitlementExclusionListCel | null;
  exclusionNone?: MarkerObject | null;
  inclusionAccessOnly?: MarkerObject | null;
  inclusionAll?: MarkerObject | null;
  inclusionCriteria?: EntitlementInclusionCriteria | null;
  inclusionList?: EntitlementInclusionList | null;
  inclusionListCel?: EntitlementInclusionListCel | null;
  /** Vendor field. */
  grantSourceFilter?: GrantSourceFilter;
  useSubjectUser?: boolean | null;
  userIdCel?: string | null;
  userRef?: UserRef | null;
}

/** One expression of `evaluateExpressions`. */
export interface AutomationExpression {
  expressionCel?: string;
  isSecret?: boolean;
  key?: string;
}

/** Step action `evaluateExpressions`. */
export interface EvaluateExpressions {
  expressions?: AutomationExpression[] | null;
}

/** `generatePassword.policy`. */
export interface GeneratePasswordPolicy {
  customCharacters?: string | null;
  excludedCharacters?: string | null;
  maxCharacterCount?: number;
  minCharacterCount?: number;
  noRestrictions?: boolean | null;
  requireLowercase?: boolean;
  requireNumbers?: boolean;
  requireSpecialCharacters?: boolean;
  requireUppercase?: boolean;
}

/** Step action `generatePassword`. */
export interface GeneratePassword {
  passwordPolicyId?: string;
  policy?: GeneratePasswordPolicy | null;
}

/** Step action `grantEntitlements`: the inclusion / exclusion members of revoke tasks V2, without resource types, access-only and all. */
export interface GrantEntitlements {
  exclusionCriteria?: GrantEntitlementExclusionCriteria | null;
  exclusionList?: EntitlementExclusionList | null;
  exclusionListCel?: EntitlementExclusionListCel | null;
  exclusionNone?: MarkerObject | null;
  inclusionCriteria?: GrantEntitlementInclusionCriteria | null;
  inclusionList?: EntitlementInclusionList | null;
  inclusionListCel?: EntitlementInclusionListCel | null;
  useSubjectUser?: boolean;
  userIdCel?: string;
  userRef?: UserRef | null;
}

/** Step action `removeFromDelegation`. */
export interface RemoveFromDelegation {
  replacementUserIdCel?: string | null;
  replacementUserRef?: UserRef | null;
  useSubjectUser?: boolean;
  userIdCel?: string;
  userRef?: UserRef | null;
}

/** Step action `runAutomation`. */
export interface RunAutomation {
  automationTemplateIdCel?: string | null;
  automationTemplateRef?: AutomationTemplateRef | null;
  context?: AutomationContext | null;
}

/** Step action `sendEmail`. */
export interface SendEmail {
  body?: string;
  email?: string;
  emailCel?: string;
  subject?: string;
  title?: string;
  useSubjectUser?: boolean;
  userIdsCel?: string;
  userRefs?: UserRef[] | null;
}

/** Step action `sendChatMessage` (the vendor document names it `sendSlackMessage`). */
export interface SendChatMessage {
  body?: string;
  channelIsId?: boolean;
  channelName?: string | null;
  channelNameCel?: string | null;
  useSubjectUser?: boolean;
  userIdsCel?: string;
  userRefs?: UserRef[] | null;
}

/** Step action `setCredential`. */
export interface SetCredential {
  accountIdCel?: string;
  connectorRef?: ConnectorRef | null;
  passwordCel?: string;
}

/** Step action `storeCredential`. */
export interface StoreCredential {
  appIdCel?: string;
  authType?: StoreCredentialAuthType;
  credentialCel?: string;
  expiry?: Duration;
  labelCel?: string;
  maxViews?: number;
  recipientCel?: string;
  recipientEmailCel?: string;
  ttl?: Duration;
  vaultType?: StoreCredentialVaultType;
}

/** `taskAction.close`. */
export interface TaskActionClose {
  useSubjectUser?: boolean;
  userIdCel?: string | null;
  userRef?: UserRef | null;
}

/** `taskAction.reassign`. */
export interface TaskActionReassign {
  assigneeUserIdCel?: string | null;
  assigneeUserRef?: UserRef | null;
  subjectUserIdCel?: string | null;
  subjectUserRef?: UserRef | null;
  useSubjectUser?: boolean;
}

/** Step action `taskAction`. */
export interface TaskAction {
  close?: TaskActionClose | null;
  reassign?: TaskActionReassign | null;
  taskTypes?: AutomationTaskType[] | null;
  taskUserRelation?: TaskUserRelation;
}

/** Step action `unenrollFromAllAccessProfiles`. */
export interface UnenrollFromAllAccessProfiles {
  catalogIds?: string[] | null;
  catalogIdsCel?: string;
  useSubjectUser?: boolean;
  userIdsCel?: string;
  userRefs?: UserRef[] | null;
}

/** Step action `updateUser`. */
export interface UpdateUser {
  useSubjectUser?: boolean;
  userIdCel?: string | null;
  userRef?: UserRef | null;
  userStatusCel?: string | null;
  userStatusEnum?: UserStatus;
}

/** Step action `waitForDuration`. */
export interface WaitForDuration {
  duration?: Duration;
}

/** Step action `webhook`. */
export interface WebhookAction {
  payload?: JsonObject | null;
  webhookId?: string | null;
  webhookIdCel?: string | null;
}

/** One automation step: its names, a skip condition, and at most one action member. */
export interface AutomationStep {
  stepName?: string;
  stepDisplayName?: string;
  skipIfTrueCel?: string;
  accountLifecycleAction?: AccountLifecycleAction | null;
  callFunction?: CallFunction | null;
  connectorAction?: ConnectorAction | null;
  connectorCreateAccount?: ConnectorCreateAccount | null;
  createAccessReview?: CreateAccessReviewAction | null;
  createRevokeTasks?: CreateRevokeTasks | null;
  createRevokeTasksV2?: CreateRevokeTasksV2 | null;
  evaluateExpressions?: EvaluateExpressions | null;
  generatePassword?: GeneratePassword | null;
  grantEntitlements?: GrantEntitlements | null;
  removeFromDelegation?: RemoveFromDelegation | null;
  runAutomation?: RunAutomation | null;
  sendEmail?: SendEmail | null;
  sendChatMessage?: SendChatMessage | null;
  /** The vendor's name for `sendChatMessage`. */
  sendSlackMessage?: SendChatMessage | null;
  setCredential?: SetCredential | null;
  storeCredential?: StoreCredential | null;
  taskAction?: TaskAction | null;
  unenrollFromAllAccessProfiles?: UnenrollFromAllAccessProfiles | null;
  updateUser?: UpdateUser | null;
  waitForDuration?: WaitForDuration | null;
  webhook?: WebhookAction | null;
}

/**
 * The action members of a step, in the spec's order; `kindOf(step, AUTOMATION_STEP_ACTION_KEYS)`
 * names a step's action. `sendSlackMessage`, the vendor's name for `sendChatMessage`, comes last.
 */
export const AUTOMATION_STEP_ACTION_KEYS = [
  'accountLifecycleAction',
  'callFunction',
  'connectorAction',
  'connectorCreateAccount',
  'createAccessReview',
  'createRevokeTasks',
  'createRevokeTasksV2',
  'evaluateExpressions',
  'generatePassword',
  'grantEntitlements',
  'removeFromDelegation',
  'runAutomation',
  'sendEmail',
  'sendChatMessage',
  'setCredential',
  'storeCredential',
  'taskAction',
  'unenrollFromAllAccessProfiles',
  'updateUser',
  'waitForDuration',
  'webhook',
  'sendSlackMessage',
] as const satisfies readonly (keyof AutomationStep)[];

/** The kind of a step's action. */
export type AutomationStepActionKey = (typeof AUTOMATION_STEP_ACTION_KEYS)[number];

// ---- Triggers ----

/** Trigger `accessConflict`. */
export interface AccessConflictTrigger {
  allConflictMonitors?: boolean | null;
  conflictMonitorRefs?: { conflictMonitorRefs?: { id?: string }[] | null } | null;
}

/** Triggers `appUserCreated` and `appUserUpdated`. */
export interface AppUserTrigger {
  appId?: string | null;
  appIdCel?: string | null;
  condition?: string;
}

/** `grantTriggerFilter.accountFilter`. */
export interface GrantTriggerAccountFilter {
  accountType?: AppUserType;
}

/** `grantTriggerFilter.grantFilter`. */
export interface GrantTriggerGrantFilter {
  grantFilterType?: GrantFilterType;
  grantJustificationType?: GrantJustificationType;
  grantSourceFilter?: GrantSourceFilter;
}

/** `grantTriggerFilter` of grant triggers. */
export interface GrantTriggerFilter {
  accountFilter?: GrantTriggerAccountFilter | null;
  grantFilter?: GrantTriggerGrantFilter | null;
  inclusionAll?: MarkerObject | null;
  inclusionCriteria?: EntitlementInclusionCriteria | null;
  inclusionList?: EntitlementInclusionList | null;
  inclusionListCel?: EntitlementInclusionListCel | null;
}

/** Triggers `grantFound` and `grantDeleted`. */
export interface GrantTrigger {
  grantTriggerFilter?: GrantTriggerFilter | null;
}

/** Trigger `schedule`. */
export interface ScheduleTrigger {
  advanced?: boolean;
  condition?: string;
  cronSpec?: string;
  skipIfTrueCel?: string;
  start?: Timestamp;
  timezone?: string;
}

/** Trigger `scheduleAppUser`. */
export interface ScheduleAppUserTrigger {
  appId?: string;
  condition?: string;
  cronSpec?: string;
  start?: Timestamp;
  timezone?: string;
}

/** Trigger `scheduleNoUser`. */
export interface ScheduleNoUserTrigger {
  advanced?: boolean;
  cronSpec?: string;
  start?: Timestamp;
  timezone?: string;
}

/** Trigger `usageBasedRevocation`. */
export interface UsageBasedRevocationTrigger {
  appId?: string;
  enabledAt?: Timestamp;
  excludedGroupRefs?: AppEntitlementRef[] | null;
  excludedUserRefs?: UserRef[] | null;
  includeUsersWithNoActivity?: boolean;
  runDelayed?: { coldStartDelayDays?: number } | null;
  runImmediately?: MarkerObject | null;
  targetedAppUserTypes?: AppUserType[] | null;
  targetedEntitlementRefs?: AppEntitlementRef[] | null;
  unusedForDays?: number;
}

/** Triggers `userCreated` and `userProfileChange`. */
export interface UserConditionTrigger {
  condition?: string;
}

/** Trigger `webhook`: one authentication member (`capabilityUrl`, `hmac`, `jwt`) and the listener. */
export interface WebhookTrigger {
  capabilityUrl?: MarkerObject | null;
  hmac?: MarkerObject | null;
  jwt?: { jwksUrl?: string } | null;
  listenerId?: string;
}

/** One automation trigger: at most one member. */
export interface AutomationTrigger {
  accessConflict?: AccessConflictTrigger | null;
  appUserCreated?: AppUserTrigger | null;
  appUserUpdated?: AppUserTrigger | null;
  grantFound?: GrantTrigger | null;
  grantDeleted?: GrantTrigger | null;
  schedule?: ScheduleTrigger | null;
  scheduleAppUser?: ScheduleAppUserTrigger | null;
  scheduleNoUser?: ScheduleNoUserTrigger | null;
  usageBasedRevocation?: UsageBasedRevocationTrigger | null;
  userCreated?: UserConditionTrigger | null;
  userProfileChange?: UserConditionTrigger | null;
  webhook?: WebhookTrigger | null;
}

/** The trigger members, in the spec's order; `kindOf(trigger, AUTOMATION_TRIGGER_KEYS)` names a trigger. */
export const AUTOMATION_TRIGGER_KEYS = [
  'accessConflict',
  'appUserCreated',
  'appUserUpdated',
  'grantFound',
  'grantDeleted',
  'schedule',
  'scheduleAppUser',
  'scheduleNoUser',
  'usageBasedRevocation',
  'userCreated',
  'userProfileChange',
  'webhook',
] as const satisfies readonly (keyof AutomationTrigger)[];

/** The kind of a trigger. */
export type AutomationTriggerKey = (typeof AUTOMATION_TRIGGER_KEYS)[number];

/** The trigger type (`primaryTriggerType`, the `triggerTypes` search filter) each trigger member stands for. */
export const TRIGGER_TYPE_OF: Readonly<Record<AutomationTriggerKey, TriggerType>> = {
  accessConflict: 'TRIGGER_TYPE_ACCESS_CONFLICT',
  appUserCreated: 'TRIGGER_TYPE_APP_USER_CREATE',
  appUserUpdated: 'TRIGGER_TYPE_APP_USER_UPDATE',
  grantFound: 'TRIGGER_TYPE_GRANT_FOUND',
  grantDeleted: 'TRIGGER_TYPE_GRANT_DELETED',
  schedule: 'TRIGGER_TYPE_SCHEDULE',
  scheduleAppUser: 'TRIGGER_TYPE_SCHEDULE_APP_USER',
  scheduleNoUser: 'TRIGGER_TYPE_SCHEDULE_NO_USER',
  usageBasedRevocation: 'TRIGGER_TYPE_UNUSED_ACCESS',
  userCreated: 'TRIGGER_TYPE_USER_CREATED',
  userProfileChange: 'TRIGGER_TYPE_USER_PROFILE_CHANGE',
  webhook: 'TRIGGER_TYPE_WEBHOOK',
};

// ---- Automation ----

/** `circuitBreaker`: the breaker's observed state. */
export interface CircuitBreaker {
  observedCount?: number;
  period?: CircuitBreakerPeriod;
  threshold?: number;
  trippedAt?: Timestamp;
}

/** An automation, with its full triggers and steps (live and draft). */
export interface Automation {
  id?: string;
  appId?: string;
  currentVersion?: Int64String;
  description?: string;
  displayName?: string;
  annotations?: Record<string, string>;
  context?: AutomationContext | null;
  enabled?: boolean;
  isDraft?: boolean;
  createdAt?: Timestamp;
  lastExecutedAt?: Timestamp;
  primaryTriggerType?: TriggerType;
  circuitBreaker?: CircuitBreaker | null;
  circuitBreakerMax?: number;
  circuitBreakerPeriod?: CircuitBreakerPeriod;
  automationSteps?: AutomationStep[] | null;
  draftAutomationSteps?: AutomationStep[] | null;
  triggers?: AutomationTrigger[] | null;
  draftTriggers?: AutomationTrigger[] | null;
}

/** The automation fields of the spec's table. */
export const AUTOMATION_FIELDS = [
  'id',
  'appId',
  'currentVersion',
  'description',
  'displayName',
  'annotations',
  'context',
  'enabled',
  'isDraft',
  'createdAt',
  'lastExecutedAt',
  'primaryTriggerType',
  'circuitBreaker',
  'circuitBreakerMax',
  'circuitBreakerPeriod',
  'automationSteps',
  'draftAutomationSteps',
  'triggers',
  'draftTriggers',
] as const satisfies readonly (keyof Automation)[];

/** Body of `POST /api/v1/search/automations`. Ask for 10 rows or fewer: each row carries its full steps. */
export interface SearchAutomationsRequest {
  appId?: string;
  appIds?: string[] | null;
  isDraft?: boolean | null;
  pageSize?: number;
  pageToken?: string;
  /** Free text. */
  query?: string;
  /** Automation (template) refs. */
  refs?: AutomationTemplateRef[] | null;
  statuses?: AutomationStatusFilter[] | null;
  triggerTypes?: TriggerType[] | null;
  /** Vendor fields. */
  sortField?: AutomationSortField;
  direction?: SortDirection;
}

/** Answer of search automations. */
export type SearchAutomationsResponse = Page<Automation>;

/** Answer of `GET /api/v1/automations`. */
export type ListAutomationsResponse = Page<Automation>;

/** Answer of `GET /api/v1/automations/{id}`. */
export interface GetAutomationResponse {
  automation?: Automation | null;
}
