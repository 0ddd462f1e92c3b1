/** Apps: search and get (vendor document), for sync and the pickers of the objects admins act on. */
import { badField, notFound } from '../errors';
import { isObject, optBoolean, optString, optStringArray, textMatcher } from '../input';
import { appView } from '../views';
import { listPage, param, type RequestContext, type Route } from './common';

function getApp(ctx: RequestContext) {
  const id = param(ctx, 'id');
  const app = ctx.data.apps.get(id);
  if (!app) throw notFound('app', id);
  return { app: appView(ctx.data, app) };
}

/** `policyRefs: [{ id }]` as a list of policy ids. */
function policyIds(body: Record<string, unknown>): string[] {
  const value = body.policyRefs;
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw badField('policyRefs', 'must be a list of { id } objects');
  return value.map((ref, i) => {
    if (!isObject(ref) || typeof ref.id !== 'string') throw badField(`policyRefs[${i}].id`, 'must be a string');
    return ref.id;
  });
}

function searchApps(ctx: RequestContext) {
  const body = ctx.body;
  const filter = {
    appIds: optStringArray(body, 'appIds') ?? [],
    excludeAppIds: optStringArray(body, 'excludeAppIds') ?? [],
    displayName: optString(body, 'displayName') ?? '',
    onlyDirectories: optBoolean(body, 'onlyDirectories') ?? false,
    policyRefs: policyIds(body),
    query: optString(body, 'query') ?? '',
  };
  const text = textMatcher(filter.query);
  const name = filter.displayName.toLowerCase();
  const page = listPage(ctx, {
    collection: ctx.data.apps,
    filter,
    match: (app) =>
      // No app of the reference tenant is a directory.
      !filter.onlyDirectories &&
      (filter.appIds.length === 0 || filter.appIds.includes(app.id)) &&
      !filter.excludeAppIds.includes(app.id) &&
      (!name || app.displayName.toLowerCase() === name) &&
      (filter.policyRefs.length === 0 ||
        [app.grantPolicyId, app.revokePolicyId, app.certifyPolicyId].some((p) => filter.policyRefs.includes(p))) &&
      (!text || text(app.displayName, app.description)),
  });
  return { list: page.items.map((app) => appView(ctx.data, app)), nextPageToken: page.nextPageToken };
}

export const appRoutes: Route[] = [
  { method: 'GET', path: '/api/v1/apps/{id}', handle: getApp },
  { method: 'POST', path: '/api/v1/search/apps', handle: searchApps },
];
