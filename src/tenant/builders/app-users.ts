/** App users (accounts): people and non-human accounts of each app. */
import { APP_USER_STATUS_VALUES, APP_USER_TYPE_VALUES, type AppUserType } from '../../shared/enums';
import type { AppUser } from '../model';
import { known, slug, type BuildContext } from './context';

const FIRST_NAMES = [
  'Ada',
  'Grace',
  'Alan',
  'Linus',
  'Margaret',
  'Ken',
  'Barbara',
  'Dennis',
  'Radia',
  'Whitfield',
  'Frances',
  'Edsger',
  'Hedy',
  'Tim',
  'Katherine',
  'Vint',
];
const LAST_NAMES = [
  'Lovelace',
  'Hopper',
  'Turing',
  'Torvalds',
  'Hamilton',
  'Thompson',
  'Liskov',
  'Ritchie',
  'Perlman',
  'Diffie',
  'Allen',
  'Dijkstra',
  'Lamarr',
  'Berners-Lee',
  'Johnson',
  'Cerf',
];

export function appUsers(ctx: BuildContext, count: number): void {
  const r = ctx.stream('appUsers');
  const types = known(APP_USER_TYPE_VALUES);
  const statuses = known(APP_USER_STATUS_VALUES);
  const details = ctx.stream('appUsers:details');
  for (let i = 0; i < count; i += 1) {
    const app = ctx.app(r);
    const userType: AppUserType = r.chance(0.85) ? 'APP_USER_TYPE_USER' : r.pick(types);
    const first = r.pick(FIRST_NAMES);
    const last = r.pick(LAST_NAMES);
    const displayName = userType === 'APP_USER_TYPE_USER' ? `${first} ${last}` : `svc-${slug(app.displayName)}-${i}`;
    const u: AppUser = {
      id: r.id(),
      appId: app.id,
      displayName,
      email: `${slug(first)}.${slug(last)}${i}@example.com`,
      userType,
      status: r.chance(0.9) ? 'APP_USER_STATUS_ENABLED' : r.pick(statuses),
      identityUserId: ctx.user(r),
      createdAt: '',
    };
    u.createdAt = ctx.after(details, app.createdAt, 380);
    ctx.data.appUsers.set(u.id, u);
    const list = ctx.usersByApp.get(app.id) ?? [];
    list.push(u);
    ctx.usersByApp.set(app.id, list);
  }
}
