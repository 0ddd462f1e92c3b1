/** MCP toolsets (access profiles): get by entitlement (spec) and the tenant-wide search (for sync). */
import type { McpAccessProfile } from '../../shared/api-types';
import { notFound } from '../errors';
import { textMatcher } from '../input';
import { getOr404, listPage, param, type RequestContext, type Route } from './common';

const byEntitlement = (profile: McpAccessProfile) => profile.appEntitlementId ?? '';

function getByEntitlement(ctx: RequestContext) {
  const app = getOr404(ctx.data.apps, param(ctx, 'app_id'), 'app');
  const entitlementId = param(ctx, 'app_entitlement_id');
  const profile = ctx.data.toolsets.find('appEntitlementId', byEntitlement, entitlementId);
  if (!profile || profile.appId !== app.id) {
    throw notFound('mcp_access_profile', entitlementId, `no MCP toolset is linked to entitlement '${entitlementId}' of app '${app.id}'`);
  }
  return { profile };
}

function searchToolsets(ctx: RequestContext) {
  const query = ctx.query.get('query') ?? '';
  const text = textMatcher(query);
  const page = listPage(ctx, {
    collection: ctx.data.toolsets,
    filter: { query },
    match: text ? (p) => text(p.displayName, p.description) : undefined,
  });
  return { profiles: page.items, nextPageToken: page.nextPageToken };
}

export const toolsetRoutes: Route[] = [
  { method: 'GET', path: '/api/v1/apps/{app_id}/mcp_toolsets/by_app_entitlement_id/{app_entitlement_id}', handle: getByEntitlement },
  { method: 'GET', path: '/api/v1/mcp_toolsets/search', handle: searchToolsets },
];
