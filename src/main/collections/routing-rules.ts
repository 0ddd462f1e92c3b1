import { kindAsWritten } from '../../shared/api-types/common';
import { ROUTING_RULE_ACTION_KEYS } from '../../shared/api-types/routing-rule';
import { walks } from '../api/endpoints';
import { appCol, bool, date, enumCol, idFilter, int, text, type CollectionDescriptor } from './descriptor';
import { celText, getPath, lines, str } from './extract';

export const routingRules: CollectionDescriptor = {
  id: 'routing-rules',
  title: 'Finding routing rules',
  pageSize: walks.routingRules.pageSize,
  listKey: walks.routingRules.listKey,
  fetchPage: (api, req, signal) => walks.routingRules.fetchPage(api)(req, signal),
  idOf: (r) => str(getPath(r, 'id')),
  columns: [
    int('priority', 'Priority'),
    text('displayName', 'Name'),
    bool('enabled', 'Enabled'),
    {
      name: 'actionKind',
      label: 'Action',
      path: 'action',
      type: 'enum',
      filter: true,
      // The member as sent, one this version does not know included: every front marks it the same way.
      enumName: 'RoutingRuleAction',
      value: (r) => kindAsWritten(getPath(r, 'action'), ROUTING_RULE_ACTION_KEYS),
    },
    enumCol('findingType', 'Finding type', 'FindingType'),
    appCol(),
    idFilter('templateId', 'Template'),
    date('createdAt', 'Created'),
    date('updatedAt', 'Updated'),
  ],
  defaultSort: { column: 'priority', dir: 'asc' },
  filterAliases: { appIds: { column: 'appId' } },
  searchText: (r) => ({
    title: str(getPath(r, 'displayName')),
    body: lines(
      str(getPath(r, 'description')),
      str(getPath(r, 'id')),
      ...ROUTING_RULE_ACTION_KEYS.map((k) => str(getPath(r, `action.${k}.reason`))),
      celText(r),
    ),
  }),
};
