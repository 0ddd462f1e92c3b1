/**
 * The enumerations of the Access Governance API (spec "Resources and their fields"), each as a
 * `const` array of its values. Where the spec lists only the `..._UNSPECIFIED` member, the values
 * come from the vendor's OpenAPI document (`c1-openapi.subset.json`), which is the authority there.
 *
 * The service may send values that are not listed here (the spec: "Clients must tolerate enum
 * values they do not know"). Every enum type is therefore open: `Known | (string & {})`. Nothing in
 * this module rejects or drops an unknown value; `isKnownEnumValue` only tells them apart and
 * `enumLabel` shows them as written, flagged unknown (enum-words.ts writes them for every front).
 */

/** An enumeration that accepts any string, while keeping the known values for autocompletion. */
export type OpenEnum<Known extends string> = Known | (string & {});

/** The known values of one enumeration. */
export type EnumValues = readonly string[];

/** True when `value` is one of the listed values. Unknown strings and non-strings give false. */
export function isKnownEnumValue<V extends string>(values: readonly V[], value: unknown): value is V {
  return typeof value === 'string' && (values as readonly string[]).includes(value);
}

/** How an enum value reads for people. */
export interface EnumLabel {
  /** The value exactly as the API wrote it ('' when the field is absent). */
  value: string;
  /** Known values: a short readable label ('XAA_SCOPE_STATE_PENDING_REVIEW' -> 'Pending review'). Unknown ones: the value as written. */
  label: string;
  /** True only for a listed value. */
  known: boolean;
  /** True when the field carried no value at all (absent, null or ''). The service omits empty fields. */
  absent: boolean;
}

const prefixCache = new WeakMap<EnumValues, string>();

/**
 * The prefix shared by an enumeration's values: the `..._UNSPECIFIED` member's prefix when it has
 * one, otherwise their longest common prefix cut back to a word boundary ('_').
 */
export function enumPrefix(values: EnumValues): string {
  const cached = prefixCache.get(values);
  if (cached !== undefined) return cached;
  let prefix = '';
  const unspecified = values.find((v) => v.endsWith('_UNSPECIFIED'));
  const candidate = unspecified?.slice(0, -'UNSPECIFIED'.length);
  if (candidate && values.every((v) => v.startsWith(candidate) && v.length > candidate.length)) {
    prefix = candidate;
  } else if (values.length > 1) {
    let common = values[0] ?? '';
    for (const v of values) {
      while (!v.startsWith(common)) common = common.slice(0, -1);
    }
    prefix = common.slice(0, common.lastIndexOf('_') + 1);
    if (values.some((v) => v.length === prefix.length)) prefix = '';
  }
  prefixCache.set(values, prefix);
  return prefix;
}

/** Words kept in capitals in labels. */
const ACRONYMS = new Set(['API', 'CEL', 'HTTP', 'ID', 'IP', 'MCP', 'NHI', 'SSO', 'URL']);

function humanize(rest: string): string {
  const words = rest.split('_').filter((w) => w.length > 0);
  const text = words.map((w) => (ACRONYMS.has(w) ? w : w.toLowerCase())).join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * A display label for an enum value. Known values lose their shared prefix and read as a sentence
 * ('TRIGGER_TYPE_GRANT_FOUND' -> 'Grant found'); unknown values are returned exactly as written and
 * flagged `known: false`, never dropped.
 */
export function enumLabel(values: EnumValues, value: string | null | undefined): EnumLabel {
  if (value === undefined || value === null || value === '') return { value: '', label: '', known: false, absent: true };
  if (!isKnownEnumValue(values, value)) return { value, label: value, known: false, absent: false };
  const prefix = enumPrefix(values);
  const label = humanize(value.slice(prefix.length));
  return { value, label: label === '' ? value : label, known: true, absent: false };
}

// ---- Cross-app access scopes ----

/** Scope `classification`: risk classification. */
export const XAA_SCOPE_CLASSIFICATION_VALUES = [
  'XAA_SCOPE_CLASSIFICATION_UNSPECIFIED',
  'XAA_SCOPE_CLASSIFICATION_READ',
  'XAA_SCOPE_CLASSIFICATION_WRITE',
  'XAA_SCOPE_CLASSIFICATION_DESTRUCTIVE',
  'XAA_SCOPE_CLASSIFICATION_SENSITIVE',
  'XAA_SCOPE_CLASSIFICATION_DANGEROUS',
] as const;
export type XaaScopeClassification = OpenEnum<(typeof XAA_SCOPE_CLASSIFICATION_VALUES)[number]>;

/** Scope `state`: approval / lifecycle state. */
export const XAA_SCOPE_STATE_VALUES = [
  'XAA_SCOPE_STATE_UNSPECIFIED',
  'XAA_SCOPE_STATE_PENDING_REVIEW',
  'XAA_SCOPE_STATE_ENABLED',
  'XAA_SCOPE_STATE_DISABLED',
  'XAA_SCOPE_STATE_REMOVED',
] as const;
export type XaaScopeState = OpenEnum<(typeof XAA_SCOPE_STATE_VALUES)[number]>;

/** Scope `source`: how the service learned of the scope. */
export const XAA_SCOPE_SOURCE_VALUES = [
  'XAA_SCOPE_SOURCE_UNSPECIFIED',
  'XAA_SCOPE_SOURCE_ADMIN_DECLARED',
  'XAA_SCOPE_SOURCE_DISCOVERED',
] as const;
export type XaaScopeSource = OpenEnum<(typeof XAA_SCOPE_SOURCE_VALUES)[number]>;

// ---- Scope selector, inclusion and exclusion scopes ----

/** accountCriteria `accountDomain` (responses only). */
export const APP_USER_DOMAIN_VALUES = ['APP_USER_DOMAIN_UNSPECIFIED', 'APP_USER_DOMAIN_EXTERNAL', 'APP_USER_DOMAIN_TRUSTED'] as const;
export type AppUserDomain = OpenEnum<(typeof APP_USER_DOMAIN_VALUES)[number]>;

/** Account types: accountCriteria `accountTypes`, inclusion/exclusion `appUserTypes`, trigger `accountType`, `targetedAppUserTypes`. */
export const APP_USER_TYPE_VALUES = [
  'APP_USER_TYPE_UNSPECIFIED',
  'APP_USER_TYPE_USER',
  'APP_USER_TYPE_SERVICE_ACCOUNT',
  'APP_USER_TYPE_SYSTEM_ACCOUNT',
] as const;
export type AppUserType = OpenEnum<(typeof APP_USER_TYPE_VALUES)[number]>;

/** Account statuses: accountCriteria and inclusion/exclusion `appUserStatuses`. */
export const APP_USER_STATUS_VALUES = [
  'APP_USER_STATUS_UNSPECIFIED',
  'APP_USER_STATUS_ENABLED',
  'APP_USER_STATUS_DISABLED',
  'APP_USER_STATUS_DELETED',
] as const;
export type AppUserStatus = OpenEnum<(typeof APP_USER_STATUS_VALUES)[number]>;

/** userCriteria `userStatus` and updateUser `userStatusEnum` (zero value UNKNOWN, no UNSPECIFIED member). */
export const USER_STATUS_VALUES = ['UNKNOWN', 'ENABLED', 'DISABLED', 'DELETED'] as const;
export type UserStatus = OpenEnum<(typeof USER_STATUS_VALUES)[number]>;

/** inclusionScope `userStatuses` (zero value USER_UNKNOWN, no UNSPECIFIED member). */
export const INCLUSION_USER_STATUS_VALUES = ['USER_UNKNOWN', 'USER_ENABLED', 'USER_DISABLED', 'USER_DELETED'] as const;
export type InclusionUserStatus = OpenEnum<(typeof INCLUSION_USER_STATUS_VALUES)[number]>;

/** grantsByCriteria.accessProfileFilter `filterType` (responses only). */
export const ACCESS_PROFILE_FILTER_TYPE_VALUES = [
  'ACCESS_PROFILE_FILTER_TYPE_UNSPECIFIED',
  'ACCESS_PROFILE_FILTER_TYPE_INCLUDE_ALL',
  'ACCESS_PROFILE_FILTER_TYPE_EXCLUDE_ALL',
  'ACCESS_PROFILE_FILTER_TYPE_EXCLUDE_SPECIFIC',
  'ACCESS_PROFILE_FILTER_TYPE_INCLUDE_SPECIFIC',
] as const;
export type AccessProfileFilterType = OpenEnum<(typeof ACCESS_PROFILE_FILTER_TYPE_VALUES)[number]>;

/** grantsByCriteria `sourceFilter`, grant trigger `grantSourceFilter`. */
export const GRANT_SOURCE_FILTER_VALUES = [
  'GRANT_SOURCE_FILTER_UNSPECIFIED',
  'GRANT_SOURCE_FILTER_DIRECT',
  'GRANT_SOURCE_FILTER_INHERITED',
] as const;
export type GrantSourceFilter = OpenEnum<(typeof GRANT_SOURCE_FILTER_VALUES)[number]>;

/** grantsByCriteria `typeFilter`, grant trigger `grantFilterType`. */
export const GRANT_FILTER_TYPE_VALUES = [
  'GRANT_FILTER_TYPE_UNSPECIFIED',
  'GRANT_FILTER_TYPE_PERMANENT',
  'GRANT_FILTER_TYPE_TEMPORARY',
] as const;
export type GrantFilterType = OpenEnum<(typeof GRANT_FILTER_TYPE_VALUES)[number]>;

/** Scope selector `principalTypeFilter` (responses only). */
export const PRINCIPAL_TYPE_FILTER_VALUES = [
  'PRINCIPAL_TYPE_FILTER_UNSPECIFIED',
  'PRINCIPAL_TYPE_FILTER_USERS',
  'PRINCIPAL_TYPE_FILTER_RESOURCES',
  'PRINCIPAL_TYPE_FILTER_USERS_AND_RESOURCES',
] as const;
export type PrincipalTypeFilter = OpenEnum<(typeof PRINCIPAL_TYPE_FILTER_VALUES)[number]>;

// ---- Access review templates and campaigns ----

/** columnConfig `columns`. */
export const ACCESS_REVIEW_TASK_COLUMN_VALUES = [
  'ACCESS_REVIEW_TASK_COLUMN_UNSPECIFIED',
  'ACCESS_REVIEW_TASK_COLUMN_VIEW_LINK',
  'ACCESS_REVIEW_TASK_COLUMN_CURRENT_STATE',
  'ACCESS_REVIEW_TASK_COLUMN_ACCOUNT',
  'ACCESS_REVIEW_TASK_COLUMN_ACCOUNT_OWNER',
  'ACCESS_REVIEW_TASK_COLUMN_ENTITLEMENT',
  'ACCESS_REVIEW_TASK_COLUMN_ENTITLEMENT_DESCRIPTION',
  'ACCESS_REVIEW_TASK_COLUMN_RESOURCE',
  'ACCESS_REVIEW_TASK_COLUMN_RESOURCE_TYPE',
  'ACCESS_REVIEW_TASK_COLUMN_INSIGHTS',
  'ACCESS_REVIEW_TASK_COLUMN_RECOMMENDATION',
  'ACCESS_REVIEW_TASK_COLUMN_ASSIGNED_TO',
  'ACCESS_REVIEW_TASK_COLUMN_STATUS',
  'ACCESS_REVIEW_TASK_COLUMN_APP',
  'ACCESS_REVIEW_TASK_COLUMN_DUE',
  'ACCESS_REVIEW_TASK_COLUMN_PROJECT',
  'ACCESS_REVIEW_TASK_COLUMN_CREATED_ON',
  'ACCESS_REVIEW_TASK_COLUMN_TASK_AGE',
  'ACCESS_REVIEW_TASK_COLUMN_RESOLVED_ON',
  'ACCESS_REVIEW_TASK_COLUMN_ENROLLMENT_STATUS',
  'ACCESS_REVIEW_TASK_COLUMN_INHERITED_FROM',
  'ACCESS_REVIEW_TASK_COLUMN_DEPARTMENT',
  'ACCESS_REVIEW_TASK_COLUMN_JOB_TITLE',
  'ACCESS_REVIEW_TASK_COLUMN_CREATED_BY',
  'ACCESS_REVIEW_TASK_COLUMN_LAST_LOGIN',
  'ACCESS_REVIEW_TASK_COLUMN_RESOURCE_PARENT',
  'ACCESS_REVIEW_TASK_COLUMN_RESOURCE_CHILDREN',
  'ACCESS_REVIEW_TASK_COLUMN_APP_USER_USERNAME',
  'ACCESS_REVIEW_TASK_COLUMN_ACCESS_HOLDER_TYPE',
  'ACCESS_REVIEW_TASK_COLUMN_RISK_LEVEL',
  'ACCESS_REVIEW_TASK_COLUMN_COMPLIANCE_FRAMEWORK',
] as const;
export type AccessReviewTaskColumn = OpenEnum<(typeof ACCESS_REVIEW_TASK_COLUMN_VALUES)[number]>;

/** recurrenceRule `frequency` (responses only). */
export const FREQUENCY_VALUES = [
  'FREQUENCY_UNSPECIFIED',
  'FREQUENCY_NONE',
  'FREQUENCY_DAILY',
  'FREQUENCY_WEEKLY',
  'FREQUENCY_MONTHLY',
  'FREQUENCY_YEARLY',
] as const;
export type Frequency = OpenEnum<(typeof FREQUENCY_VALUES)[number]>;

/** Template / campaign `accuracyIssueAction` (responses only). */
export const ACCURACY_ISSUE_ACTION_VALUES = [
  'ACCURACY_ISSUE_ACTION_UNSPECIFIED',
  'ACCURACY_ISSUE_ACTION_CONTINUE',
  'ACCURACY_ISSUE_ACTION_WAIT',
] as const;
export type AccuracyIssueAction = OpenEnum<(typeof ACCURACY_ISSUE_ACTION_VALUES)[number]>;

/** Template / campaign `autoCloseDecision` (responses only). */
export const CLOSE_DECISION_VALUES = [
  'CLOSE_DECISION_UNSPECIFIED',
  'CLOSE_DECISION_REVOKED',
  'CLOSE_DECISION_SKIP',
  'CLOSE_DECISION_NO_ACTION',
] as const;
export type CloseDecision = OpenEnum<(typeof CLOSE_DECISION_VALUES)[number]>;

/** Template / campaign `defaultView` (responses only). */
export const ACCESS_REVIEW_VIEW_TYPE_VALUES = [
  'ACCESS_REVIEW_VIEW_TYPE_UNSPECIFIED',
  'ACCESS_REVIEW_VIEW_TYPE_BY_APP',
  'ACCESS_REVIEW_VIEW_TYPE_BY_USER',
  'ACCESS_REVIEW_VIEW_TYPE_UNSTRUCTURED',
  'ACCESS_REVIEW_VIEW_TYPE_BY_RESOURCE',
] as const;
export type AccessReviewViewType = OpenEnum<(typeof ACCESS_REVIEW_VIEW_TYPE_VALUES)[number]>;

/** Template / campaign `scopeType` (responses only). */
export const ACCESS_REVIEW_SCOPE_TYPE_VALUES = [
  'ACCESS_REVIEW_SCOPE_TYPE_UNSPECIFIED',
  'ACCESS_REVIEW_SCOPE_TYPE_BY_ENTITLEMENTS',
  'ACCESS_REVIEW_SCOPE_TYPE_BY_ACCESS_CONFLICTS',
  'ACCESS_REVIEW_SCOPE_TYPE_BY_RESOURCE',
  'ACCESS_REVIEW_SCOPE_TYPE_BY_INHERITANCE',
  'ACCESS_REVIEW_SCOPE_TYPE_BY_USERS',
] as const;
export type AccessReviewScopeType = OpenEnum<(typeof ACCESS_REVIEW_SCOPE_TYPE_VALUES)[number]>;

/** Campaign `state`. */
export const ACCESS_REVIEW_STATE_VALUES = [
  'ACCESS_REVIEW_STATE_UNSPECIFIED',
  'ACCESS_REVIEW_STATE_OPEN',
  'ACCESS_REVIEW_STATE_CLOSED',
  'ACCESS_REVIEW_STATE_PENDING',
  'ACCESS_REVIEW_STATE_REVIEW',
  'ACCESS_REVIEW_STATE_PREPARING',
  'ACCESS_REVIEW_STATE_STARTING',
  'ACCESS_REVIEW_STATE_DRAFT',
  'ACCESS_REVIEW_STATE_DELETING',
  'ACCESS_REVIEW_STATE_DELETED',
  'ACCESS_REVIEW_STATE_RESETTING_POLICIES',
  'ACCESS_REVIEW_STATE_COPYING_SETUP_ENTITLEMENTS',
  'ACCESS_REVIEW_STATE_COPYING_RESOURCE_TYPE_SELECTIONS',
] as const;
export type AccessReviewState = OpenEnum<(typeof ACCESS_REVIEW_STATE_VALUES)[number]>;

/** Campaign `errorState`. */
export const ACCESS_REVIEW_ERROR_STATE_VALUES = [
  'ACCESS_REVIEW_ERROR_STATE_UNSPECIFIED',
  'ACCESS_REVIEW_ERROR_STATE_SELECTION_QUOTA_EXCEED_ERROR',
] as const;
export type AccessReviewErrorState = OpenEnum<(typeof ACCESS_REVIEW_ERROR_STATE_VALUES)[number]>;

// ---- Automations ----

/** Automation `primaryTriggerType`; search filter `triggerTypes`. */
export const TRIGGER_TYPE_VALUES = [
  'TRIGGER_TYPE_UNSPECIFIED',
  'TRIGGER_TYPE_USER_PROFILE_CHANGE',
  'TRIGGER_TYPE_APP_USER_CREATE',
  'TRIGGER_TYPE_APP_USER_UPDATE',
  'TRIGGER_TYPE_UNUSED_ACCESS',
  'TRIGGER_TYPE_USER_CREATED',
  'TRIGGER_TYPE_GRANT_FOUND',
  'TRIGGER_TYPE_GRANT_DELETED',
  'TRIGGER_TYPE_WEBHOOK',
  'TRIGGER_TYPE_SCHEDULE',
  'TRIGGER_TYPE_FORM',
  'TRIGGER_TYPE_SCHEDULE_APP_USER',
  'TRIGGER_TYPE_ACCESS_CONFLICT',
  'TRIGGER_TYPE_SCHEDULE_NO_USER',
] as const;
export type TriggerType = OpenEnum<(typeof TRIGGER_TYPE_VALUES)[number]>;

/** Automation `circuitBreakerPeriod`, circuitBreaker `period`. */
export const CIRCUIT_BREAKER_PERIOD_VALUES = [
  'CIRCUIT_BREAKER_PERIOD_UNSPECIFIED',
  'CIRCUIT_BREAKER_PERIOD_HOUR',
  'CIRCUIT_BREAKER_PERIOD_DAY',
  'CIRCUIT_BREAKER_PERIOD_WEEK',
  'CIRCUIT_BREAKER_PERIOD_MONTH',
] as const;
export type CircuitBreakerPeriod = OpenEnum<(typeof CIRCUIT_BREAKER_PERIOD_VALUES)[number]>;

/** Search automations filter `statuses`. */
export const AUTOMATION_STATUS_FILTER_VALUES = [
  'AUTOMATION_STATUS_FILTER_UNSPECIFIED',
  'AUTOMATION_STATUS_FILTER_ON',
  'AUTOMATION_STATUS_FILTER_OFF',
] as const;
export type AutomationStatusFilter = OpenEnum<(typeof AUTOMATION_STATUS_FILTER_VALUES)[number]>;

/** Search automations `sortField`. */
export const AUTOMATION_SORT_FIELD_VALUES = [
  'AUTOMATION_SORT_FIELD_UNSPECIFIED',
  'AUTOMATION_SORT_FIELD_DISPLAY_NAME',
  'AUTOMATION_SORT_FIELD_CREATED_AT',
  'AUTOMATION_SORT_FIELD_LAST_EXECUTED_AT',
  'AUTOMATION_SORT_FIELD_ENABLED',
  'AUTOMATION_SORT_FIELD_PRIMARY_TRIGGER_TYPE',
] as const;
export type AutomationSortField = OpenEnum<(typeof AUTOMATION_SORT_FIELD_VALUES)[number]>;

/** Search automations `direction`. */
export const SORT_DIRECTION_VALUES = ['SORT_DIRECTION_UNSPECIFIED', 'SORT_DIRECTION_ASC', 'SORT_DIRECTION_DESC'] as const;
export type SortDirection = OpenEnum<(typeof SORT_DIRECTION_VALUES)[number]>;

/** storeCredential `authType`. */
export const STORE_CREDENTIAL_AUTH_TYPE_VALUES = [
  'STORE_CREDENTIAL_AUTH_TYPE_UNSPECIFIED',
  'STORE_CREDENTIAL_AUTH_TYPE_SSO_INTERNAL',
  'STORE_CREDENTIAL_AUTH_TYPE_VERIFY_EMAIL',
] as const;
export type StoreCredentialAuthType = OpenEnum<(typeof STORE_CREDENTIAL_AUTH_TYPE_VALUES)[number]>;

/** storeCredential `vaultType`. */
export const STORE_CREDENTIAL_VAULT_TYPE_VALUES = [
  'STORE_CREDENTIAL_VAULT_TYPE_UNSPECIFIED',
  'STORE_CREDENTIAL_VAULT_TYPE_PAPER_VAULT',
  'STORE_CREDENTIAL_VAULT_TYPE_APP_VAULT',
] as const;
export type StoreCredentialVaultType = OpenEnum<(typeof STORE_CREDENTIAL_VAULT_TYPE_VALUES)[number]>;

/** taskAction `taskTypes`. */
export const TASK_TYPE_VALUES = ['TASK_TYPE_UNSPECIFIED', 'TASK_TYPE_REQUEST', 'TASK_TYPE_REVOKE', 'TASK_TYPE_REVIEW'] as const;
export type AutomationTaskType = OpenEnum<(typeof TASK_TYPE_VALUES)[number]>;

/** taskAction `taskUserRelation`. */
export const TASK_USER_RELATION_VALUES = [
  'TASK_USER_RELATION_UNSPECIFIED',
  'TASK_USER_RELATION_ASSIGNEE',
  'TASK_USER_RELATION_SUBJECT',
] as const;
export type TaskUserRelation = OpenEnum<(typeof TASK_USER_RELATION_VALUES)[number]>;

/** Grant trigger filter `grantJustificationType`. */
export const GRANT_JUSTIFICATION_TYPE_VALUES = [
  'GRANT_JUSTIFICATION_TYPE_UNSPECIFIED',
  'GRANT_JUSTIFICATION_TYPE_ALL',
  'GRANT_JUSTIFICATION_TYPE_CONDUCTOR_ONE',
  'GRANT_JUSTIFICATION_TYPE_DIRECT',
] as const;
export type GrantJustificationType = OpenEnum<(typeof GRANT_JUSTIFICATION_TYPE_VALUES)[number]>;

// ---- Tasks ----

/** Task `actions`. */
export const TASK_ACTION_TYPE_VALUES = [
  'TASK_ACTION_TYPE_UNSPECIFIED',
  'TASK_ACTION_TYPE_CLOSE',
  'TASK_ACTION_TYPE_APPROVE',
  'TASK_ACTION_TYPE_DENY',
  'TASK_ACTION_TYPE_COMMENT',
  'TASK_ACTION_TYPE_DELETE',
  'TASK_ACTION_TYPE_REASSIGN',
  'TASK_ACTION_TYPE_RESTART',
  'TASK_ACTION_TYPE_SEND_REMINDER',
  'TASK_ACTION_TYPE_PROVISION_COMPLETE',
  'TASK_ACTION_TYPE_PROVISION_CANCELLED',
  'TASK_ACTION_TYPE_PROVISION_ERRORED',
  'TASK_ACTION_TYPE_ROLLBACK_SKIPPED',
  'TASK_ACTION_TYPE_PROVISION_APP_USER_TARGET_CREATED',
  'TASK_ACTION_TYPE_HARD_RESET',
  'TASK_ACTION_TYPE_ESCALATE_TO_EMERGENCY_ACCESS',
  'TASK_ACTION_TYPE_CHANGE_POLICY',
  'TASK_ACTION_TYPE_RECALCULATE_DENIAL_FROM_BASE_POLICY_DECISIONS',
  'TASK_ACTION_TYPE_SET_INSIGHTS_AND_RECOMMENDATION',
  'TASK_ACTION_TYPE_SET_ANALYSIS_ID',
  'TASK_ACTION_TYPE_RECALCULATE_APPROVERS_LIST',
  'TASK_ACTION_TYPE_PROCESS_NOW',
  'TASK_ACTION_TYPE_APPROVE_WITH_STEP_UP',
  'TASK_ACTION_TYPE_SKIP_STEP',
  'TASK_ACTION_TYPE_ROLLBACK_CANCELLED',
  'TASK_ACTION_TYPE_UPDATE_REQUEST_DATA',
  'TASK_ACTION_TYPE_UPDATE_GRANT_DURATION',
  'TASK_ACTION_TYPE_RETRY_PROVISIONING',
] as const;
export type TaskActionType = OpenEnum<(typeof TASK_ACTION_TYPE_VALUES)[number]>;

/** Task `origin`. */
export const TASK_ORIGIN_VALUES = [
  'TASK_ORIGIN_UNSPECIFIED',
  'TASK_ORIGIN_PROFILE_MEMBERSHIP_AUTOMATION',
  'TASK_ORIGIN_SLACK',
  'TASK_ORIGIN_API',
  'TASK_ORIGIN_JIRA',
  'TASK_ORIGIN_COPILOT',
  'TASK_ORIGIN_WEBAPP',
  'TASK_ORIGIN_TIME_REVOKE',
  'TASK_ORIGIN_NON_USAGE_REVOKE',
  'TASK_ORIGIN_PROFILE_MEMBERSHIP_MANUAL',
  'TASK_ORIGIN_PROFILE_MEMBERSHIP',
  'TASK_ORIGIN_AUTOMATION',
  'TASK_ORIGIN_ACCESS_REVIEW',
  'TASK_ORIGIN_CASCADE_DELETE',
] as const;
export type TaskOrigin = OpenEnum<(typeof TASK_ORIGIN_VALUES)[number]>;

/** Task externalRefs `externalRefSource` (zero value UNSPECIFIED, unprefixed). */
export const EXTERNAL_REF_SOURCE_VALUES = ['UNSPECIFIED', 'JIRA'] as const;
export type ExternalRefSource = OpenEnum<(typeof EXTERNAL_REF_SOURCE_VALUES)[number]>;

/** Task `state`; task search `taskStates`. */
export const TASK_STATE_VALUES = ['TASK_STATE_UNSPECIFIED', 'TASK_STATE_OPEN', 'TASK_STATE_CLOSED'] as const;
export type TaskState = OpenEnum<(typeof TASK_STATE_VALUES)[number]>;

/** Task `processing`. */
export const TASK_PROCESSING_TYPE_VALUES = [
  'TASK_PROCESSING_TYPE_UNSPECIFIED',
  'TASK_PROCESSING_TYPE_PROCESSING',
  'TASK_PROCESSING_TYPE_WAITING',
  'TASK_PROCESSING_TYPE_DONE',
] as const;
export type TaskProcessingType = OpenEnum<(typeof TASK_PROCESSING_TYPE_VALUES)[number]>;

/** Task `recommendation`. */
export const INSIGHT_RECOMMENDATION_VALUES = [
  'INSIGHT_RECOMMENDATION_UNSPECIFIED',
  'INSIGHT_RECOMMENDATION_APPROVE',
  'INSIGHT_RECOMMENDATION_DENY',
  'INSIGHT_RECOMMENDATION_REVIEW',
] as const;
export type InsightRecommendation = OpenEnum<(typeof INSIGHT_RECOMMENDATION_VALUES)[number]>;

/** Grant task `outcome`. */
export const GRANT_OUTCOME_VALUES = [
  'GRANT_OUTCOME_UNSPECIFIED',
  'GRANT_OUTCOME_GRANTED',
  'GRANT_OUTCOME_DENIED',
  'GRANT_OUTCOME_ERROR',
  'GRANT_OUTCOME_CANCELLED',
  'GRANT_OUTCOME_WAIT_TIMED_OUT',
] as const;
export type GrantOutcome = OpenEnum<(typeof GRANT_OUTCOME_VALUES)[number]>;

/** Revoke task `outcome`. */
export const REVOKE_OUTCOME_VALUES = [
  'REVOKE_OUTCOME_UNSPECIFIED',
  'REVOKE_OUTCOME_REVOKED',
  'REVOKE_OUTCOME_DENIED',
  'REVOKE_OUTCOME_ERROR',
  'REVOKE_OUTCOME_CANCELLED',
  'REVOKE_OUTCOME_WAIT_TIMED_OUT',
] as const;
export type RevokeOutcome = OpenEnum<(typeof REVOKE_OUTCOME_VALUES)[number]>;

/** Certify task `outcome`. */
export const CERTIFY_OUTCOME_VALUES = [
  'CERTIFY_OUTCOME_UNSPECIFIED',
  'CERTIFY_OUTCOME_CERTIFIED',
  'CERTIFY_OUTCOME_DECERTIFIED',
  'CERTIFY_OUTCOME_ERROR',
  'CERTIFY_OUTCOME_CANCELLED',
  'CERTIFY_OUTCOME_WAIT_TIMED_OUT',
] as const;
export type CertifyOutcome = OpenEnum<(typeof CERTIFY_OUTCOME_VALUES)[number]>;

/** Offboarding task `outcome`. */
export const OFFBOARDING_OUTCOME_VALUES = [
  'OFFBOARDING_OUTCOME_UNSPECIFIED',
  'OFFBOARDING_OUTCOME_IN_PROGRESS',
  'OFFBOARDING_OUTCOME_DONE',
  'OFFBOARDING_OUTCOME_ERROR',
  'OFFBOARDING_OUTCOME_CANCELLED',
] as const;
export type OffboardingOutcome = OpenEnum<(typeof OFFBOARDING_OUTCOME_VALUES)[number]>;

/** Finding task `outcome`. */
export const FINDING_TASK_OUTCOME_VALUES = [
  'FINDING_TASK_OUTCOME_UNSPECIFIED',
  'FINDING_TASK_OUTCOME_REMEDIATED',
  'FINDING_TASK_OUTCOME_RISK_ACCEPTED',
  'FINDING_TASK_OUTCOME_CANCELLED',
] as const;
export type FindingTaskOutcome = OpenEnum<(typeof FINDING_TASK_OUTCOME_VALUES)[number]>;

/** Action task `outcome`. */
export const ACTION_OUTCOME_VALUES = [
  'ACTION_OUTCOME_UNSPECIFIED',
  'ACTION_OUTCOME_SUCCESS',
  'ACTION_OUTCOME_DENIED',
  'ACTION_OUTCOME_ERROR',
  'ACTION_OUTCOME_CANCELLED',
] as const;
export type ActionOutcome = OpenEnum<(typeof ACTION_OUTCOME_VALUES)[number]>;

/** Action task `type` (unprefixed TYPE_* values). */
export const TASK_TYPE_ACTION_KIND_VALUES = [
  'TYPE_UNSPECIFIED',
  'TYPE_GRANT',
  'TYPE_WORKFLOW',
  'TYPE_RESOURCE_ACTION',
  'TYPE_TOOL_CALL',
  'TYPE_MANUAL',
] as const;
export type TaskTypeActionKind = OpenEnum<(typeof TASK_TYPE_ACTION_KIND_VALUES)[number]>;

/** connectorActionRef `operation`. */
export const CONNECTOR_ACTION_OPERATION_VALUES = ['OPERATION_UNSPECIFIED', 'OPERATION_GRANT'] as const;
export type ConnectorActionOperation = OpenEnum<(typeof CONNECTOR_ACTION_OPERATION_VALUES)[number]>;

/** Policy step instance `state`. */
export const POLICY_STEP_STATE_VALUES = ['POLICY_STEP_STATE_UNSPECIFIED', 'POLICY_STEP_STATE_ACTIVE', 'POLICY_STEP_STATE_DONE'] as const;
export type PolicyStepState = OpenEnum<(typeof POLICY_STEP_STATE_VALUES)[number]>;

/** Action step instance `state`. */
export const ACTION_INSTANCE_STATE_VALUES = [
  'ACTION_INSTANCE_STATE_UNSPECIFIED',
  'ACTION_INSTANCE_STATE_INIT',
  'ACTION_INSTANCE_STATE_RUNNING',
  'ACTION_INSTANCE_STATE_DONE',
  'ACTION_INSTANCE_STATE_ERROR',
] as const;
export type ActionInstanceState = OpenEnum<(typeof ACTION_INSTANCE_STATE_VALUES)[number]>;

/** Approval step instance `state`. */
export const APPROVAL_INSTANCE_STATE_VALUES = [
  'APPROVAL_INSTANCE_STATE_UNSPECIFIED',
  'APPROVAL_INSTANCE_STATE_INIT',
  'APPROVAL_INSTANCE_STATE_SENDING_NOTIFICATIONS',
  'APPROVAL_INSTANCE_STATE_WAITING',
  'APPROVAL_INSTANCE_STATE_DONE',
] as const;
export type ApprovalInstanceState = OpenEnum<(typeof APPROVAL_INSTANCE_STATE_VALUES)[number]>;

/** Form step instance `state`. */
export const FORM_INSTANCE_STATE_VALUES = [
  'FORM_INSTANCE_STATE_UNSPECIFIED',
  'FORM_INSTANCE_STATE_WAITING',
  'FORM_INSTANCE_STATE_DONE',
] as const;
export type FormInstanceState = OpenEnum<(typeof FORM_INSTANCE_STATE_VALUES)[number]>;

/** Provision step instance `state`. */
export const PROVISION_INSTANCE_STATE_VALUES = [
  'PROVISION_INSTANCE_STATE_UNSPECIFIED',
  'PROVISION_INSTANCE_STATE_INIT',
  'PROVISION_INSTANCE_STATE_CREATE_CONNECTOR_ACTIONS_FOR_TARGET',
  'PROVISION_INSTANCE_STATE_SENDING_NOTIFICATIONS',
  'PROVISION_INSTANCE_STATE_WAITING',
  'PROVISION_INSTANCE_STATE_WEBHOOK',
  'PROVISION_INSTANCE_STATE_WEBHOOK_WAITING',
  'PROVISION_INSTANCE_STATE_EXTERNAL_TICKET',
  'PROVISION_INSTANCE_STATE_EXTERNAL_TICKET_WAITING',
  'PROVISION_INSTANCE_STATE_ACCOUNT_LIFECYCLE_ACTIONS',
  'PROVISION_INSTANCE_STATE_ACCOUNT_LIFECYCLE_ACTIONS_WAITING',
  'PROVISION_INSTANCE_STATE_DEVICE_PLACEMENT',
  'PROVISION_INSTANCE_STATE_DONE',
] as const;
export type ProvisionInstanceState = OpenEnum<(typeof PROVISION_INSTANCE_STATE_VALUES)[number]>;

/** Wait step instance `state`. */
export const WAIT_INSTANCE_STATE_VALUES = [
  'WAIT_INSTANCE_STATE_UNSPECIFIED',
  'WAIT_INSTANCE_STATE_WAITING',
  'WAIT_INSTANCE_STATE_COMPLETED',
  'WAIT_INSTANCE_STATE_TIMED_OUT',
] as const;
export type WaitInstanceState = OpenEnum<(typeof WAIT_INSTANCE_STATE_VALUES)[number]>;

/** Approval agent `agentFailureAction`. */
export const APPROVAL_AGENT_FAILURE_ACTION_VALUES = [
  'APPROVAL_AGENT_FAILURE_ACTION_UNSPECIFIED',
  'APPROVAL_AGENT_FAILURE_ACTION_REASSIGN_TO_USERS',
  'APPROVAL_AGENT_FAILURE_ACTION_REASSIGN_TO_SUPER_ADMINS',
  'APPROVAL_AGENT_FAILURE_ACTION_SKIP_POLICY_STEP',
] as const;
export type ApprovalAgentFailureAction = OpenEnum<(typeof APPROVAL_AGENT_FAILURE_ACTION_VALUES)[number]>;

/** Approval agent `agentMode`. */
export const APPROVAL_AGENT_MODE_VALUES = [
  'APPROVAL_AGENT_MODE_UNSPECIFIED',
  'APPROVAL_AGENT_MODE_FULL_CONTROL',
  'APPROVAL_AGENT_MODE_CHANGE_POLICY_ONLY',
  'APPROVAL_AGENT_MODE_COMMENT_ONLY',
] as const;
export type ApprovalAgentMode = OpenEnum<(typeof APPROVAL_AGENT_MODE_VALUES)[number]>;

/** Policy `policyType`. */
export const POLICY_TYPE_VALUES = [
  'POLICY_TYPE_UNSPECIFIED',
  'POLICY_TYPE_GRANT',
  'POLICY_TYPE_REVOKE',
  'POLICY_TYPE_CERTIFY',
  'POLICY_TYPE_ACCESS_REQUEST',
  'POLICY_TYPE_PROVISION',
] as const;
export type PolicyType = OpenEnum<(typeof POLICY_TYPE_VALUES)[number]>;

/** Policy scope `slot`. */
export const POLICY_SCOPE_SLOT_VALUES = ['POLICY_SCOPE_SLOT_UNSPECIFIED', 'POLICY_SCOPE_SLOT_EMERGENCY'] as const;
export type PolicyScopeSlot = OpenEnum<(typeof POLICY_SCOPE_SLOT_VALUES)[number]>;

/** Form selectField `type`. */
export const SELECT_TYPE_VALUES = ['SELECT_TYPE_UNSPECIFIED', 'SELECT_TYPE_DROPDOWN', 'SELECT_TYPE_RADIO', 'SELECT_TYPE_BUTTONS'] as const;
export type SelectType = OpenEnum<(typeof SELECT_TYPE_VALUES)[number]>;

/** String validation rule `wellKnownRegex` (zero value UNKNOWN). */
export const WELL_KNOWN_REGEX_VALUES = ['UNKNOWN', 'HTTP_HEADER_NAME', 'HTTP_HEADER_VALUE'] as const;
export type WellKnownRegex = OpenEnum<(typeof WELL_KNOWN_REGEX_VALUES)[number]>;

// ---- Task search filters ----

/** Task search `sortBy`. */
export const TASK_SEARCH_SORT_BY_VALUES = [
  'TASK_SEARCH_SORT_BY_UNSPECIFIED',
  'TASK_SEARCH_SORT_BY_ACCOUNT',
  'TASK_SEARCH_SORT_BY_RESOURCE',
  'TASK_SEARCH_SORT_BY_ACCOUNT_OWNER',
  'TASK_SEARCH_SORT_BY_REVERSE_TICKET_ID',
  'TASK_SEARCH_SORT_BY_TICKET_ID',
  'TASK_SEARCH_SORT_BY_CREATED_AT',
  'TASK_SEARCH_SORT_BY_REVERSE_CREATED_AT',
  'TASK_SEARCH_SORT_BY_APP_RESOURCE_ID_AND_APP_ENTITLEMENT',
] as const;
export type TaskSearchSortBy = OpenEnum<(typeof TASK_SEARCH_SORT_BY_VALUES)[number]>;

/** Task search `currentStep`. */
export const TASK_SEARCH_CURRENT_STEP_VALUES = [
  'TASK_SEARCH_CURRENT_STEP_UNSPECIFIED',
  'TASK_SEARCH_CURRENT_STEP_APPROVAL',
  'TASK_SEARCH_CURRENT_STEP_PROVISION',
] as const;
export type TaskSearchCurrentStep = OpenEnum<(typeof TASK_SEARCH_CURRENT_STEP_VALUES)[number]>;

/** Task search `stepApprovalTypes`. */
export const STEP_APPROVAL_TYPE_VALUES = [
  'STEP_APPROVAL_TYPE_UNSPECIFIED',
  'STEP_APPROVAL_TYPE_USERS',
  'STEP_APPROVAL_TYPE_MANAGER',
  'STEP_APPROVAL_TYPE_APP_OWNERS',
  'STEP_APPROVAL_TYPE_GROUP',
  'STEP_APPROVAL_TYPE_SELF',
  'STEP_APPROVAL_TYPE_ENTITLEMENT_OWNERS',
  'STEP_APPROVAL_TYPE_EXPRESSION',
  'STEP_APPROVAL_TYPE_WEBHOOK',
  'STEP_APPROVAL_TYPE_RESOURCE_OWNERS',
  'STEP_APPROVAL_TYPE_AGENT',
] as const;
export type StepApprovalType = OpenEnum<(typeof STEP_APPROVAL_TYPE_VALUES)[number]>;

/** Task search `pendingActionFilter`. */
export const PENDING_ACTION_FILTER_VALUES = [
  'PENDING_ACTION_FILTER_UNSPECIFIED',
  'PENDING_ACTION_FILTER_WITH_PENDING',
  'PENDING_ACTION_FILTER_WITHOUT_PENDING',
] as const;
export type PendingActionFilter = OpenEnum<(typeof PENDING_ACTION_FILTER_VALUES)[number]>;

/** Task search `emergencyStatus` (unprefixed values). */
export const EMERGENCY_STATUS_FILTER_VALUES = ['UNSPECIFIED', 'ALL', 'NON_EMERGENCY', 'EMERGENCY'] as const;
export type EmergencyStatusFilter = OpenEnum<(typeof EMERGENCY_STATUS_FILTER_VALUES)[number]>;

/** Task search `accountStatuses` (STATUS_* values). */
export const ACCOUNT_STATUS_FILTER_VALUES = ['STATUS_UNSPECIFIED', 'STATUS_ENABLED', 'STATUS_DISABLED', 'STATUS_DELETED'] as const;
export type AccountStatusFilter = OpenEnum<(typeof ACCOUNT_STATUS_FILTER_VALUES)[number]>;

// ---- Finding routing rules ----

/** Routing rule `findingType`. */
export const FINDING_TYPE_VALUES = [
  'FINDING_TYPE_UNSPECIFIED',
  'FINDING_TYPE_SIMILAR_USERNAME_MATCH',
  'FINDING_TYPE_SERVICE_ACCOUNT_MISCLASSIFICATION',
  'FINDING_TYPE_NHI_UNOWNED',
  'FINDING_TYPE_SERVICE_ACCOUNT_UNOWNED',
  'FINDING_TYPE_DECOY_CREDENTIAL_USED',
  'FINDING_TYPE_CUSTOM',
  'FINDING_TYPE_CONNECTOR_ANOMALY_DETECTION_DISABLED',
  'FINDING_TYPE_DEACTIVATED_OWNER',
  'FINDING_TYPE_UNUSED_SECRET',
  'FINDING_TYPE_CREDENTIAL_PUBLICLY_EXPOSED',
  'FINDING_TYPE_DECOY_PUBLICLY_EXPOSED',
  'FINDING_TYPE_CREDENTIAL_EXPIRING',
] as const;
export type FindingType = OpenEnum<(typeof FINDING_TYPE_VALUES)[number]>;

/** Routing rule dispatcher `tierOverride`. */
export const FINDING_DISPATCH_TIER_VALUES = [
  'FINDING_DISPATCH_TIER_UNSPECIFIED',
  'FINDING_DISPATCH_TIER_AUTO',
  'FINDING_DISPATCH_TIER_REQUIRES_APPROVAL',
] as const;
export type FindingDispatchTier = OpenEnum<(typeof FINDING_DISPATCH_TIER_VALUES)[number]>;

/** Routing rule notify dispatcher `detailLevel`. */
export const FINDING_NOTIFY_DETAIL_LEVEL_VALUES = [
  'FINDING_NOTIFY_DETAIL_LEVEL_UNSPECIFIED',
  'FINDING_NOTIFY_DETAIL_LEVEL_SUMMARY',
  'FINDING_NOTIFY_DETAIL_LEVEL_FULL_DETAIL',
] as const;
export type FindingNotifyDetailLevel = OpenEnum<(typeof FINDING_NOTIFY_DETAIL_LEVEL_VALUES)[number]>;

/** Every enumeration by name, for code that looks them up at run time (outbox validation, the reference tenant). */
export const ENUMS = {
  XaaScopeClassification: XAA_SCOPE_CLASSIFICATION_VALUES,
  XaaScopeState: XAA_SCOPE_STATE_VALUES,
  XaaScopeSource: XAA_SCOPE_SOURCE_VALUES,
  AppUserDomain: APP_USER_DOMAIN_VALUES,
  AppUserType: APP_USER_TYPE_VALUES,
  AppUserStatus: APP_USER_STATUS_VALUES,
  UserStatus: USER_STATUS_VALUES,
  InclusionUserStatus: INCLUSION_USER_STATUS_VALUES,
  AccessProfileFilterType: ACCESS_PROFILE_FILTER_TYPE_VALUES,
  GrantSourceFilter: GRANT_SOURCE_FILTER_VALUES,
  GrantFilterType: GRANT_FILTER_TYPE_VALUES,
  PrincipalTypeFilter: PRINCIPAL_TYPE_FILTER_VALUES,
  AccessReviewTaskColumn: ACCESS_REVIEW_TASK_COLUMN_VALUES,
  Frequency: FREQUENCY_VALUES,
  AccuracyIssueAction: ACCURACY_ISSUE_ACTION_VALUES,
  CloseDecision: CLOSE_DECISION_VALUES,
  AccessReviewViewType: ACCESS_REVIEW_VIEW_TYPE_VALUES,
  AccessReviewScopeType: ACCESS_REVIEW_SCOPE_TYPE_VALUES,
  AccessReviewState: ACCESS_REVIEW_STATE_VALUES,
  AccessReviewErrorState: ACCESS_REVIEW_ERROR_STATE_VALUES,
  TriggerType: TRIGGER_TYPE_VALUES,
  CircuitBreakerPeriod: CIRCUIT_BREAKER_PERIOD_VALUES,
  AutomationStatusFilter: AUTOMATION_STATUS_FILTER_VALUES,
  AutomationSortField: AUTOMATION_SORT_FIELD_VALUES,
  SortDirection: SORT_DIRECTION_VALUES,
  StoreCredentialAuthType: STORE_CREDENTIAL_AUTH_TYPE_VALUES,
  StoreCredentialVaultType: STORE_CREDENTIAL_VAULT_TYPE_VALUES,
  AutomationTaskType: TASK_TYPE_VALUES,
  TaskUserRelation: TASK_USER_RELATION_VALUES,
  GrantJustificationType: GRANT_JUSTIFICATION_TYPE_VALUES,
  TaskActionType: TASK_ACTION_TYPE_VALUES,
  TaskOrigin: TASK_ORIGIN_VALUES,
  ExternalRefSource: EXTERNAL_REF_SOURCE_VALUES,
  TaskState: TASK_STATE_VALUES,
  TaskProcessingType: TASK_PROCESSING_TYPE_VALUES,
  InsightRecommendation: INSIGHT_RECOMMENDATION_VALUES,
  GrantOutcome: GRANT_OUTCOME_VALUES,
  RevokeOutcome: REVOKE_OUTCOME_VALUES,
  CertifyOutcome: CERTIFY_OUTCOME_VALUES,
  OffboardingOutcome: OFFBOARDING_OUTCOME_VALUES,
  FindingTaskOutcome: FINDING_TASK_OUTCOME_VALUES,
  ActionOutcome: ACTION_OUTCOME_VALUES,
  TaskTypeActionKind: TASK_TYPE_ACTION_KIND_VALUES,
  ConnectorActionOperation: CONNECTOR_ACTION_OPERATION_VALUES,
  PolicyStepState: POLICY_STEP_STATE_VALUES,
  ActionInstanceState: ACTION_INSTANCE_STATE_VALUES,
  ApprovalInstanceState: APPROVAL_INSTANCE_STATE_VALUES,
  FormInstanceState: FORM_INSTANCE_STATE_VALUES,
  ProvisionInstanceState: PROVISION_INSTANCE_STATE_VALUES,
  WaitInstanceState: WAIT_INSTANCE_STATE_VALUES,
  ApprovalAgentFailureAction: APPROVAL_AGENT_FAILURE_ACTION_VALUES,
  ApprovalAgentMode: APPROVAL_AGENT_MODE_VALUES,
  PolicyType: POLICY_TYPE_VALUES,
  PolicyScopeSlot: POLICY_SCOPE_SLOT_VALUES,
  SelectType: SELECT_TYPE_VALUES,
  WellKnownRegex: WELL_KNOWN_REGEX_VALUES,
  TaskSearchSortBy: TASK_SEARCH_SORT_BY_VALUES,
  TaskSearchCurrentStep: TASK_SEARCH_CURRENT_STEP_VALUES,
  StepApprovalType: STEP_APPROVAL_TYPE_VALUES,
  PendingActionFilter: PENDING_ACTION_FILTER_VALUES,
  EmergencyStatusFilter: EMERGENCY_STATUS_FILTER_VALUES,
  AccountStatusFilter: ACCOUNT_STATUS_FILTER_VALUES,
  FindingType: FINDING_TYPE_VALUES,
  FindingDispatchTier: FINDING_DISPATCH_TIER_VALUES,
  FindingNotifyDetailLevel: FINDING_NOTIFY_DETAIL_LEVEL_VALUES,
} as const;

/** The name of an enumeration in `ENUMS`. */
export type EnumName = keyof typeof ENUMS;

/** True when `name` names an enumeration in `ENUMS`. */
export function isEnumName(name: string): name is EnumName {
  return Object.prototype.hasOwnProperty.call(ENUMS, name);
}
