import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

import {
  ACCESS_REVIEW_FIELDS,
  ACCESS_REVIEW_TEMPLATE_FIELDS,
  AUTOMATION_FIELDS,
  AUTOMATION_STEP_ACTION_KEYS,
  AUTOMATION_TRIGGER_KEYS,
  FINDING_ROUTING_RULE_FIELDS,
  FORM_FIELD_BODY_KEYS,
  MCP_ACCESS_PROFILE_FIELDS,
  POLICY_STEP_BODY_KEYS,
  PROVISION_POLICY_KEYS,
  ROUTING_RULE_ACTION_KEYS,
  SCOPE_SELECTOR_KEYS,
  TASK_FIELDS,
  TASK_VIEW_FIELDS,
  kindOf,
  presentKeys,
  type AccessReviewResponse,
  type AccessReviewTemplate,
  type Automation,
  type FindingRoutingRule,
  type FindingRoutingRuleAction,
  type McpAccessProfile,
  type Page,
  type Scope,
  type ScopeSelector,
  type TaskViewResponse,
  type TokenResponse,
} from '../../src/shared/api-types';
import {
  CIRCUIT_BREAKER_PERIOD_VALUES,
  STORE_CREDENTIAL_AUTH_TYPE_VALUES,
  STORE_CREDENTIAL_VAULT_TYPE_VALUES,
  TRIGGER_TYPE_VALUES,
  XAA_SCOPE_CLASSIFICATION_VALUES,
  XAA_SCOPE_SOURCE_VALUES,
  XAA_SCOPE_STATE_VALUES,
  enumLabel,
  isKnownEnumValue,
} from '../../src/shared/enums';
import accessReviewTemplateJson from '../fixtures/access-review-template.json';
import accessReviewWrapperJson from '../fixtures/access-review-wrapper.json';
import automationUnknownJson from '../fixtures/automation-unknown.json';
import automationJson from '../fixtures/automation.json';
import routingRuleActionsJson from '../fixtures/finding-routing-rule-actions.json';
import routingRuleJson from '../fixtures/finding-routing-rule.json';
import mcpAccessProfileJson from '../fixtures/mcp-access-profile.json';
import pageJson from '../fixtures/page.json';
import scopeSelectorJson from '../fixtures/scope-selector.json';
import scopeUnknownJson from '../fixtures/scope-unknown.json';
import scopeJson from '../fixtures/scope.json';
import taskViewJson from '../fixtures/task-view.json';
import tokenResponseJson from '../fixtures/token-response.json';

// ---- Type-level exactness: a fixture key the type does not declare fails `tsc` ----
// Plain assignment checks value types but not extra keys (a JSON import is not a fresh literal),
// so each fixture's inferred type is also mapped against its API type: an undeclared key maps to
// `never`, and `IsExact` turns false.

type ElementOf<T> = T extends readonly (infer U)[] ? U : never;
type Exact<T, S> = unknown extends T
  ? S
  : S extends readonly (infer E)[]
    ? Exact<ElementOf<NonNullable<T>>, E>[]
    : S extends object
      ? string extends keyof NonNullable<T>
        ? { [K in keyof S]: Exact<NonNullable<T>[string & keyof NonNullable<T>], S[K]> }
        : { [K in keyof S]: K extends keyof NonNullable<T> ? Exact<NonNullable<T>[K], S[K]> : never }
      : S;
type IsExact<T, S> = S extends Exact<T, S> ? true : false;
type Assert<B extends true> = B;

// Each fixture: assignable to its type...
const scope: Scope = scopeJson;
const selector: ScopeSelector = scopeSelectorJson;
const template: AccessReviewTemplate = accessReviewTemplateJson;
const wrapper: AccessReviewResponse = accessReviewWrapperJson;
const automation: Automation = automationJson;
const taskView: TaskViewResponse = taskViewJson;
const mcpProfile: McpAccessProfile = mcpAccessProfileJson;
const routingRule: FindingRoutingRule = routingRuleJson;
const routingActions: FindingRoutingRuleAction[] = routingRuleActionsJson;
const token: TokenResponse = tokenResponseJson;
const page: Page<Scope> = pageJson;

// ...and declares no key its type lacks, at any depth.
export type FixturesAreExact = [
  Assert<IsExact<Scope, typeof scopeJson>>,
  Assert<IsExact<ScopeSelector, typeof scopeSelectorJson>>,
  Assert<IsExact<AccessReviewTemplate, typeof accessReviewTemplateJson>>,
  Assert<IsExact<AccessReviewResponse, typeof accessReviewWrapperJson>>,
  Assert<IsExact<Automation, typeof automationJson>>,
  Assert<IsExact<TaskViewResponse, typeof taskViewJson>>,
  Assert<IsExact<McpAccessProfile, typeof mcpAccessProfileJson>>,
  Assert<IsExact<FindingRoutingRule, typeof routingRuleJson>>,
  Assert<IsExact<FindingRoutingRuleAction[], typeof routingRuleActionsJson>>,
  Assert<IsExact<TokenResponse, typeof tokenResponseJson>>,
  Assert<IsExact<Page<Scope>, typeof pageJson>>,
];

type MisspeltReassign = {
  taskView: { task: { policy: { current: { approval: { escalationInstance: { reassignToApprovers: { approverIdz: string[] } } } } } } };
};

// The check bites: misspelt or unknown keys, at the top and deep inside, are refused.
export type ExactnessBites = [
  // @ts-expect-error `scopeValu` is not a member of Scope
  Assert<IsExact<Scope, { scopeValu: string }>>,
  // @ts-expect-error `sendChatMesage` is not a step action
  Assert<IsExact<Automation, { automationSteps: { sendChatMesage: { body: string } }[] }>>,
  // @ts-expect-error `frequencyy` is not a member of the recurrence rule
  Assert<IsExact<AccessReviewTemplate, { recurrenceRule: { frequencyy: string } }>>,
  // @ts-expect-error `approverIdz` is not a member of reassignToApprovers
  Assert<IsExact<TaskViewResponse, MisspeltReassign>>,
];

// The unknown-field variants are API objects too: assignable (extra keys are allowed at run time)...
const scopeUnknown: Scope = scopeUnknownJson;
const automationUnknown: Automation = automationUnknownJson;
// ...but not exact, which is the point of them.
// @ts-expect-error scope-unknown.json carries fields the type does not declare
export type UnknownScopeIsNotExact = Assert<IsExact<Scope, typeof scopeUnknownJson>>;

// ---- Run-time helpers ----

const fixturePath = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
const fileText = (name: string) => readFileSync(fixturePath(name), 'utf8');

/** All values at a dotted path; arrays met on the way fan out to each element. */
function valuesAt(root: unknown, path: string): unknown[] {
  let current: unknown[] = [root];
  for (const segment of path === '' ? [] : path.split('.')) {
    const next: unknown[] = [];
    for (const value of current.flatMap((v) => (Array.isArray(v) ? v : [v]))) {
      if (value !== null && typeof value === 'object' && Object.hasOwn(value, segment)) {
        next.push((value as Record<string, unknown>)[segment]);
      }
    }
    current = next;
  }
  return current.flatMap((v) => (Array.isArray(v) ? v : [v]));
}

/** The keys of every object found at any of the paths, united. */
function keysAt(root: unknown, ...paths: string[]): Set<string> {
  const keys = new Set<string>();
  for (const path of paths) {
    for (const value of valuesAt(root, path)) {
      if (value !== null && typeof value === 'object') Object.keys(value).forEach((k) => keys.add(k));
    }
  }
  return keys;
}

/** Members of `expected` that no object at `paths` carries. */
function missing(root: unknown, expected: readonly string[], ...paths: string[]): string[] {
  const keys = keysAt(root, ...paths);
  return expected.filter((key) => !keys.has(key));
}

const members = (text: string) => text.split(/[\s,]+/).filter((m) => m.length > 0);

const fixtures: [string, unknown][] = [
  ['scope.json', scope],
  ['scope-selector.json', selector],
  ['access-review-template.json', template],
  ['access-review-wrapper.json', wrapper],
  ['automation.json', automation],
  ['task-view.json', taskView],
  ['mcp-access-profile.json', mcpProfile],
  ['finding-routing-rule.json', routingRule],
  ['finding-routing-rule-actions.json', routingActions],
  ['token-response.json', token],
  ['page.json', page],
  ['scope-unknown.json', scopeUnknown],
  ['automation-unknown.json', automationUnknown],
];

describe('fixtures round-trip', () => {
  it.each(fixtures)('%s: the file text parses to the imported object and survives JSON unchanged', (name, value) => {
    expect(JSON.parse(fileText(name))).toStrictEqual(value);
    expect(JSON.parse(JSON.stringify(value))).toStrictEqual(value);
  });

  it('the deep comparison notices a change (the round-trip checks can fail)', () => {
    const copy = JSON.parse(JSON.stringify(taskView)) as TaskViewResponse;
    const escalation = copy.taskView?.task?.policy?.current?.approval?.escalationInstance;
    expect(escalation).toBeTruthy();
    if (escalation) escalation.escalationComment = 'changed';
    expect(copy).not.toStrictEqual(taskView);
  });
});

describe('scope fixture carries the spec table', () => {
  it('every scope field', () => {
    const spec = members(
      'id appId xaaResourceServerId scopeValue displayName description classification state source appEntitlementId createdAt updatedAt deletedAt lastDiscoveredAt',
    );
    expect(Object.keys(scope).sort()).toEqual([...spec].sort());
  });

  it('known enum values of the scope', () => {
    expect(isKnownEnumValue(XAA_SCOPE_CLASSIFICATION_VALUES, scope.classification)).toBe(true);
    expect(isKnownEnumValue(XAA_SCOPE_STATE_VALUES, scope.state)).toBe(true);
    expect(isKnownEnumValue(XAA_SCOPE_SOURCE_VALUES, scope.source)).toBe(true);
  });
});

describe('scope selector fixture carries the spec table', () => {
  it('every selector member, and SCOPE_SELECTOR_KEYS lists them', () => {
    const spec = members(`accountCelExpression accountCriteria allAccessConflicts allAccounts allGrants allUsers appAccess
      appSelectionCriteria celExpression excludedResourceTypeSelections excludedSpecificResources resourceSelection
      resourceTypeSelections scopeRoleSelection specificAccessConflicts specificResources grantsByCriteria
      principalTypeFilter selectedUsers userCriteria`);
    expect(missing(selector, spec, '')).toEqual([]);
    expect([...SCOPE_SELECTOR_KEYS].sort()).toEqual([...spec].sort());
  });

  it('every nested member', () => {
    expect(missing(selector, ['expression'], 'accountCelExpression', 'celExpression')).toEqual([]);
    expect(missing(selector, members('accountDomain accountTypes appUserStatuses noAccountOwner'), 'accountCriteria')).toEqual([]);
    expect(missing(selector, members('complianceFrameworkAttributeValueIds riskLevelAttributeValueIds'), 'appSelectionCriteria')).toEqual(
      [],
    );
    expect(
      missing(
        selector,
        members('accessProfileFilter daysSinceAdded daysSinceLastUsed daysSinceReviewed grantsAddedBetween sourceFilter typeFilter'),
        'grantsByCriteria',
      ),
    ).toEqual([]);
    expect(
      missing(selector, members('excludedAccessProfileIds includedAccessProfileIds filterType'), 'grantsByCriteria.accessProfileFilter'),
    ).toEqual([]);
    expect(missing(selector, members('startDate endDate'), 'grantsByCriteria.grantsAddedBetween')).toEqual([]);
    expect(missing(selector, ['userIds'], 'selectedUsers')).toEqual([]);
    expect(
      missing(selector, members('groupAppEntitlementsRef managerUserIds multiUserProfileAttributes userStatus'), 'userCriteria'),
    ).toEqual([]);
    expect(missing(selector, members('appId id'), 'userCriteria.groupAppEntitlementsRef')).toEqual([]);
  });
});

describe('access review template fixture carries the spec table', () => {
  it('every field, response-only ones included, and ACCESS_REVIEW_TEMPLATE_FIELDS lists them', () => {
    const spec = members(`id displayName description reviewInstructions accessReviewDuration annotations autoCloseCampaign
      autoGenerateReport autoStartCampaign exemptCertifiedAccessConflicts isCampaignScheduleEnabled usePolicyOverride
      columnConfig inclusionScope nextScheduledCampaignAt notificationConfig occurrences policyId recurrenceRule
      reviewerAttributeConfig scope signatureConfig chatChannel
      accuracyIssueAction autoCloseDecision defaultView scopeType createdAt updatedAt deletedAt`);
    expect(Object.keys(template).sort()).toEqual([...spec].sort());
    expect([...ACCESS_REVIEW_TEMPLATE_FIELDS].sort()).toEqual([...spec].sort());
  });

  it('every nested member', () => {
    expect(missing(template, ['columns'], 'columnConfig')).toEqual([]);
    expect(
      missing(
        template,
        members('appUserStatuses appUserTypes managerIds multiUserProfileAttributes noAccountOwners userIds userStatuses'),
        'inclusionScope',
      ),
    ).toEqual([]);
    expect(missing(template, members('sendClose sendKickoff sendReminders'), 'notificationConfig')).toEqual([]);
    expect(missing(template, members('startDate endDate interval occurrences frequency'), 'recurrenceRule')).toEqual([]);
    expect(missing(template, members('appId attributeKey'), 'reviewerAttributeConfig.bindings')).toEqual([]);
    expect(missing(template, members('meaningOfSignature requireSignature stepUpProviderId tspUrl'), 'signatureConfig')).toEqual([]);
    expect(missing(template, members('channelId description name isChannelId'), 'chatChannel')).toEqual([]);
  });
});

describe('campaign wrapper fixture carries the spec table', () => {
  it('the wrapper shape', () => {
    expect(Object.keys(wrapper).sort()).toEqual(['accessReview', 'expanded']);
    expect(missing(wrapper, members('accessReview createdByUserPath objectPermissions policyPath'), 'accessReview')).toEqual([]);
    expect(missing(wrapper, members('delete edit read extra'), 'accessReview.objectPermissions')).toEqual([]);
    expect(missing(wrapper, ['@type'], 'expanded')).toEqual([]);
  });

  it('every campaign field, and ACCESS_REVIEW_FIELDS lists them', () => {
    const spec = members(`id accessReviewTemplateId createdById policyId scopingVersion displayName description reviewInstructions
      state errorState accuracyIssueAction autoCloseDecision defaultView scopeType
      autoCloseCampaign autoGenerateReport autoResolve autoStartCampaign exemptCertifiedAccessConflicts hasAccuracySupport usePolicyOverride
      bindings campaignHealth campaignInsights columnConfig
      closedAt completionDate connectorSourcesFrozenAt createdAt scheduledStartDate startedAt updatedAt
      exclusionScope inclusionScope expectedTicketCount multiApp singleApp
      notificationConfig reviewerAttributeConfig signatureConfig scope scopeV2`);
    const campaign = wrapper.accessReview?.accessReview;
    expect(Object.keys(campaign ?? {}).sort()).toEqual([...spec].sort());
    expect([...ACCESS_REVIEW_FIELDS].sort()).toEqual([...spec].sort());
  });

  it('every nested campaign member', () => {
    const at = 'accessReview.accessReview';
    expect(missing(wrapper, members('checkedAt phantomLockedCount'), `${at}.campaignHealth`)).toEqual([]);
    expect(missing(wrapper, ['markdown'], `${at}.campaignInsights`)).toEqual([]);
    expect(missing(wrapper, members('appUserStatuses appUserTypes'), `${at}.exclusionScope`, `${at}.scope`)).toEqual([]);
    expect(missing(wrapper, members('appEntitlementDetails appEntitlements'), `${at}.multiApp`)).toEqual([]);
    expect(missing(wrapper, ['appId'], `${at}.singleApp`)).toEqual([]);
  });
});

describe('automation fixture carries the spec table', () => {
  const steps = 'automationSteps draftAutomationSteps'.split(' ');
  const triggers = 'triggers draftTriggers'.split(' ');

  it('every automation field, and AUTOMATION_FIELDS lists them', () => {
    const spec = members(`id appId currentVersion description displayName annotations context enabled isDraft createdAt lastExecutedAt
      primaryTriggerType circuitBreaker circuitBreakerMax circuitBreakerPeriod automationSteps draftAutomationSteps triggers draftTriggers`);
    expect(Object.keys(automation).sort()).toEqual([...spec].sort());
    expect([...AUTOMATION_FIELDS].sort()).toEqual([...spec].sort());
    expect(missing(automation, members('observedCount period threshold trippedAt'), 'circuitBreaker')).toEqual([]);
    expect(missing(automation, ['context'], 'context')).toEqual([]);
  });

  it('every step action member in AUTOMATION_STEP_ACTION_KEYS appears in some step, and each step has one', () => {
    const stepList = automation.automationSteps ?? [];
    const kinds = stepList.map((step) => kindOf(step, AUTOMATION_STEP_ACTION_KEYS));
    expect(AUTOMATION_STEP_ACTION_KEYS.filter((key) => !kinds.includes(key))).toEqual([]);
    expect(kinds).not.toContain('unknown');
    for (const step of stepList) expect(presentKeys(step, AUTOMATION_STEP_ACTION_KEYS)).toHaveLength(1);
    expect(missing(automation, members('stepName stepDisplayName skipIfTrueCel'), ...steps)).toEqual([]);
  });

  it('the action keys are exactly the spec table (plus the vendor name of sendChatMessage)', () => {
    const spec = members(`accountLifecycleAction callFunction connectorAction connectorCreateAccount createAccessReview createRevokeTasks
      createRevokeTasksV2 evaluateExpressions generatePassword grantEntitlements removeFromDelegation runAutomation sendEmail
      sendChatMessage setCredential storeCredential taskAction unenrollFromAllAccessProfiles updateUser waitForDuration webhook`);
    expect([...AUTOMATION_STEP_ACTION_KEYS].sort()).toEqual([...spec, 'sendSlackMessage'].sort());
  });

  it('every member of every step action shape', () => {
    const shapes: Record<string, string> = {
      accountLifecycleAction: 'accountInContext accountRef actionName connectorRef',
      callFunction: 'args functionId',
      connectorAction: 'actionName argsTemplate connectorRef resourceTypeId',
      connectorCreateAccount: 'connectorRef passwordCel userIdCel userProperties',
      createAccessReview: 'accessReviewTemplateCel accessReviewTemplateId campaignName useSubjectUser userIdsCel userRefs',
      createRevokeTasks:
        'appEntitlementRefs appEntitlementRefsCel excludedAppEntitlementRefs excludedAppEntitlementRefsCel revokeAll useSubjectUser userIdCel userRef',
      createRevokeTasksV2:
        'exclusionCriteria exclusionList exclusionListCel exclusionNone inclusionAccessOnly inclusionAll inclusionCriteria inclusionList inclusionListCel useSubjectUser userIdCel userRef',
      evaluateExpressions: 'expressions',
      generatePassword: 'passwordPolicyId policy',
      grantEntitlements:
        'exclusionCriteria exclusionList exclusionListCel exclusionNone inclusionCriteria inclusionList inclusionListCel useSubjectUser userIdCel userRef',
      removeFromDelegation: 'replacementUserIdCel replacementUserRef useSubjectUser userIdCel userRef',
      runAutomation: 'automationTemplateIdCel automationTemplateRef context',
      sendEmail: 'body email emailCel subject title useSubjectUser userIdsCel userRefs',
      sendChatMessage: 'body channelIsId channelName channelNameCel useSubjectUser userIdsCel userRefs',
      setCredential: 'accountIdCel connectorRef passwordCel',
      storeCredential: 'appIdCel authType credentialCel expiry labelCel maxViews recipientCel recipientEmailCel ttl vaultType',
      taskAction: 'close reassign taskTypes taskUserRelation',
      unenrollFromAllAccessProfiles: 'catalogIds catalogIdsCel useSubjectUser userIdsCel userRefs',
      updateUser: 'useSubjectUser userIdCel userRef userStatusCel userStatusEnum',
      waitForDuration: 'duration',
      webhook: 'payload webhookId webhookIdCel',
    };
    const gaps = Object.entries(shapes).flatMap(([action, list]) =>
      missing(automation, members(list), ...steps.map((s) => `${s}.${action}`)).map((m) => `${action}.${m}`),
    );
    expect(gaps).toEqual([]);
    const v2 = 'automationSteps.createRevokeTasksV2';
    expect(
      missing(
        automation,
        members('excludedAppIds excludedComplianceFrameworkIds excludedResourceTypeIds excludedRiskLevelIds'),
        `${v2}.exclusionCriteria`,
      ),
    ).toEqual([]);
    expect(missing(automation, members('appIds complianceFrameworkIds resourceTypeIds riskLevelIds'), `${v2}.inclusionCriteria`)).toEqual(
      [],
    );
    expect(missing(automation, ['excludedAppEntitlementRefs'], `${v2}.exclusionList`)).toEqual([]);
    expect(missing(automation, ['excludedAppEntitlementRefsCel'], `${v2}.exclusionListCel`)).toEqual([]);
    expect(missing(automation, ['appEntitlementRefs'], `${v2}.inclusionList`)).toEqual([]);
    expect(missing(automation, ['appEntitlementRefsCel'], `${v2}.inclusionListCel`)).toEqual([]);
    // grantEntitlements: as V2 but without resource types, access-only and all.
    const grant = keysAt(automation, 'automationSteps.grantEntitlements');
    expect(['inclusionAccessOnly', 'inclusionAll'].filter((k) => grant.has(k))).toEqual([]);
    expect(keysAt(automation, 'automationSteps.grantEntitlements.inclusionCriteria').has('resourceTypeIds')).toBe(false);
    expect(keysAt(automation, 'automationSteps.grantEntitlements.exclusionCriteria').has('excludedResourceTypeIds')).toBe(false);
    expect(missing(automation, ['accountIdCel'], 'automationSteps.accountLifecycleAction.accountRef')).toEqual([]);
    expect(missing(automation, members('appId id'), 'automationSteps.accountLifecycleAction.connectorRef')).toEqual([]);
    expect(
      missing(
        automation,
        members('displayNameCel emailCel profileAttributeCel usernameCel'),
        'automationSteps.connectorCreateAccount.userProperties',
      ),
    ).toEqual([]);
    expect(missing(automation, members('expressionCel isSecret key'), 'automationSteps.evaluateExpressions.expressions')).toEqual([]);
    expect(
      missing(
        automation,
        members(
          'customCharacters excludedCharacters maxCharacterCount minCharacterCount noRestrictions requireLowercase requireNumbers requireSpecialCharacters requireUppercase',
        ),
        'automationSteps.generatePassword.policy',
      ),
    ).toEqual([]);
    expect(missing(automation, ['id'], 'automationSteps.runAutomation.automationTemplateRef')).toEqual([]);
    expect(missing(automation, ['context'], 'automationSteps.runAutomation.context')).toEqual([]);
    expect(missing(automation, members('useSubjectUser userIdCel userRef'), 'automationSteps.taskAction.close')).toEqual([]);
    expect(
      missing(
        automation,
        members('assigneeUserIdCel assigneeUserRef subjectUserIdCel subjectUserRef useSubjectUser'),
        'automationSteps.taskAction.reassign',
      ),
    ).toEqual([]);
  });

  it('every trigger member in AUTOMATION_TRIGGER_KEYS appears in some trigger, one per trigger', () => {
    const triggerList = [...(automation.triggers ?? []), ...(automation.draftTriggers ?? [])];
    const kinds = triggerList.map((trigger) => kindOf(trigger, AUTOMATION_TRIGGER_KEYS));
    expect(AUTOMATION_TRIGGER_KEYS.filter((key) => !kinds.includes(key))).toEqual([]);
    for (const trigger of triggerList) expect(presentKeys(trigger, AUTOMATION_TRIGGER_KEYS)).toHaveLength(1);
    const spec = members(`accessConflict appUserCreated appUserUpdated grantFound grantDeleted schedule scheduleAppUser scheduleNoUser
      usageBasedRevocation userCreated userProfileChange webhook`);
    expect([...AUTOMATION_TRIGGER_KEYS].sort()).toEqual([...spec].sort());
  });

  it('every member of every trigger shape', () => {
    const shapes: Record<string, string> = {
      accessConflict: 'allConflictMonitors conflictMonitorRefs',
      appUserCreated: 'appId appIdCel condition',
      appUserUpdated: 'appId appIdCel condition',
      grantFound: 'grantTriggerFilter',
      grantDeleted: 'grantTriggerFilter',
      schedule: 'advanced condition cronSpec skipIfTrueCel start timezone',
      scheduleAppUser: 'appId condition cronSpec start timezone',
      scheduleNoUser: 'advanced cronSpec start timezone',
      usageBasedRevocation:
        'appId enabledAt excludedGroupRefs excludedUserRefs includeUsersWithNoActivity runDelayed runImmediately targetedAppUserTypes targetedEntitlementRefs unusedForDays',
      userCreated: 'condition',
      userProfileChange: 'condition',
      webhook: 'capabilityUrl hmac jwt listenerId',
    };
    const gaps = Object.entries(shapes).flatMap(([trigger, list]) =>
      missing(automation, members(list), ...triggers.map((t) => `${t}.${trigger}`)).map((m) => `${trigger}.${m}`),
    );
    expect(gaps).toEqual([]);
    const filter = ['triggers.grantFound.grantTriggerFilter', 'triggers.grantDeleted.grantTriggerFilter'];
    expect(
      missing(automation, members('accountFilter grantFilter inclusionAll inclusionCriteria inclusionList inclusionListCel'), ...filter),
    ).toEqual([]);
    expect(missing(automation, ['accountType'], ...filter.map((f) => `${f}.accountFilter`))).toEqual([]);
    expect(
      missing(automation, members('grantFilterType grantJustificationType grantSourceFilter'), ...filter.map((f) => `${f}.grantFilter`)),
    ).toEqual([]);
    expect(missing(automation, ['conflictMonitorRefs'], 'triggers.accessConflict.conflictMonitorRefs')).toEqual([]);
    expect(missing(automation, ['coldStartDelayDays'], 'triggers.usageBasedRevocation.runDelayed')).toEqual([]);
    expect(missing(automation, ['jwksUrl'], 'triggers.webhook.jwt')).toEqual([]);
  });

  it('every createAccessReview step names a template by id (sync fetches templates from them)', () => {
    const ids = valuesAt(automation, 'automationSteps.createAccessReview.accessReviewTemplateId');
    expect(ids).toEqual([template.id]);
  });
});

describe('task view fixture carries the spec table', () => {
  const policy = 'taskView.task.policy';
  const instances = [`${policy}.current`, `${policy}.history`];
  const bodyOf = (body: string) => instances.map((i) => `${i}.${body}`);
  const approvalDefinitions = [...bodyOf('approval.approval'), `${policy}.next.approval`];
  const form = ['taskView.task.form', ...bodyOf('form.form')];
  const fields = form.map((f) => `${f}.fields`);

  it('the response and the view: paths, permissions, task', () => {
    expect(Object.keys(taskView).sort()).toEqual(['expanded', 'taskView']);
    const spec = members(`accessReviewPath appPath appUserLastUsagePath appUserPath approversPath createdByUserPath entitlementsPath
      identityUserPath insightsPath principalResourcePath resourceBindingsPath roleResourcePath scopeResourcePath stepApproversPath
      objectPermissions task`);
    expect(Object.keys(taskView.taskView ?? {}).sort()).toEqual([...spec].sort());
    expect([...TASK_VIEW_FIELDS].sort()).toEqual([...spec].sort());
    expect(missing(taskView, members('delete edit read extra'), 'taskView.objectPermissions')).toEqual([]);
  });

  it('every task field, and TASK_FIELDS lists them; the escalated task carries emergencyAccess', () => {
    const spec = members(`id numericId displayName description analysisId createdByUserId actions annotations approverIds insightIds
      commentCount createdAt deletedAt data emergencyAccess externalRefs origin form policy`);
    expect(Object.keys(taskView.taskView?.task ?? {}).sort()).toEqual([...spec].sort());
    expect([...TASK_FIELDS].sort()).toEqual([...spec].sort());
    expect(taskView.taskView?.task?.emergencyAccess).toBe(true);
    expect(missing(taskView, members('externalRefSource name url'), 'taskView.task.externalRefs')).toEqual([]);
    expect(missing(taskView, ['@type'], 'taskView.task.annotations')).toEqual([]);
  });

  it('the form: groups, relationships of every kind, every field member', () => {
    expect(missing(taskView, members('id displayName description fieldGroups fieldRelationships fields'), ...form)).toEqual([]);
    expect(missing(taskView, members('name displayName helpText default fields'), ...form.map((f) => `${f}.fieldGroups`))).toEqual([]);
    expect(
      missing(
        taskView,
        members('fieldNames atLeastOne mutuallyExclusive requiredTogether dependentOn'),
        ...form.map((f) => `${f}.fieldRelationships`),
      ),
    ).toEqual([]);
    expect(missing(taskView, ['dependencyFieldNames'], ...form.map((f) => `${f}.fieldRelationships.dependentOn`))).toEqual([]);
    expect(
      missing(taskView, members('name displayName description readOnly required adminConfig sharedConfig userConfig'), ...fields),
    ).toEqual([]);
    expect(missing(taskView, members('defaultValueCel showToUser'), ...fields.map((f) => `${f}.adminConfig`))).toEqual([]);
    expect(
      missing(taskView, members('defaultValueCel inputTransformationCel lockDefaultValues'), ...fields.map((f) => `${f}.sharedConfig`)),
    ).toEqual([]);
    expect(missing(taskView, ['inputTransformationCel'], ...fields.map((f) => `${f}.userConfig`))).toEqual([]);
  });

  it('every typed field body, exactly one per field, with its defaults, placeholder and rules', () => {
    const fieldList = valuesAt(taskView, 'taskView.task.form.fields');
    const kinds = fieldList.map((f) => kindOf(f, FORM_FIELD_BODY_KEYS));
    expect(FORM_FIELD_BODY_KEYS.filter((k) => !kinds.includes(k))).toEqual([]);
    for (const field of fieldList) expect(presentKeys(field, FORM_FIELD_BODY_KEYS)).toHaveLength(1);
    const f = 'taskView.task.form.fields';
    expect(missing(taskView, members('defaultValue rules'), `${f}.boolField`)).toEqual([]);
    expect(missing(taskView, members('defaultValue placeholder rules'), `${f}.int64Field`, `${f}.stringField`)).toEqual([]);
    expect(missing(taskView, members('acceptedFileTypes maxFileSize'), `${f}.fileField`)).toEqual([]);
    expect(missing(taskView, members('defaultValue rules'), `${f}.stringMapField`)).toEqual([]);
    expect(missing(taskView, members('defaultValues placeholder rules'), `${f}.stringSliceField`)).toEqual([]);
    expect(missing(taskView, members('textField passwordField pickerField selectField dateField'), `${f}.stringField`)).toEqual([]);
    expect(
      missing(
        taskView,
        members('appUserPicker c1UserPicker resourcePicker'),
        `${f}.stringField.pickerField`,
        `${f}.stringSliceField.pickerField`,
      ),
    ).toEqual([]);
  });

  it('every rule kind of the spec appears in some rules object', () => {
    const rules = members(`const in notIn gt gte lt lte pattern prefix suffix contains minLen maxLen len
      email hostname ip ipv4 ipv6 uri uriRef uuid`);
    const f = 'taskView.task.form.fields';
    const at = ['boolField', 'int64Field', 'stringField', 'stringMapField', 'stringSliceField'].map((b) => `${f}.${b}.rules`);
    expect(missing(taskView, rules, ...at, `${f}.stringSliceField.rules.items.string`)).toEqual([]);
    expect(missing(taskView, members('minItems maxItems unique items'), `${f}.stringSliceField.rules`)).toEqual([]);
  });

  it('the policy: current, history, and every step-instance body', () => {
    expect(missing(taskView, members('current history'), policy)).toEqual([]);
    expect(missing(taskView, members('id policyGenerationId state'), ...instances)).toEqual([]);
    const steps = [...valuesAt(taskView, `${policy}.current`), ...valuesAt(taskView, `${policy}.history`)];
    const kinds = steps.map((s) => kindOf(s, POLICY_STEP_BODY_KEYS));
    expect(POLICY_STEP_BODY_KEYS.filter((k) => !kinds.includes(k))).toEqual([]);
    for (const step of steps) expect(presentKeys(step, POLICY_STEP_BODY_KEYS)).toHaveLength(1);
    expect([...POLICY_STEP_BODY_KEYS].sort()).toEqual(members('accept reject action approval form provision wait').sort());
  });

  it('every member of each step-instance body', () => {
    const bodies: Record<string, string> = {
      accept: 'acceptMessage',
      reject: 'rejectMessage',
      action: 'action state automation workerResourceActionInstance clientIdApprovalInstance success cancelled denied error',
      approval: 'approval state assignedAt approved denied escalationInstance reassigned reassignedByError restarted skipped',
      form: 'form data state completed reassigned restarted skipped',
      provision: `state provision cancelled completed errored externalTicketId externalTicketProvisionerConfigId notificationId
        workerActionInvocationId webhookId webhookInstanceId reassignedByError skipped`,
      wait: `name state condition commentOnFirstWait commentOnTimeout startedWaitingAt timeout timeoutDuration untilTime
        succeeded timedOut skipped`,
    };
    const gaps = Object.entries(bodies).flatMap(([body, list]) =>
      missing(taskView, members(list), ...bodyOf(body)).map((m) => `${body}.${m}`),
    );
    expect(gaps).toEqual([]);
    const nested: [string, string][] = [
      ['action.action', 'automation workerResourceAction clientIdApproval'],
      ['action.action.automation', 'automationTemplateId'],
      ['action.action.workerResourceAction', 'workerResourceActionId'],
      ['action.automation', 'automationExecutionId'],
      ['action.workerResourceActionInstance', 'workerActionInvocationId'],
      ['action.clientIdApprovalInstance', 'clientIdUrl'],
      ['action.success', 'outcomeTime'],
      ['action.cancelled', 'outcomeTime'],
      ['action.denied', 'outcomeTime'],
      ['action.error', 'errorCode errorMessage outcomeTime'],
      ['approval.approved', 'approvedAt entitlements stepUpTransactionId userId'],
      ['approval.denied', 'deniedAt userId'],
      [
        'approval.escalationInstance',
        'alreadyEscalated expiresAt escalationComment cancelTicket skipStep reassignToApprovers replacePolicy',
      ],
      ['approval.escalationInstance.reassignToApprovers', 'approverIds'],
      ['approval.escalationInstance.replacePolicy', 'policyId'],
      ['form.completed', 'completedAt userId'],
      ['provision.provision', 'assigned provisionPolicy provisionTarget'],
      ['provision.provision.provisionTarget', 'appEntitlementId appId appUserId grantDuration'],
      ['provision.cancelled', 'cancelledAt cancelledByUserId'],
      ['provision.completed', 'completedAt entitlements userId'],
      ['provision.errored', 'description errorCode erroredAt'],
      ['wait.condition', 'condition'],
      ['wait.untilTime', 'durationIfExists untilTime'],
      ['wait.succeeded', 'succeededAt'],
      ['wait.timedOut', 'timedOutAt'],
    ];
    const nestedGaps = nested.flatMap(([path, list]) => missing(taskView, members(list), ...bodyOf(path)).map((m) => `${path}.${m}`));
    expect(nestedGaps).toEqual([]);
  });

  it('the approval step definition: every member and every approver source', () => {
    const spec = members(`agent allowDelegation allowReassignment allowedReassignees requireApprovalReason requireDenialReason
      requireReassignmentReason requiresStepUpProviderId escalationEnabled escalation assigned
      appOwners entitlementOwners resourceOwners expression group manager self users webhook`);
    expect(missing(taskView, spec, ...approvalDefinitions)).toEqual([]);
    expect(
      missing(
        taskView,
        members('agentFailureAction agentMode agentUserId instructions policyIds reassignToUserIds'),
        ...approvalDefinitions.map((a) => `${a}.agent`),
      ),
    ).toEqual([]);
    expect(
      missing(
        taskView,
        members('expiration escalationComment cancelTicket skipStep reassignToApprovers replacePolicy'),
        ...approvalDefinitions.map((a) => `${a}.escalation`),
      ),
    ).toEqual([]);
    const sources = members('entitlementOwners resourceOwners expression group manager self').flatMap((s) =>
      approvalDefinitions.map((a) => `${a}.${s}`),
    );
    expect(
      missing(
        taskView,
        members('allowSelfApproval requireDistinctApprovers fallback fallbackUserIds fallbackGroupIds isGroupFallbackEnabled'),
        ...sources,
      ),
    ).toEqual([]);
    expect(missing(taskView, members('appEntitlementId appId'), ...sources.map((s) => `${s}.fallbackGroupIds`))).toEqual([]);
    expect(missing(taskView, ['userIds'], ...approvalDefinitions.map((a) => `${a}.users`))).toEqual([]);
    expect(missing(taskView, ['webhookId'], ...approvalDefinitions.map((a) => `${a}.webhook`))).toEqual([]);
  });

  it('every provision policy variant, and the members of each', () => {
    const policies = [
      ...bodyOf('provision.provision.provisionPolicy'),
      ...bodyOf('provision.provision.provisionPolicy.multiStep.provisionSteps'),
    ];
    const found = valuesAt(taskView, policies[0] ?? '').concat(...policies.slice(1).map((p) => valuesAt(taskView, p)));
    const kinds = found.map((p) => kindOf(p, PROVISION_POLICY_KEYS));
    const spec = members('action connector delegated externalTicket manual multiStep unconfigured webhook');
    expect(spec.filter((k) => !kinds.includes(k as (typeof PROVISION_POLICY_KEYS)[number]))).toEqual([]);
    const variants: [string, string][] = [
      ['action', 'actionName appId connectorId displayName'],
      ['connector', 'account defaultBehavior deleteAccount'],
      ['connector.account', 'config connectorId doNotSave saveToVault schemaId'],
      ['connector.account.saveToVault', 'vaultIds'],
      ['connector.defaultBehavior', 'connectorId'],
      ['connector.deleteAccount', 'connectorId'],
      ['delegated', 'appId entitlementId implicit'],
      ['externalTicket', 'appId connectorId externalTicketProvisionerConfigId instructions'],
      ['manual', 'assignee instructions userIds'],
      ['multiStep', 'provisionSteps'],
      ['webhook', 'webhookId'],
    ];
    const gaps = variants.flatMap(([path, list]) =>
      missing(taskView, members(list), ...policies.map((p) => `${p}.${path}`)).map((m) => `${path}.${m}`),
    );
    expect(gaps).toEqual([]);
  });
});

describe('MCP access profile, routing rule, token and page fixtures carry the spec tables', () => {
  it('MCP access profile', () => {
    const spec = members('id appId appEntitlementId connectorId displayName description toolCount createdAt updatedAt deletedAt');
    expect(Object.keys(mcpProfile).sort()).toEqual([...spec].sort());
    expect([...MCP_ACCESS_PROFILE_FIELDS].sort()).toEqual([...spec].sort());
  });

  it('finding routing rule', () => {
    const spec = members('id appId templateId displayName description condition enabled priority createdAt updatedAt action');
    expect(Object.keys(routingRule).sort()).toEqual([...spec].sort());
    expect([...FINDING_ROUTING_RULE_FIELDS].sort()).toEqual([...spec].sort());
    expect(kindOf(routingRule.action, ROUTING_RULE_ACTION_KEYS)).toBe('createTask');
  });

  it('all four routing actions, one member each, with their members', () => {
    expect(routingActions.map((a) => kindOf(a, ROUTING_RULE_ACTION_KEYS))).toEqual(['acceptRisk', 'createTask', 'snooze', 'suppress']);
    expect([...ROUTING_RULE_ACTION_KEYS]).toEqual(['acceptRisk', 'createTask', 'snooze', 'suppress']);
    for (const action of routingActions) expect(presentKeys(action, ROUTING_RULE_ACTION_KEYS)).toHaveLength(1);
    expect(missing(routingActions, members('duration reason'), 'acceptRisk', 'snooze')).toEqual([]);
    expect(missing(routingActions, ['policyId'], 'createTask')).toEqual([]);
    expect(missing(routingActions, ['reason'], 'suppress')).toEqual([]);
  });

  it('token response', () => {
    expect(Object.keys(token).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
    expect(Number.isInteger(token.expires_in)).toBe(true);
  });

  it('page envelope', () => {
    expect(Object.keys(page).sort()).toEqual(['list', 'nextPageToken']);
    expect(page.list?.length).toBeGreaterThan(0);
    expect(page.nextPageToken).not.toBe('');
  });
});

describe('kindOf and presentKeys', () => {
  it('returns the first present key, skipping absent and null members', () => {
    expect(kindOf({ stepName: 'x', callFunction: null, webhook: { webhookId: 'w' } }, AUTOMATION_STEP_ACTION_KEYS)).toBe('webhook');
    expect(kindOf({ snooze: {}, suppress: {} }, ROUTING_RULE_ACTION_KEYS)).toBe('snooze');
    expect(kindOf({ acceptRisk: undefined, suppress: {} }, ROUTING_RULE_ACTION_KEYS)).toBe('suppress');
  });

  it("answers 'unknown' for an unknown member, an empty object, and non-objects", () => {
    expect(kindOf({ quarantineDevice: {} }, AUTOMATION_STEP_ACTION_KEYS)).toBe('unknown');
    expect(kindOf({}, AUTOMATION_TRIGGER_KEYS)).toBe('unknown');
    expect(kindOf(null, AUTOMATION_TRIGGER_KEYS)).toBe('unknown');
    expect(kindOf(undefined, AUTOMATION_TRIGGER_KEYS)).toBe('unknown');
    expect(kindOf('webhook', AUTOMATION_TRIGGER_KEYS)).toBe('unknown');
    expect(kindOf(['webhook'], AUTOMATION_TRIGGER_KEYS)).toBe('unknown');
  });

  it('does not take inherited properties for members', () => {
    const inherited = Object.create({ webhook: { listenerId: 'l' } }) as object;
    expect(kindOf(inherited, AUTOMATION_TRIGGER_KEYS)).toBe('unknown');
  });

  it('presentKeys lists every present member in key order', () => {
    expect(presentKeys({ suppress: {}, acceptRisk: {}, snooze: null }, ROUTING_RULE_ACTION_KEYS)).toEqual(['acceptRisk', 'suppress']);
    expect(presentKeys(null, ROUTING_RULE_ACTION_KEYS)).toEqual([]);
  });
});

describe('unknown enum values and unknown fields are kept', () => {
  it('scope-unknown.json round-trips unchanged, unknown fields and values included', () => {
    const text = fileText('scope-unknown.json');
    const parsed = JSON.parse(text) as Scope;
    const again = JSON.parse(JSON.stringify(parsed)) as Record<string, unknown>;
    expect(again).toStrictEqual(scopeUnknownJson);
    expect(again.riskScore).toBe(87);
    expect(again.labels).toEqual(['pii', 'finance']);
    expect(again.owner).toEqual({ userId: 'usr_cfo', since: '2026-05-01T09:00:00Z', delegates: [{ id: 'usr_it_lead' }] });
    expect(parsed.state).toBe('XAA_SCOPE_STATE_QUARANTINED');
  });

  it('isKnownEnumValue flags the unknown scope values, enumLabel shows them as written', () => {
    expect(isKnownEnumValue(XAA_SCOPE_CLASSIFICATION_VALUES, scopeUnknown.classification)).toBe(false);
    expect(isKnownEnumValue(XAA_SCOPE_STATE_VALUES, scopeUnknown.state)).toBe(false);
    expect(isKnownEnumValue(XAA_SCOPE_SOURCE_VALUES, scopeUnknown.source)).toBe(false);
    expect(enumLabel(XAA_SCOPE_STATE_VALUES, scopeUnknown.state)).toEqual({
      value: 'XAA_SCOPE_STATE_QUARANTINED',
      label: 'XAA_SCOPE_STATE_QUARANTINED',
      known: false,
      absent: false,
    });
  });

  it('automation-unknown.json: unknown step action and trigger are kept and read as kind unknown', () => {
    expect(JSON.parse(JSON.stringify(automationUnknown))).toStrictEqual(automationUnknownJson);
    const steps = automationUnknown.automationSteps ?? [];
    expect(steps.map((s) => kindOf(s, AUTOMATION_STEP_ACTION_KEYS))).toEqual(['unknown', 'storeCredential']);
    expect((steps[0] as Record<string, unknown>).quarantineDevice).toEqual({
      deviceIdCel: 'ctx.deviceId',
      mode: 'QUARANTINE_MODE_NETWORK',
    });
    expect((automationUnknown.triggers ?? []).map((t) => kindOf(t, AUTOMATION_TRIGGER_KEYS))).toEqual(['unknown', 'userCreated']);
    expect((automationUnknown as Record<string, unknown>).ownerTeam).toBe('it-ops');
    const store = steps[1]?.storeCredential;
    expect((store as Record<string, unknown>).rotationPolicyId).toBe('rp_daily');
  });

  it('automation-unknown.json: its unknown enum values are flagged, the known fixture has none', () => {
    expect(isKnownEnumValue(TRIGGER_TYPE_VALUES, automationUnknown.primaryTriggerType)).toBe(false);
    expect(isKnownEnumValue(CIRCUIT_BREAKER_PERIOD_VALUES, automationUnknown.circuitBreakerPeriod)).toBe(false);
    const store = automationUnknown.automationSteps?.[1]?.storeCredential;
    expect(isKnownEnumValue(STORE_CREDENTIAL_AUTH_TYPE_VALUES, store?.authType)).toBe(false);
    expect(isKnownEnumValue(STORE_CREDENTIAL_VAULT_TYPE_VALUES, store?.vaultType)).toBe(false);
    expect(isKnownEnumValue(TRIGGER_TYPE_VALUES, automation.primaryTriggerType)).toBe(true);
    expect(isKnownEnumValue(CIRCUIT_BREAKER_PERIOD_VALUES, automation.circuitBreakerPeriod)).toBe(true);
  });
});
