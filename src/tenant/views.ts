/**
 * The objects admins act on, as the vendor's API serves them (c1.api.app.v1 App, AppEntitlement,
 * AppUser, AppEntitlementUserView), built on read from the tenant's compact internal records.
 *
 * Unset timestamps come in both forms real clients meet: the spec and the vendor document make
 * them nullable, older vendor clients expect them absent. Per object, a seeded draw on its id
 * decides (about one object in four omits them, the others send null), so the same seed gives
 * the same bytes and every page of a walk holds both forms.
 */
import type { AnyMessage, Task, TaskView } from '../shared/api-types';
import { FULL_PERMISSIONS } from './routes/common';
import {
  MANAGED_ENTITLEMENT_KINDS,
  type App,
  type AppUser,
  type Entitlement,
  type EntitlementKind,
  type Membership,
  type TenantData,
} from './dataset';
import { hash32, Random } from './random';

/** Share of objects (in percent) whose unset timestamps are omitted rather than null. */
export const OMITTED_UNSET_PERCENT = 25;

/** True when this object's unset timestamps are left out (the rest send null). */
export function omitsUnset(seed: number, id: string): boolean {
  return hash32(`${seed}:unset:${id}`) % 100 < OMITTED_UNSET_PERCENT;
}

const TIMESTAMP_KEY = /(At|Time|Date)$/;

/** A copy without the null timestamp members (any depth), for objects that omit them. */
export function withoutNullTimestamps<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutNullTimestamps) as T;
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (member === null && TIMESTAMP_KEY.test(key)) continue;
    out[key] = withoutNullTimestamps(member);
  }
  return out as T;
}

/** `object` as served: unchanged, or without its null timestamps when its draw says so. */
export function unsetForm<T extends object>(data: TenantData, id: string, object: T): T {
  return omitsUnset(data.seed, id) ? withoutNullTimestamps(object) : object;
}

// ---- Entitlement kinds as the vendor models them ----

/** The app resource type an entitlement of each kind sits on (expanded as AppResourceType). */
export const RESOURCE_TYPE_NAMES: Record<EntitlementKind, string> = {
  catalog: 'Access Profile',
  group: 'Group',
  profile: 'Profile',
  role: 'Role',
  permission: 'Permission',
  scope: 'Scope',
};

/** Memberships are assignments, except for permissions and the entitlements bound to scopes. */
export function purposeOf(kind: EntitlementKind): string {
  return kind === 'permission' || kind === 'scope'
    ? 'APP_ENTITLEMENT_PURPOSE_VALUE_PERMISSION'
    : 'APP_ENTITLEMENT_PURPOSE_VALUE_ASSIGNMENT';
}

/** Roles and permissions come from a connector; catalog, group, profile and scope entitlements do not. */
export function isConnectorSynced(kind: EntitlementKind): boolean {
  return kind === 'role' || kind === 'permission';
}

/** Whether a removal of a membership is accepted: the spec's catalog, group and profile entitlements. */
export function isManagedKind(kind: EntitlementKind): boolean {
  return MANAGED_ENTITLEMENT_KINDS.includes(kind);
}

const resourceTypeIds = new Map<string, string>();

/** The id of the resource type of `kind` in an app: stable for a seed, drawn from its own stream. */
export function resourceTypeId(seed: number, appId: string, kind: EntitlementKind): string {
  const key = `${seed}:${appId}:${kind}`;
  let id = resourceTypeIds.get(key);
  if (!id) {
    id = new Random(seed, `resourceType:${appId}:${kind}`).id();
    if (resourceTypeIds.size > 100_000) resourceTypeIds.clear();
    resourceTypeIds.set(key, id);
  }
  return id;
}

// ---- Counts derived from the memberships (cached per version of the collections) ----

interface Counts {
  version: string;
  perEntitlement: Map<string, number>;
  perApp: Map<string, number>;
}
const countCache = new WeakMap<TenantData, Counts>();

function counts(data: TenantData): Counts {
  const version = `${data.memberships.version}:${data.appUsers.version}`;
  const cached = countCache.get(data);
  if (cached && cached.version === version) return cached;
  const perEntitlement = new Map<string, number>();
  for (const m of data.memberships.values()) perEntitlement.set(m.appEntitlementId, (perEntitlement.get(m.appEntitlementId) ?? 0) + 1);
  const perApp = new Map<string, number>();
  for (const u of data.appUsers.values()) perApp.set(u.appId, (perApp.get(u.appId) ?? 0) + 1);
  const fresh = { version, perEntitlement, perApp };
  countCache.set(data, fresh);
  return fresh;
}

// ---- Served shapes ----

export function appView(data: TenantData, app: App): Record<string, unknown> {
  return unsetForm(data, app.id, {
    id: app.id,
    displayName: app.displayName,
    description: app.description,
    appAccountId: '',
    appAccountName: '',
    certifyPolicyId: app.certifyPolicyId,
    grantPolicyId: app.grantPolicyId,
    revokePolicyId: app.revokePolicyId,
    defaultRequestCatalogId: '',
    iconUrl: '',
    logoUri: '',
    instructions: '',
    isDirectory: false,
    isManuallyManaged: app.connectorIds.length === 0,
    parentAppId: '',
    monthlyCostUsd: app.monthlyCostUsd,
    userCount: String(counts(data).perApp.get(app.id) ?? 0),
    createdAt: app.createdAt,
    updatedAt: app.updatedAt,
    deletedAt: null,
  });
}

export function entitlementView(data: TenantData, e: Entitlement): Record<string, unknown> {
  const app = data.apps.get(e.appId);
  const synced = isConnectorSynced(e.kind) && app && app.connectorIds.length > 0;
  return unsetForm(data, e.id, {
    id: e.id,
    appId: e.appId,
    displayName: e.displayName,
    description: e.description ?? '',
    alias: '',
    slug: e.slug,
    appResourceTypeId: resourceTypeId(data.seed, e.appId, e.kind),
    appResourceId: '',
    purpose: purposeOf(e.kind),
    sourceConnectorIds: synced ? { [app.connectorIds[0] as string]: `${e.kind}:${e.slug}` } : {},
    isManuallyManaged: !synced,
    systemBuiltin: e.kind === 'catalog',
    grantCount: String(counts(data).perEntitlement.get(e.id) ?? 0),
    grantPolicyId: '',
    revokePolicyId: '',
    certifyPolicyId: '',
    riskLevelValueId: '',
    complianceFrameworkValueIds: [],
    emergencyGrantEnabled: e.kind === 'role',
    emergencyGrantPolicyId: '',
    durationGrant: null,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt ?? e.createdAt,
    deletedAt: null,
  });
}

/** The statuses of the vendor's AppUserStatus (`STATUS_*`) for the tenant's `APP_USER_STATUS_*`. */
function statusOf(status: string): string {
  return status.startsWith('APP_USER_STATUS_') ? `STATUS_${status.slice('APP_USER_STATUS_'.length)}` : status;
}

export function appUserView(data: TenantData, u: AppUser): Record<string, unknown> {
  const username = u.email.split('@')[0] ?? u.email;
  return {
    appPath: '',
    identityUserPath: '',
    lastUsagePath: '',
    appUser: unsetForm(data, u.id, {
      id: u.id,
      appId: u.appId,
      displayName: u.displayName,
      email: u.email,
      emails: [u.email],
      username,
      usernames: [username],
      employeeIds: [],
      appUserType: u.userType,
      status: { status: statusOf(u.status), details: '' },
      identityUserId: u.identityUserId,
      isExternal: false,
      createdAt: u.createdAt,
      updatedAt: u.createdAt,
      deletedAt: null,
    }),
  };
}

/** One membership as the members list and the grants search show it: who, since when, how. */
export function memberView(data: TenantData, m: Membership): Record<string, unknown> {
  const user = data.appUsers.get(m.appUserId);
  return unsetForm(data, m.id, {
    appId: m.appId,
    appEntitlementId: m.appEntitlementId,
    appUserId: m.appUserId,
    appUser: user ? appUserView(data, user) : null,
    appEntitlementUserBindingCreatedAt: m.createdAt,
    appEntitlementUserBindingDeprovisionAt: m.deprovisionAt ?? null,
    grantSources: (m.grantSourceIds ?? []).map((id) => ({ appId: data.entitlements.get(id)?.appId ?? m.appId, id })),
    originatingTicketId: m.originatingTaskId ?? '',
  });
}

export function entitlementViewWrapper(data: TenantData, e: Entitlement, paths: string[], expanded: Expander): Record<string, unknown> {
  const wants = (path: string) => paths.includes('*') || paths.includes(path);
  const app = data.apps.get(e.appId);
  return {
    appEntitlement: entitlementView(data, e),
    appPath: app && wants('app_id') ? expanded.add(`app:${app.id}`, () => ({ '@type': APP_TYPE, ...appView(data, app) })) : '',
    appResourceTypePath: wants('app_resource_type_id') ? expanded.add(`rt:${e.appId}:${e.kind}`, () => resourceTypeMessage(data, e)) : '',
    appResourcePath: '',
    objectPermissions: FULL_PERMISSIONS,
  };
}

const APP_TYPE = 'type.googleapis.com/c1.api.app.v1.App';

function resourceTypeMessage(data: TenantData, e: Entitlement): AnyMessage {
  const app = data.apps.get(e.appId);
  return unsetForm(data, resourceTypeId(data.seed, e.appId, e.kind), {
    '@type': 'type.googleapis.com/c1.api.app.v1.AppResourceType',
    id: resourceTypeId(data.seed, e.appId, e.kind),
    appId: e.appId,
    displayName: RESOURCE_TYPE_NAMES[e.kind],
    traitIds: [],
    createdAt: app?.createdAt ?? e.createdAt,
    updatedAt: app?.createdAt ?? e.createdAt,
    deletedAt: null,
  });
}

/** The `expanded` array of an answer: each related object once, referred to by its JSONPath. */
export class Expander {
  readonly list: AnyMessage[] = [];
  private readonly paths = new Map<string, string>();

  add(key: string, make: () => AnyMessage): string {
    let path = this.paths.get(key);
    if (path === undefined) {
      path = `expanded[${this.list.push(make()) - 1}]`;
      this.paths.set(key, path);
    }
    return path;
  }
}

/** A task view as served: the task in its unset form (the view's own members are never timestamps). */
export function servedTaskView(data: TenantData, view: TaskView): TaskView {
  const task = view.task as Task;
  return { ...view, task: unsetForm(data, task.id ?? '', task) };
}

/** An app user view with the related objects the mask asks for appended to `expanded`. */
export function appUserViewExpanded(data: TenantData, u: AppUser, paths: string[], expanded: Expander): Record<string, unknown> {
  const view = appUserView(data, u);
  const wants = (path: string) => paths.includes('*') || paths.includes(path);
  const app = data.apps.get(u.appId);
  if (app && wants('app_id')) view.appPath = expanded.add(`app:${app.id}`, () => ({ '@type': APP_TYPE, ...appView(data, app) }));
  return view;
}
