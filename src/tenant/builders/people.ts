/**
 * The tenant's people (owners, approvers, reviewers, requesters): first their ids, which every other
 * collection draws from, then (after everything else, from streams of their own, so no earlier draw
 * moves) the directory profile of each, served by `POST /search/users`.
 */
import type { IdentityUser } from '../../shared/api-types';
import type { BuildContext } from './context';

export function identityUsers(ctx: BuildContext, count: number): string[] {
  const r = ctx.stream('identityUsers');
  return Array.from({ length: count }, () => r.id());
}

const FIRST_NAMES = [
  'Ada',
  'Grace',
  'Alan',
  'Katherine',
  'Linus',
  'Margaret',
  'Dennis',
  'Barbara',
  'Ken',
  'Frances',
  'Edsger',
  'Radia',
  'Donald',
  'Hedy',
  'Tim',
  'Shafi',
  'John',
  'Sophie',
  'Niklaus',
  'Annie',
];
const LAST_NAMES = [
  'Allen',
  'Baker',
  'Chen',
  'Diaz',
  'Evans',
  'Fischer',
  'Garcia',
  'Hughes',
  'Ibrahim',
  'Jensen',
  'Kowalski',
  'Lopez',
  'Moreau',
  'Nakamura',
  'Okafor',
  'Patel',
  'Quinn',
  'Rossi',
  'Singh',
  'Tanaka',
];
const DEPARTMENTS = ['Engineering', 'Finance', 'Security', 'Sales', 'People', 'IT', 'Legal', 'Support'];
const TITLES = ['Engineer', 'Manager', 'Analyst', 'Director', 'Administrator', 'Specialist'];
export const USER_EMAIL_DOMAIN = 'example.com';

/** Every identity user's profile: a name, a unique email, a department and a manager among the others. */
export function userProfiles(ctx: BuildContext): void {
  const r = ctx.stream('identityUsers:profiles');
  const ids = ctx.data.identityUserIds;
  const emails = new Set<string>();
  ids.forEach((id, i) => {
    const first = r.pick(FIRST_NAMES);
    const last = r.pick(LAST_NAMES);
    const base = `${first}.${last}`.toLowerCase();
    let local = base;
    for (let n = 2; emails.has(local); n += 1) local = `${base}${n}`;
    emails.add(local);
    const email = `${local}@${USER_EMAIL_DOMAIN}`;
    const createdAt = ctx.past(r, 1200, 300);
    // A few people have left: their accounts are disabled in the directory.
    const status = r.chance(0.1) ? 'DISABLED' : 'ENABLED';
    const user: IdentityUser = {
      id,
      displayName: `${first} ${last}`,
      email,
      emails: [email],
      username: local,
      usernames: [local],
      department: r.pick(DEPARTMENTS),
      jobTitle: r.pick(TITLES),
      employmentStatus: status === 'ENABLED' ? 'Active' : 'Terminated',
      employmentType: 'Full time',
      managerIds: i === 0 ? [] : [ids[r.int(i)] as string],
      directoryIds: [],
      roleIds: [],
      delegatedUserId: '',
      status,
      directoryStatus: status,
      origin: 'USER_ORIGIN_DIRECTORY',
      type: 'USER_TYPE_HUMAN',
      createdAt,
      updatedAt: ctx.after(r, createdAt, 200),
    };
    ctx.data.users.set(id, user);
  });
}
