import { walks } from '../api/endpoints';
import { bool, date, int, refCol, text, type CollectionDescriptor } from './descriptor';
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
    refCol('parentAppId', 'Parent app', 'apps'),
    refCol('grantPolicyId', 'Grant policy', 'policies'),
    refCol('revokePolicyId', 'Revoke policy', 'policies'),
    refCol('certifyPolicyId', 'Certify policy', 'policies'),
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
