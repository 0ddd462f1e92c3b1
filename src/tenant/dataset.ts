/**
 * The reference tenant's data and the deterministic generator that fills it from a seed. Same seed
 * and scale, same bytes.
 *
 * Tests may change the data between two syncs: `data.scopes.set(id, obj)`, `data.scopes.delete(id)`,
 * or `data.touch('scopes', id, { displayName: 'x' })`, which edits in place and bumps `updatedAt`
 * (automations, which have no `updatedAt`, get a new `currentVersion`).
 */
import { Builders } from './builders';
import { TenantCollections } from './model';

export * from './model';

export type Scale = 'demo' | 'large' | number;

/**
 * Objects per unit of scale: `demo` is one unit (hundreds of objects), `large` is 500 units
 * (200,000 memberships, 20,000 tasks, automations and scopes).
 */
export const UNIT_SIZES = {
  apps: 8,
  identityUsers: 40,
  entitlements: 60,
  appUsers: 100,
  memberships: 400,
  scopes: 40,
  automations: 40,
  templates: 8,
  /** Templates no campaign or automation names: reachable by id only. */
  unreferencedTemplates: 2,
  campaigns: 16,
  toolsets: 12,
  routingRules: 12,
  tasks: 40,
} as const;
export const LARGE_SCALE = 500;

/** The number of units a scale stands for; a number is a multiple of `demo` (fractions allowed down to 0.05). */
export function scaleFactor(scale: Scale): number {
  if (scale === 'demo') return 1;
  if (scale === 'large') return LARGE_SCALE;
  if (!Number.isFinite(scale) || scale < 0.05 || scale > 5000)
    throw new Error(`scale must be demo, large or a number from 0.05 to 5000, not ${scale}`);
  return scale;
}

/** The tenant's collections with the builders that made them. */
export class TenantData extends TenantCollections {
  /** The builders that made the data; routes use them for objects created through the API. */
  readonly build: Builders;

  constructor(seed: number) {
    super(seed);
    this.build = new Builders(seed, this);
  }
}

/** Generates the tenant for a seed and scale. Collections are filled in dependency order. */
export function generateDataset(seed: number, scale: Scale = 'demo'): TenantData {
  const factor = scaleFactor(scale);
  const count = (key: keyof typeof UNIT_SIZES, min = 1) => Math.max(min, Math.round(UNIT_SIZES[key] * factor));
  const data = new TenantData(seed);
  const b = data.build;

  data.identityUserIds = b.identityUsers(count('identityUsers', 4));
  b.apps(count('apps', 2));
  b.entitlements(count('entitlements', 12));
  b.appUsers(count('appUsers', 6));
  b.memberships(count('memberships', 12));
  b.scopes(count('scopes', 10));
  b.templates(count('templates', 2));
  b.campaigns(count('campaigns', 2));
  // Every step action and every trigger of the spec appears at least once, whatever the scale.
  b.automations(count('automations', b.minimumAutomations));
  b.unreferencedTemplates(count('unreferencedTemplates'));
  b.toolsets(count('toolsets', 2));
  b.routingRules(count('routingRules', 4));
  b.tasks(count('tasks', 6));
  // Added after every collection above, each from its own stream: the data above stays as it was.
  b.userProfiles();
  b.policies();
  return data;
}
