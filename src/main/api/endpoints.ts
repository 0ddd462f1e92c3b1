/**
 * One typed function per endpoint of the spec, and per list endpoint that sync walks (shapes from
 * the vendor's OpenAPI document). Each returns the parsed body and its raw text; nothing is
 * filtered, so unknown fields and enum values arrive as the server sent them.
 *
 * Path parameters are percent-encoded one segment each and refused when empty (see path.ts).
 * POST searches are reads (`mutation: false`): they are retried like any GET.
 */
import type {
  CreateAccessReviewRequest,
  CreateAccessReviewResponse,
  CreateScopeRequest,
  CreateScopeResponse,
  EscalateTaskRequest,
  EscalateTaskResponse,
  GetAccessReviewResponse,
  GetAccessReviewTemplateResponse,
  GetAutomationResponse,
  GetMcpToolsetResponse,
  GetTaskResponse,
  ListAccessReviewsResponse,
  ListEntitlementUsersResponse,
  ListAppScopesResponse,
  ListAutomationsResponse,
  ListRoutingRulesResponse,
  RemoveMembershipRequest,
  RemoveMembershipResponse,
  SearchAppsRequest,
  SearchAppsResponse,
  SearchPoliciesRequest,
  SearchPoliciesResponse,
  SearchUsersRequest,
  SearchUsersResponse,
  SearchAppUsersRequest,
  SearchAppUsersResponse,
  SearchEntitlementsRequest,
  SearchEntitlementsResponse,
  SearchGrantsRequest,
  SearchGrantsResponse,
  SearchAutomationsRequest,
  SearchAutomationsResponse,
  SearchMcpToolsetsResponse,
  SearchScopesRequest,
  SearchScopesResponse,
  SearchTasksRequest,
  SearchTasksResponse,
  UpdateAccessReviewTemplateRequest,
  UpdateAccessReviewTemplateResponse,
} from '../../shared/api-types';
import { AUTOMATIONS_PAGE_SIZE, PAGE_SIZE_MAX } from '../../shared/pagination';
import type { ApiClient, ApiResponse } from './client';
import type { PageLike, PageRequest } from './paginate';
import { pathParam as p } from './path';

export interface CallOptions {
  signal?: AbortSignal | undefined;
}

/** Page parameters of a GET list (sent as `page_size` / `page_token`). */
export interface PageParams {
  pageSize?: number | undefined;
  pageToken?: string | undefined;
}

function pageQuery(page: PageParams | undefined): Record<string, string | number | undefined> {
  return {
    page_size: page?.pageSize,
    page_token: page?.pageToken === '' ? undefined : page?.pageToken,
  };
}

function signalOf(opts: CallOptions | undefined): { signal?: AbortSignal } {
  return opts?.signal ? { signal: opts.signal } : {};
}

// ---- The spec's endpoints ----

/** `POST /apps/{app_id}/xaa/scopes`: create a cross-app access scope. */
export async function createScope(
  api: ApiClient,
  appId: string,
  body: CreateScopeRequest,
  opts?: CallOptions,
): Promise<ApiResponse<CreateScopeResponse>> {
  return api.request({ method: 'POST', path: `/apps/${p(appId, 'app_id')}/xaa/scopes`, body, ...signalOf(opts) });
}

/** `DELETE /apps/{app_id}/entitlements/{app_entitlement_id}/remove-membership` with the JSON body `{appUserId}`. */
export async function removeMembership(
  api: ApiClient,
  appId: string,
  appEntitlementId: string,
  body: RemoveMembershipRequest,
  opts?: CallOptions,
): Promise<ApiResponse<RemoveMembershipResponse>> {
  return api.request({
    method: 'DELETE',
    path: `/apps/${p(appId, 'app_id')}/entitlements/${p(appEntitlementId, 'app_entitlement_id')}/remove-membership`,
    body,
    ...signalOf(opts),
  });
}

/** `POST /access_review_template/{id}`: change the fields named by `updateMask`. */
export async function updateAccessReviewTemplate(
  api: ApiClient,
  id: string,
  body: UpdateAccessReviewTemplateRequest,
  opts?: CallOptions,
): Promise<ApiResponse<UpdateAccessReviewTemplateResponse>> {
  return api.request({ method: 'POST', path: `/access_review_template/${p(id, 'id')}`, body, ...signalOf(opts) });
}

/** `POST /search/automations` (a read). Ask for 10 rows or fewer: each carries full steps and triggers. */
export async function searchAutomations(
  api: ApiClient,
  body: SearchAutomationsRequest,
  opts?: CallOptions,
): Promise<ApiResponse<SearchAutomationsResponse>> {
  return api.request({ method: 'POST', path: '/search/automations', body, mutation: false, ...signalOf(opts) });
}

/** `GET /access_review/{id}`: the campaign wrapper. */
export async function getAccessReview(api: ApiClient, id: string, opts?: CallOptions): Promise<ApiResponse<GetAccessReviewResponse>> {
  return api.request({ method: 'GET', path: `/access_review/${p(id, 'id')}`, ...signalOf(opts) });
}

/** `POST /access_review`: create a campaign (the same wrapper as get). */
export async function createAccessReview(
  api: ApiClient,
  body: CreateAccessReviewRequest,
  opts?: CallOptions,
): Promise<ApiResponse<CreateAccessReviewResponse>> {
  return api.request({ method: 'POST', path: '/access_review', body, ...signalOf(opts) });
}

/** `POST /tasks/{task_id}/action/escalate`: escalate a task to emergency access. */
export async function escalateTask(
  api: ApiClient,
  taskId: string,
  body: EscalateTaskRequest,
  opts?: CallOptions,
): Promise<ApiResponse<EscalateTaskResponse>> {
  return api.request({ method: 'POST', path: `/tasks/${p(taskId, 'task_id')}/action/escalate`, body, ...signalOf(opts) });
}

/** `GET /apps/{app_id}/mcp_toolsets/by_app_entitlement_id/{app_entitlement_id}`. */
export async function getMcpToolsetByEntitlement(
  api: ApiClient,
  appId: string,
  appEntitlementId: string,
  opts?: CallOptions,
): Promise<ApiResponse<GetMcpToolsetResponse>> {
  return api.request({
    method: 'GET',
    path: `/apps/${p(appId, 'app_id')}/mcp_toolsets/by_app_entitlement_id/${p(appEntitlementId, 'app_entitlement_id')}`,
    ...signalOf(opts),
  });
}

/**
 * `GET /findings/routing-rules`. The spec does not name its app filter; pass it (and anything
 * else) in `extraQuery` once known.
 */
export async function listRoutingRules(
  api: ApiClient,
  page?: PageParams,
  opts?: CallOptions & { extraQuery?: Record<string, string | number | undefined> },
): Promise<ApiResponse<ListRoutingRulesResponse>> {
  return api.request({
    method: 'GET',
    path: '/findings/routing-rules',
    query: { ...opts?.extraQuery, ...pageQuery(page) },
    ...signalOf(opts),
  });
}

// ---- List endpoints (sync) ----

/** `GET /access_reviews`: campaign views. */
export async function listAccessReviews(
  api: ApiClient,
  page?: PageParams,
  opts?: CallOptions,
): Promise<ApiResponse<ListAccessReviewsResponse>> {
  return api.request({ method: 'GET', path: '/access_reviews', query: pageQuery(page), ...signalOf(opts) });
}

/** `GET /access_review_template/{id}` (templates have no list: ids come from campaigns and automations). */
export async function getAccessReviewTemplate(
  api: ApiClient,
  id: string,
  opts?: CallOptions,
): Promise<ApiResponse<GetAccessReviewTemplateResponse>> {
  return api.request({ method: 'GET', path: `/access_review_template/${p(id, 'id')}`, ...signalOf(opts) });
}

/** `GET /mcp_toolsets/search`: tenant-wide MCP toolsets; rows under `profiles`. */
export async function searchMcpToolsets(
  api: ApiClient,
  params?: PageParams & { query?: string | undefined },
  opts?: CallOptions,
): Promise<ApiResponse<SearchMcpToolsetsResponse>> {
  return api.request({
    method: 'GET',
    path: '/mcp_toolsets/search',
    query: { ...pageQuery(params), query: params?.query === '' ? undefined : params?.query },
    ...signalOf(opts),
  });
}

/** `POST /search/xaa/scopes` (a read): cross-app scopes across apps. */
export async function searchScopes(
  api: ApiClient,
  body: SearchScopesRequest,
  opts?: CallOptions,
): Promise<ApiResponse<SearchScopesResponse>> {
  return api.request({ method: 'POST', path: '/search/xaa/scopes', body, mutation: false, ...signalOf(opts) });
}

/** `GET /apps/{app_id}/xaa/scopes`: one app's scopes; rows under `scopes`. */
export async function listAppScopes(
  api: ApiClient,
  appId: string,
  page?: PageParams,
  opts?: CallOptions,
): Promise<ApiResponse<ListAppScopesResponse>> {
  return api.request({ method: 'GET', path: `/apps/${p(appId, 'app_id')}/xaa/scopes`, query: pageQuery(page), ...signalOf(opts) });
}

/** `GET /automations/{id}` (vendor document): `{ automation }`, the same Automation a search row is. */
export async function getAutomation(api: ApiClient, id: string, opts?: CallOptions): Promise<ApiResponse<GetAutomationResponse>> {
  return api.request({ method: 'GET', path: `/automations/${p(id, 'id')}`, ...signalOf(opts) });
}

/** `GET /automations`. */
export async function listAutomations(
  api: ApiClient,
  page?: PageParams,
  opts?: CallOptions,
): Promise<ApiResponse<ListAutomationsResponse>> {
  return api.request({ method: 'GET', path: '/automations', query: pageQuery(page), ...signalOf(opts) });
}

/** `POST /search/tasks` (a read): task views. */
export async function searchTasks(api: ApiClient, body: SearchTasksRequest, opts?: CallOptions): Promise<ApiResponse<SearchTasksResponse>> {
  return api.request({ method: 'POST', path: '/search/tasks', body, mutation: false, ...signalOf(opts) });
}

/** `GET /tasks/{id}`. */
export async function getTask(api: ApiClient, id: string, opts?: CallOptions): Promise<ApiResponse<GetTaskResponse>> {
  return api.request({ method: 'GET', path: `/tasks/${p(id, 'id')}`, ...signalOf(opts) });
}

/** `POST /search/apps` (a read): the tenant's apps. */
export async function searchApps(api: ApiClient, body: SearchAppsRequest, opts?: CallOptions): Promise<ApiResponse<SearchAppsResponse>> {
  return api.request({ method: 'POST', path: '/search/apps', body, mutation: false, ...signalOf(opts) });
}

/** `POST /search/users` (a read): the tenant's identity users, each row a UserView. */
export async function searchUsers(api: ApiClient, body: SearchUsersRequest, opts?: CallOptions): Promise<ApiResponse<SearchUsersResponse>> {
  return api.request({ method: 'POST', path: '/search/users', body, mutation: false, ...signalOf(opts) });
}

/** `POST /search/policies` (a read): the tenant's policies (approval and provisioning steps). */
export async function searchPolicies(
  api: ApiClient,
  body: SearchPoliciesRequest,
  opts?: CallOptions,
): Promise<ApiResponse<SearchPoliciesResponse>> {
  return api.request({ method: 'POST', path: '/search/policies', body, mutation: false, ...signalOf(opts) });
}

/** `POST /search/entitlements` (a read): entitlement views; related objects named by `expandMask` in `expanded`. */
export async function searchEntitlements(
  api: ApiClient,
  body: SearchEntitlementsRequest,
  opts?: CallOptions,
): Promise<ApiResponse<SearchEntitlementsResponse>> {
  return api.request({ method: 'POST', path: '/search/entitlements', body, mutation: false, ...signalOf(opts) });
}

/** `POST /search/app_users` (a read): app user views. */
export async function searchAppUsers(
  api: ApiClient,
  body: SearchAppUsersRequest,
  opts?: CallOptions,
): Promise<ApiResponse<SearchAppUsersResponse>> {
  return api.request({ method: 'POST', path: '/search/app_users', body, mutation: false, ...signalOf(opts) });
}

/** `POST /search/grants` (a read): who holds which entitlement, each row with its entitlement view. */
export async function searchGrants(
  api: ApiClient,
  body: SearchGrantsRequest,
  opts?: CallOptions,
): Promise<ApiResponse<SearchGrantsResponse>> {
  return api.request({ method: 'POST', path: '/search/grants', body, mutation: false, ...signalOf(opts) });
}

/** `GET /apps/{app_id}/entitlements/{app_entitlement_id}/users`: the members of one entitlement. */
export async function listEntitlementUsers(
  api: ApiClient,
  appId: string,
  appEntitlementId: string,
  page?: PageParams,
  opts?: CallOptions,
): Promise<ApiResponse<ListEntitlementUsersResponse>> {
  return api.request({
    method: 'GET',
    path: `/apps/${p(appId, 'app_id')}/entitlements/${p(appEntitlementId, 'app_entitlement_id')}/users`,
    query: pageQuery(page),
    ...signalOf(opts),
  });
}

// ---- Page walkers: one per walkable collection, ready for `paginate` ----

export interface Walkable<P extends PageLike> {
  /** The largest page the endpoint allows. */
  pageSize: number;
  /** Where a page keeps its rows. */
  listKey: string;
  /** Fetches one page. */
  fetchPage(api: ApiClient): (req: PageRequest, signal?: AbortSignal) => Promise<ApiResponse<P>>;
}

const page = (req: PageRequest): PageParams => ({ pageSize: req.pageSize, pageToken: req.pageToken });
/** The page members of a POST search body. */
const pageBody = (req: PageRequest): { pageSize: number; pageToken?: string } => ({
  pageSize: req.pageSize,
  ...(req.pageToken ? { pageToken: req.pageToken } : {}),
});

/** The expand path that gives an entitlement's app resource type (its type: Group, Role, Access Profile...). */
export const ENTITLEMENT_TYPE_EXPAND = 'app_resource_type_id';

/** Pages of `POST /search/automations` under a filter (`{}`: every automation). */
export function automationsWhere(
  api: ApiClient,
  filter: Pick<SearchAutomationsRequest, 'isDraft' | 'statuses'>,
): (req: PageRequest, signal?: AbortSignal) => Promise<ApiResponse<SearchAutomationsResponse>> {
  return (req, signal) =>
    searchAutomations(api, { ...filter, pageSize: req.pageSize, ...(req.pageToken ? { pageToken: req.pageToken } : {}) }, { signal });
}

/** Pages of `POST /search/grants` under a filter (`{}`: every grant). */
export function grantsWhere(
  api: ApiClient,
  filter: Pick<SearchGrantsRequest, 'appIds' | 'appUserIds' | 'entitlementRefs'>,
): (req: PageRequest, signal?: AbortSignal) => Promise<ApiResponse<SearchGrantsResponse>> {
  return (req, signal) => searchGrants(api, { ...filter, ...pageBody(req) }, { signal });
}

/**
 * The walkable collections: `paginate(walks.automations.fetchPage(api), { pageSize: walks.automations.pageSize })`.
 */
export const walks = {
  accessReviews: {
    pageSize: PAGE_SIZE_MAX,
    listKey: 'list',
    fetchPage: (api) => (req, signal) => listAccessReviews(api, page(req), { signal }),
  } satisfies Walkable<ListAccessReviewsResponse>,
  automations: {
    pageSize: AUTOMATIONS_PAGE_SIZE,
    listKey: 'list',
    fetchPage: (api) => automationsWhere(api, {}),
  } satisfies Walkable<SearchAutomationsResponse>,
  listAutomations: {
    pageSize: AUTOMATIONS_PAGE_SIZE,
    listKey: 'list',
    fetchPage: (api) => (req, signal) => listAutomations(api, page(req), { signal }),
  } satisfies Walkable<ListAutomationsResponse>,
  mcpToolsets: {
    pageSize: PAGE_SIZE_MAX,
    listKey: 'profiles',
    fetchPage: (api) => (req, signal) => searchMcpToolsets(api, page(req), { signal }),
  } satisfies Walkable<SearchMcpToolsetsResponse>,
  routingRules: {
    pageSize: PAGE_SIZE_MAX,
    listKey: 'list',
    fetchPage: (api) => (req, signal) => listRoutingRules(api, page(req), { signal }),
  } satisfies Walkable<ListRoutingRulesResponse>,
  scopes: {
    pageSize: PAGE_SIZE_MAX,
    listKey: 'list',
    fetchPage: (api) => (req, signal) =>
      searchScopes(api, { pageSize: req.pageSize, ...(req.pageToken ? { pageToken: req.pageToken } : {}) }, { signal }),
  } satisfies Walkable<SearchScopesResponse>,
  tasks: {
    pageSize: PAGE_SIZE_MAX,
    listKey: 'list',
    fetchPage: (api) => (req, signal) => searchTasks(api, pageBody(req), { signal }),
  } satisfies Walkable<SearchTasksResponse>,
  apps: {
    pageSize: PAGE_SIZE_MAX,
    listKey: 'list',
    fetchPage: (api) => (req, signal) => searchApps(api, pageBody(req), { signal }),
  } satisfies Walkable<SearchAppsResponse>,
  entitlements: {
    pageSize: PAGE_SIZE_MAX,
    listKey: 'list',
    fetchPage: (api) => (req, signal) =>
      searchEntitlements(api, { ...pageBody(req), expandMask: { paths: [ENTITLEMENT_TYPE_EXPAND] } }, { signal }),
  } satisfies Walkable<SearchEntitlementsResponse>,
  appUsers: {
    pageSize: PAGE_SIZE_MAX,
    listKey: 'list',
    fetchPage: (api) => (req, signal) => searchAppUsers(api, pageBody(req), { signal }),
  } satisfies Walkable<SearchAppUsersResponse>,
  users: {
    pageSize: PAGE_SIZE_MAX,
    listKey: 'list',
    fetchPage: (api) => (req, signal) => searchUsers(api, pageBody(req), { signal }),
  } satisfies Walkable<SearchUsersResponse>,
  policies: {
    pageSize: PAGE_SIZE_MAX,
    listKey: 'list',
    fetchPage: (api) => (req, signal) => searchPolicies(api, pageBody(req), { signal }),
  } satisfies Walkable<SearchPoliciesResponse>,
  grants: {
    pageSize: PAGE_SIZE_MAX,
    listKey: 'list',
    fetchPage: (api) => (req, signal) => searchGrants(api, pageBody(req), { signal }),
  } satisfies Walkable<SearchGrantsResponse>,
} as const;
