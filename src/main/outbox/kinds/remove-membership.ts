/** remove-membership: a user taken out of an entitlement; reconciled by sending it again (it cannot apply twice). */
import { readApiError } from '../api-shape';
import type { KindDescriptor } from './descriptor';
import { get, seg, text } from './server';
import { asObject, requiredId } from './validation';

export interface RemoveMembershipInput extends Record<string, unknown> {
  appId: string;
  appEntitlementId: string;
  appUserId: string;
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
