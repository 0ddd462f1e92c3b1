/**
 * What every builder shares: the dataset's clock, the seeded draws (one PRNG stream per
 * collection, so adding a stream shifts no other), and the objects made so far that later
 * collections refer to (apps, entitlements, accounts per app, templates, policy ids).
 */
import { Random } from '../random';
import type { App, AppUser, Entitlement, TenantCollections } from '../model';

/** The dataset's "now": generated timestamps lie around it, so the same seed gives the same bytes. */
export const DATASET_NOW = Date.UTC(2026, 9, 1, 12, 0, 0);
export const DAY = 86_400_000;

const knownCache = new WeakMap<readonly string[], string[]>();

/** Every value of an enumeration but its zero value (UNSPECIFIED / UNKNOWN). */
export function known<V extends string>(values: readonly V[]): V[] {
  let list = knownCache.get(values);
  if (!list) {
    list = values.filter((v) => !/(^|_)(UNSPECIFIED|UNKNOWN)$/.test(v));
    knownCache.set(values, list);
  }
  return list as V[];
}

/** An object that carries what this version of the spec does not list. */
export const isFuture = (index: number) => index % 50 === 7;
export const riskScoreV3 = (r: Random) => Math.round(r.float() * 1000) / 1000;

export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

const dayPrefixes = new Map<number, string>();
const pad = (n: number, width: number) => String(n).padStart(width, '0');

/**
 * `new Date(ms).toISOString()`, with the date part formatted once per day: a large tenant formats
 * about a million timestamps, and the Date round trip was a fifth of its generation time.
 */
export function iso(ms: number): string {
  if (!Number.isInteger(ms)) return new Date(ms).toISOString();
  const day = Math.floor(ms / DAY);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    prefix = new Date(day * DAY).toISOString().slice(0, 11);
    dayPrefixes.set(day, prefix);
  }
  const t = ms - day * DAY;
  // join() makes one flat string; a template literal would keep a rope of nine pieces per
  // timestamp (about 290 bytes instead of 48, for a million timestamps).
  const hours = pad(Math.floor(t / 3_600_000), 2);
  const minutes = pad(Math.floor(t / 60_000) % 60, 2);
  const secs = pad(Math.floor(t / 1000) % 60, 2);
  return [prefix, hours, ':', minutes, ':', secs, '.', pad(t % 1000, 3), 'Z'].join('');
}

export { membershipId } from '../model';
export const seconds = (n: number) => `${n}s`;

export class BuildContext {
  readonly policyIds: string[] = [];
  readonly appList: App[] = [];
  readonly entitlementList: Entitlement[] = [];
  readonly usersByApp = new Map<string, AppUser[]>();
  readonly templateIds: string[] = [];

  constructor(
    readonly seed: number,
    readonly data: TenantCollections,
  ) {
    const r = new Random(seed, 'policies');
    for (let i = 0; i < 8; i += 1) this.policyIds.push(r.id());
  }

  stream(name: string): Random {
    return new Random(this.seed, name);
  }

  past(r: Random, maxDays: number, minDays = 0): string {
    return iso(DATASET_NOW - (minDays * DAY + r.int(Math.max(1, (maxDays - minDays) * DAY))));
  }

  after(r: Random, from: string, maxDays: number): string {
    return iso(Date.parse(from) + r.int(Math.max(1, maxDays * DAY)));
  }

  user(r: Random): string {
    return r.pick(this.data.identityUserIds);
  }

  users(r: Random, min: number, max: number): string[] {
    return r.sample(this.data.identityUserIds, r.range(min, max));
  }

  app(r: Random): App {
    return r.pick(this.appList);
  }

  entitlementRef(r: Random): { appId: string; id: string } {
    const e = r.pick(this.entitlementList);
    return { appId: e.appId, id: e.id };
  }

  entitlementRefs(r: Random, max: number) {
    return Array.from({ length: r.range(1, max) }, () => this.entitlementRef(r));
  }
}
