/** Identity users and policies: the vendor's searches, for the names behind the user and policy ids of every other object. */
import type { IdentityUser } from '../../shared/api-types';
import { optBoolean, optRefIds, optString, optStringArray, textMatcher } from '../input';
import { FULL_PERMISSIONS, listPage, type RequestContext, type Route } from './common';

/** A user as a row of the search: the vendor's UserView (its paths point into `expanded`, which stays empty). */
export function userView(user: IdentityUser): Record<string, unknown> {
  return {
    user,
    userId: user.id,
    delegatedUserPath: '',
    directoriesPath: '',
    managersPath: '',
    rolesPath: '',
    objectPermissions: FULL_PERMISSIONS,
  };
}

function searchUsers(ctx: RequestContext) {
  const body = ctx.body;
  const filter = {
    ids: [...(optStringArray(body, 'ids') ?? []), ...(optRefIds(body, 'refs') ?? [])],
    excludeIds: optStringArray(body, 'excludeIds') ?? [],
    email: (optString(body, 'email') ?? '').toLowerCase(),
    userStatuses: optStringArray(body, 'userStatuses') ?? [],
    query: optString(body, 'query') ?? '',
  };
  const text = textMatcher(filter.query);
  const page = listPage(ctx, {
    collection: ctx.data.users,
    filter,
    match: (user) =>
      (filter.ids.length === 0 || filter.ids.includes(user.id ?? '')) &&
      !filter.excludeIds.includes(user.id ?? '') &&
      (!filter.email || (user.emails ?? []).some((e) => e.toLowerCase() === filter.email)) &&
      (filter.userStatuses.length === 0 || filter.userStatuses.includes(user.status ?? '')) &&
      (!text || text(user.displayName ?? '', user.email ?? '', user.username ?? '')),
  });
  return {
    list: page.items.map(userView),
    expanded: [],
    nextPageToken: page.nextPageToken,
  };
}

function searchPolicies(ctx: RequestContext) {
  const body = ctx.body;
  const filter = {
    refs: optRefIds(body, 'refs') ?? [],
    excludePolicyIds: optStringArray(body, 'excludePolicyIds') ?? [],
    displayName: (optString(body, 'displayName') ?? '').toLowerCase(),
    policyTypes: optStringArray(body, 'policyTypes') ?? [],
    includeDeleted: optBoolean(body, 'includeDeleted') ?? false,
    query: optString(body, 'query') ?? '',
  };
  const text = textMatcher(filter.query);
  const page = listPage(ctx, {
    collection: ctx.data.policies,
    filter,
    match: (policy) =>
      (filter.refs.length === 0 || filter.refs.includes(policy.id ?? '')) &&
      !filter.excludePolicyIds.includes(policy.id ?? '') &&
      (!filter.displayName || (policy.displayName ?? '').toLowerCase() === filter.displayName) &&
      (filter.policyTypes.length === 0 || filter.policyTypes.includes(policy.policyType ?? '')) &&
      (filter.includeDeleted || !policy.deletedAt) &&
      (!text || text(policy.displayName ?? '', policy.description ?? '')),
  });
  return { list: page.items, nextPageToken: page.nextPageToken };
}

export const identityRoutes: Route[] = [
  { method: 'POST', path: '/api/v1/search/users', handle: searchUsers },
  { method: 'POST', path: '/api/v1/search/policies', handle: searchPolicies },
];
