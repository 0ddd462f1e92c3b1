/** Memberships: who holds which entitlement, one per (entitlement, app user). */
import type { Entitlement, Membership } from '../dataset';
import { membershipId, type BuildContext } from './context';

export function memberships(ctx: BuildContext, count: number): void {
  const r = ctx.stream('memberships');
  const all = [...ctx.data.appUsers.values()];
  // Catalog entitlements come first, so every scale has access-profile memberships to remove.
  const catalogs = ctx.entitlementList.filter((e) => e.kind === 'catalog');
  for (let i = 0, attempts = 0; i < count && attempts < count * 4; attempts += 1) {
    const e = i < Math.min(4, catalogs.length) ? (catalogs[i] as Entitlement) : r.pick(ctx.entitlementList);
    const sameApp = ctx.usersByApp.get(e.appId);
    const u = sameApp && sameApp.length > 0 && e.kind !== 'catalog' ? r.pick(sameApp) : r.pick(all);
    const id = membershipId(e.id, u.id);
    if (ctx.data.memberships.has(id)) continue;
    const m: Membership = { id, appId: e.appId, appEntitlementId: e.id, appUserId: u.id, createdAt: ctx.past(r, 600) };
    ctx.data.memberships.set(id, m);
    i += 1;
  }
}
