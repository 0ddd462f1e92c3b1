/** Remove entitlement membership (spec): DELETE with a JSON body naming the app user. */
import { MANAGED_ENTITLEMENT_KINDS, membershipId } from '../dataset';
import { failedPrecondition, notFound } from '../errors';
import { requiredString } from '../input';
import { getOr404, param, type RequestContext, type Route } from './common';

function removeMembership(ctx: RequestContext) {
  const app = getOr404(ctx.data.apps, param(ctx, 'app_id'), 'app');
  const entitlementId = param(ctx, 'app_entitlement_id');
  const entitlement = ctx.data.entitlements.get(entitlementId);
  if (!entitlement || entitlement.appId !== app.id)
    throw notFound('app_entitlement', entitlementId, `entitlement '${entitlementId}' not found in app '${app.id}'`);
  const appUserId = requiredString(ctx.body, 'appUserId');
  if (!MANAGED_ENTITLEMENT_KINDS.includes(entitlement.kind)) {
    throw failedPrecondition(
      'ENTITLEMENT_NOT_MANAGED',
      `app_entitlement/${entitlementId}`,
      `entitlement '${entitlementId}' is ${entitlement.kind === 'scope' ? 'bound to a cross-app scope' : `a ${entitlement.kind} synced from a connector`}; only catalog, group and profile memberships can be removed`,
    );
  }
  const id = membershipId(entitlementId, appUserId);
  if (!ctx.data.memberships.has(id)) {
    throw notFound('app_entitlement_membership', id, `app user '${appUserId}' is not a member of entitlement '${entitlementId}'`);
  }
  ctx.data.memberships.delete(id);
  // Spec: removal from an access profile (catalog) creates a revoke task; its id is returned.
  let revokeTaskId = '';
  if (entitlement.kind === 'catalog') {
    const task = ctx.data.build.revokeTask({ appId: app.id, appEntitlementId: entitlementId, appUserId }, ctx.principal.clientId);
    ctx.data.tasks.set(task.id as string, task);
    revokeTaskId = task.id as string;
  }
  ctx.record(id);
  return { revokeTaskId };
}

export const entitlementRoutes: Route[] = [
  {
    method: 'DELETE',
    path: '/api/v1/apps/{app_id}/entitlements/{app_entitlement_id}/remove-membership',
    operation: 'removeMembership',
    handle: removeMembership,
  },
];
