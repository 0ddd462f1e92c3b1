import { walks } from '../api/endpoints';
import { bool, date, enumCol, int, MULTI_SEPARATOR, text, type CollectionDescriptor } from './descriptor';
import { asArray, getPath, isRecord, lines, str, unique } from './extract';

/** Every step of every step list of a policy (`policySteps` maps a key to `{ steps: [...] }`). */
function stepsOf(policy: unknown): unknown[] {
  const lists = getPath(policy, 'policySteps');
  return isRecord(lists) ? Object.values(lists).flatMap((list) => asArray(getPath(list, 'steps'))) : [];
}

/** The users a policy names as approvers or provisioners, each once. */
export function policyUserIds(policy: unknown): string[] {
  return unique(
    stepsOf(policy).flatMap((step) => [
      ...asArray(getPath(step, 'approval.users.userIds')).map(str),
      ...asArray(getPath(step, 'provision.provisionPolicy.manual.userIds')).map(str),
    ]),
  );
}

/**
 * The tenant's policies (`POST /search/policies`), each stored as its list row: the approval and
 * provisioning rules that templates, campaigns, apps and routing rules name by id.
 */
export const policies: CollectionDescriptor = {
  id: 'policies',
  title: 'Policies',
  pageSize: walks.policies.pageSize,
  listKey: walks.policies.listKey,
  fetchPage: (api, req, signal) => walks.policies.fetchPage(api)(req, signal),
  idOf: (p) => str(getPath(p, 'id')),
  columns: [
    text('displayName', 'Name'),
    enumCol('policyType', 'Type', 'PolicyType'),
    { ...int('stepCount', 'Steps', ''), value: (p) => stepsOf(p).length },
    {
      ...text('approverIds', 'Approvers', ''),
      multi: true,
      refersTo: 'users',
      value: (p) => policyUserIds(p).join(MULTI_SEPARATOR) || null,
    },
    bool('systemBuiltin', 'Built in'),
    date('createdAt', 'Created'),
    date('updatedAt', 'Updated'),
    date('deletedAt', 'Deleted'),
  ],
  defaultSort: { column: 'displayName', dir: 'asc' },
  searchText: (p) => ({
    title: str(getPath(p, 'displayName')),
    body: lines(str(getPath(p, 'description')), str(getPath(p, 'id'))),
  }),
};
