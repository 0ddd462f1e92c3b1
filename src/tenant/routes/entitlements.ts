/**
 * Entitlements: remove a membership (spec); search, get and list the members of one (vendor
 * document). A removal really removes the membership: the members list and the grants search no
 * longer show it, and the revoke task it returns is served by the task endpoints.
 */
import type { Entitlement, Membership } from '../dataset';
import { membershipId } from '../dataset';
import { badField, failedPrecondition, notFound } from '../errors';
import { optBoolean, optEntitlementRefs, optExpandMask, optString, optStringArray, requiredString, textMatcher } from '../input';
import { entitlementViewWrapper, Expander, isConnectorSynced, isManagedKind, memberView, resourceTypeId } from '../views';
import type { SortOrder } from '../pagination';
import { getOr404, listPage, param, type RequestContext, type Route } from './common';

/** Expand paths of AppEntitlementExpandMask (the reference tenant has no app resources to expand). */
export const ENTITLEMENT_EXPAND_PATHS = ['*', 'app_id', 'app_resource_type_id', 'app_resource_id'];

export function checkPaths(paths: string[] | undefined, allowed: string[]): string[] {
  for (const [i, path] of (paths ?? []).entries()) {
    if (!allowed.includes(path)) throw badField(`expandMask.paths[${i}]`, `'${path}' is not an expandable path (${allowed.join(', ')})`);
  }
  return paths ?? [];
}

/** Memberships by entitlement, then in the order they were made. */
const BY_ENTITLEMENT: SortOrder<Membership> = { name: 'entitlement', key: (m) => m.appEntitlementId, descending: false };

/** The entitlement `app_entitlement_id` of app `app_id` (404 for either). */
function entitlementOf(ctx: RequestContext, idParam: string): Entitlement {
  const app = getOr404(ctx.data.apps, param(ctx, 'app_id'), 'app');
  const entitlementId = param(ctx, idParam);
  const entitlement = ctx.data.entitlements.get(entitlementId);
  if (!entitlement || entitlement.appId !== app.id)
    throw notFound('app_entitlement', entitlementId, `entitlement '${entitlementId}' not found in app '${app.id}'`);
  return entitlement;
}

function removeMembership(ctx: RequestContext) {
  const entitlement = entitlementOf(ctx, 'app_entitlement_id');
  const entitlementId = entitlement.id;
  const appUserId = requiredString(ctx.body, 'appUserId');
  if (!isManagedKind(entitlement.kind)) {
    const what = entitlement.kind === 'scope' ? 'bound to a cross-app scope' : `a ${entitlement.kind} synced from a connector`;
    throw failedPrecondition(
      'ENTITLEMENT_NOT_MANAGED',
      `app_entitlement/${entitlementId}`,
      `entitlement '${entitlementId}' is ${what}; only catalog, group and profile memberships can be removed`,
    );
  }
  const id = membershipId(entitlementId, appUserId);
  if (!ctx.data.memberships.has(id)) {
    throw notFound('app_entitlement_membership', id, `app user '${appUserId}' is not a member of entitlement '${entitlementId}'`);
  }
  ctx.data.memberships.delete(id);
  // Spec: removal from an access profile (catalog) creates a revoke task; its id is returned.
  let revokeTaskId = '';
  if (entitlement.kind === 'catalog') {
    const task = ctx.data.build.revokeTask(
      { appId: entitlement.appId, appEntitlementId: entitlementId, appUserId },
      ctx.principal.clientId,
    );
    ctx.data.tasks.set(task.id as string, task);
    revokeTaskId = task.id as string;
  }
  ctx.record(id);
  return { revokeTaskId };
}

function getEntitlement(ctx: RequestContext) {
  const entitlement = entitlementOf(ctx, 'id');
  const expanded = new Expander();
  return { appEntitlementView: entitlementViewWrapper(ctx.data, entitlement, [], expanded), expanded: expanded.list };
}

function listMembers(ctx: RequestContext) {
  const entitlement = entitlementOf(ctx, 'app_entitlement_id');
  // One range of the memberships sorted by entitlement: a page costs the same for any entitlement.
  const page = listPage(ctx, {
    collection: ctx.data.memberships,
    filter: { entitlement: entitlement.id },
    order: BY_ENTITLEMENT,
    only: entitlement.id,
  });
  return { list: page.items.map((m) => memberView(ctx.data, m)), nextPageToken: page.nextPageToken, expanded: [] };
}

function searchEntitlements(ctx: RequestContext) {
  const body = ctx.body;
  const filter = {
    appIds: optStringArray(body, 'appIds') ?? [],
    excludeAppIds: optStringArray(body, 'excludeAppIds') ?? [],
    appUserIds: optStringArray(body, 'appUserIds') ?? [],
    excludeAppUserIds: optStringArray(body, 'excludeAppUserIds') ?? [],
    refs: optEntitlementRefs(body, 'refs') ?? [],
    excludedEntitlementRefs: optEntitlementRefs(body, 'excludedEntitlementRefs') ?? [],
    displayName: optString(body, 'displayName') ?? '',
    alias: optString(body, 'alias') ?? '',
    query: optString(body, 'query') ?? '',
    resourceTypeIds: optStringArray(body, 'resourceTypeIds') ?? [],
    excludeResourceTypeIds: optStringArray(body, 'excludeResourceTypeIds') ?? [],
    sourceConnectorId: optString(body, 'sourceConnectorId') ?? '',
    includeDeleted: optBoolean(body, 'includeDeleted') ?? false,
  };
  const paths = checkPaths(optExpandMask(body), ENTITLEMENT_EXPAND_PATHS);
  const data = ctx.data;
  const text = textMatcher(filter.query);
  const name = filter.displayName.toLowerCase();
  const held = (users: string[], e: Entitlement) => users.some((u) => data.memberships.has(membershipId(e.id, u)));
  const page = listPage(ctx, {
    collection: data.entitlements,
    filter: { ...filter, paths },
    match: (e) => {
      const typeId =
        filter.resourceTypeIds.length || filter.excludeResourceTypeIds.length ? resourceTypeId(data.seed, e.appId, e.kind) : '';
      const connectors = isConnectorSynced(e.kind) ? (data.apps.get(e.appId)?.connectorIds.slice(0, 1) ?? []) : [];
      return (
        (filter.appIds.length === 0 || filter.appIds.includes(e.appId)) &&
        !filter.excludeAppIds.includes(e.appId) &&
        (filter.refs.length === 0 || filter.refs.some((r) => r.id === e.id && (!r.appId || r.appId === e.appId))) &&
        !filter.excludedEntitlementRefs.some((r) => r.id === e.id && (!r.appId || r.appId === e.appId)) &&
        (filter.appUserIds.length === 0 || held(filter.appUserIds, e)) &&
        !held(filter.excludeAppUserIds, e) &&
        (!name || e.displayName.toLowerCase() === name) &&
        // No entitlement of the reference tenant has an alias.
        !filter.alias &&
        (filter.resourceTypeIds.length === 0 || filter.resourceTypeIds.includes(typeId)) &&
        !filter.excludeResourceTypeIds.includes(typeId) &&
        (!filter.sourceConnectorId || connectors.includes(filter.sourceConnectorId)) &&
        (!text || text(e.displayName, e.description, e.slug))
      );
    },
  });
  const expanded = new Expander();
  const list = page.items.map((e) => entitlementViewWrapper(data, e, paths, expanded));
  return { list, nextPageToken: page.nextPageToken, expanded: expanded.list };
}

export const entitlementRoutes: Route[] = [
  {
    method: 'DELETE',
    path: '/api/v1/apps/{app_id}/entitlements/{app_entitlement_id}/remove-membership',
    operation: 'removeMembership',
    handle: removeMembership,
  },
  { method: 'GET', path: '/api/v1/apps/{app_id}/entitlements/{id}', handle: getEntitlement },
  { method: 'GET', path: '/api/v1/apps/{app_id}/entitlements/{app_entitlement_id}/users', handle: listMembers },
  { method: 'POST', path: '/api/v1/search/entitlements', handle: searchEntitlements },
];
