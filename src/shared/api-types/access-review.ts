/**
 * Access review templates and campaigns, and the scope selector object they share
 * (spec "Scope selector object", "Access review template", "Access review campaign").
 */
import type {
  AccessProfileFilterType,
  AccessReviewErrorState,
  AccessReviewScopeType,
  AccessReviewState,
  AccessReviewTaskColumn,
  AccessReviewViewType,
  AccuracyIssueAction,
  AppUserDomain,
  AppUserStatus,
  AppUserType,
  CloseDecision,
  Frequency,
  GrantFilterType,
  GrantSourceFilter,
  InclusionUserStatus,
  PrincipalTypeFilter,
  UserStatus,
} from '../enums';
import type {
  AnyMessage,
  AppEntitlementRef,
  Duration,
  ExpandMask,
  Int64String,
  JsonObject,
  MarkerObject,
  ObjectPermissions,
  Page,
  Timestamp,
} from './common';

// ---- Scope selector (`scope` on templates, `scopeV2` on campaigns) ----

/** `{ expression }`: a CEL expression selecting accounts or users. */
export interface CelExpression {
  expression?: string;
}

/** Selector member `accountCriteria`. */
export interface AccountCriteria {
  /** Responses only. */
  accountDomain?: AppUserDomain;
  accountTypes?: AppUserType[] | null;
  appUserStatuses?: AppUserStatus[] | null;
  noAccountOwner?: boolean;
}

/** Selector member `appSelectionCriteria`. */
export interface AppSelectionCriteria {
  complianceFrameworkAttributeValueIds?: string[] | null;
  riskLevelAttributeValueIds?: string[] | null;
}

/** `grantsByCriteria.accessProfileFilter`. */
export interface GrantAccessProfileFilter {
  excludedAccessProfileIds?: string[] | null;
  includedAccessProfileIds?: string[] | null;
  /** Responses only. */
  filterType?: AccessProfileFilterType;
}

/** `grantsByCriteria.grantsAddedBetween`. */
export interface GrantsAddedBetween {
  startDate?: Timestamp;
  endDate?: Timestamp;
}

/** Selector member `grantsByCriteria`. The `daysSince...` limits are strings. */
export interface GrantsByCriteria {
  accessProfileFilter?: GrantAccessProfileFilter | null;
  daysSinceAdded?: string | null;
  daysSinceLastUsed?: string | null;
  daysSinceReviewed?: string | null;
  grantsAddedBetween?: GrantsAddedBetween | null;
  /** Responses only. */
  sourceFilter?: GrantSourceFilter;
  /** Responses only. */
  typeFilter?: GrantFilterType;
}

/** Selector member `selectedUsers`. */
export interface SelectedUsers {
  userIds?: string[] | null;
}

/** One value of a user profile attribute filter. */
export interface IncludedUserAttributeValue {
  value?: string;
}

/** The values of one user profile attribute (`multiUserProfileAttributes` map value). */
export interface IncludedUserAttributeValues {
  values?: IncludedUserAttributeValue[] | null;
}

/** Selector member `userCriteria`. */
export interface UserCriteria {
  groupAppEntitlementsRef?: AppEntitlementRef[] | null;
  managerUserIds?: string[] | null;
  /** Attribute key -> accepted values. */
  multiUserProfileAttributes?: Record<string, IncludedUserAttributeValues>;
  userStatus?: UserStatus[] | null;
}

/** The scope selector object: which accounts, grants and users a campaign reviews. */
export interface ScopeSelector {
  accountCelExpression?: CelExpression | null;
  accountCriteria?: AccountCriteria | null;
  allAccessConflicts?: MarkerObject | null;
  allAccounts?: MarkerObject | null;
  allGrants?: MarkerObject | null;
  allUsers?: MarkerObject | null;
  appAccess?: MarkerObject | null;
  appSelectionCriteria?: AppSelectionCriteria | null;
  celExpression?: CelExpression | null;
  excludedResourceTypeSelections?: MarkerObject | null;
  excludedSpecificResources?: MarkerObject | null;
  grantsByCriteria?: GrantsByCriteria | null;
  /** Responses only. */
  principalTypeFilter?: PrincipalTypeFilter;
  resourceSelection?: MarkerObject | null;
  resourceTypeSelections?: MarkerObject | null;
  scopeRoleSelection?: MarkerObject | null;
  selectedUsers?: SelectedUsers | null;
  specificAccessConflicts?: MarkerObject | null;
  specificResources?: MarkerObject | null;
  userCriteria?: UserCriteria | null;
}

/** Every member of the scope selector object, in the spec's order. */
export const SCOPE_SELECTOR_KEYS = [
  'accountCelExpression',
  'accountCriteria',
  'allAccessConflicts',
  'allAccounts',
  'allGrants',
  'allUsers',
  'appAccess',
  'appSelectionCriteria',
  'celExpression',
  'excludedResourceTypeSelections',
  'excludedSpecificResources',
  'resourceSelection',
  'resourceTypeSelections',
  'scopeRoleSelection',
  'specificAccessConflicts',
  'specificResources',
  'grantsByCriteria',
  'principalTypeFilter',
  'selectedUsers',
  'userCriteria',
] as const satisfies readonly (keyof ScopeSelector)[];

// ---- Configuration shared by templates and campaigns ----

/** One column of `columnConfig.orderedColumns` (vendor field): a built-in column or an account attribute. */
export interface AccessReviewTaskColumnRef {
  builtin?: AccessReviewTaskColumn;
  appUserAttributeKey?: string | null;
}

/** `columnConfig`. */
export interface AccessReviewColumnConfig {
  columns?: AccessReviewTaskColumn[] | null;
  orderedColumns?: AccessReviewTaskColumnRef[] | null;
}

/** `inclusionScope` of templates and campaigns. */
export interface AccessReviewInclusionScope {
  appUserStatuses?: AppUserStatus[] | null;
  appUserTypes?: AppUserType[] | null;
  managerIds?: string[] | null;
  multiUserProfileAttributes?: Record<string, IncludedUserAttributeValues>;
  noAccountOwners?: boolean;
  userIds?: string[] | null;
  userStatuses?: InclusionUserStatus[] | null;
}

/** Campaign `exclusionScope`, and the campaign's earlier `scope` member (superseded by `scopeV2`). */
export interface AccessReviewAccountScope {
  appUserStatuses?: AppUserStatus[] | null;
  appUserTypes?: AppUserType[] | null;
}

/** `notificationConfig`. */
export interface NotificationConfig {
  sendClose?: boolean;
  sendKickoff?: boolean;
  sendReminders?: boolean;
}

/** Template `recurrenceRule`. */
export interface RecurrenceRule {
  startDate?: Timestamp;
  endDate?: Timestamp;
  interval?: number;
  occurrences?: number | null;
  /** Responses only. */
  frequency?: Frequency;
}

/** One binding of `reviewerAttributeConfig`. */
export interface ReviewerAttributeBinding {
  appId?: string;
  attributeKey?: string;
}

/** `reviewerAttributeConfig`. */
export interface ReviewerAttributeConfig {
  bindings?: ReviewerAttributeBinding[] | null;
}

/** `signatureConfig`. */
export interface ReviewSignatureConfig {
  meaningOfSignature?: string;
  requireSignature?: boolean;
  stepUpProviderId?: string;
  tspUrl?: string;
}

/** Template `chatChannel` (the vendor document names it `slackChannel`). */
export interface ChatChannel {
  channelId?: string;
  description?: string;
  name?: string;
  isChannelId?: boolean;
}

// ---- Access review template ----

/** An access review template. */
export interface AccessReviewTemplate {
  id?: string;
  displayName?: string;
  description?: string;
  reviewInstructions?: string;
  /** Duration string, e.g. `"1209600s"`. */
  accessReviewDuration?: Duration;
  annotations?: Record<string, string>;
  autoCloseCampaign?: boolean;
  autoGenerateReport?: boolean;
  autoStartCampaign?: boolean;
  exemptCertifiedAccessConflicts?: boolean;
  isCampaignScheduleEnabled?: boolean;
  usePolicyOverride?: boolean;
  columnConfig?: AccessReviewColumnConfig | null;
  inclusionScope?: AccessReviewInclusionScope | null;
  nextScheduledCampaignAt?: Timestamp;
  notificationConfig?: NotificationConfig | null;
  occurrences?: number;
  policyId?: string;
  recurrenceRule?: RecurrenceRule | null;
  reviewerAttributeConfig?: ReviewerAttributeConfig | null;
  scope?: ScopeSelector | null;
  signatureConfig?: ReviewSignatureConfig | null;
  chatChannel?: ChatChannel | null;
  /** The vendor's name for `chatChannel`. */
  slackChannel?: ChatChannel | null;
  /** Responses only. */
  accuracyIssueAction?: AccuracyIssueAction;
  /** Responses only. */
  autoCloseDecision?: CloseDecision;
  /** Responses only. */
  defaultView?: AccessReviewViewType;
  /** Responses only. */
  scopeType?: AccessReviewScopeType;
  createdAt?: Timestamp;
  updatedAt?: Timestamp;
  deletedAt?: Timestamp;
}

/** The template fields of the spec's table, response-only ones included, in its order. */
export const ACCESS_REVIEW_TEMPLATE_FIELDS = [
  'id',
  'displayName',
  'description',
  'reviewInstructions',
  'accessReviewDuration',
  'annotations',
  'autoCloseCampaign',
  'autoGenerateReport',
  'autoStartCampaign',
  'exemptCertifiedAccessConflicts',
  'isCampaignScheduleEnabled',
  'usePolicyOverride',
  'columnConfig',
  'inclusionScope',
  'nextScheduledCampaignAt',
  'notificationConfig',
  'occurrences',
  'policyId',
  'recurrenceRule',
  'reviewerAttributeConfig',
  'scope',
  'signatureConfig',
  'chatChannel',
  'accuracyIssueAction',
  'autoCloseDecision',
  'defaultView',
  'scopeType',
  'createdAt',
  'updatedAt',
  'deletedAt',
] as const satisfies readonly (keyof AccessReviewTemplate)[];

/** Answer of `GET /api/v1/access_review_template/{id}`. */
export interface GetAccessReviewTemplateResponse {
  accessReviewTemplate?: AccessReviewTemplate | null;
}

/**
 * Body of `POST /api/v1/access_review_template/{id}`. `updateMask` names the fields to change
 * (its syntax is not shown by the spec; the vendor uses a google.protobuf.FieldMask string).
 */
export interface UpdateAccessReviewTemplateRequest {
  accessReviewTemplate?: AccessReviewTemplate | null;
  updateMask?: string | null;
}

/** Answer of update template. */
export interface UpdateAccessReviewTemplateResponse {
  accessReviewTemplate?: AccessReviewTemplate | null;
}

// ---- Access review campaign ----

/** Campaign `campaignHealth`. */
export interface CampaignHealth {
  checkedAt?: Timestamp;
  phantomLockedCount?: number;
}

/** Campaign `campaignInsights`. */
export interface CampaignInsights {
  markdown?: string;
}

/** One entitlement's campaign details in `multiApp.appEntitlementDetails`. */
export interface CampaignEntitlementDetails {
  appId?: string;
  entitlementId?: string;
  policyId?: string;
}

/** `multiApp.appEntitlementDetails` value: entitlement id -> details. */
export interface EntitlementToDetails {
  entitlementDetails?: Record<string, CampaignEntitlementDetails>;
}

/** `multiApp.appEntitlements` value. */
export interface MultiAppEntitlement {
  appId?: string;
  entitlementIds?: string[] | null;
}

/** Campaign `multiApp`: maps keyed by app id. */
export interface MultiAppSetup {
  appEntitlementDetails?: Record<string, EntitlementToDetails>;
  appEntitlements?: Record<string, MultiAppEntitlement>;
}

/** Campaign `singleApp`. */
export interface SingleAppSetup {
  appId?: string;
}

/** An access review campaign. */
export interface AccessReview {
  id?: string;
  accessReviewTemplateId?: string;
  createdById?: string;
  policyId?: string;
  scopingVersion?: Int64String;
  displayName?: string;
  description?: string;
  reviewInstructions?: string;
  state?: AccessReviewState;
  errorState?: AccessReviewErrorState;
  accuracyIssueAction?: AccuracyIssueAction;
  autoCloseDecision?: CloseDecision;
  defaultView?: AccessReviewViewType;
  scopeType?: AccessReviewScopeType;
  autoCloseCampaign?: boolean;
  autoGenerateReport?: boolean;
  autoResolve?: boolean;
  autoStartCampaign?: boolean;
  exemptCertifiedAccessConflicts?: boolean;
  hasAccuracySupport?: boolean;
  usePolicyOverride?: boolean;
  bindings?: JsonObject | null;
  campaignHealth?: CampaignHealth | null;
  campaignInsights?: CampaignInsights | null;
  columnConfig?: AccessReviewColumnConfig | null;
  closedAt?: Timestamp;
  completionDate?: Timestamp;
  connectorSourcesFrozenAt?: Timestamp;
  createdAt?: Timestamp;
  scheduledStartDate?: Timestamp;
  startedAt?: Timestamp;
  updatedAt?: Timestamp;
  exclusionScope?: AccessReviewAccountScope | null;
  inclusionScope?: AccessReviewInclusionScope | null;
  expectedTicketCount?: number;
  multiApp?: MultiAppSetup | null;
  singleApp?: SingleAppSetup | null;
  notificationConfig?: NotificationConfig | null;
  reviewerAttributeConfig?: ReviewerAttributeConfig | null;
  signatureConfig?: ReviewSignatureConfig | null;
  scope?: AccessReviewAccountScope | null;
  scopeV2?: ScopeSelector | null;
}

/** The campaign fields of the spec's table. */
export const ACCESS_REVIEW_FIELDS = [
  'id',
  'accessReviewTemplateId',
  'createdById',
  'policyId',
  'scopingVersion',
  'displayName',
  'description',
  'reviewInstructions',
  'state',
  'errorState',
  'accuracyIssueAction',
  'autoCloseDecision',
  'defaultView',
  'scopeType',
  'autoCloseCampaign',
  'autoGenerateReport',
  'autoResolve',
  'autoStartCampaign',
  'exemptCertifiedAccessConflicts',
  'hasAccuracySupport',
  'usePolicyOverride',
  'bindings',
  'campaignHealth',
  'campaignInsights',
  'columnConfig',
  'closedAt',
  'completionDate',
  'connectorSourcesFrozenAt',
  'createdAt',
  'scheduledStartDate',
  'startedAt',
  'updatedAt',
  'exclusionScope',
  'inclusionScope',
  'expectedTicketCount',
  'multiApp',
  'singleApp',
  'notificationConfig',
  'reviewerAttributeConfig',
  'signatureConfig',
  'scope',
  'scopeV2',
] as const satisfies readonly (keyof AccessReview)[];

/** The campaign with the caller's view of it: `{ accessReview, createdByUserPath, objectPermissions, policyPath }`. */
export interface AccessReviewView {
  accessReview?: AccessReview | null;
  /** JSONPath into `expanded` of the creating user. */
  createdByUserPath?: string;
  objectPermissions?: ObjectPermissions | null;
  /** JSONPath into `expanded` of the policy. */
  policyPath?: string;
}

/** The campaign wrapper returned by get and create: `{ accessReview: AccessReviewView, expanded }`. */
export interface AccessReviewResponse {
  accessReview?: AccessReviewView | null;
  expanded?: AnyMessage[] | null;
}

/** Answer of `GET /api/v1/access_review/{id}`. */
export type GetAccessReviewResponse = AccessReviewResponse;

/** Body of `POST /api/v1/access_review`. */
export interface CreateAccessReviewRequest {
  displayName?: string;
  description?: string;
  completionDate?: Timestamp;
  /** Id of a campaign to duplicate. */
  duplicateFrom?: string;
  expandMask?: ExpandMask | null;
  notificationConfig?: NotificationConfig | null;
  ownerIds?: string[] | null;
  policyId?: string;
  scopeV2?: ScopeSelector | null;
  /** Vendor field, not in the spec's body list. */
  scopeType?: AccessReviewScopeType;
}

/** Answer of create campaign: the same wrapper as get. */
export type CreateAccessReviewResponse = AccessReviewResponse;

/** Answer of `GET /api/v1/access_reviews` (query: `page_size`, `page_token`): rows are campaign views. */
export interface ListAccessReviewsResponse extends Page<AccessReviewView> {
  expanded?: AnyMessage[] | null;
}
