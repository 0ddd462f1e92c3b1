/** Grants (who holds which entitlement, since when, how): search (vendor document), for sync. */
import { optEntitlementRefs, optEnumArray, optExpandMask, optString, optStringArray } from '../input';
import { entitlementViewWrapper, Expander, memberView, purposeOf, resourceTypeId } from '../views';
import { listPage, type RequestContext, type Route } from './common';
import { checkPaths, ENTITLEMENT_EXPAND_PATHS } from './entitlements';

const PURPOSES = [
  'APP_ENTITLEMENT_PURPOSE_VALUE_UNSPECIFIED',
  'APP_ENTITLEMENT_PURPOSE_VALUE_ASSIGNMENT',
  'APP_ENTITLEMENT_PURPOSE_VALUE_PERMISSION',
  'APP_ENTITLEMENT_PURPOSE_VALUE_OWNERSHIP',
] as const;

function searchGrants(ctx: RequestContext) {
  const body = ctx.body;
  const filter = {
    appIds: optStringArray(body, 'appIds') ?? [],
    appUserIds: optStringArray(body, 'appUserIds') ?? [],
    entitlementRefs: optEntitlementRefs(body, 'entitlementRefs') ?? [],
    entitlementSlugs: optStringArray(body, 'entitlementSlugs') ?? [],
    purpose: (optEnumArray(body, 'purpose', PURPOSES) ?? []).filter((p) => p !== 'APP_ENTITLEMENT_PURPOSE_VALUE_UNSPECIFIED'),
    resourceIds: optStringArray(body, 'resourceIds') ?? [],
    resourceTypeIds: optStringArray(body, 'resourceTypeIds') ?? [],
    userId: optString(body, 'userId') ?? '',
  };
  const paths = checkPaths(optExpandMask(body), ENTITLEMENT_EXPAND_PATHS);
  const data = ctx.data;
  const within = (list: string[], value: string) => list.length === 0 || list.includes(value);
  const page = listPage(ctx, {
    collection: data.memberships,
    filter: { ...filter, paths },
    match: (m) => {
      if (!within(filter.appIds, m.appId) || !within(filter.appUserIds, m.appUserId)) return false;
      if (
        filter.entitlementRefs.length > 0 &&
        !filter.entitlementRefs.some((r) => r.id === m.appEntitlementId && (!r.appId || r.appId === m.appId))
      )
        return false;
      // The reference tenant's entitlements sit on no app resource.
      if (filter.resourceIds.length > 0) return false;
      if (filter.userId && data.appUsers.get(m.appUserId)?.identityUserId !== filter.userId) return false;
      if (filter.entitlementSlugs.length === 0 && filter.purpose.length === 0 && filter.resourceTypeIds.length === 0) return true;
      const e = data.entitlements.get(m.appEntitlementId);
      return (
        e !== undefined &&
        within(filter.entitlementSlugs, e.slug) &&
        within(filter.purpose, purposeOf(e.kind)) &&
        within(filter.resourceTypeIds, resourceTypeId(data.seed, e.appId, e.kind))
      );
    },
  });
  const expanded = new Expander();
  const list = page.items.map((m) => {
    const e = data.entitlements.get(m.appEntitlementId);
    return {
      entitlement: e ? entitlementViewWrapper(data, e, paths, expanded) : null,
      appEntitlementUserBinding: memberView(data, m),
    };
  });
  return { list, nextPageToken: page.nextPageToken, expanded: expanded.list };
}

export const grantRoutes: Route[] = [{ method: 'POST', path: '/api/v1/search/grants', handle: searchGrants }];
