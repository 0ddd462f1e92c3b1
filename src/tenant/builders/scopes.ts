/** Cross-app access scopes, each with the entitlement bound to it. */
import type { Scope } from '../../shared/api-types';
import { XAA_SCOPE_CLASSIFICATION_VALUES, XAA_SCOPE_SOURCE_VALUES, XAA_SCOPE_STATE_VALUES } from '../../shared/enums';
import type { App } from '../model';
import { isFuture, riskScoreV3, type BuildContext } from './context';
import { scopeEntitlement } from './entitlements';

const SCOPE_RESOURCES = [
  'orders',
  'invoices',
  'customers',
  'repos',
  'calendar',
  'files',
  'tickets',
  'reports',
  'users',
  'payments',
  'deployments',
  'secrets',
];
const SCOPE_VERBS: [string, string, (typeof XAA_SCOPE_CLASSIFICATION_VALUES)[number]][] = [
  ['read', 'Read', 'XAA_SCOPE_CLASSIFICATION_READ'],
  ['write', 'Write', 'XAA_SCOPE_CLASSIFICATION_WRITE'],
  ['delete', 'Delete', 'XAA_SCOPE_CLASSIFICATION_DESTRUCTIVE'],
  ['export', 'Export', 'XAA_SCOPE_CLASSIFICATION_SENSITIVE'],
  ['admin', 'Administer', 'XAA_SCOPE_CLASSIFICATION_DANGEROUS'],
];

export function scopes(ctx: BuildContext, count: number): void {
  const r = ctx.stream('scopes');
  const states = XAA_SCOPE_STATE_VALUES;
  const sources = XAA_SCOPE_SOURCE_VALUES;
  const classifications = XAA_SCOPE_CLASSIFICATION_VALUES;
  const taken = new Set<string>();
  for (let i = 0; i < count; i += 1) {
    // Resource servers belong to the synced apps, not to the service's own catalog app (app 0).
    const app = (ctx.appList.length > 1 ? ctx.appList[1 + (i % (ctx.appList.length - 1))] : ctx.appList[0]) as App;
    const resourceServerId = r.pick(app.resourceServerIds);
    const resource = r.pick(SCOPE_RESOURCES);
    const [verb, verbLabel, verbClass] = r.pick(SCOPE_VERBS);
    let scopeValue = r.chance(0.3) ? `https://api.example.com/${resource}.${verb}` : `${resource}:${verb}`;
    for (let n = 2; taken.has(`${resourceServerId}\n${scopeValue}`); n += 1) scopeValue = `${resource}:${verb}:${n}`;
    taken.add(`${resourceServerId}\n${scopeValue}`);
    const createdAt = ctx.past(r, 500, 10);
    // The first few walk through every state, source and classification (zero values included).
    const state = i < states.length ? states[i] : r.chance(0.5) ? 'XAA_SCOPE_STATE_ENABLED' : r.pick(states);
    const source = i < sources.length ? sources[i] : r.chance(0.4) ? 'XAA_SCOPE_SOURCE_DISCOVERED' : 'XAA_SCOPE_SOURCE_ADMIN_DECLARED';
    const classification = i < classifications.length ? classifications[i] : r.chance(0.7) ? verbClass : r.pick(classifications);
    const id = r.id();
    const entitlementId = r.id();
    const scope: Scope & Record<string, unknown> = {
      id,
      appId: app.id,
      xaaResourceServerId: resourceServerId,
      scopeValue,
      displayName: `${verbLabel} ${resource}`,
      description: `Lets the holder ${verbLabel.toLowerCase()} ${resource} through the ${app.displayName} API`,
      classification,
      state,
      source,
      appEntitlementId: entitlementId,
      createdAt,
      updatedAt: ctx.after(r, createdAt, 60),
      deletedAt: null,
      lastDiscoveredAt: source === 'XAA_SCOPE_SOURCE_DISCOVERED' ? ctx.after(r, createdAt, 90) : null,
    };
    if (isFuture(i)) {
      scope.classification = 'XAA_SCOPE_CLASSIFICATION_QUANTUM';
      scope.riskScoreV3 = riskScoreV3(r);
    }
    ctx.data.scopes.set(id, scope);
    scopeEntitlement(ctx, entitlementId, { appId: app.id, displayName: scope.displayName as string, scopeValue, id, createdAt });
  }
}
