import type { CollectionId } from '../collections';
import { isRecord } from '../collections';
import { referenceAt } from '../reports/references';

/**
 * The names of the synced objects an object names by id anywhere inside it (a campaign's selector,
 * an automation step's app or policy, a template's reviewers), so the detail view shows each nested
 * id with its name, as the lists do for their id columns.
 */

/** Members that hold ids of other collections than users and policies (those are `referenceAt`'s). */
const MEMBER_COLLECTION: [RegExp, CollectionId][] = [
  [/^(appId|appIds)$/, 'apps'],
  [/^(appEntitlementId|appEntitlementIds|entitlementId|entitlementIds)$/, 'entitlements'],
  [/^(appUserId|appUserIds)$/, 'app-users'],
  [/^(templateId|accessReviewTemplateId)$/, 'templates'],
  [/^(accessReviewId|campaignId)$/, 'campaigns'],
  [/^(automationId|automationIds)$/, 'automations'],
];

/** A reference object's `id` (`appEntitlementRefs[0].id`, `appRef.id`), by the reference's name. */
const REF_COLLECTION: [RegExp, CollectionId][] = [
  [/(^a|A)ppEntitlementRefs?$/, 'entitlements'],
  [/(^a|A)ppRefs?$/, 'apps'],
];

/** The synced collection whose id the string at `path` holds, if any. */
export function collectionAt(path: string): CollectionId | null {
  const people = referenceAt(path);
  if (people) return people;
  const keys = path
    .split('.')
    .map((segment) => segment.replace(/(\[\d+\])+$/, ''))
    .filter((k) => k !== '');
  const key = keys.at(-1) ?? '';
  const parent = keys.at(-2) ?? '';
  if (key === 'id') return REF_COLLECTION.find(([pattern]) => pattern.test(parent))?.[1] ?? null;
  return MEMBER_COLLECTION.find(([pattern]) => pattern.test(key))?.[1] ?? null;
}

/** How many nested ids are looked up at most (a detail view, not a report). */
const MAX_IDS = 500;

/** The names the store holds for the ids nested in `json`, by id (ids it does not hold are left out). */
export function nestedIdNames(json: unknown, nameOf: (collection: CollectionId, id: string) => string | null): Record<string, string> {
  const names: Record<string, string> = {};
  let looked = 0;
  const walk = (value: unknown, path: string): void => {
    if (looked >= MAX_IDS) return;
    if (typeof value === 'string') {
      const collection = value ? collectionAt(path) : null;
      if (!collection || value in names) return;
      looked += 1;
      const name = nameOf(collection, value);
      if (name) names[value] = name;
    } else if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${path}[${i}]`));
    else if (isRecord(value)) for (const [key, item] of Object.entries(value)) walk(item, path ? `${path}.${key}` : key);
  };
  walk(json, '');
  return names;
}
