/**
 * Retries that cannot double, against the reference tenant on 127.0.0.1: a send of 300 mixed
 * changes through 30% 5xx and 15% 429 (the app's send, which settles) ends with nothing failed or
 * uncertain for a transient reason; then changes applied but unanswered are retried in bulk
 * (`attest queue retry --state uncertain`), which reads the tenant first: what did apply is
 * settled, not sent again. The tenant's journal shows every change applied exactly once.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { prepareConnection, recordConnection } from '../../src/main/app/saved-connections';
import { runSend } from '../../src/main/app/tasks/send';
import { openWorkspace, type Workspace } from '../../src/main/app/workspace';
import type { BulkResult, MutationKind, Outbox, ReconcileSummary } from '../../src/main/outbox/queue';
import { startTestTenant, type TestTenant } from '../helpers/tenant';
import { appliedCounts, escalatableTasks, removableMemberships, resourceServers, tempDir, type JournalLike } from './outbox.helpers';
import { runCli } from './sync.helpers';

let tenant: TestTenant;
let tmp: ReturnType<typeof tempDir>;
let dataDir: string;
let env: NodeJS.ProcessEnv;
let workspace: Workspace;

beforeAll(async () => {
  tenant = await startTestTenant({ seed: 77, scale: 4 });
  tmp = tempDir('attest-transient-');
  dataDir = join(tmp.dir, 'data');
  recordConnection(dataDir, prepareConnection(dataDir, { clientId: tenant.clientId, serverUrl: tenant.url, name: 'faulty' }));
  env = { ATTEST_CLIENT_SECRET: tenant.clientSecret, ATTEST_DATA_DIR: dataDir };
  const synced = await runCli(['sync', '--connection', 'faulty'], env);
  expect(synced.code, synced.err).toBe(0);
  workspace = await openWorkspace(dataDir, 'faulty', { env });
}, 120_000);
afterAll(async () => {
  workspace?.close();
  await tenant?.close();
  tmp?.remove();
});

/** Each item's request applied by the tenant exactly once: the items that are not are listed. */
function notAppliedOnce(outbox: Outbox): { id: string; kind: MutationKind; times: number }[] {
  const items = outbox.list();
  const applied = appliedCounts(items, tenant.journal() as unknown as JournalLike[]);
  return items.filter((i) => applied.get(i.id) !== 1).map((i) => ({ id: i.id, kind: i.kind, times: applied.get(i.id) ?? 0 }));
}

it('a send of 300 mixed changes through error5xx=0.3,rate429=0.15 ends with none failed or uncertain, each applied once', async () => {
  const { outbox } = workspace;
  const removals = removableMemberships(tenant.data, 260);
  for (const r of removals.slice(0, 200)) outbox.enqueue('remove-membership', r);
  const servers = resourceServers(tenant.data, 4);
  for (let i = 0; i < 50; i += 1)
    outbox.enqueue('create-scope', { ...servers[i % servers.length]!, scopeValue: `retry:it:${i}`, displayName: `Retry scope ${i}` });
  const tasks = escalatableTasks(tenant.data, 20);
  expect(tasks).toHaveLength(20);
  for (const t of tasks) outbox.enqueue('escalate-task', { ...t, comment: 'on call' });
  const templates = [...tenant.data.templates.values()].slice(0, 10) as unknown as { id: string }[];
  for (const [i, t] of templates.entries())
    outbox.enqueue('update-template', { templateId: t.id, changes: { description: `reviewed ${i}` } });
  const owner = tenant.data.identityUserIds[0]!;
  for (let i = 0; i < 20; i += 1)
    outbox.enqueue('create-campaign', { displayName: `Retry campaign ${i}`, ownerIds: [owner], completionDate: '2031-01-31T17:00:00Z' });
  expect(outbox.counts().queued).toBe(300);

  tenant.faults.set('error5xx=0.3,rate429=0.15');
  const api = await workspace.requireApi();
  const sent = await runSend(workspace, api, { settle: true, concurrency: 8 });
  tenant.faults.clear();
  // The faults bit: attempts were left uncertain, each read and (when not applied) sent again.
  expect(sent.totals.uncertain).toBeGreaterThan(20);
  expect(sent.totals.requeued).toBeGreaterThan(0);
  expect(sent.totals.unsettled).toBe(0);
  expect(outbox.counts()).toMatchObject({ succeeded: 300, failed: 0, uncertain: 0, queued: 0, sending: 0 });
  expect(notAppliedOnce(outbox)).toEqual([]);
  // Every attempt is journaled: more sends than items, and a read before each repeat.
  const journal = outbox.journal();
  expect(journal.filter((j) => j.event === 'send').length).toBeGreaterThan(300);
  expect(journal.filter((j) => j.event === 'reconcile').length).toBeGreaterThanOrEqual(sent.totals.requeued);
}, 300_000);

it('a bulk retry of uncertain items reads the tenant first: what applied is settled, only the rest is sent again', async () => {
  const { outbox } = workspace;
  const removals = removableMemberships(tenant.data, 260).slice(200);
  for (const r of removals) outbox.enqueue('remove-membership', r);
  const servers = resourceServers(tenant.data, 4);
  for (let i = 0; i < 20; i += 1)
    outbox.enqueue('create-scope', { ...servers[i % servers.length]!, scopeValue: `retry:bulk:${i}`, displayName: `Bulk retry ${i}` });
  const api = await workspace.requireApi();
  // One round, no settling: half the changes are applied without an answer, others fail with a 5xx.
  tenant.faults.set('dropAfterApply=0.5,error5xx=0.2');
  const first = await outbox.send(api, { concurrency: 8 });
  tenant.faults.clear();
  expect(first.uncertain).toBeGreaterThan(20);
  const uncertain = outbox.counts().uncertain;

  const retried = await runCli(['queue', 'retry', '--state', 'uncertain', '--connection', 'faulty', '--json'], env);
  expect(retried.code, retried.err).toBe(0);
  const result = JSON.parse(retried.out) as BulkResult & { reconciled: ReconcileSummary };
  expect(result.reconciled).toMatchObject({ examined: uncertain, unknown: 0 });
  expect(result.reconciled.applied).toBeGreaterThan(0);
  expect(result.reconciled.applied + result.reconciled.requeued).toBe(uncertain);
  expect(retried.err).toContain(`read ${uncertain} uncertain item(s) from the tenant first: ${result.reconciled.applied} found applied`);
  expect(outbox.counts().uncertain).toBe(0);

  const again = await runSend(workspace, api, { settle: true });
  expect(again.totals).toMatchObject({ failed: 0, unsettled: 0 });
  expect(outbox.counts()).toMatchObject({ succeeded: 380, failed: 0, uncertain: 0, queued: 0 });
  expect(notAppliedOnce(outbox)).toEqual([]);
}, 300_000);
