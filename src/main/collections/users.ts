import { walks } from '../api/endpoints';
import { date, enumCol, MULTI_SEPARATOR, text, under, valueCol, type CollectionDescriptor } from './descriptor';
import { asArray, getPath, lines, str, unique } from './extract';
import { personTitle } from '../../shared/person-title';

const USER = 'user';

/** "Ada Allen <ada.allen@example.com>": how a person is named wherever an object names them by id. */
export function personName(user: unknown): string {
  const name = str(getPath(user, 'displayName')) || str(getPath(user, 'username'));
  const email = str(getPath(user, 'email')) || str(asArray(getPath(user, 'emails'))[0]);
  return personTitle(name, email);
}

/**
 * The tenant's identity users (`POST /search/users`), each stored as its UserView row: the people
 * that owners, reviewers, approvers, creators and subjects name by id. Their title is their name
 * and email, which lists, details and reports show beside those ids.
 */
export const users: CollectionDescriptor = {
  id: 'users',
  title: 'Users',
  pageSize: walks.users.pageSize,
  listKey: walks.users.listKey,
  fetchPage: (api, req, signal) => walks.users.fetchPage(api)(req, signal),
  idOf: (v) => str(getPath(v, `${USER}.id`)),
  diffRoot: USER,
  columns: [
    ...under(USER, [
      text('displayName', 'Name'),
      text('email', 'Email'),
      text('username', 'Username'),
      text('department', 'Department'),
      text('jobTitle', 'Job title'),
      enumCol('status', 'Status', 'UserStatus'),
      valueCol('type', 'Type'),
    ]),
    {
      ...text('managerIds', 'Managers', `${USER}.managerIds`),
      multi: true,
      refersTo: 'users',
      value: (v) => unique(asArray(getPath(v, `${USER}.managerIds`)).map(str)).join(MULTI_SEPARATOR) || null,
    },
    ...under(USER, [date('createdAt', 'Created'), date('updatedAt', 'Updated'), date('deletedAt', 'Deleted')]),
  ],
  defaultSort: { column: 'displayName', dir: 'asc' },
  searchText: (v) => {
    const user = getPath(v, USER);
    return {
      title: personName(user),
      body: lines(
        ...asArray(getPath(user, 'emails')).map(str),
        ...asArray(getPath(user, 'usernames')).map(str),
        str(getPath(user, 'department')),
        str(getPath(user, 'jobTitle')),
        str(getPath(user, 'id')),
      ),
    };
  },
};
