/** Automation steps: one body per step action of the spec. */
import type { AutomationStep, AutomationStepActionKey } from '../../shared/api-types';
import { AUTOMATION_STEP_ACTION_KEYS } from '../../shared/api-types';
import {
  STORE_CREDENTIAL_AUTH_TYPE_VALUES,
  STORE_CREDENTIAL_VAULT_TYPE_VALUES,
  TASK_TYPE_VALUES,
  TASK_USER_RELATION_VALUES,
} from '../../shared/enums';
import type { Random } from '../random';
import { known, seconds, type BuildContext } from './context';

/** The spec's step actions (the vendor alias `sendSlackMessage` is not generated). */
export const STEP_KEYS = AUTOMATION_STEP_ACTION_KEYS.filter((k) => k !== 'sendSlackMessage') as Exclude<
  AutomationStepActionKey,
  'sendSlackMessage'
>[];

export function step(ctx: BuildContext, r: Random, key: (typeof STEP_KEYS)[number], n: number): AutomationStep {
  const connectorApp = ctx.app(r);
  const connectorRef = { appId: connectorApp.id, id: r.pick(connectorApp.connectorIds) };
  const userRef = { id: ctx.user(r) };
  const base: AutomationStep = {
    stepName: `step_${n}`,
    stepDisplayName: `Step ${n}: ${key}`,
    skipIfTrueCel: r.chance(0.2) ? 'subject.status == "disabled"' : '',
  };
  switch (key) {
    case 'accountLifecycleAction':
      return {
        ...base,
        accountLifecycleAction: {
          accountInContext: {},
          accountRef: { accountIdCel: 'ctx.account.id' },
          actionName: r.pick(['disable', 'enable', 'lock']),
          connectorRef,
        },
      };
    case 'callFunction':
      return { ...base, callFunction: { args: { reason: 'automation' }, functionId: r.id() } };
    case 'connectorAction':
      return {
        ...base,
        connectorAction: {
          actionName: 'rotate_key',
          argsTemplate: { keyId: '{{ ctx.keyId }}' },
          connectorRef,
          resourceTypeId: 'api_key',
        },
      };
    case 'connectorCreateAccount':
      return {
        ...base,
        connectorCreateAccount: {
          connectorRef,
          passwordCel: 'ctx.password',
          userIdCel: 'subject.id',
          userProperties: {
            displayNameCel: 'subject.displayName',
            emailCel: 'subject.email',
            profileAttributeCel: 'subject.profile',
            usernameCel: 'subject.username',
          },
        },
      };
    case 'createAccessReview': {
      const template = ctx.templateIds.length > 0 ? r.pick(ctx.templateIds) : '';
      return {
        ...base,
        createAccessReview: {
          accessReviewTemplateCel: '',
          accessReviewTemplateId: template,
          campaignName: 'Triggered review',
          useSubjectUser: true,
          userIdsCel: '',
          userRefs: [],
        },
      };
    }
    case 'createRevokeTasks':
      return {
        ...base,
        createRevokeTasks: {
          appEntitlementRefs: ctx.entitlementRefs(r, 3),
          appEntitlementRefsCel: '',
          excludedAppEntitlementRefs: [],
          excludedAppEntitlementRefsCel: '',
          revokeAll: false,
          useSubjectUser: true,
          userIdCel: '',
          userRef: null,
        },
      };
    case 'createRevokeTasksV2':
      return {
        ...base,
        createRevokeTasksV2: r.chance(0.5)
          ? {
              inclusionList: { appEntitlementRefs: ctx.entitlementRefs(r, 3) },
              exclusionNone: {},
              useSubjectUser: true,
              userIdCel: null,
              userRef: null,
            }
          : {
              inclusionCriteria: { appIds: [ctx.app(r).id], complianceFrameworkIds: [], resourceTypeIds: ['role'], riskLevelIds: [] },
              exclusionCriteria: {
                excludedAppIds: [],
                excludedComplianceFrameworkIds: [],
                excludedResourceTypeIds: [],
                excludedRiskLevelIds: [r.id()],
              },
              useSubjectUser: false,
              userIdCel: 'ctx.userId',
              userRef: null,
            },
      };
    case 'evaluateExpressions':
      return {
        ...base,
        evaluateExpressions: { expressions: [{ expressionCel: 'subject.manager.email', isSecret: false, key: 'managerEmail' }] },
      };
    case 'generatePassword':
      return {
        ...base,
        generatePassword: {
          passwordPolicyId: '',
          policy: {
            customCharacters: null,
            excludedCharacters: 'O0l1',
            maxCharacterCount: 32,
            minCharacterCount: 20,
            noRestrictions: false,
            requireLowercase: true,
            requireNumbers: true,
            requireSpecialCharacters: true,
            requireUppercase: true,
          },
        },
      };
    case 'grantEntitlements':
      return {
        ...base,
        grantEntitlements: {
          inclusionList: { appEntitlementRefs: ctx.entitlementRefs(r, 2) },
          exclusionNone: {},
          useSubjectUser: true,
          userIdCel: '',
          userRef: null,
        },
      };
    case 'removeFromDelegation':
      return {
        ...base,
        removeFromDelegation: {
          replacementUserIdCel: null,
          replacementUserRef: { id: ctx.user(r) },
          useSubjectUser: true,
          userIdCel: '',
          userRef: null,
        },
      };
    case 'runAutomation':
      return {
        ...base,
        runAutomation: {
          automationTemplateIdCel: null,
          automationTemplateRef: { id: r.id() },
          context: { context: { source: 'parent' } },
        },
      };
    case 'sendEmail':
      return {
        ...base,
        sendEmail: {
          body: 'Your access has changed.',
          email: '',
          emailCel: 'subject.email',
          subject: 'Access update',
          title: 'Access update',
          useSubjectUser: true,
          userIdsCel: '',
          userRefs: [],
        },
      };
    case 'sendChatMessage':
      return {
        ...base,
        sendChatMessage: {
          body: 'Automation ran for {{ subject.displayName }}',
          channelIsId: false,
          channelName: '#it-ops',
          channelNameCel: null,
          useSubjectUser: false,
          userIdsCel: '',
          userRefs: [userRef],
        },
      };
    case 'setCredential':
      return { ...base, setCredential: { accountIdCel: 'ctx.account.id', connectorRef, passwordCel: 'ctx.password' } };
    case 'storeCredential':
      return {
        ...base,
        storeCredential: {
          appIdCel: 'ctx.appId',
          authType: r.pick(known(STORE_CREDENTIAL_AUTH_TYPE_VALUES)),
          credentialCel: 'ctx.password',
          expiry: seconds(7 * 86400),
          labelCel: '"Initial password"',
          maxViews: 1,
          recipientCel: 'subject.id',
          recipientEmailCel: 'subject.email',
          ttl: seconds(86400),
          vaultType: r.pick(known(STORE_CREDENTIAL_VAULT_TYPE_VALUES)),
        },
      };
    case 'taskAction':
      return {
        ...base,
        taskAction: r.chance(0.5)
          ? {
              close: { useSubjectUser: true, userIdCel: null, userRef: null },
              taskTypes: [r.pick(known(TASK_TYPE_VALUES))],
              taskUserRelation: r.pick(known(TASK_USER_RELATION_VALUES)),
            }
          : {
              reassign: {
                assigneeUserIdCel: null,
                assigneeUserRef: userRef,
                subjectUserIdCel: null,
                subjectUserRef: null,
                useSubjectUser: true,
              },
              taskTypes: ['TASK_TYPE_REQUEST'],
              taskUserRelation: 'TASK_USER_RELATION_ASSIGNEE',
            },
      };
    case 'unenrollFromAllAccessProfiles':
      return {
        ...base,
        unenrollFromAllAccessProfiles: {
          catalogIds: [ctx.appList[0]?.id ?? ''],
          catalogIdsCel: '',
          useSubjectUser: true,
          userIdsCel: '',
          userRefs: [],
        },
      };
    case 'updateUser':
      return {
        ...base,
        updateUser: { useSubjectUser: true, userIdCel: null, userRef: null, userStatusCel: null, userStatusEnum: 'DISABLED' },
      };
    case 'waitForDuration':
      return { ...base, waitForDuration: { duration: seconds(r.pick([3600, 86400, 604800])) } };
    case 'webhook':
      return { ...base, webhook: { payload: { event: 'automation.step' }, webhookId: r.id(), webhookIdCel: null } };
  }
}
