import { walks } from '../api/endpoints';
import { appCol, date, int, text, type CollectionDescriptor } from './descriptor';
import { getPath, lines, str } from './extract';

export const toolsets: CollectionDescriptor = {
  id: 'toolsets',
  title: 'MCP toolsets',
  pageSize: walks.mcpToolsets.pageSize,
  // The vendor's SearchAccessProfiles answer carries its rows under `profiles`.
  listKey: walks.mcpToolsets.listKey,
  fetchPage: (api, req, signal) => walks.mcpToolsets.fetchPage(api)(req, signal),
  idOf: (t) => str(getPath(t, 'id')),
  columns: [
    text('displayName', 'Name'),
    int('toolCount', 'Tools'),
    appCol(),
    text('connectorId', 'Connector'),
    text('appEntitlementId', 'Entitlement'),
    date('createdAt', 'Created'),
    date('updatedAt', 'Updated'),
  ],
  defaultSort: { column: 'displayName', dir: 'asc' },
  filterAliases: { appIds: { column: 'appId' } },
  searchText: (t) => ({
    title: str(getPath(t, 'displayName')),
    body: lines(str(getPath(t, 'description')), str(getPath(t, 'id')), str(getPath(t, 'appEntitlementId'))),
  }),
};
