/**
 * Finding routing rules: the list (spec). The spec does not name the app filter; the tenant
 * takes `app_id` (the gateway's snake_case query form) and `appId` alike.
 */
import { listPage, type RequestContext, type Route } from './common';

function listRoutingRules(ctx: RequestContext) {
  const appId = ctx.query.get('app_id') ?? ctx.query.get('appId') ?? '';
  const page = listPage(ctx, {
    collection: ctx.data.routingRules,
    filter: { appId },
    match: appId ? (rule) => rule.appId === appId : undefined,
  });
  return { list: page.items, nextPageToken: page.nextPageToken };
}

export const routingRuleRoutes: Route[] = [{ method: 'GET', path: '/api/v1/findings/routing-rules', handle: listRoutingRules }];
