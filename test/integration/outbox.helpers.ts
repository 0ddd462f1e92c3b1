/** Shared setup for the outbox integration tests and bench: a reference tenant, a store, work to queue. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalJson } from '../../src/main/outbox/canonical';
import type { OutboxItem, OutboxStore } from '../../src/main/outbox/queue';
import { MANAGED_ENTITLEMENT_KINDS, type TenantData } from '../../src/tenant/dataset';
import { openStore, type Store } from '../../src/main/store/db';
import { storeFreshCopies } from '../../src/main/store/fresh-copies';

export function tempDir(prefix = 'attest-outbox-it-'): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A real store file, and an OutboxStore view of it that also knows the tenant's templates (as a sync would). */
export function openTestStore(file: string, data: TenantData): { store: Store; outboxStore: OutboxStore } {
  const store = openStore(file);
  const outboxStore: OutboxStore = {
    db: store.db,
    getObject: (collection, id) => {
      if (collection === 'templates') {
        const t = data.templates.get(id);
        return t ? { json: structuredClone(t) } : null;
      }
      return store.getObject(collection as 'scopes', id);
    },
    refreshObjects: (copies) => storeFreshCopies(store, copies),
  };
  return { store, outboxStore };
}

/** Managed (removable) memberships of the tenant, in a stable order. */
export function removableMemberships(data: TenantData, n: number): { appId: string; appEntitlementId: string; appUserId: string }[] {
  const out: { appId: string; appEntitlementId: string; appUserId: string }[] = [];
  for (const m of data.memberships.values()) {
    const e = data.entitlements.get(m.appEntitlementId);
    if (!e || !MANAGED_ENTITLEMENT_KINDS.includes(e.kind)) continue;
    out.push({ appId: m.appId, appEntitlementId: m.appEntitlementId, appUserId: m.appUserId });
    if (out.length >= n) break;
  }
  if (out.length < n) throw new Error(`the tenant has only ${out.length} removable memberships, ${n} wanted`);
  return out;
}

export function removalsCsv(rows: { appId: string; appEntitlementId: string; appUserId: string }[]): string {
  return ['app_id,app_entitlement_id,app_user_id', ...rows.map((r) => `${r.appId},${r.appEntitlementId},${r.appUserId}`)].join('\r\n');
}

/** Grant tasks that can be escalated now, with their current policy step. */
export function escalatableTasks(data: TenantData, n: number): { taskId: string; policyStepId: string }[] {
  const out: { taskId: string; policyStepId: string }[] = [];
  for (const task of data.tasks.values()) {
    const t = task as unknown as {
      id: string;
      emergencyAccess?: boolean;
      type?: { grant?: unknown };
      policy?: { current?: { id?: string } | null };
    };
    if (!t.type?.grant || t.emergencyAccess || !t.policy?.current?.id) continue;
    out.push({ taskId: t.id, policyStepId: t.policy.current.id });
    if (out.length >= n) break;
  }
  return out;
}

export interface ResourceServer {
  appId: string;
  xaaResourceServerId: string;
}

export function resourceServers(data: TenantData, n: number): ResourceServer[] {
  const seen = new Map<string, ResourceServer>();
  for (const s of data.scopes.values()) {
    const scope = s as unknown as { appId: string; xaaResourceServerId: string };
    const key = `${scope.appId}/${scope.xaaResourceServerId}`;
    if (!seen.has(key)) seen.set(key, { appId: scope.appId, xaaResourceServerId: scope.xaaResourceServerId });
    if (seen.size >= n) break;
  }
  return [...seen.values()];
}

/** A tenant journal entry: the request (its body) that applied one mutation. */
export interface JournalLike {
  operation: string;
  method: string;
  path: string;
  request: unknown;
  objectId: string;
}

/** The key of a tenant journal entry / an outbox request: method, path under /api/v1, canonical body. */
export function requestKey(method: string | undefined, path: string | undefined, body: unknown): string {
  const p = (path ?? '').replace(/^.*\/api\/v1/, '').split('?')[0];
  return `${method ?? ''} ${p} ${canonicalJson(body ?? null)}`;
}

export function journalKey(entry: JournalLike): string {
  return requestKey(entry.method, entry.path, entry.request);
}

/** How many times the tenant applied each item's request (0, 1, or more). */
export function appliedCounts(items: OutboxItem[], journal: JournalLike[]): Map<string, number> {
  const byKey = new Map<string, number>();
  for (const e of journal) byKey.set(journalKey(e), (byKey.get(journalKey(e)) ?? 0) + 1);
  const out = new Map<string, number>();
  for (const item of items) out.set(item.id, byKey.get(requestKey(item.request.method, item.request.path, item.request.body)) ?? 0);
  return out;
}
