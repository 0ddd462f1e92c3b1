/** Entitlements: of every kind the removal rule distinguishes, and the ones bound to cross-app scopes. */
import type { App, Entitlement, EntitlementKind } from '../model';
import { slug, type BuildContext } from './context';

const ENTITLEMENT_NAMES: Record<Exclude<EntitlementKind, 'scope'>, string[]> = {
  role: [
    'Admin',
    'Owner',
    'Developer',
    'Read Only',
    'Billing Admin',
    'Support Agent',
    'Auditor',
    'Security Analyst',
    'Data Engineer',
    'On-call Responder',
  ],
  group: ['Engineering', 'Finance', 'Sales', 'Support', 'Security', 'Contractors', 'Leadership', 'Data Platform'],
  catalog: ['Engineering Onboarding', 'Finance Close', 'Sales Tools', 'Incident Response', 'Production Break-glass', 'New Hire Basics'],
  profile: ['Default Profile', 'Power User Profile', 'Restricted Profile'],
  permission: ['repo:write', 'billing:read', 'users:manage', 'reports:export', 'secrets:read'],
};
const DESCRIPTIONS: Record<EntitlementKind, string> = {
  catalog: 'Access profile',
  group: 'Group',
  profile: 'Profile',
  role: 'Role synced by the connector',
  permission: 'Permission synced by the connector',
  scope: 'Cross-app scope',
};
const ENTITLEMENT_KIND_WEIGHTS: [EntitlementKind, number][] = [
  ['role', 30],
  ['group', 25],
  ['catalog', 15],
  ['profile', 15],
  ['permission', 15],
];

export function entitlements(ctx: BuildContext, count: number): void {
  const r = ctx.stream('entitlements');
  const total = ENTITLEMENT_KIND_WEIGHTS.reduce((s, [, w]) => s + w, 0);
  const details = ctx.stream('entitlements:details');
  for (let i = 0; i < count; i += 1) {
    // The first five walk through every kind; then by weight.
    let kind: EntitlementKind = ENTITLEMENT_KIND_WEIGHTS[i % ENTITLEMENT_KIND_WEIGHTS.length]?.[0] ?? 'role';
    if (i >= ENTITLEMENT_KIND_WEIGHTS.length) {
      let roll = r.int(total);
      for (const [k, w] of ENTITLEMENT_KIND_WEIGHTS) {
        if (roll < w) {
          kind = k;
          break;
        }
        roll -= w;
      }
    }
    const app = kind === 'catalog' ? (ctx.appList[0] as App) : (ctx.appList[1 + r.int(ctx.appList.length - 1)] ?? (ctx.appList[0] as App));
    const displayName = r.pick(ENTITLEMENT_NAMES[kind as Exclude<EntitlementKind, 'scope'>]);
    const e: Entitlement = { id: r.id(), appId: app.id, displayName, slug: slug(displayName), kind, createdAt: ctx.past(r, 700, 30) };
    e.description = `${DESCRIPTIONS[kind]} of ${app.displayName}`;
    e.updatedAt = ctx.after(details, e.createdAt, 30);
    ctx.data.entitlements.set(e.id, e);
    ctx.entitlementList.push(e);
  }
}

/** The entitlement bound to a scope (created with it). */
export function scopeEntitlement(
  ctx: BuildContext,
  id: string,
  scope: { appId: string; displayName: string; scopeValue: string; id: string; createdAt: string },
): Entitlement {
  const e: Entitlement = {
    id,
    appId: scope.appId,
    displayName: `Scope: ${scope.displayName}`,
    slug: slug(scope.scopeValue),
    kind: 'scope',
    scopeId: scope.id,
    description: `Holders may use scope ${scope.scopeValue}`,
    createdAt: scope.createdAt,
    updatedAt: scope.createdAt,
  };
  ctx.data.entitlements.set(e.id, e);
  return e;
}
