import { walks } from '../api/endpoints';
import { bool, date, int, text, type CollectionDescriptor } from './descriptor';
import { getPath, lines, str } from './extract';

/** The tenant's apps (`POST /search/apps`), each stored as its list row. */
export const apps: CollectionDescriptor = {
  id: 'apps',
  title: 'Apps',
  pageSize: walks.apps.pageSize,
  listKey: walks.apps.listKey,
  fetchPage: (api, req, signal) => walks.apps.fetchPage(api)(req, signal),
  idOf: (a) => str(getPath(a, 'id')),
  columns: [
    text('displayName', 'Name'),
    int('userCount', 'Users'),
    bool('isManuallyManaged', 'Manually managed'),
    text('parentAppId', 'Parent app'),
    text('grantPolicyId', 'Grant policy'),
    text('revokePolicyId', 'Revoke policy'),
    text('certifyPolicyId', 'Certify policy'),
    int('monthlyCostUsd', 'Monthly cost (USD)'),
    date('createdAt', 'Created'),
    date('updatedAt', 'Updated'),
    date('deletedAt', 'Deleted'),
  ],
  defaultSort: { column: 'displayName', dir: 'asc' },
  searchText: (a) => ({
    title: str(getPath(a, 'displayName')),
    body: lines(str(getPath(a, 'description')), str(getPath(a, 'id'))),
  }),
};
