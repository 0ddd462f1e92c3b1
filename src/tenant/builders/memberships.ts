/**
 * Memberships: who holds which entitlement, one per (entitlement, app user), since when, and how
 * (directly, or through a group of the same app). A share of them are time-bound.
 */
import type { Entitlement, Membership } from '../model';
import { DATASET_NOW, DAY, iso, membershipId, type BuildContext } from './context';

export function memberships(ctx: BuildContext, count: number): void {
  const r = ctx.stream('memberships');
  const all = [...ctx.data.appUsers.values()];
  // Catalog entitlements come first, so every scale has access-profile memberships to remove.
  const catalogs = ctx.entitlementList.filter((e) => e.kind === 'catalog');
  const groupsByApp = new Map<string, Entitlement[]>();
  for (const e of ctx.entitlementList) {
    if (e.kind !== 'group') continue;
    const list = groupsByApp.get(e.appId);
    if (list) list.push(e);
    else groupsByApp.set(e.appId, [e]);
  }
  const details = ctx.stream('memberships:details');
  for (let i = 0, attempts = 0; i < count && attempts < count * 4; attempts += 1) {
    const e = i < Math.min(4, catalogs.length) ? (catalogs[i] as Entitlement) : r.pick(ctx.entitlementList);
    const sameApp = ctx.usersByApp.get(e.appId);
    const u = sameApp && sameApp.length > 0 && e.kind !== 'catalog' ? r.pick(sameApp) : r.pick(all);
    const id = membershipId(e.id, u.id);
    if (ctx.data.memberships.has(id)) continue;
    const m: Membership = { id, appId: e.appId, appEntitlementId: e.id, appUserId: u.id, createdAt: ctx.past(r, 600) };
    if (details.chance(0.1)) m.deprovisionAt = iso(DATASET_NOW + details.range(1, 90) * DAY);
    const groups = e.kind === 'role' || e.kind === 'permission' ? groupsByApp.get(e.appId) : undefined;
    if (groups && details.chance(0.3)) m.grantSourceIds = [details.pick(groups).id];
    ctx.data.memberships.set(id, m);
    i += 1;
  }
}
