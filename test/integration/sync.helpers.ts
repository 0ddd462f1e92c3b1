/** Shared setup for the sync integration tests and benchmarks: temp folders, the tenant's expected store contents. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAttest } from '../helpers/cli';
import type { Store } from '../../src/main/store/db';
import { collection as descriptorOf, type CollectionId } from '../../src/main/collections';
import type { Task } from '../../src/shared/api-types';
import type { TenantData } from '../../src/tenant/dataset';
import { campaignView } from '../../src/tenant/routes/campaigns';
import { FULL_PERMISSIONS } from '../../src/tenant/routes/common';
import { userView } from '../../src/tenant/routes/identity';
import { appUserView, appView, entitlementViewWrapper, Expander, memberView, servedTaskView } from '../../src/tenant/views';

export function tempDir(prefix = 'attest-sync-it-'): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Ids of the templates that the tenant's campaigns and automations name (and that exist): what a sync can reach. */
export function referencedTemplateIds(data: TenantData): Set<string> {
  const ids = new Set<string>();
  for (const c of data.campaigns.values()) if (c.accessReviewTemplateId) ids.add(c.accessReviewTemplateId);
  for (const a of data.automations.values()) {
    for (const step of [...(a.automationSteps ?? []), ...(a.draftAutomationSteps ?? [])]) {
      const id = step.createAccessReview?.accessReviewTemplateId;
      if (id) ids.add(id);
    }
  }
  return new Set([...ids].filter((id) => data.templates.has(id)));
}

/**
 * What the store must hold for each collection: id -> the exact JSON text the tenant serves for it
 * (list rows as the page serializes them, a campaign's AccessReviewView among them; a template as the member
 * of its GET answer). Built from the tenant's own data, independently of the sync's scanner.
 */
export function expectedRaw(data: TenantData): Record<CollectionId, Map<string, string>> {
  const map = <T extends { id?: string }>(items: Iterable<T>, raw: (item: T) => string) =>
    new Map([...items].map((item) => [item.id!, raw(item)]));
  const templates = referencedTemplateIds(data);
  return {
    campaigns: map(data.campaigns.values(), (c) => JSON.stringify(campaignView(c))),
    templates: map(
      [...data.templates.values()].filter((t) => templates.has(t.id!)),
      (t) => JSON.stringify(t),
    ),
    automations: map(data.automations.values(), (a) => JSON.stringify(a)),
    toolsets: map(data.toolsets.values(), (t) => JSON.stringify(t)),
    'routing-rules': map(data.routingRules.values(), (r) => JSON.stringify(r)),
    scopes: map(data.scopes.values(), (s) => JSON.stringify(s)),
    apps: map(data.apps.values(), (a) => JSON.stringify(appView(data, a))),
    entitlements: expectedEntitlements(data),
    'app-users': map(data.appUsers.values(), (u) => JSON.stringify(appUserView(data, u))),
    memberships: new Map(
      [...data.memberships.values()].map((m) => [`${m.appEntitlementId}:${m.appUserId}`, JSON.stringify(memberView(data, m))]),
    ),
    tasks: map(
      [...data.tasks.values()].filter((t) => !t.deletedAt),
      (t) => JSON.stringify(taskView(data, t)),
    ),
    users: map(data.users.values(), (u) => JSON.stringify(userView(u))),
    policies: map(data.policies.values(), (p) => JSON.stringify(p)),
  };
}

/**
 * Entitlements as stored: each search row beside the app resource type its path points at. The
 * tenant lists entitlements in their order, a page of the descriptor's size at a time, each page
 * with its own `expanded` list (so a row's `appResourceTypePath` depends on its page).
 */
function expectedEntitlements(data: TenantData): Map<string, string> {
  const out = new Map<string, string>();
  const all = [...data.entitlements.values()];
  const size = descriptorOf('entitlements').pageSize;
  for (let start = 0; start < all.length; start += size) {
    const expanded = new Expander();
    for (const e of all.slice(start, start + size)) {
      const row = entitlementViewWrapper(data, e, ['app_resource_type_id'], expanded);
      const index = Number(/^expanded\[(\d+)\]$/.exec(String(row.appResourceTypePath))?.[1] ?? -1);
      const type = index >= 0 ? JSON.stringify(expanded.list[index]) : 'null';
      out.set(e.id, `{"appEntitlementView":${JSON.stringify(row)},"appResourceType":${type}}`);
    }
  }
  return out;
}

/** A task's row of the tasks search (no expand mask): the view's paths all empty. */
function taskView(data: TenantData, task: Task): unknown {
  const paths = [
    'accessReview',
    'app',
    'appUserLastUsage',
    'appUser',
    'approvers',
    'createdByUser',
    'entitlements',
    'identityUser',
    'insights',
  ];
  const more = ['principalResource', 'resourceBindings', 'roleResource', 'scopeResource', 'stepApprovers'];
  const view = Object.fromEntries([...paths, ...more].map((p) => [`${p}Path`, '']));
  return servedTaskView(data, { ...view, objectPermissions: FULL_PERMISSIONS, task });
}

/** The current objects of a collection in the store: id -> raw. */
export function storedRaw(store: Store, collection: CollectionId): Map<string, string> {
  return new Map([...store.iterateObjects(collection)].map((o) => [o.id, o.raw]));
}

/** Asserts (with a readable first difference) that every collection of the store equals the tenant's. */
export function differences(store: Store, data: TenantData): string[] {
  const problems: string[] = [];
  for (const [collection, expected] of Object.entries(expectedRaw(data)) as [CollectionId, Map<string, string>][]) {
    const actual = storedRaw(store, collection);
    const missing = [...expected.keys()].filter((id) => !actual.has(id));
    const extra = [...actual.keys()].filter((id) => !expected.has(id));
    const different = [...expected].filter(([id, raw]) => actual.has(id) && actual.get(id) !== raw).map(([id]) => id);
    if (missing.length) problems.push(`${collection}: ${missing.length} missing (${missing.slice(0, 3).join(', ')})`);
    if (extra.length) problems.push(`${collection}: ${extra.length} not on the tenant (${extra.slice(0, 3).join(', ')})`);
    if (different.length) problems.push(`${collection}: ${different.length} with other JSON (${different.slice(0, 3).join(', ')})`);
  }
  return problems;
}

/** Runs the attest CLI in this process and captures what it prints. */
export async function runCli(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string; err: string }> {
  const { code, stdout, stderr } = await runAttest(argv, '', { ...process.env, ...env });
  return { code, out: stdout, err: stderr };
}
