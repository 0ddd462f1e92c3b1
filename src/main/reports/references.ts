/**
 * The members of the API's objects that name identity users and policies by id, wherever they sit
 * (a campaign's owners, a selector's users, an approval step's approvers, who created a task...), so
 * every sheet can write those ids with the names the store holds for them.
 */
import { isRecord, type CollectionId } from '../collections';

/** Members holding one identity user id or a list of them. */
const USER_MEMBER = new RegExp(
  '^(' +
    [
      'createdById',
      'createdByUserId',
      'userId',
      'userIds',
      'ownerIds',
      'approverIds',
      'managerIds',
      'managerUserIds',
      'requestUserId',
      'requestorUserId',
      'subjectUserId',
      'identityUserId',
      'assigneeUserId',
      'reviewerIds',
      'reviewerUserIds',
      'delegatedUserId',
      'allowedReassignees',
    ].join('|') +
    ')$',
);
/** Members holding a policy id. */
const POLICY_MEMBER = /^(policyId|grantPolicyId|revokePolicyId|certifyPolicyId)$/;

/** The synced collection whose ids a member of this name holds, if any. */
export function referenceOf(member: string): CollectionId | null {
  if (USER_MEMBER.test(member)) return 'users';
  if (POLICY_MEMBER.test(member)) return 'policies';
  return null;
}

/**
 * The synced collection whose ids the member at `path` holds: by the member's name, or for the `id`
 * of a reference object by the reference's name (`userRefs[0].id`, `replacementUserRef.id`). Items
 * of lists may be numbered either way (`[0]`, or ` 1` as the settings sheets write them).
 */
export function referenceAt(path: string): CollectionId | null {
  const keys = path
    .split('.')
    .map((segment) => segment.replace(/(\[\d+\]| \d+)+$/, ''))
    .filter((k) => k !== '');
  const key = keys.at(-1) ?? '';
  const parent = keys.at(-2) ?? '';
  if (key === 'id' && /(^u|U)serRefs?$/.test(parent)) return 'users';
  if (key === 'id' && /(^p|P)olicyRefs?$/.test(parent)) return 'policies';
  return referenceOf(key);
}

/** What writes one id of a collection in words ("Ada Allen <ada@example.com> (id)"; the id alone when unknown). */
export type Labeler = (collection: CollectionId, id: string) => string;

/**
 * A copy of a JSON value whose user and policy ids (the string values of the members above, and
 * the strings of lists under them) are written with their names: free-form cells stay JSON.
 */
export function labelIds(value: unknown, label: Labeler, path = ''): unknown {
  if (typeof value === 'string') {
    const target = value ? referenceAt(path) : null;
    return target ? label(target, value) : value;
  }
  if (Array.isArray(value)) return value.map((v, i) => labelIds(v, label, `${path}[${i}]`));
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, labelIds(v, label, path ? `${path}.${k}` : k)]));
  return value;
}

/** A target as `targets()` writes it (`path=id`), its id with its name when the path names a user or a policy. */
export function labelTarget(target: string, label: Labeler): string {
  const at = target.indexOf('=');
  const collection = at > 0 ? referenceAt(target.slice(0, at)) : null;
  return collection ? `${target.slice(0, at + 1)}${label(collection, target.slice(at + 1))}` : target;
}
