/**
 * remove-membership: a user taken out of an entitlement. A success marks the membership gone in the
 * store and reads back the revoke task it created; an uncertain attempt is settled by reading the
 * entitlement's members.
 */
import { entitlementType, getPath, membershipId, membershipsManaged, str } from '../../collections';
import { readApiError, type OutboxApi } from '../api-shape';
import type { KindDescriptor, RefreshedObject, StoreCheck, ValidationContext } from './descriptor';
import { asList, findInList, get, isRecord, readTask, seg, text } from './server';
import { StoreChecker } from './store-checks';
import { asObject, requiredId } from './validation';

export interface RemoveMembershipInput extends Record<string, unknown> {
  appId: string;
  appEntitlementId: string;
  appUserId: string;
}

/**
 * The store's view of a removal: the app, entitlement and app user it names; refused when the
 * entitlement's memberships are not the service's to remove (its type says so) or the entitlement
 * is another app's; a warning when any of them is unknown or the user was not a member at the last sync.
 */
function checkRemoval(i: RemoveMembershipInput, ctx: ValidationContext): StoreCheck {
  const c = new StoreChecker(ctx);
  c.find('appId', 'apps', i.appId);
  const entitlement = c.find('appEntitlementId', 'entitlements', i.appEntitlementId);
  const user = c.find('appUserId', 'app-users', i.appUserId);
  if (entitlement) {
    const ent = c.label('appEntitlementId', i.appEntitlementId);
    const ownApp = str(getPath(entitlement, 'appEntitlementView.appEntitlement.appId'));
    const managed = membershipsManaged(entitlement);
    if (ownApp && ownApp !== i.appId) c.refuse('appEntitlementId', `entitlement ${ent} belongs to app ${ownApp}, not to app ${i.appId}`);
    else if (managed === false)
      c.refuse(
        'appEntitlementId',
        `entitlement ${ent} is a ${entitlementType(entitlement)} (synced from its app): the service does not manage its memberships; ` +
          'only catalog (access profile), group and profile memberships can be removed',
      );
    else if (managed === null)
      c.warn(
        'appEntitlementId',
        `the store does not know the type of entitlement ${ent}: whether its memberships can be removed is not checked`,
      );
  }
  if (entitlement && user && c.asOf('memberships')) {
    const held = ctx.stored('memberships', membershipId(i.appEntitlementId, i.appUserId));
    if (!held || held.deleted)
      c.warn(
        'appUserId',
        `app user ${c.label('appUserId', i.appUserId)} is not a member of entitlement ${c.label('appEntitlementId', i.appEntitlementId)} ` +
          `as of the last sync (${c.asOf('memberships')})`,
      );
  }
  return c.result();
}

/** The removed membership, as the store should now hold it: gone. */
const gone = (i: RemoveMembershipInput): RefreshedObject => ({
  collection: 'memberships',
  id: membershipId(i.appEntitlementId, i.appUserId),
  json: null,
});

/** One page of the entitlement's grants to the app user (`POST /search/grants`, the vendor's read of members). */
function membersRequest(i: RemoveMembershipInput, pageToken: string, signal?: AbortSignal): Parameters<OutboxApi['request']>[0] {
  const body = {
    entitlementRefs: [{ appId: i.appId, id: i.appEntitlementId }],
    appUserIds: [i.appUserId],
    pageSize: 100,
    ...(pageToken ? { pageToken } : {}),
  };
  return { method: 'POST', path: '/search/grants', body, mutation: false, signal };
}

/** A grant row of this very membership (the filters are checked again on what the server returned). */
function isTheMembership(row: unknown, i: RemoveMembershipInput): boolean {
  const binding = get(row, 'appEntitlementUserBinding');
  return text(get(binding, 'appEntitlementId')) === i.appEntitlementId && text(get(binding, 'appUserId')) === i.appUserId;
}

/**
 * The revoke task a removal applied without an answer created (an access profile's), found among
 * the tasks revoking this membership, the newest one created since the first attempt; null when
 * there is none (a group or profile membership) or the search fails.
 */
async function revokeTaskOf(api: OutboxApi, i: RemoveMembershipInput, since: string | null, signal?: AbortSignal) {
  try {
    const res = await api.request({
      method: 'POST',
      path: '/search/tasks',
      body: { taskTypes: [{ revoke: {} }], appEntitlementIds: [i.appEntitlementId], appUserSubjectIds: [i.appUserId], pageSize: 100 },
      mutation: false,
      signal,
    });
    // A minute of slack: the tenant's clock and ours need not agree to the second.
    const after = since ? new Date(Date.parse(since) - 60_000).toISOString() : '';
    const views = asList(get(res.body, 'list')).filter((v) => text(get(v, 'task', 'createdAt')) >= after);
    views.sort((a, b) => text(get(b, 'task', 'createdAt')).localeCompare(text(get(a, 'task', 'createdAt'))));
    const view = views[0];
    const id = text(get(view, 'task', 'id'));
    return id && isRecord(view) ? { collection: 'tasks', id, json: view } : null;
  } catch {
    return null;
  }
}

export const removeMembership: KindDescriptor<RemoveMembershipInput> = {
  kind: 'remove-membership',
  version: 1,
  label: 'Remove entitlement membership',
  endpoint: 'DELETE /api/v1/apps/{app_id}/entitlements/{app_entitlement_id}/remove-membership',
  validate(raw) {
    const obj = asObject(raw, 'remove-membership');
    return {
      appId: requiredId(obj, 'appId'),
      appEntitlementId: requiredId(obj, 'appEntitlementId'),
      appUserId: requiredId(obj, 'appUserId'),
    };
  },
  checkStore: checkRemoval,
  csv: {
    columns: [
      { name: 'app_id', field: 'appId', required: true },
      { name: 'app_entitlement_id', field: 'appEntitlementId', required: true },
      { name: 'app_user_id', field: 'appUserId', required: true },
    ],
  },
  request: (i) => ({
    method: 'DELETE',
    path: `/apps/${seg(i.appId)}/entitlements/${seg(i.appEntitlementId)}/remove-membership`,
    body: { appUserId: i.appUserId },
  }),
  target: (i) => `membership:${i.appId}/${i.appEntitlementId}/${i.appUserId}`,
  dedupeKey: (i) => `${i.appId}\u0000${i.appEntitlementId}\u0000${i.appUserId}`,
  summary: (i) => `remove user ${i.appUserId} from entitlement ${i.appEntitlementId} (app ${i.appId})`,
  overlay: (i) => [
    // Under the membership's id in the store, so the synced row shows it "pending removal".
    { collection: 'memberships', objectId: membershipId(i.appEntitlementId, i.appUserId), effect: 'pending-removal', data: { ...i } },
  ],
  result: (body) => ({ revokeTaskId: text(get(body, 'revokeTaskId')) }),
  // The membership is gone at once in the store (the next sync agrees).
  refresh: (_body, i) => [gone(i)],
  /** The revoke task a removal from an access profile created: read and stored, so the item links to it. */
  async readBack({ api, result, signal }) {
    const id = text(result.revokeTaskId);
    return id ? readTask(api, id, signal) : [];
  },
  reconcileHow:
    "reads the entitlement's members (its grants to this app user): a user no longer a member means the removal was applied; " +
    'one still a member, that it was not (it is queued again)',
  async reconcile({ api, item, input, signal }) {
    let held: unknown[];
    try {
      held = await findInList(
        api,
        (pageToken) => membersRequest(input, pageToken, signal),
        (row) => isTheMembership(row, input),
        50,
      );
    } catch (error) {
      const e = readApiError(error);
      if (e.kind !== 'not_found') throw error;
      return {
        outcome: 'applied',
        result: { revokeTaskId: '', settledBy: 'read' },
        note: `the entitlement is gone from the tenant (${e.message}): so is the membership`,
        httpStatus: e.status ?? undefined,
        refresh: [gone(input)],
      };
    }
    if (held.length > 0)
      return { outcome: 'not-applied', note: 'the user is still a member of the entitlement: the removal was not applied' };
    const task = await revokeTaskOf(api, input, item.firstSentAt, signal);
    return {
      outcome: 'applied',
      result: { revokeTaskId: task?.id ?? '', settledBy: 'read' },
      note: "the user is no longer among the entitlement's members: the removal was applied",
      refresh: [gone(input), ...(task ? [task] : [])],
    };
  },
};
