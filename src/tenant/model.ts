/**
 * The reference tenant's data model: every collection as an ordered `Map<id, object>` (a Collection),
 * the types of the objects only the tenant keeps (apps, entitlements, app users, memberships), and
 * the edits tests and routes make. The builders fill it (dataset.ts); they import this module, never
 * the generator, so the two don't import each other.
 */
import type {
  AccessReview,
  AccessReviewTemplate,
  Automation,
  FindingRoutingRule,
  IdentityUser,
  McpAccessProfile,
  Policy,
  Scope,
  Task,
} from '../shared/api-types';
import type { AppUserStatus, AppUserType } from '../shared/enums';
import { Collection } from './collection';
import { Random } from './random';

/** A membership's id: one per (entitlement, app user), so a lookup is one Map get. */
export const membershipId = (appEntitlementId: string, appUserId: string) => `${appEntitlementId}:${appUserId}`;

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
  | 'tasks'
  | 'users'
  | 'policies';

export class TenantCollections {
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
  /** The tenant's people (owners, approvers, reviewers, requesters), served by `POST /search/users`. */
  readonly users = new Collection<IdentityUser>('users');
  /** The policies templates, campaigns, apps, routing rules and tasks name, served by `POST /search/policies`. */
  readonly policies = new Collection<Policy>('policies');
  /** Ids of the tenant's people, in the order they were drawn (the keys of `users`). */
  identityUserIds: string[] = [];
  private readonly ids: Random;
  private nextNumericId = 1000;

  constructor(readonly seed: number) {
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
  touch<N extends CollectionName>(
    name: N,
    id: string,
    patch: Partial<TenantCollections[N] extends Collection<infer T> ? T : never> = {},
  ): object {
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
      'users',
      'policies',
    ];
    return Object.fromEntries(names.map((n) => [n, this.collection(n).size])) as Record<CollectionName, number>;
  }
}
