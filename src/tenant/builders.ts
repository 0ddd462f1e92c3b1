/**
 * Builders of every object of the reference tenant, shaped as the spec's tables say (and the
 * vendor's OpenAPI document where the spec is silent). Each collection draws from its own PRNG
 * stream, so the data is a pure function of the seed and the scale.
 *
 * Coverage is by construction, not by luck: the first objects of a collection walk through every
 * member that must appear (step actions, triggers, routing-rule actions, scope states...), the
 * rest are drawn at random. Every 50th object (index 7, 57, 107...) is a "future" object: it
 * carries an enum value and a field this version of the spec does not list, as the real service
 * may send, so clients prove they keep what they do not know.
 */
import type {
  AccessReview,
  AccessReviewTemplate,
  Automation,
  AutomationStep,
  AutomationStepActionKey,
  AutomationTrigger,
  AutomationTriggerKey,
  FindingRoutingRule,
  FindingRoutingRuleAction,
  McpAccessProfile,
  PolicyStepInstance,
  RoutingRuleActionKey,
  Scope,
  ScopeSelector,
  Task,
  TaskForm,
  TaskPolicy,
  TaskTypeDetails,
} from '../shared/api-types';
import { AUTOMATION_STEP_ACTION_KEYS, AUTOMATION_TRIGGER_KEYS, ROUTING_RULE_ACTION_KEYS } from '../shared/api-types';
import {
  ACCESS_REVIEW_SCOPE_TYPE_VALUES,
  ACCESS_REVIEW_STATE_VALUES,
  ACCESS_REVIEW_TASK_COLUMN_VALUES,
  ACCESS_REVIEW_VIEW_TYPE_VALUES,
  ACCURACY_ISSUE_ACTION_VALUES,
  APP_USER_STATUS_VALUES,
  APP_USER_TYPE_VALUES,
  CIRCUIT_BREAKER_PERIOD_VALUES,
  CLOSE_DECISION_VALUES,
  FINDING_TYPE_VALUES,
  FREQUENCY_VALUES,
  GRANT_FILTER_TYPE_VALUES,
  GRANT_JUSTIFICATION_TYPE_VALUES,
  GRANT_SOURCE_FILTER_VALUES,
  INSIGHT_RECOMMENDATION_VALUES,
  STORE_CREDENTIAL_AUTH_TYPE_VALUES,
  STORE_CREDENTIAL_VAULT_TYPE_VALUES,
  TASK_ORIGIN_VALUES,
  TASK_TYPE_VALUES,
  TASK_USER_RELATION_VALUES,
  XAA_SCOPE_CLASSIFICATION_VALUES,
  XAA_SCOPE_SOURCE_VALUES,
  XAA_SCOPE_STATE_VALUES,
  type AppUserType,
  type TriggerType,
} from '../shared/enums';
import type { App, AppUser, Entitlement, EntitlementKind, Membership, TenantData } from './dataset';
import { Random } from './random';

/** The dataset's "now": generated timestamps lie around it, so the same seed gives the same bytes. */
export const DATASET_NOW = Date.UTC(2026, 9, 1, 12, 0, 0);
const DAY = 86_400_000;

const knownCache = new WeakMap<readonly string[], string[]>();

/** Every value of an enumeration but its zero value (UNSPECIFIED / UNKNOWN). */
function known<V extends string>(values: readonly V[]): V[] {
  let list = knownCache.get(values);
  if (!list) {
    list = values.filter((v) => !/(^|_)(UNSPECIFIED|UNKNOWN)$/.test(v));
    knownCache.set(values, list);
  }
  return list as V[];
}

/** An object that carries what this version of the spec does not list. */
const isFuture = (index: number) => index % 50 === 7;
const riskScoreV3 = (r: Random) => Math.round(r.float() * 1000) / 1000;

const APP_NAMES = [
  'Okta',
  'GitHub',
  'Salesforce',
  'AWS Production',
  'Snowflake',
  'Workday',
  'Jira',
  'Slack',
  'Google Workspace',
  'Datadog',
  'PagerDuty',
  'Zendesk',
  'NetSuite',
  'Confluence',
  'Azure',
  'GitLab',
  'Tableau',
  'HubSpot',
  'Stripe',
  'Figma',
  'Notion',
  'Databricks',
];
const ENTITLEMENT_NAMES: Record<Exclude<EntitlementKind, 'scope'>, string[]> = {
  role: [
    'Admin',
    'Owner',
    'Developer',
    'Read Only',
    'Billing Admin',
    'Support Agent',
    'Auditor',
    'Security Analyst',
    'Data Engineer',
    'On-call Responder',
  ],
  group: ['Engineering', 'Finance', 'Sales', 'Support', 'Security', 'Contractors', 'Leadership', 'Data Platform'],
  catalog: ['Engineering Onboarding', 'Finance Close', 'Sales Tools', 'Incident Response', 'Production Break-glass', 'New Hire Basics'],
  profile: ['Default Profile', 'Power User Profile', 'Restricted Profile'],
  permission: ['repo:write', 'billing:read', 'users:manage', 'reports:export', 'secrets:read'],
};
const ENTITLEMENT_KIND_WEIGHTS: [EntitlementKind, number][] = [
  ['role', 30],
  ['group', 25],
  ['catalog', 15],
  ['profile', 15],
  ['permission', 15],
];
const FIRST_NAMES = [
  'Ada',
  'Grace',
  'Alan',
  'Linus',
  'Margaret',
  'Ken',
  'Barbara',
  'Dennis',
  'Radia',
  'Whitfield',
  'Frances',
  'Edsger',
  'Hedy',
  'Tim',
  'Katherine',
  'Vint',
];
const LAST_NAMES = [
  'Lovelace',
  'Hopper',
  'Turing',
  'Torvalds',
  'Hamilton',
  'Thompson',
  'Liskov',
  'Ritchie',
  'Perlman',
  'Diffie',
  'Allen',
  'Dijkstra',
  'Lamarr',
  'Berners-Lee',
  'Johnson',
  'Cerf',
];
const SCOPE_RESOURCES = [
  'orders',
  'invoices',
  'customers',
  'repos',
  'calendar',
  'files',
  'tickets',
  'reports',
  'users',
  'payments',
  'deployments',
  'secrets',
];
const SCOPE_VERBS: [string, string, (typeof XAA_SCOPE_CLASSIFICATION_VALUES)[number]][] = [
  ['read', 'Read', 'XAA_SCOPE_CLASSIFICATION_READ'],
  ['write', 'Write', 'XAA_SCOPE_CLASSIFICATION_WRITE'],
  ['delete', 'Delete', 'XAA_SCOPE_CLASSIFICATION_DESTRUCTIVE'],
  ['export', 'Export', 'XAA_SCOPE_CLASSIFICATION_SENSITIVE'],
  ['admin', 'Administer', 'XAA_SCOPE_CLASSIFICATION_DANGEROUS'],
];
const TEMPLATE_NAMES = [
  'Quarterly SOX review',
  'Privileged access review',
  'Contractor access review',
  'New joiner 30-day review',
  'Dormant account sweep',
  'Production access attestation',
  'Finance systems review',
  'Customer data access review',
];
const AUTOMATION_PURPOSES = [
  'Onboard new hire',
  'Offboard leaver',
  'Revoke unused access',
  'Notify owners',
  'Rotate credentials',
  'Mover: update groups',
  'Escalate stale requests',
  'Quarterly review kickoff',
  'Provision contractor',
  'Clean up service accounts',
];
const TIMEZONES = ['UTC', 'America/New_York', 'Europe/Berlin', 'Asia/Tokyo', 'America/Los_Angeles'];

/** The trigger type an automation's first trigger stands for. */
const TRIGGER_TYPE_OF: Record<AutomationTriggerKey, TriggerType> = {
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

/** The spec's step actions (the vendor alias `sendSlackMessage` is not generated). */
const STEP_KEYS = AUTOMATION_STEP_ACTION_KEYS.filter((k) => k !== 'sendSlackMessage') as Exclude<
  AutomationStepActionKey,
  'sendSlackMessage'
>[];

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A membership's id: one per (entitlement, app user), so a lookup is one Map get. */
export const membershipId = (appEntitlementId: string, appUserId: string) => `${appEntitlementId}:${appUserId}`;
const seconds = (n: number) => `${n}s`;

export class Builders {
  /** Automations needed to show every step action and every trigger once. */
  readonly minimumAutomations = Math.max(STEP_KEYS.length, AUTOMATION_TRIGGER_KEYS.length);
  private policyIds: string[] = [];
  private appList: App[] = [];
  private entitlementList: Entitlement[] = [];
  private usersByApp = new Map<string, AppUser[]>();
  private templateIds: string[] = [];

  constructor(
    private readonly seed: number,
    private readonly data: TenantData,
  ) {
    const r = new Random(seed, 'policies');
    for (let i = 0; i < 8; i += 1) this.policyIds.push(r.id());
  }

  private stream(name: string): Random {
    return new Random(this.seed, name);
  }

  private past(r: Random, maxDays: number, minDays = 0): string {
    return iso(DATASET_NOW - (minDays * DAY + r.int(Math.max(1, (maxDays - minDays) * DAY))));
  }

  private after(r: Random, from: string, maxDays: number): string {
    return iso(Date.parse(from) + r.int(Math.max(1, maxDays * DAY)));
  }

  private user(r: Random): string {
    return r.pick(this.data.identityUserIds);
  }

  private users(r: Random, min: number, max: number): string[] {
    return r.sample(this.data.identityUserIds, r.range(min, max));
  }

  private app(r: Random): App {
    return r.pick(this.appList);
  }

  private entitlementRef(r: Random): { appId: string; id: string } {
    const e = r.pick(this.entitlementList);
    return { appId: e.appId, id: e.id };
  }

  private entitlementRefs(r: Random, max: number) {
    return Array.from({ length: r.range(1, max) }, () => this.entitlementRef(r));
  }

  // ---- Directory: people, apps, entitlements, accounts, memberships ----

  identityUsers(count: number): string[] {
    const r = this.stream('identityUsers');
    return Array.from({ length: count }, () => r.id());
  }

  apps(count: number): void {
    const r = this.stream('apps');
    for (let i = 0; i < count; i += 1) {
      // App 0 is the service's own catalog app: access profiles are its entitlements.
      const base = i === 0 ? 'Access Profiles' : (APP_NAMES[(i - 1) % APP_NAMES.length] as string);
      const round = i === 0 ? 0 : Math.floor((i - 1) / APP_NAMES.length);
      const displayName = round === 0 ? base : `${base} ${round + 1}`;
      const app: App = {
        id: r.id(),
        displayName,
        description: i === 0 ? 'Access profiles (request catalogs) managed by the service' : `${displayName}, synced by its connector`,
        resourceServerIds: Array.from({ length: r.range(1, 3) }, () => r.id()),
        connectorIds: Array.from({ length: r.range(1, 2) }, () => r.id()),
        createdAt: this.past(r, 900, 400),
      };
      this.data.apps.set(app.id, app);
      this.appList.push(app);
    }
  }

  entitlements(count: number): void {
    const r = this.stream('entitlements');
    const total = ENTITLEMENT_KIND_WEIGHTS.reduce((s, [, w]) => s + w, 0);
    for (let i = 0; i < count; i += 1) {
      // The first five walk through every kind; then by weight.
      let kind: EntitlementKind = ENTITLEMENT_KIND_WEIGHTS[i % ENTITLEMENT_KIND_WEIGHTS.length]?.[0] ?? 'role';
      if (i >= ENTITLEMENT_KIND_WEIGHTS.length) {
        let roll = r.int(total);
        for (const [k, w] of ENTITLEMENT_KIND_WEIGHTS) {
          if (roll < w) {
            kind = k;
            break;
          }
          roll -= w;
        }
      }
      const app =
        kind === 'catalog' ? (this.appList[0] as App) : (this.appList[1 + r.int(this.appList.length - 1)] ?? (this.appList[0] as App));
      const displayName = r.pick(ENTITLEMENT_NAMES[kind as Exclude<EntitlementKind, 'scope'>]);
      const e: Entitlement = { id: r.id(), appId: app.id, displayName, slug: slug(displayName), kind, createdAt: this.past(r, 700, 30) };
      this.data.entitlements.set(e.id, e);
      this.entitlementList.push(e);
    }
  }

  appUsers(count: number): void {
    const r = this.stream('appUsers');
    const types = known(APP_USER_TYPE_VALUES);
    const statuses = known(APP_USER_STATUS_VALUES);
    for (let i = 0; i < count; i += 1) {
      const app = this.app(r);
      const userType: AppUserType = r.chance(0.85) ? 'APP_USER_TYPE_USER' : r.pick(types);
      const first = r.pick(FIRST_NAMES);
      const last = r.pick(LAST_NAMES);
      const displayName = userType === 'APP_USER_TYPE_USER' ? `${first} ${last}` : `svc-${slug(app.displayName)}-${i}`;
      const u: AppUser = {
        id: r.id(),
        appId: app.id,
        displayName,
        email: `${slug(first)}.${slug(last)}${i}@example.com`,
        userType,
        status: r.chance(0.9) ? 'APP_USER_STATUS_ENABLED' : r.pick(statuses),
        identityUserId: this.user(r),
      };
      this.data.appUsers.set(u.id, u);
      const list = this.usersByApp.get(app.id) ?? [];
      list.push(u);
      this.usersByApp.set(app.id, list);
    }
  }

  memberships(count: number): void {
    const r = this.stream('memberships');
    const all = [...this.data.appUsers.values()];
    // Catalog entitlements come first, so every scale has access-profile memberships to remove.
    const catalogs = this.entitlementList.filter((e) => e.kind === 'catalog');
    for (let i = 0, attempts = 0; i < count && attempts < count * 4; attempts += 1) {
      const e = i < Math.min(4, catalogs.length) ? (catalogs[i] as Entitlement) : r.pick(this.entitlementList);
      const sameApp = this.usersByApp.get(e.appId);
      const u = sameApp && sameApp.length > 0 && e.kind !== 'catalog' ? r.pick(sameApp) : r.pick(all);
      const id = membershipId(e.id, u.id);
      if (this.data.memberships.has(id)) continue;
      const m: Membership = { id, appId: e.appId, appEntitlementId: e.id, appUserId: u.id, createdAt: this.past(r, 600) };
      this.data.memberships.set(id, m);
      i += 1;
    }
  }

  // ---- Cross-app scopes ----

  /** The entitlement bound to a scope (created with it). */
  scopeEntitlement(
    id: string,
    scope: { appId: string; displayName: string; scopeValue: string; id: string; createdAt: string },
  ): Entitlement {
    const e: Entitlement = {
      id,
      appId: scope.appId,
      displayName: `Scope: ${scope.displayName}`,
      slug: slug(scope.scopeValue),
      kind: 'scope',
      scopeId: scope.id,
      createdAt: scope.createdAt,
    };
    this.data.entitlements.set(e.id, e);
    return e;
  }

  scopes(count: number): void {
    const r = this.stream('scopes');
    const states = XAA_SCOPE_STATE_VALUES;
    const sources = XAA_SCOPE_SOURCE_VALUES;
    const classifications = XAA_SCOPE_CLASSIFICATION_VALUES;
    const taken = new Set<string>();
    for (let i = 0; i < count; i += 1) {
      // Resource servers belong to the synced apps, not to the service's own catalog app (app 0).
      const app = (this.appList.length > 1 ? this.appList[1 + (i % (this.appList.length - 1))] : this.appList[0]) as App;
      const resourceServerId = r.pick(app.resourceServerIds);
      const resource = r.pick(SCOPE_RESOURCES);
      const [verb, verbLabel, verbClass] = r.pick(SCOPE_VERBS);
      let scopeValue = r.chance(0.3) ? `https://api.example.com/${resource}.${verb}` : `${resource}:${verb}`;
      for (let n = 2; taken.has(`${resourceServerId}\n${scopeValue}`); n += 1) scopeValue = `${resource}:${verb}:${n}`;
      taken.add(`${resourceServerId}\n${scopeValue}`);
      const createdAt = this.past(r, 500, 10);
      // The first few walk through every state, source and classification (zero values included).
      const state = i < states.length ? states[i] : r.chance(0.5) ? 'XAA_SCOPE_STATE_ENABLED' : r.pick(states);
      const source = i < sources.length ? sources[i] : r.chance(0.4) ? 'XAA_SCOPE_SOURCE_DISCOVERED' : 'XAA_SCOPE_SOURCE_ADMIN_DECLARED';
      const classification = i < classifications.length ? classifications[i] : r.chance(0.7) ? verbClass : r.pick(classifications);
      const id = r.id();
      const entitlementId = r.id();
      const scope: Scope & Record<string, unknown> = {
        id,
        appId: app.id,
        xaaResourceServerId: resourceServerId,
        scopeValue,
        displayName: `${verbLabel} ${resource}`,
        description: `Lets the holder ${verbLabel.toLowerCase()} ${resource} through the ${app.displayName} API`,
        classification,
        state,
        source,
        appEntitlementId: entitlementId,
        createdAt,
        updatedAt: this.after(r, createdAt, 60),
        deletedAt: null,
        lastDiscoveredAt: source === 'XAA_SCOPE_SOURCE_DISCOVERED' ? this.after(r, createdAt, 90) : null,
      };
      if (isFuture(i)) {
        scope.classification = 'XAA_SCOPE_CLASSIFICATION_QUANTUM';
        scope.riskScoreV3 = riskScoreV3(r);
      }
      this.data.scopes.set(id, scope);
      this.scopeEntitlement(entitlementId, { appId: app.id, displayName: scope.displayName as string, scopeValue, id, createdAt });
    }
  }

  // ---- Access reviews ----

  private scopeSelector(r: Random, variant: number): ScopeSelector {
    const principal = r.pick([
      'PRINCIPAL_TYPE_FILTER_USERS',
      'PRINCIPAL_TYPE_FILTER_RESOURCES',
      'PRINCIPAL_TYPE_FILTER_USERS_AND_RESOURCES',
    ] as const);
    switch (variant % 6) {
      case 0:
        return { allUsers: {}, allGrants: {}, appAccess: {}, principalTypeFilter: principal };
      case 1:
        return {
          selectedUsers: { userIds: this.users(r, 1, 4) },
          grantsByCriteria: {
            accessProfileFilter: {
              excludedAccessProfileIds: [],
              includedAccessProfileIds: [this.entitlementRef(r).id],
              filterType: 'ACCESS_PROFILE_FILTER_TYPE_INCLUDE_SPECIFIC',
            },
            daysSinceAdded: seconds(90 * 86400),
            daysSinceLastUsed: seconds(30 * 86400),
            daysSinceReviewed: seconds(180 * 86400),
            grantsAddedBetween: { startDate: this.past(r, 400, 200), endDate: this.past(r, 100) },
            sourceFilter: r.pick(known(GRANT_SOURCE_FILTER_VALUES)),
            typeFilter: r.pick(known(GRANT_FILTER_TYPE_VALUES)),
          },
          principalTypeFilter: principal,
        };
      case 2:
        return {
          userCriteria: {
            groupAppEntitlementsRef: [this.entitlementRef(r)],
            managerUserIds: this.users(r, 1, 2),
            multiUserProfileAttributes: { department: { values: [{ value: 'Engineering' }, { value: 'Finance' }] } },
            userStatus: ['ENABLED'],
          },
          appSelectionCriteria: { complianceFrameworkAttributeValueIds: [r.id()], riskLevelAttributeValueIds: [r.id()] },
          accountCriteria: {
            accountDomain: 'APP_USER_DOMAIN_TRUSTED',
            accountTypes: ['APP_USER_TYPE_USER'],
            appUserStatuses: ['APP_USER_STATUS_ENABLED'],
            noAccountOwner: false,
          },
        };
      case 3:
        return {
          celExpression: { expression: 'subject.department == "Engineering"' },
          accountCelExpression: { expression: 'account.type == "service"' },
          allAccounts: {},
        };
      case 4:
        return { allAccessConflicts: {}, specificAccessConflicts: {} };
      default:
        return {
          resourceSelection: {},
          resourceTypeSelections: {},
          excludedResourceTypeSelections: {},
          specificResources: {},
          excludedSpecificResources: {},
          scopeRoleSelection: {},
        };
    }
  }

  private columns(r: Random) {
    return r.sample(known(ACCESS_REVIEW_TASK_COLUMN_VALUES), r.range(4, 8));
  }

  templates(count: number): void {
    const r = this.stream('templates');
    for (let i = 0; i < count; i += 1) {
      const base = TEMPLATE_NAMES[i % TEMPLATE_NAMES.length] as string;
      const round = Math.floor(i / TEMPLATE_NAMES.length);
      const createdAt = this.past(r, 700, 60);
      const scheduled = r.chance(0.5);
      const t: AccessReviewTemplate & Record<string, unknown> = {
        id: r.id(),
        displayName: round === 0 ? base : `${base} (${round + 1})`,
        description: `${base}: recurring certification of who has access to what`,
        reviewInstructions: 'Revoke anything the person no longer needs. When in doubt, revoke.',
        accessReviewDuration: seconds(r.pick([14, 21, 30]) * 86400),
        annotations: { owner: 'grc-team', framework: r.pick(['SOX', 'SOC2', 'ISO27001', 'HIPAA']) },
        autoCloseCampaign: r.chance(0.5),
        autoGenerateReport: r.chance(0.7),
        autoStartCampaign: r.chance(0.4),
        exemptCertifiedAccessConflicts: r.chance(0.2),
        isCampaignScheduleEnabled: scheduled,
        usePolicyOverride: r.chance(0.3),
        columnConfig: { columns: this.columns(r) },
        inclusionScope: {
          appUserStatuses: ['APP_USER_STATUS_ENABLED'],
          appUserTypes: ['APP_USER_TYPE_USER', 'APP_USER_TYPE_SERVICE_ACCOUNT'],
          managerIds: [],
          multiUserProfileAttributes: {},
          noAccountOwners: false,
          userIds: [],
          userStatuses: ['USER_ENABLED'],
        },
        nextScheduledCampaignAt: scheduled ? iso(DATASET_NOW + r.range(1, 90) * DAY) : null,
        notificationConfig: { sendClose: r.chance(0.8), sendKickoff: true, sendReminders: r.chance(0.8) },
        occurrences: scheduled ? r.range(1, 12) : 0,
        policyId: r.pick(this.policyIds),
        recurrenceRule: scheduled
          ? {
              startDate: createdAt,
              endDate: null,
              interval: r.pick([1, 3, 6]),
              occurrences: null,
              frequency: r.pick(known(FREQUENCY_VALUES)),
            }
          : null,
        reviewerAttributeConfig: { bindings: [{ appId: this.app(r).id, attributeKey: 'manager' }] },
        scope: this.scopeSelector(r, i),
        signatureConfig: {
          meaningOfSignature: 'I attest this access is appropriate',
          requireSignature: r.chance(0.3),
          stepUpProviderId: '',
          tspUrl: '',
        },
        chatChannel: {
          channelId: `C0${r.range(10000000, 99999999)}`,
          description: 'Review notifications',
          name: 'access-reviews',
          isChannelId: true,
        },
        accuracyIssueAction: r.pick(known(ACCURACY_ISSUE_ACTION_VALUES)),
        autoCloseDecision: r.pick(known(CLOSE_DECISION_VALUES)),
        defaultView: r.pick(known(ACCESS_REVIEW_VIEW_TYPE_VALUES)),
        scopeType: r.pick(known(ACCESS_REVIEW_SCOPE_TYPE_VALUES)),
        createdAt,
        updatedAt: this.after(r, createdAt, 50),
        deletedAt: null,
      };
      if (isFuture(i)) {
        t.defaultView = 'ACCESS_REVIEW_VIEW_TYPE_BY_RISK';
        t.riskScoreV3 = riskScoreV3(r);
      }
      this.data.templates.set(t.id as string, t);
      this.templateIds.push(t.id as string);
    }
  }

  /** A campaign's own fields (shared by generation, create and duplicate). */
  campaign(r: Random, init: Partial<AccessReview> & { id: string; createdAt: string }): AccessReview {
    const app = this.app(r);
    const multi = r.chance(0.3);
    return {
      accessReviewTemplateId: '',
      createdById: this.user(r),
      policyId: r.pick(this.policyIds),
      scopingVersion: '2',
      displayName: 'Access review',
      description: '',
      reviewInstructions: 'Certify or revoke each grant.',
      state: 'ACCESS_REVIEW_STATE_DRAFT',
      errorState: 'ACCESS_REVIEW_ERROR_STATE_UNSPECIFIED',
      accuracyIssueAction: 'ACCURACY_ISSUE_ACTION_CONTINUE',
      autoCloseDecision: 'CLOSE_DECISION_NO_ACTION',
      defaultView: 'ACCESS_REVIEW_VIEW_TYPE_BY_USER',
      scopeType: 'ACCESS_REVIEW_SCOPE_TYPE_BY_ENTITLEMENTS',
      autoCloseCampaign: false,
      autoGenerateReport: true,
      autoResolve: r.chance(0.2),
      autoStartCampaign: false,
      exemptCertifiedAccessConflicts: false,
      hasAccuracySupport: r.chance(0.5),
      usePolicyOverride: false,
      bindings: {},
      campaignHealth: { checkedAt: init.createdAt, phantomLockedCount: 0 },
      campaignInsights: { markdown: '' },
      columnConfig: { columns: this.columns(r) },
      closedAt: null,
      completionDate: iso(Date.parse(init.createdAt) + 30 * DAY),
      connectorSourcesFrozenAt: null,
      scheduledStartDate: null,
      startedAt: null,
      updatedAt: init.createdAt,
      exclusionScope: { appUserStatuses: ['APP_USER_STATUS_DELETED'], appUserTypes: [] },
      inclusionScope: {
        appUserStatuses: ['APP_USER_STATUS_ENABLED'],
        appUserTypes: ['APP_USER_TYPE_USER'],
        managerIds: [],
        multiUserProfileAttributes: {},
        noAccountOwners: false,
        userIds: [],
        userStatuses: [],
      },
      expectedTicketCount: 0,
      multiApp: multi
        ? { appEntitlementDetails: {}, appEntitlements: { [app.id]: { appId: app.id, entitlementIds: [this.entitlementRef(r).id] } } }
        : null,
      singleApp: multi ? null : { appId: app.id },
      notificationConfig: { sendClose: true, sendKickoff: true, sendReminders: true },
      reviewerAttributeConfig: { bindings: [] },
      signatureConfig: { meaningOfSignature: '', requireSignature: false, stepUpProviderId: '', tspUrl: '' },
      scope: { appUserStatuses: ['APP_USER_STATUS_ENABLED'], appUserTypes: ['APP_USER_TYPE_USER'] },
      scopeV2: this.scopeSelector(r, r.int(6)),
      ...init,
    };
  }

  campaigns(count: number): void {
    const r = this.stream('campaigns');
    const templates = [...this.data.templates.values()];
    const states = known(ACCESS_REVIEW_STATE_VALUES);
    for (let i = 0; i < count; i += 1) {
      const template = r.chance(0.85) ? r.pick(templates) : undefined;
      const createdAt = this.past(r, 400, 1);
      const state =
        i < 4
          ? (
              ['ACCESS_REVIEW_STATE_OPEN', 'ACCESS_REVIEW_STATE_CLOSED', 'ACCESS_REVIEW_STATE_DRAFT', 'ACCESS_REVIEW_STATE_REVIEW'] as const
            )[i]
          : r.chance(0.6)
            ? 'ACCESS_REVIEW_STATE_OPEN'
            : r.pick(states);
      const started = state !== 'ACCESS_REVIEW_STATE_DRAFT' && state !== 'ACCESS_REVIEW_STATE_PENDING';
      const startedAt = started ? this.after(r, createdAt, 5) : null;
      const closed = state === 'ACCESS_REVIEW_STATE_CLOSED';
      const quarter = `Q${1 + Math.floor(new Date(createdAt).getUTCMonth() / 3)} ${new Date(createdAt).getUTCFullYear()}`;
      const c = this.campaign(r, {
        id: r.id(),
        createdAt,
        accessReviewTemplateId: template?.id ?? '',
        displayName: `${template?.displayName ?? 'Ad-hoc access review'} ${quarter}`,
        description: template?.description ?? 'One-off review requested by the security team',
        state,
        startedAt,
        closedAt: closed && startedAt ? this.after(r, startedAt, 30) : null,
        expectedTicketCount: r.range(10, 2000),
        campaignInsights: { markdown: `**${r.range(1, 40)}%** of grants were not used in 90 days.` },
        updatedAt: this.after(r, createdAt, 20),
      });
      if (isFuture(i)) {
        c.state = 'ACCESS_REVIEW_STATE_ARCHIVED';
        (c as Record<string, unknown>).riskScoreV3 = riskScoreV3(r);
        (c as Record<string, unknown>).aiSummaryV2 = { headline: 'Mostly stale contractor access', confidence: 0.82 };
      }
      this.data.campaigns.set(c.id as string, c);
    }
  }

  // ---- Automations ----

  private step(r: Random, key: (typeof STEP_KEYS)[number], n: number): AutomationStep {
    const connectorApp = this.app(r);
    const connectorRef = { appId: connectorApp.id, id: r.pick(connectorApp.connectorIds) };
    const userRef = { id: this.user(r) };
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
        const template = this.templateIds.length > 0 ? r.pick(this.templateIds) : '';
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
            appEntitlementRefs: this.entitlementRefs(r, 3),
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
                inclusionList: { appEntitlementRefs: this.entitlementRefs(r, 3) },
                exclusionNone: {},
                useSubjectUser: true,
                userIdCel: null,
                userRef: null,
              }
            : {
                inclusionCriteria: { appIds: [this.app(r).id], complianceFrameworkIds: [], resourceTypeIds: ['role'], riskLevelIds: [] },
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
            inclusionList: { appEntitlementRefs: this.entitlementRefs(r, 2) },
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
            replacementUserRef: { id: this.user(r) },
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
            catalogIds: [this.appList[0]?.id ?? ''],
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

  private grantFilter(r: Random) {
    return {
      grantTriggerFilter: {
        accountFilter: { accountType: r.pick(known(APP_USER_TYPE_VALUES)) },
        grantFilter: {
          grantFilterType: r.pick(known(GRANT_FILTER_TYPE_VALUES)),
          grantJustificationType: r.pick(known(GRANT_JUSTIFICATION_TYPE_VALUES)),
          grantSourceFilter: r.pick(known(GRANT_SOURCE_FILTER_VALUES)),
        },
        ...(r.chance(0.5) ? { inclusionAll: {} } : { inclusionList: { appEntitlementRefs: this.entitlementRefs(r, 2) } }),
      },
    };
  }

  private trigger(r: Random, key: AutomationTriggerKey, appId: string): AutomationTrigger {
    const start = this.past(r, 300);
    const cron = r.pick(['0 9 * * 1', '0 0 1 * *', '*/30 * * * *', '0 6 * * *']);
    switch (key) {
      case 'accessConflict':
        return {
          accessConflict: r.chance(0.5)
            ? { allConflictMonitors: true, conflictMonitorRefs: null }
            : { allConflictMonitors: false, conflictMonitorRefs: { conflictMonitorRefs: [{ id: r.id() }] } },
        };
      case 'appUserCreated':
        return { appUserCreated: { appId, appIdCel: null, condition: 'appUser.type == "user"' } };
      case 'appUserUpdated':
        return { appUserUpdated: { appId, appIdCel: null, condition: 'appUser.status != previous.status' } };
      case 'grantFound':
        return { grantFound: this.grantFilter(r) };
      case 'grantDeleted':
        return { grantDeleted: this.grantFilter(r) };
      case 'schedule':
        return { schedule: { advanced: false, condition: '', cronSpec: cron, skipIfTrueCel: '', start, timezone: r.pick(TIMEZONES) } };
      case 'scheduleAppUser':
        return {
          scheduleAppUser: {
            appId,
            condition: 'appUser.lastLogin < now - duration("2160h")',
            cronSpec: cron,
            start,
            timezone: r.pick(TIMEZONES),
          },
        };
      case 'scheduleNoUser':
        return { scheduleNoUser: { advanced: r.chance(0.3), cronSpec: cron, start, timezone: r.pick(TIMEZONES) } };
      case 'usageBasedRevocation':
        return {
          usageBasedRevocation: {
            appId,
            enabledAt: start,
            excludedGroupRefs: [],
            excludedUserRefs: [{ id: this.user(r) }],
            includeUsersWithNoActivity: r.chance(0.5),
            ...(r.chance(0.5) ? { runDelayed: { coldStartDelayDays: 7 } } : { runImmediately: {} }),
            targetedAppUserTypes: ['APP_USER_TYPE_USER'],
            targetedEntitlementRefs: this.entitlementRefs(r, 2),
            unusedForDays: r.pick([30, 60, 90]),
          },
        };
      case 'userCreated':
        return { userCreated: { condition: 'subject.department == "Engineering"' } };
      case 'userProfileChange':
        return { userProfileChange: { condition: 'subject.title != previous.title' } };
      case 'webhook': {
        const auth = r.int(3);
        return {
          webhook: {
            ...(auth === 0
              ? { capabilityUrl: {} }
              : auth === 1
                ? { hmac: {} }
                : { jwt: { jwksUrl: 'https://idp.example.com/.well-known/jwks.json' } }),
            listenerId: r.id(),
          },
        };
      }
    }
  }

  automations(count: number): void {
    const r = this.stream('automations');
    const triggerKeys = AUTOMATION_TRIGGER_KEYS;
    for (let i = 0; i < count; i += 1) {
      const app = this.app(r);
      // Automation i < 21 starts with step action i and trigger i % 12: every member appears.
      const stepCount = r.range(1, 4);
      const keys = Array.from({ length: stepCount }, (_, n) =>
        n === 0 && i < STEP_KEYS.length ? (STEP_KEYS[i] as (typeof STEP_KEYS)[number]) : r.pick(STEP_KEYS),
      );
      const steps = keys.map((key, n) => this.step(r, key, n + 1));
      const triggerKey = i < this.minimumAutomations ? (triggerKeys[i % triggerKeys.length] as AutomationTriggerKey) : r.pick(triggerKeys);
      const triggers = [this.trigger(r, triggerKey, app.id)];
      if (r.chance(0.1)) triggers.push(this.trigger(r, r.pick(triggerKeys), app.id));
      const isDraft = r.chance(0.1);
      const enabled = !isDraft && r.chance(0.75);
      const createdAt = this.past(r, 600, 5);
      const purpose = r.pick(AUTOMATION_PURPOSES);
      const tripped = r.chance(0.05);
      const period = r.pick(known(CIRCUIT_BREAKER_PERIOD_VALUES));
      const a: Automation & Record<string, unknown> = {
        id: r.id(),
        appId: app.id,
        currentVersion: String(r.range(1, 30)),
        description: `${purpose} for ${app.displayName}`,
        displayName: `${purpose} (${app.displayName})`,
        annotations: { team: r.pick(['it', 'security', 'grc']) },
        context: { context: { region: r.pick(['us', 'eu', 'apac']) } },
        enabled,
        isDraft,
        createdAt,
        lastExecutedAt: enabled ? this.after(r, createdAt, 30) : null,
        primaryTriggerType: TRIGGER_TYPE_OF[triggerKey],
        circuitBreaker: tripped ? { observedCount: 120, period, threshold: 100, trippedAt: this.past(r, 10) } : null,
        circuitBreakerMax: 100,
        circuitBreakerPeriod: period,
        automationSteps: steps,
        draftAutomationSteps: isDraft ? steps.map((s) => ({ ...s })) : [],
        triggers,
        draftTriggers: isDraft ? triggers.map((t) => ({ ...t })) : [],
      };
      if (isFuture(i)) {
        a.primaryTriggerType = 'TRIGGER_TYPE_AGENT_EVENT';
        a.riskScoreV3 = riskScoreV3(r);
        (a.automationSteps as Record<string, unknown>[]).push({
          stepName: 'agent',
          stepDisplayName: 'Ask the agent',
          skipIfTrueCel: '',
          invokeAgent: { agentId: r.id(), promptCel: '"Summarise the change"' },
        });
        (a.triggers as Record<string, unknown>[]).push({ agentEvent: { eventType: 'AGENT_EVENT_TYPE_TOOL_CALL' } });
      } else if (i % 50 === 33) {
        // Form-started automations have no trigger member: the type alone says how they start.
        a.primaryTriggerType = 'TRIGGER_TYPE_FORM';
        a.triggers = [];
      }
      this.data.automations.set(a.id as string, a);
    }
  }

  // ---- MCP toolsets, routing rules ----

  toolsets(count: number): void {
    const r = this.stream('toolsets');
    const roles = this.entitlementList.filter((e) => e.kind === 'role');
    const chosen = r.sample(roles, Math.min(count, roles.length));
    chosen.forEach((e, i) => {
      const app = this.data.apps.get(e.appId) as App;
      const createdAt = this.past(r, 300, 2);
      const p: McpAccessProfile & Record<string, unknown> = {
        id: r.id(),
        appId: app.id,
        appEntitlementId: e.id,
        connectorId: r.pick(app.connectorIds),
        displayName: `${app.displayName} ${e.displayName} tools`,
        description: `MCP tools of ${app.displayName} granted with the ${e.displayName} role`,
        toolCount: r.range(1, 40),
        createdAt,
        updatedAt: this.after(r, createdAt, 40),
        deletedAt: null,
        connectorDisplayName: `${app.displayName} connector`,
        requestable: r.chance(0.8),
      };
      if (isFuture(i)) {
        p.riskScoreV3 = riskScoreV3(r);
        p.toolCategories = ['TOOL_CATEGORY_WRITE', 'TOOL_CATEGORY_EXFILTRATION'];
      }
      this.data.toolsets.set(p.id as string, p);
    });
  }

  private routingAction(r: Random, key: RoutingRuleActionKey): FindingRoutingRuleAction {
    switch (key) {
      case 'acceptRisk':
        return { acceptRisk: { duration: seconds(90 * 86400), reason: 'Compensating control in place' } };
      case 'createTask':
        return { createTask: { policyId: r.pick(this.policyIds) } };
      case 'snooze':
        return { snooze: { duration: seconds(7 * 86400), reason: 'Owner on leave' } };
      case 'suppress':
        return { suppress: { reason: 'Known test account' } };
    }
  }

  routingRules(count: number): void {
    const r = this.stream('routingRules');
    const findingTypes = known(FINDING_TYPE_VALUES);
    for (let i = 0; i < count; i += 1) {
      const app = this.app(r);
      const key =
        i < ROUTING_RULE_ACTION_KEYS.length ? (ROUTING_RULE_ACTION_KEYS[i] as RoutingRuleActionKey) : r.pick(ROUTING_RULE_ACTION_KEYS);
      const findingType = r.pick(findingTypes);
      const createdAt = this.past(r, 300, 3);
      const rule: FindingRoutingRule & Record<string, unknown> = {
        id: r.id(),
        appId: app.id,
        templateId: r.id(),
        displayName: `${key === 'createTask' ? 'Route' : key === 'suppress' ? 'Suppress' : key === 'snooze' ? 'Snooze' : 'Accept'} ${findingType.slice('FINDING_TYPE_'.length).toLowerCase().replace(/_/g, ' ')} in ${app.displayName}`,
        description: 'Routes matching findings automatically',
        condition: r.pick(['finding.severity >= 3', 'finding.account.type == "service"', 'finding.app.name.startsWith("AWS")', 'true']),
        enabled: r.chance(0.8),
        priority: i + 1,
        createdAt,
        updatedAt: this.after(r, createdAt, 30),
        action: this.routingAction(r, key),
        findingType,
        dispatchers: r.chance(0.3)
          ? [
              {
                key: 'notify-owner',
                displayName: 'Notify owner',
                enabled: true,
                tierOverride: 'FINDING_DISPATCH_TIER_AUTO',
                notify: {
                  audience: { users: { userIds: this.users(r, 1, 2) } },
                  batchWindowSeconds: 300,
                  detailLevel: 'FINDING_NOTIFY_DETAIL_LEVEL_SUMMARY',
                  slackChannel: null,
                },
              },
            ]
          : [],
      };
      if (isFuture(i)) {
        rule.findingType = 'FINDING_TYPE_AGENT_DRIFT';
        rule.riskScoreV3 = riskScoreV3(r);
      }
      this.data.routingRules.set(rule.id as string, rule);
    }
  }

  // ---- Tasks ----

  private form(r: Random): TaskForm {
    return {
      id: r.id(),
      displayName: 'Access request details',
      description: 'Tell the approvers why you need this access',
      fieldGroups: [
        {
          name: 'main',
          displayName: 'Request',
          helpText: '',
          default: true,
          fields: ['justification', 'duration', 'ticket', 'urgent', 'attachments', 'labels', 'tags', 'oauth'],
        },
      ],
      fieldRelationships: [{ fieldNames: ['ticket', 'justification'], atLeastOne: {} }],
      fields: [
        {
          name: 'justification',
          displayName: 'Justification',
          description: '',
          readOnly: false,
          required: true,
          stringField: { defaultValue: '', placeholder: 'Why?', rules: { minLen: '10', maxLen: '1000' }, textField: { multiline: true } },
        },
        {
          name: 'duration',
          displayName: 'Duration',
          description: '',
          readOnly: false,
          required: true,
          stringField: {
            defaultValue: '7d',
            selectField: {
              options: [
                { value: '1d', displayName: '1 day' },
                { value: '7d', displayName: '7 days' },
              ],
              type: 'SELECT_TYPE_DROPDOWN',
            },
          },
        },
        {
          name: 'ticket',
          displayName: 'Ticket',
          description: '',
          readOnly: false,
          required: false,
          stringField: {
            defaultValue: '',
            placeholder: 'JIRA-123',
            rules: { pattern: '^[A-Z]+-[0-9]+$' },
            textField: { multiline: false },
          },
        },
        {
          name: 'urgent',
          displayName: 'Urgent',
          description: '',
          readOnly: false,
          required: false,
          boolField: { defaultValue: false, checkboxField: {} },
        },
        {
          name: 'count',
          displayName: 'Seats',
          description: '',
          readOnly: false,
          required: false,
          int64Field: { defaultValue: '1', placeholder: '', rules: { gte: '1', lte: '50' } },
        },
        {
          name: 'attachments',
          displayName: 'Evidence',
          description: '',
          readOnly: false,
          required: false,
          fileField: { acceptedFileTypes: ['.pdf', '.png'], maxFileSize: '10485760' },
        },
        { name: 'labels', displayName: 'Labels', description: '', readOnly: false, required: false, stringMapField: { defaultValue: {} } },
        {
          name: 'tags',
          displayName: 'Tags',
          description: '',
          readOnly: false,
          required: false,
          stringSliceField: { defaultValues: [], placeholder: 'tag' },
        },
        { name: 'oauth', displayName: 'Connect account', description: '', readOnly: false, required: false, oauth2Field: {} },
      ],
    };
  }

  private approvalStep(r: Random, active: boolean, at: string): PolicyStepInstance {
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
            reassignToApprovers: { approverIds: this.users(r, 1, 2) },
          },
          assigned: true,
          users: { allowSelfApproval: false, requireDistinctApprovers: false, userIds: this.users(r, 1, 3) },
        },
        state: active ? 'APPROVAL_INSTANCE_STATE_WAITING' : 'APPROVAL_INSTANCE_STATE_DONE',
        assignedAt: at,
        approved: active ? null : { approvedAt: at, entitlements: [], stepUpTransactionId: '', userId: this.user(r) },
        escalationInstance: null,
      },
    };
  }

  /** A task's policy: history of done steps and the current one. */
  private policy(
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
            ? { manual: { instructions: 'Make the change in the admin console', userIds: this.users(r, 1, 2) } }
            : { connector: { defaultBehavior: { connectorId: r.id() } } },
          provisionTarget: { ...target, grantDuration: kind === 'grant' ? seconds(7 * 86400) : null },
        },
        completed: open
          ? null
          : { completedAt: at, entitlements: [{ appEntitlementId: target.appEntitlementId, appId: target.appId }], userId: this.user(r) },
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
            form: this.form(r),
            data: { justification: 'Need it for the migration project' },
            state: 'FORM_INSTANCE_STATE_DONE',
            completed: { completedAt: at, userId: this.user(r) },
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
      if (open) return { current: this.approvalStep(r, true, at), history, next: [{ provision: provision.provision?.provision ?? null }] };
      history.push(this.approvalStep(r, false, at), provision);
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

  /** A task's own fields; `type` decides the rest. */
  task(
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
    const updatedAt = this.after(r, init.createdAt, 10);
    const approvers = this.users(r, 1, 3);
    return {
      id: init.id,
      numericId: init.numericId,
      displayName: init.title,
      description: '',
      analysisId: '',
      createdByUserId: this.user(r),
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
      form: init.kind === 'grant' && r.chance(0.3) ? this.form(r) : null,
      policy: this.policy(r, init.kind, init.open, init.target, updatedAt),
      policyGenerationId: '1',
      processing: init.open ? 'TASK_PROCESSING_TYPE_WAITING' : 'TASK_PROCESSING_TYPE_DONE',
      recommendation: r.pick(known(INSIGHT_RECOMMENDATION_VALUES)),
      revocationTargets: [],
      state: init.open ? 'TASK_STATE_OPEN' : 'TASK_STATE_CLOSED',
      stepApproverIds: init.open ? approvers : [],
      type: init.type,
      updatedAt,
      userId: this.user(r),
    };
  }

  /** The revoke task a removal from an access profile creates. */
  revokeTask(target: { appId: string; appEntitlementId: string; appUserId: string }, requestedBy: string): Task {
    const r = this.stream(`revoke:${target.appEntitlementId}:${target.appUserId}:${this.data.tasks.size}`);
    const entitlement = this.data.entitlements.get(target.appEntitlementId);
    const user = this.data.appUsers.get(target.appUserId);
    return this.task(r, {
      id: this.data.newId(),
      numericId: this.data.newNumericId(),
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

  tasks(count: number): void {
    const r = this.stream('tasks');
    const users = [...this.data.appUsers.values()];
    const campaigns = [...this.data.campaigns.keys()];
    const grantable = this.entitlementList.filter((e) => e.kind !== 'scope');
    for (let i = 0; i < count; i += 1) {
      const e = r.pick(grantable);
      const u = r.pick(users);
      const target = { appId: e.appId, appEntitlementId: e.id, appUserId: u.id };
      // Task 0 is an open grant task and task 1 a closed revoke: every scale has something to escalate and something not to.
      const roll = i === 0 ? 0 : i === 1 ? 0.6 : r.float();
      const kind = roll < 0.5 ? 'grant' : roll < 0.7 ? 'revoke' : 'other';
      const open = i === 0 ? true : i === 1 ? false : r.chance(0.6);
      const outcomeTime = open ? null : this.past(r, 30);
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
      const t = this.task(r, {
        id: r.id(),
        numericId: this.data.newNumericId(),
        type,
        kind,
        open,
        createdAt: this.past(r, 120, 1),
        target,
        title,
      });
      if (kind === 'grant' && !open && r.chance(0.1)) t.emergencyAccess = true;
      if (isFuture(i)) {
        t.origin = 'TASK_ORIGIN_AGENT';
        (t as Record<string, unknown>).riskScoreV3 = riskScoreV3(r);
      }
      this.data.tasks.set(t.id as string, t);
    }
  }
}
