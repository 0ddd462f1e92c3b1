import { grantsWhere, walks } from '../api/endpoints';
import { date, int, refCol, text, valueCol, type CollectionDescriptor, type ColumnValue } from './descriptor';
import { asArray, getPath, lines, str, unique } from './extract';

/** A membership's id: its entitlement and app user (a binding has no id of its own). */
export const membershipId = (appEntitlementId: string, appUserId: string): string =>
  appEntitlementId && appUserId ? `${appEntitlementId}:${appUserId}` : '';

/**
 * The grant filter that returns the membership `id` (among others, when an id holds more than one
 * ':' and so could be cut more ways than one: every cut is asked for, the row is told by its id).
 */
function grantsOfMembership(id: string): { entitlementRefs: { id: string }[]; appUserIds: string[] } {
  const cuts = [...id.matchAll(/:/g)].map((m) => m.index).filter((i) => i > 0 && i < id.length - 1);
  return {
    entitlementRefs: unique(cuts.map((i) => id.slice(0, i))).map((entitlementId) => ({ id: entitlementId })),
    appUserIds: unique(cuts.map((i) => id.slice(i + 1))),
  };
}

const sourceIds = (m: unknown): string[] => unique(asArray(getPath(m, 'grantSources')).map((s) => str(getPath(s, 'id'))));

/** How the membership was granted: `direct`, or `inherited` through other entitlements (`grantSources`). */
function grantedHow(m: unknown): ColumnValue {
  return sourceIds(m).length > 0 ? 'inherited' : 'direct';
}

/**
 * Who holds which entitlement (`POST /search/grants`): per grant row, its
 * `appEntitlementUserBinding` member (the AppEntitlementUserView: app user, entitlement, app,
 * since when, until when, grant sources), byte-exact. The entitlement the row also carries is
 * stored once in `entitlements`.
 */
export const memberships: CollectionDescriptor = {
  id: 'memberships',
  title: 'Memberships',
  pageSize: walks.grants.pageSize,
  listKey: walks.grants.listKey,
  fetchPage: (api, req, signal) => walks.grants.fetchPage(api)(req, signal),
  rowMember: 'appEntitlementUserBinding',
  // One cursor through every grant of the tenant is its slowest walk (more rows than anything else).
  // Every grant is of an app and `appIds` matches exactly those apps' grants, so the grants of
  // groups of the apps are together every grant, once the apps' walk has read every app.
  split: {
    by: {
      from: 'apps',
      groups: 4,
      fetchPage: (api, req, appIds, signal) => grantsWhere(api, { appIds: [...appIds] })(req, signal),
    },
    fetchOne: (api, id, signal) => grantsWhere(api, grantsOfMembership(id))({ pageSize: walks.grants.pageSize, pageToken: '' }, signal),
    member: null,
  },
  idOf: (m) => membershipId(str(getPath(m, 'appEntitlementId')), str(getPath(m, 'appUserId'))),
  columns: [
    text('appUserName', 'App user name', 'appUser.appUser.displayName'),
    text('appUserId', 'App user'),
    // The person behind the account: named (and their email given) where the identity users are synced.
    refCol('identityUserId', 'Identity user', 'users', 'appUser.appUser.identityUserId'),
    text('appEntitlementId', 'Entitlement'),
    text('appId', 'App'),
    { ...valueCol('grantedHow', 'Granted', ''), value: grantedHow },
    { ...text('grantSourceIds', 'Granted through', ''), value: (m) => sourceIds(m).join(', ') || null },
    { ...int('grantSourceCount', 'Grant sources', ''), value: (m) => sourceIds(m).length },
    text('originatingTicketId', 'Granting task'),
    date('grantedAt', 'Since', 'appEntitlementUserBindingCreatedAt'),
    date('deprovisionAt', 'Until', 'appEntitlementUserBindingDeprovisionAt'),
  ],
  defaultSort: { column: 'grantedAt', dir: 'desc' },
  searchText: (m) => ({
    title: str(getPath(m, 'appUser.appUser.displayName')) || str(getPath(m, 'appUserId')),
    body: lines(
      str(getPath(m, 'appUser.appUser.email')),
      str(getPath(m, 'appUserId')),
      str(getPath(m, 'appEntitlementId')),
      ...sourceIds(m),
    ),
  }),
};
