/** remove-membership: a user taken out of an entitlement; reconciled by sending it again (it cannot apply twice). */
import { entitlementType, getPath, membershipId, membershipsManaged, str } from '../../collections';
import { readApiError } from '../api-shape';
import type { KindDescriptor, StoreCheck, ValidationContext } from './descriptor';
import { get, seg, text } from './server';
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
  request: (i) => ({
    method: 'DELETE',
    path: `/apps/${seg(i.appId)}/entitlements/${seg(i.appEntitlementId)}/remove-membership`,
    body: { appUserId: i.appUserId },
  }),
  target: (i) => `membership:${i.appId}/${i.appEntitlementId}/${i.appUserId}`,
  dedupeKey: (i) => `${i.appId}\u0000${i.appEntitlementId}\u0000${i.appUserId}`,
  summary: (i) => `remove user ${i.appUserId} from entitlement ${i.appEntitlementId} (app ${i.appId})`,
  overlay: (i) => [
    { collection: 'memberships', objectId: `${i.appId}/${i.appEntitlementId}/${i.appUserId}`, effect: 'pending-removal', data: { ...i } },
  ],
  result: (body) => ({ revokeTaskId: text(get(body, 'revokeTaskId')) }),
  reconcileHow:
    'no read of memberships exists, but a removal cannot apply twice: it is sent again, and a server that no longer finds the membership confirms it is gone',
  async reconcile({ api, item, signal }) {
    // Removing a membership is idempotent on the server: a second removal of the same membership
    // changes nothing and is refused as not found. So the resend is the read.
    try {
      const res = await api.request({ ...item.request, signal, mutation: true });
      return {
        outcome: 'applied',
        result: removeMembership.result(res.body, item.input as RemoveMembershipInput),
        note: 'sent again: the membership was removed now',
        httpStatus: res.status,
        resent: true,
      };
    } catch (error) {
      const e = readApiError(error);
      if (e.kind === 'not_found' || (e.kind === 'conflict' && e.grpcCode === 9)) {
        return {
          outcome: 'applied',
          result: { revokeTaskId: '', alreadyRemoved: true },
          note: `the server no longer has this membership (${e.message}): it was removed`,
          httpStatus: e.status ?? undefined,
          resent: true,
        };
      }
      throw error;
    }
  },
};
