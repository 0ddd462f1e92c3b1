import { walks } from '../api/endpoints';
import { date, int, text, valueCol, type CollectionDescriptor, type ColumnValue } from './descriptor';
import { asArray, getPath, lines, str, unique } from './extract';

/** A membership's id: its entitlement and app user (a binding has no id of its own). */
export const membershipId = (appEntitlementId: string, appUserId: string): string =>
  appEntitlementId && appUserId ? `${appEntitlementId}:${appUserId}` : '';

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
  idOf: (m) => membershipId(str(getPath(m, 'appEntitlementId')), str(getPath(m, 'appUserId'))),
  columns: [
    text('appUserName', 'App user name', 'appUser.appUser.displayName'),
    text('appUserId', 'App user'),
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
