import { walks } from '../api/endpoints';
import { appCol, date, enumCol, idFilter, text, type CollectionDescriptor } from './descriptor';
import { getPath, lines, str } from './extract';

export const scopes: CollectionDescriptor = {
  id: 'scopes',
  title: 'Cross-app scopes',
  pageSize: walks.scopes.pageSize,
  listKey: walks.scopes.listKey,
  fetchPage: (api, req, signal) => walks.scopes.fetchPage(api)(req, signal),
  idOf: (s) => str(getPath(s, 'id')),
  columns: [
    text('scopeValue', 'Scope'),
    text('displayName', 'Name'),
    enumCol('state', 'State', 'XaaScopeState'),
    enumCol('classification', 'Classification', 'XaaScopeClassification'),
    enumCol('source', 'Source', 'XaaScopeSource'),
    appCol(),
    idFilter('xaaResourceServerId', 'Resource server'),
    text('appEntitlementId', 'Entitlement'),
    date('createdAt', 'Created'),
    date('updatedAt', 'Updated'),
    date('lastDiscoveredAt', 'Last discovered'),
  ],
  defaultSort: { column: 'scopeValue', dir: 'asc' },
  filterAliases: { appIds: { column: 'appId' } },
  searchText: (s) => ({
    title: str(getPath(s, 'displayName')) || str(getPath(s, 'scopeValue')),
    body: lines(str(getPath(s, 'scopeValue')), str(getPath(s, 'description')), str(getPath(s, 'id'))),
  }),
};
