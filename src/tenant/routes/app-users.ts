/** App users (accounts): search (vendor document), ordered by display name or by app. */
import type { AppUser } from '../dataset';
import { optEnum, optEnumArray, optExpandMask, optRefIds, optString, optStringArray, textMatcher } from '../input';
import type { SortOrder } from '../pagination';
import { appUserViewExpanded, Expander } from '../views';
import { listPage, type RequestContext, type Route } from './common';
import { checkPaths } from './entitlements';

const EXPAND_PATHS = ['*', 'identity_user_id', 'app_id', 'last_usage'];
const STATUSES = ['STATUS_UNSPECIFIED', 'STATUS_ENABLED', 'STATUS_DISABLED', 'STATUS_DELETED'] as const;
const TYPES = ['APP_USER_TYPE_UNSPECIFIED', 'APP_USER_TYPE_USER', 'APP_USER_TYPE_SERVICE_ACCOUNT', 'APP_USER_TYPE_SYSTEM_ACCOUNT'] as const;
const SORTS = ['APP_USER_SEARCH_SORT_BY_UNSPECIFIED', 'APP_USER_SEARCH_SORT_BY_APP'] as const;

/** The vendor's default order is by display name; `APP` groups the accounts of each app. */
const BY_NAME: SortOrder<AppUser> = { name: 'displayName', key: (u) => u.displayName.toLowerCase(), descending: false };
const BY_APP: SortOrder<AppUser> = { name: 'app', key: (u) => `${u.appId}\u0000${u.displayName.toLowerCase()}`, descending: false };

function searchAppUsers(ctx: RequestContext) {
  const body = ctx.body;
  const appId = optString(body, 'appId') ?? '';
  const filter = {
    appIds: [...(optStringArray(body, 'appIds') ?? []), ...(appId ? [appId] : [])],
    appUserIds: optStringArray(body, 'appUserIds') ?? [],
    excludeAppUserIds: optStringArray(body, 'excludeAppUserIds') ?? [],
    refs: optRefIds(body, 'refs') ?? [],
    appUserStatuses: (optEnumArray(body, 'appUserStatuses', STATUSES) ?? []).filter((s) => s !== 'STATUS_UNSPECIFIED'),
    appUserTypes: (optEnumArray(body, 'appUserTypes', TYPES) ?? []).filter((t) => t !== 'APP_USER_TYPE_UNSPECIFIED'),
    userIds: optStringArray(body, 'userIds') ?? [],
    query: optString(body, 'query') ?? '',
    sortBy: optEnum(body, 'sortBy', SORTS) ?? 'APP_USER_SEARCH_SORT_BY_UNSPECIFIED',
  };
  const paths = checkPaths(optExpandMask(body), EXPAND_PATHS);
  const text = textMatcher(filter.query);
  const within = (list: string[], value: string) => list.length === 0 || list.includes(value);
  const page = listPage(ctx, {
    collection: ctx.data.appUsers,
    filter: { ...filter, paths },
    order: filter.sortBy === 'APP_USER_SEARCH_SORT_BY_APP' ? BY_APP : BY_NAME,
    match: (u) =>
      within(filter.appIds, u.appId) &&
      within(filter.appUserIds, u.id) &&
      within(filter.refs, u.id) &&
      !filter.excludeAppUserIds.includes(u.id) &&
      within(filter.appUserStatuses, `STATUS_${u.status.replace(/^APP_USER_STATUS_/, '')}`) &&
      within(filter.appUserTypes, u.userType) &&
      within(filter.userIds, u.identityUserId) &&
      (!text || text(u.displayName, u.email)),
  });
  const expanded = new Expander();
  const list = page.items.map((u) => appUserViewExpanded(ctx.data, u, paths, expanded));
  return { list, nextPageToken: page.nextPageToken, expanded: expanded.list };
}

export const appUserRoutes: Route[] = [{ method: 'POST', path: '/api/v1/search/app_users', handle: searchAppUsers }];
