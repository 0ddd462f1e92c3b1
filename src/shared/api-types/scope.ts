/** Cross-app access scopes (spec "Scope (cross-app access scope)", "Create scope"). */
import type { XaaScopeClassification, XaaScopeSource, XaaScopeState } from '../enums';
import type { Page, Timestamp } from './common';

/** An OAuth scope exposed by a resource server, elevated into a governable object bound to its own entitlement. */
export interface Scope {
  id?: string;
  /** Application that owns the resource server. */
  appId?: string;
  /** Resource server the scope belongs to. */
  xaaResourceServerId?: string;
  /** Literal OAuth scope string minted into the grant. Immutable. RFC 6749 scope charset, 1 to 256 bytes. */
  scopeValue?: string;
  displayName?: string;
  description?: string;
  classification?: XaaScopeClassification;
  state?: XaaScopeState;
  source?: XaaScopeSource;
  /** Entitlement created for this scope. */
  appEntitlementId?: string;
  createdAt?: Timestamp;
  updatedAt?: Timestamp;
  deletedAt?: Timestamp;
  lastDiscoveredAt?: Timestamp;
}

/** Reference to a scope: `{ appId, id }`. */
export interface ScopeRef {
  appId?: string;
  id?: string;
}

/**
 * Body of `POST /api/v1/apps/{app_id}/xaa/scopes`. `state` is the initial state: UNSPECIFIED
 * (or absent) gives PENDING_REVIEW.
 */
export type CreateScopeRequest = Pick<
  Scope,
  'xaaResourceServerId' | 'scopeValue' | 'displayName' | 'description' | 'classification' | 'state'
>;

/** Answer of create scope. */
export interface CreateScopeResponse {
  scope?: Scope | null;
}

/** Answer of `GET /api/v1/apps/{app_id}/xaa/scopes/{id}`. */
export interface GetScopeResponse {
  scope?: Scope | null;
}

/** Body of `POST /api/v1/search/xaa/scopes` (the sync walk of scopes). */
export interface SearchScopesRequest {
  appIds?: string[] | null;
  classificationFilter?: XaaScopeClassification[] | null;
  pageSize?: number;
  pageToken?: string;
  query?: string;
  refs?: ScopeRef[] | null;
  sourceFilter?: XaaScopeSource[] | null;
  stateFilter?: XaaScopeState[] | null;
  xaaResourceServerIds?: string[] | null;
}

/** Answer of search scopes: `{ list, nextPageToken }`. */
export type SearchScopesResponse = Page<Scope>;

/**
 * Answer of `GET /api/v1/apps/{app_id}/xaa/scopes` (query: `page_size`, `page_token`).
 * Unlike the search, its rows are under `scopes`, not `list`.
 */
export interface ListAppScopesResponse {
  scopes?: Scope[] | null;
  nextPageToken?: string;
}
