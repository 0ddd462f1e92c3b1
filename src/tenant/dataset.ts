/**
 * The reference tenant's data: every collection as an ordered `Map<id, object>` (a Collection),
 * and the deterministic generator that fills them from a seed. Same seed and scale, same bytes.
 *
 * Tests may change the data between two syncs: `data.scopes.set(id, obj)`, `data.scopes.delete(id)`,
 * or `data.touch('scopes', id, { displayName: 'x' })`, which edits in place and bumps `updatedAt`
 * (automations, which have no `updatedAt`, get a new `currentVersion`).
 */
import type {
  AccessReview,
  AccessReviewTemplate,
  Automation,
  FindingRoutingRule,
  McpAccessProfile,
  Scope,
  Task,
} from '../shared/api-types';
import type { AppUserStatus, AppUserType } from '../shared/enums';
import { Builders, membershipId } from './builders';
import { Collection } from './collection';
import { Random } from './random';

/** An application of the tenant (served as the vendor's App by views.ts). */
export interface App {
  id: string;
  displayName: string;
  description: string;
  /** Resource servers whose scopes can be governed (`xaaResourceServerId`). */
  resourceServerIds: string[];
  /** Connectors syncing the app (MCP toolsets belong to one; roles and permissions come from the first). */
  connectorIds: string[];
  grantPolicyId: string;
  revokePolicyId: string;
  certifyPolicyId: string;
  monthlyCostUsd: number;
  createdAt: string;
  updatedAt: string;
}

/**
 * Entitlement kinds. `catalog` (access profile), `group` and `profile` are managed by the service,
 * so memberships can be removed through the API; `role` and `permission` come from a connector;
 * `scope` entitlements are the ones bound to cross-app scopes.
 */
export type EntitlementKind = 'catalog' | 'group' | 'profile' | 'role' | 'permission' | 'scope';
export const MANAGED_ENTITLEMENT_KINDS: readonly EntitlementKind[] = ['catalog', 'group', 'profile'];

export interface Entitlement {
  id: string;
  appId: string;
  displayName: string;
  slug: string;
  kind: EntitlementKind;
  /** For `scope` entitlements: the scope bound to it. */
  scopeId?: string;
  description?: string;
  createdAt: string;
  updatedAt?: string;
}

export interface AppUser {
  id: string;
  appId: string;
  displayName: string;
  email: string;
  userType: AppUserType;
  status: AppUserStatus;
  identityUserId: string;
  createdAt: string;
}

/** An app user's membership of an entitlement; its id is `membershipId(entitlementId, appUserId)`. */
export interface Membership {
  id: string;
  appId: string;
  appEntitlementId: string;
  appUserId: string;
  /** Since when the app user holds it. */
  createdAt: string;
  /** Time-bound grants: when the access ends. */
  deprovisionAt?: string;
  /** How it was granted when not directly: the entitlements it comes through (a group, say). */
  grantSourceIds?: string[];
  /** The task that granted it, when a task did. */
  originatingTaskId?: string;
}

export type CollectionName =
  | 'apps'
  | 'entitlements'
  | 'appUsers'
  | 'memberships'
  | 'scopes'
  | 'automations'
  | 'templates'
  | 'campaigns'
  | 'toolsets'
  | 'routingRules'
  | 'tasks';

export { membershipId };

export type Scale = 'demo' | 'large' | number;

/**
 * Objects per unit of scale: `demo` is one unit (hundreds of objects), `large` is 500 units
 * (200,000 memberships, 20,000 tasks, automations and scopes).
 */
export const UNIT_SIZES = {
  apps: 8,
  identityUsers: 40,
  entitlements: 60,
  appUsers: 100,
  memberships: 400,
  scopes: 40,
  automations: 40,
  templates: 8,
  campaigns: 16,
  toolsets: 12,
  routingRules: 12,
  tasks: 40,
} as const;
export const LARGE_SCALE = 500;

/** The number of units a scale stands for; a number is a multiple of `demo` (fractions allowed down to 0.05). */
export function scaleFactor(scale: Scale): number {
  if (scale === 'demo') return 1;
  if (scale === 'large') return LARGE_SCALE;
  if (!Number.isFinite(scale) || scale < 0.05 || scale > 5000)
    throw new Error(`scale must be demo, large or a number from 0.05 to 5000, not ${scale}`);
  return scale;
}

export class TenantData {
  readonly apps = new Collection<App>('apps');
  readonly entitlements = new Collection<Entitlement>('entitlements');
  readonly appUsers = new Collection<AppUser>('appUsers');
  readonly memberships = new Collection<Membership>('memberships');
  readonly scopes = new Collection<Scope>('scopes');
  readonly automations = new Collection<Automation>('automations');
  readonly templates = new Collection<AccessReviewTemplate>('templates');
  /** The campaign objects; the `{ accessReview: { accessReview, ... } }` wrapper is built on read. */
  readonly campaigns = new Collection<AccessReview>('campaigns');
  /** MCP toolsets (access profiles). */
  readonly toolsets = new Collection<McpAccessProfile>('toolsets');
  readonly routingRules = new Collection<FindingRoutingRule>('routingRules');
  readonly tasks = new Collection<Task>('tasks');
  /** Ids of the tenant's people (owners, approvers, requesters): referenced, not served. */
  identityUserIds: string[] = [];
  /** The builders that made the data; routes use them for objects created through the API. */
  readonly build: Builders;
  private readonly ids: Random;
  private nextNumericId = 1000;

  constructor(readonly seed: number) {
    this.build = new Builders(seed, this);
    this.ids = new Random(seed, 'ids:created');
  }

  collection(name: CollectionName): Collection<object> {
    return this[name] as unknown as Collection<object>;
  }

  /** A fresh id for an object created through the API (deterministic for a seed). */
  newId(): string {
    for (;;) {
      const id = this.ids.id();
      if (!this.scopes.has(id) && !this.campaigns.has(id) && !this.tasks.has(id) && !this.entitlements.has(id)) return id;
    }
  }

  /** The next task number (`numericId`). */
  newNumericId(): string {
    this.nextNumericId += 1;
    return String(this.nextNumericId);
  }

  /**
   * Edits an object in place (optional `patch`), bumps its `updatedAt` to now (automations: their
   * `currentVersion`), and marks the collection changed. Returns the object.
   */
  touch<N extends CollectionName>(name: N, id: string, patch: Partial<TenantData[N] extends Collection<infer T> ? T : never> = {}): object {
    const collection = this.collection(name);
    const object = collection.get(id) as Record<string, unknown> | undefined;
    if (!object) throw new Error(`no ${name} object with id ${id}`);
    Object.assign(object, patch);
    if (name === 'automations') object.currentVersion = String(Number(object.currentVersion ?? '0') + 1);
    else object.updatedAt = new Date().toISOString();
    collection.changed();
    return object;
  }

  /** Adds a membership (tests use it to set up removals). */
  addMembership(appEntitlementId: string, appUserId: string): Membership {
    const entitlement = this.entitlements.get(appEntitlementId);
    if (!entitlement) throw new Error(`no entitlement ${appEntitlementId}`);
    const membership: Membership = {
      id: membershipId(appEntitlementId, appUserId),
      appId: entitlement.appId,
      appEntitlementId,
      appUserId,
      createdAt: new Date().toISOString(),
    };
    this.memberships.set(membership.id, membership);
    return membership;
  }

  counts(): Record<CollectionName, number> {
    const names: CollectionName[] = [
      'apps',
      'entitlements',
      'appUsers',
      'memberships',
      'scopes',
      'automations',
      'templates',
      'campaigns',
      'toolsets',
      'routingRules',
      'tasks',
    ];
    return Object.fromEntries(names.map((n) => [n, this.collection(n).size])) as Record<CollectionName, number>;
  }
}

/** Generates the tenant for a seed and scale. Collections are filled in dependency order. */
export function generateDataset(seed: number, scale: Scale = 'demo'): TenantData {
  const factor = scaleFactor(scale);
  const count = (key: keyof typeof UNIT_SIZES, min = 1) => Math.max(min, Math.round(UNIT_SIZES[key] * factor));
  const data = new TenantData(seed);
  const b = data.build;

  data.identityUserIds = b.identityUsers(count('identityUsers', 4));
  b.apps(count('apps', 2));
  b.entitlements(count('entitlements', 12));
  b.appUsers(count('appUsers', 6));
  b.memberships(count('memberships', 12));
  b.scopes(count('scopes', 10));
  b.templates(count('templates', 2));
  b.campaigns(count('campaigns', 2));
  // Every step action and every trigger of the spec appears at least once, whatever the scale.
  b.automations(count('automations', b.minimumAutomations));
  b.toolsets(count('toolsets', 2));
  b.routingRules(count('routingRules', 4));
  b.tasks(count('tasks', 6));
  return data;
}
