import { walks } from '../api/endpoints';
import { bool, date, enumCol, refCol, text, under, valueCol, type CollectionDescriptor } from './descriptor';
import { asArray, getPath, lines, str } from './extract';

const USER = 'appUser';

/** App users, the accounts of the apps (`POST /search/app_users`), each stored as its AppUserView row. */
export const appUsers: CollectionDescriptor = {
  id: 'app-users',
  title: 'App users',
  pageSize: walks.appUsers.pageSize,
  listKey: walks.appUsers.listKey,
  fetchPage: (api, req, signal) => walks.appUsers.fetchPage(api)(req, signal),
  idOf: (v) => str(getPath(v, `${USER}.id`)),
  diffRoot: USER,
  columns: under(USER, [
    text('displayName', 'Name'),
    text('email', 'Email'),
    text('username', 'Username'),
    text('appId', 'App'),
    enumCol('appUserType', 'Account type', 'AppUserType'),
    // STATUS_* of the vendor's AppUserStatus message (not the APP_USER_STATUS_* enumeration).
    valueCol('status', 'Status', 'status.status'),
    refCol('identityUserId', 'Identity user', 'users'),
    bool('isExternal', 'External'),
    date('createdAt', 'Created'),
    date('updatedAt', 'Updated'),
    date('deletedAt', 'Deleted'),
  ]),
  defaultSort: { column: 'displayName', dir: 'asc' },
  searchText: (v) => ({
    title: str(getPath(v, `${USER}.displayName`)),
    body: lines(
      ...asArray(getPath(v, `${USER}.emails`)).map(str),
      str(getPath(v, `${USER}.email`)),
      ...asArray(getPath(v, `${USER}.usernames`)).map(str),
      str(getPath(v, `${USER}.id`)),
    ),
  }),
};
