/** Cross-app access scopes: create (spec), list per app, search, get (vendor document). */
import type { Scope } from '../../shared/api-types';
import { XAA_SCOPE_CLASSIFICATION_VALUES, XAA_SCOPE_SOURCE_VALUES, XAA_SCOPE_STATE_VALUES } from '../../shared/enums';
import { validateScopeValue } from '../../shared/validate';
import { alreadyExists, badField, invalidArgument, notFound } from '../errors';
import { optEnum, optEnumArray, optRefIds, optString, optStringArray, requiredString, textMatcher } from '../input';
import { getOr404, listPage, param, type RequestContext, type Route } from './common';

/** A scope's identity on its resource server: scopeValue is unique per resource server (409 otherwise). */
const valueKey = (resourceServerId: string, scopeValue: string) => `${resourceServerId}\n${scopeValue}`;
const scopeValueKey = (scope: Scope) => valueKey(scope.xaaResourceServerId ?? '', scope.scopeValue ?? '');

function requireApp(ctx: RequestContext) {
  return getOr404(ctx.data.apps, param(ctx, 'app_id'), 'app');
}

function createScope(ctx: RequestContext) {
  const app = requireApp(ctx);
  const body = ctx.body;
  const resourceServerId = requiredString(body, 'xaaResourceServerId');
  const scopeValue = body.scopeValue;
  if (scopeValue === undefined || scopeValue === null) throw badField('scopeValue', 'is required');
  const problem = validateScopeValue(scopeValue);
  // The shared rule's message already names the field and the offending character.
  if (problem) throw invalidArgument(problem.message, [{ field: 'scopeValue', description: problem.message }]);
  const displayName = optString(body, 'displayName') ?? '';
  const description = optString(body, 'description') ?? '';
  const classification = optEnum(body, 'classification', XAA_SCOPE_CLASSIFICATION_VALUES) ?? 'XAA_SCOPE_CLASSIFICATION_UNSPECIFIED';
  const requested = optEnum(body, 'state', XAA_SCOPE_STATE_VALUES) ?? 'XAA_SCOPE_STATE_UNSPECIFIED';
  if (!app.resourceServerIds.includes(resourceServerId)) {
    throw notFound('xaa_resource_server', resourceServerId, `resource server '${resourceServerId}' not found in app '${app.id}'`);
  }
  const value = scopeValue as string;
  const existing = ctx.data.scopes.find('resourceServerValue', scopeValueKey, valueKey(resourceServerId, value));
  if (existing) {
    throw alreadyExists(
      'xaa_scope',
      existing.id ?? '',
      `scope '${value}' already exists on resource server '${resourceServerId}' (scope ${existing.id})`,
    );
  }

  const now = new Date().toISOString();
  const id = ctx.data.newId();
  const entitlementId = ctx.data.newId();
  const scope: Scope = {
    id,
    appId: app.id,
    xaaResourceServerId: resourceServerId,
    scopeValue: value,
    displayName: displayName || value,
    description,
    classification,
    // Spec, "States and transitions": UNSPECIFIED becomes PENDING_REVIEW; any other requested state is kept.
    state: requested === 'XAA_SCOPE_STATE_UNSPECIFIED' ? 'XAA_SCOPE_STATE_PENDING_REVIEW' : requested,
    // Declared through the API by an admin, not discovered.
    source: 'XAA_SCOPE_SOURCE_ADMIN_DECLARED',
    appEntitlementId: entitlementId,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
    lastDiscoveredAt: null,
  };
  ctx.data.scopes.set(id, scope);
  ctx.data.build.scopeEntitlement(entitlementId, {
    id,
    appId: app.id,
    displayName: scope.displayName as string,
    scopeValue: value,
    createdAt: now,
  });
  ctx.record(id);
  return { scope };
}

function listAppScopes(ctx: RequestContext) {
  const app = requireApp(ctx);
  const page = listPage(ctx, { collection: ctx.data.scopes, match: (s) => s.appId === app.id });
  return { scopes: page.items, nextPageToken: page.nextPageToken };
}

function getScope(ctx: RequestContext) {
  const app = requireApp(ctx);
  const scope = ctx.data.scopes.get(param(ctx, 'id'));
  if (!scope || scope.appId !== app.id) throw notFound('xaa_scope', param(ctx, 'id'));
  return { scope };
}

function searchScopes(ctx: RequestContext) {
  const body = ctx.body;
  const filter = {
    appIds: optStringArray(body, 'appIds') ?? [],
    classificationFilter: optEnumArray(body, 'classificationFilter', XAA_SCOPE_CLASSIFICATION_VALUES) ?? [],
    query: optString(body, 'query') ?? '',
    refs: optRefIds(body, 'refs') ?? [],
    sourceFilter: optEnumArray(body, 'sourceFilter', XAA_SCOPE_SOURCE_VALUES) ?? [],
    stateFilter: optEnumArray(body, 'stateFilter', XAA_SCOPE_STATE_VALUES) ?? [],
    xaaResourceServerIds: optStringArray(body, 'xaaResourceServerIds') ?? [],
  };
  const text = textMatcher(filter.query);
  const within = (list: string[], value: string | undefined) => list.length === 0 || list.includes(value ?? '');
  const page = listPage(ctx, {
    collection: ctx.data.scopes,
    filter,
    match: (s) =>
      within(filter.appIds, s.appId) &&
      within(filter.classificationFilter, s.classification) &&
      within(filter.refs, s.id) &&
      within(filter.sourceFilter, s.source) &&
      within(filter.stateFilter, s.state) &&
      within(filter.xaaResourceServerIds, s.xaaResourceServerId) &&
      (!text || text(s.scopeValue, s.displayName, s.description)),
  });
  return { list: page.items, nextPageToken: page.nextPageToken };
}

export const scopeRoutes: Route[] = [
  { method: 'POST', path: '/api/v1/apps/{app_id}/xaa/scopes', operation: 'createScope', handle: createScope },
  { method: 'GET', path: '/api/v1/apps/{app_id}/xaa/scopes', handle: listAppScopes },
  { method: 'GET', path: '/api/v1/apps/{app_id}/xaa/scopes/{id}', handle: getScope },
  { method: 'POST', path: '/api/v1/search/xaa/scopes', handle: searchScopes },
];
