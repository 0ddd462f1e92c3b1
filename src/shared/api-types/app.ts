/**
 * Apps, their entitlements, app users and grants (vendor document, c1.api.app.v1): the objects
 * admins act on. Only the spec's removal of a membership changes them; the rest is read by sync.
 */
import type { AnyMessage, AppEntitlementRef, ExpandMask, Int64String, ObjectPermissions, Page, Timestamp } from './common';

/** An application of the tenant (vendor field set, abridged to what Attest reads; the rest is kept as received). */
export interface App {
  id?: string;
  displayName?: string;
  description?: string;
  grantPolicyId?: string;
  revokePolicyId?: string;
  certifyPolicyId?: string;
  isDirectory?: boolean;
  isManuallyManaged?: boolean;
  parentAppId?: string;
  monthlyCostUsd?: number;
  userCount?: Int64String;
  createdAt?: Timestamp;
  updatedAt?: Timestamp;
  deletedAt?: Timestamp;
}

/** An entitlement of an app (a group, role, permission, access profile...); its type is its app resource type. */
export interface AppEntitlement {
  id?: string;
  appId?: string;
  displayName?: string;
  description?: string;
  alias?: string;
  slug?: string;
  appResourceTypeId?: string;
  appResourceId?: string;
  /** APP_ENTITLEMENT_PURPOSE_VALUE_* (ASSIGNMENT, PERMISSION, OWNERSHIP). */
  purpose?: string;
  /** Connector id -> the connector's own id of the entitlement; set when a connector syncs it. */
  sourceConnectorIds?: Record<string, string> | null;
  isManuallyManaged?: boolean;
  systemBuiltin?: boolean;
  grantCount?: Int64String;
  emergencyGrantEnabled?: boolean;
  createdAt?: Timestamp;
  updatedAt?: Timestamp;
  deletedAt?: Timestamp;
}

/** A row of the entitlements search: the entitlement and JSONPaths into the answer's `expanded`. */
export interface AppEntitlementView {
  appEntitlement?: AppEntitlement | null;
  appPath?: string;
  appResourcePath?: string;
  appResourceTypePath?: string;
  objectPermissions?: ObjectPermissions | null;
}

/** An app resource type (expanded): its display name is the entitlement's type (Group, Role, Access Profile...). */
export interface AppResourceType {
  id?: string;
  appId?: string;
  displayName?: string;
  traitIds?: string[] | null;
  createdAt?: Timestamp;
  updatedAt?: Timestamp;
  deletedAt?: Timestamp;
}

/** An account of an app. */
export interface AppUser {
  id?: string;
  appId?: string;
  displayName?: string;
  email?: string;
  emails?: string[] | null;
  username?: string;
  usernames?: string[] | null;
  /** APP_USER_TYPE_* */
  appUserType?: string;
  status?: { status?: string; details?: string } | null;
  identityUserId?: string;
  isExternal?: boolean;
  createdAt?: Timestamp;
  updatedAt?: Timestamp;
  deletedAt?: Timestamp;
}

export interface AppUserView {
  appPath?: string;
  identityUserPath?: string;
  lastUsagePath?: string;
  appUser?: AppUser | null;
}

/** Who holds an entitlement: the app user, since when, until when, and through which entitlements. */
export interface AppEntitlementUserView {
  appId?: string;
  appEntitlementId?: string;
  appUserId?: string;
  appUser?: AppUserView | null;
  appEntitlementUserBindingCreatedAt?: Timestamp;
  appEntitlementUserBindingDeprovisionAt?: Timestamp;
  /** The entitlements the grant comes through (empty: granted directly). */
  grantSources?: AppEntitlementRef[] | null;
  originatingTicketId?: string;
}

/** A row of the grants search. */
export interface AppEntitlementWithUserBinding {
  entitlement?: AppEntitlementView | null;
  appEntitlementUserBinding?: AppEntitlementUserView | null;
}

/** Body of `POST /api/v1/search/apps`. */
export interface SearchAppsRequest {
  appIds?: string[] | null;
  excludeAppIds?: string[] | null;
  displayName?: string;
  onlyDirectories?: boolean;
  query?: string;
  pageSize?: number;
  pageToken?: string;
}
export type SearchAppsResponse = Page<App>;

/** Body of `POST /api/v1/search/entitlements` (abridged). */
export interface SearchEntitlementsRequest {
  appIds?: string[] | null;
  refs?: AppEntitlementRef[] | null;
  query?: string;
  expandMask?: ExpandMask | null;
  pageSize?: number;
  pageToken?: string;
}
export interface SearchEntitlementsResponse extends Page<AppEntitlementView> {
  expanded?: AnyMessage[] | null;
}

/** Body of `POST /api/v1/search/app_users` (abridged). */
export interface SearchAppUsersRequest {
  appId?: string;
  appIds?: string[] | null;
  appUserIds?: string[] | null;
  query?: string;
  expandMask?: ExpandMask | null;
  pageSize?: number;
  pageToken?: string;
}
export interface SearchAppUsersResponse extends Page<AppUserView> {
  expanded?: AnyMessage[] | null;
}

/** Body of `POST /api/v1/search/grants` (abridged). */
export interface SearchGrantsRequest {
  appIds?: string[] | null;
  appUserIds?: string[] | null;
  entitlementRefs?: AppEntitlementRef[] | null;
  expandMask?: ExpandMask | null;
  pageSize?: number;
  pageToken?: string;
}
export interface SearchGrantsResponse extends Page<AppEntitlementWithUserBinding> {
  expanded?: AnyMessage[] | null;
}

/** Answer of `GET /api/v1/apps/{app_id}/entitlements/{app_entitlement_id}/users`. */
export interface ListEntitlementUsersResponse extends Page<AppEntitlementUserView> {
  expanded?: AnyMessage[] | null;
}
