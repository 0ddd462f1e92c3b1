import { walks } from '../api/endpoints';
import { bool, date, int, text, under, valueCol, type CollectionDescriptor, type ColumnValue } from './descriptor';
import { getPath, isRecord, lines, str } from './extract';

/** Where the entitlement sits in what is stored: the search row, beside its app resource type. */
const VIEW = 'appEntitlementView';
const ENTITLEMENT = `${VIEW}.appEntitlement`;
const TYPE = 'appResourceType';

/**
 * The app resource types whose memberships the service manages, by display name: the spec's
 * catalog (access profile), group and profile entitlements. Only their memberships can be removed.
 */
export const MANAGED_ENTITLEMENT_TYPES: Readonly<Record<string, string>> = {
  'Access Profile': 'catalog',
  Group: 'group',
  Profile: 'profile',
};

/** The entitlement's type (its app resource type's name), or null when the tenant did not say. */
export function entitlementType(stored: unknown): string | null {
  const name = getPath(stored, `${TYPE}.displayName`);
  return typeof name === 'string' && name !== '' ? name : null;
}

/**
 * Whether the service manages the entitlement's memberships (so a removal can be sent): true or
 * false when its type is known, null when it is not (the store cannot tell).
 */
export function membershipsManaged(stored: unknown): boolean | null {
  const type = entitlementType(stored);
  return type === null ? null : Object.hasOwn(MANAGED_ENTITLEMENT_TYPES, type);
}

/** The connector that syncs the entitlement (the first key of `sourceConnectorIds`), or null. */
function sourceConnector(stored: unknown): ColumnValue {
  const ids = getPath(stored, `${ENTITLEMENT}.sourceConnectorIds`);
  return isRecord(ids) ? (Object.keys(ids)[0] ?? null) : null;
}

/**
 * Entitlements (`POST /search/entitlements`, expanding each one's app resource type, which is its
 * type). Each search row is stored beside the resource type its `appResourceTypePath` points at
 * in the page's `expanded` list: `{"appEntitlementView": row, "appResourceType": type}`, both
 * byte-exact as received.
 */
export const entitlements: CollectionDescriptor = {
  id: 'entitlements',
  title: 'Entitlements',
  pageSize: walks.entitlements.pageSize,
  listKey: walks.entitlements.listKey,
  fetchPage: (api, req, signal) => walks.entitlements.fetchPage(api)(req, signal),
  withExpanded: { rowAs: VIEW, members: { appResourceTypePath: TYPE } },
  idOf: (e) => str(getPath(e, `${ENTITLEMENT}.id`)),
  diffRoot: ENTITLEMENT,
  columns: [
    ...under(ENTITLEMENT, [text('displayName', 'Name'), text('slug', 'Slug'), text('appId', 'App')]),
    valueCol('entitlementType', 'Type', `${TYPE}.displayName`),
    { ...bool('membershipsManaged', 'Memberships managed', ''), value: (e) => membershipsManaged(e) ?? false },
    ...under(ENTITLEMENT, [
      valueCol('purpose', 'Purpose'),
      int('grantCount', 'Members'),
      text('appResourceTypeId', 'Resource type'),
      bool('emergencyGrantEnabled', 'Emergency grant'),
    ]),
    { ...text('sourceConnectorId', 'Source connector', ''), value: sourceConnector },
    ...under(ENTITLEMENT, [date('createdAt', 'Created'), date('updatedAt', 'Updated'), date('deletedAt', 'Deleted')]),
  ],
  defaultSort: { column: 'displayName', dir: 'asc' },
  searchText: (e) => ({
    title: str(getPath(e, `${ENTITLEMENT}.displayName`)),
    body: lines(
      str(getPath(e, `${ENTITLEMENT}.description`)),
      str(getPath(e, `${ENTITLEMENT}.slug`)),
      str(getPath(e, `${ENTITLEMENT}.alias`)),
      str(getPath(e, `${ENTITLEMENT}.id`)),
    ),
  }),
};
