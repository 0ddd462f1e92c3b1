/**
 * Acting on the synced objects, end to end against the reference tenant (127.0.0.1, random port):
 * a CSV of removals mixing managed, unmanaged and unknown targets is refused (exit 2) naming each
 * unmanaged row; with those rows taken out it is queued with warnings about the unknown ones; a
 * send against a tenant that drops every answer after applying leaves them uncertain, and
 * `attest queue reconcile` settles every one by reading the entitlements' members. Results land in
 * the store at once: removed memberships gone, revoke tasks stored and linked, an escalated task
 * read back; the next sync agrees.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWorkspace } from '../../src/main/app/workspace';
import { runSend } from '../../src/main/app/tasks/send';
import { membershipId } from '../../src/main/collections';
import { prepareConnection, recordConnection } from '../../src/main/app/saved-connections';
import type { OutboxItem } from '../../src/main/outbox/queue';
import { openStore } from '../../src/main/store/db';
import type { Entitlement, Membership } from '../../src/tenant/model';
import { startTestTenant, type TestTenant } from '../helpers/tenant';
import { escalatableTasks, tempDir } from './outbox.helpers';
import { runCli } from './sync.helpers';

const SEED = 41;
let tenant: TestTenant;
let tmp: ReturnType<typeof tempDir>;
let dataDir: string;
let storeFile: string;
let env: NodeJS.ProcessEnv;
const cli = (...argv: string[]) => runCli([...argv, '--connection', 'acts'], env);

interface Row {
  appId: string;
  appEntitlementId: string;
  appUserId: string;
}

/** Memberships of the tenant whose entitlement is of one of `kinds`, one per entitlement, `n` of them. */
function membershipsOf(kinds: Entitlement['kind'][], n: number): Row[] {
  const out: Row[] = [];
  const seen = new Set<string>();
  for (const m of tenant.data.memberships.values() as IterableIterator<Membership>) {
    const e = tenant.data.entitlements.get(m.appEntitlementId);
    if (!e || !kinds.includes(e.kind) || seen.has(e.id)) continue;
    seen.add(e.id);
    out.push({ appId: m.appId, appEntitlementId: m.appEntitlementId, appUserId: m.appUserId });
    if (out.length === n) return out;
  }
  throw new Error(`only ${out.length} memberships of ${kinds.join(', ')}`);
}

const csvOf = (rows: Row[]) => [
  'app_id,app_entitlement_id,app_user_id',
  ...rows.map((r) => `${r.appId},${r.appEntitlementId},${r.appUserId}`),
];

beforeAll(async () => {
  tenant = await startTestTenant({ seed: SEED });
  tmp = tempDir('attest-act-on-objects-');
  dataDir = join(tmp.dir, 'data');
  const connection = prepareConnection(dataDir, { clientId: tenant.clientId, serverUrl: tenant.url, name: 'acts' });
  recordConnection(dataDir, connection);
  storeFile = connection.storeFile;
  env = { ATTEST_CLIENT_SECRET: tenant.clientSecret, ATTEST_DATA_DIR: dataDir };
  const synced = await runCli(['sync', '--connection', 'acts'], env);
  expect(synced.code, synced.err).toBe(0);
});
afterAll(async () => {
  await tenant?.close();
  tmp?.remove();
});

describe('removals checked against the store, sent, reconciled by reading members', () => {
  const managed = () => [...membershipsOf(['group', 'profile'], 3), ...membershipsOf(['catalog'], 2)];
  const unmanaged = () => [...membershipsOf(['role'], 2), ...membershipsOf(['permission'], 1)];
  let kept: Row[] = [];
  let unknownRows: Row[] = [];

  it('refuses the whole CSV (exit 2) naming each unmanaged row by line and column, and warns about the unknown ones', async () => {
    const good = managed();
    const bad = unmanaged();
    const [first] = good;
    unknownRows = [
      { ...first!, appUserId: 'no-such-app-user' },
      { appId: first!.appId, appEntitlementId: 'no-such-entitlement', appUserId: first!.appUserId },
    ];
    // Lines 2..: managed, unmanaged and unknown rows mixed.
    const rows = [good[0]!, bad[0]!, good[1]!, unknownRows[0]!, bad[1]!, good[2]!, good[3]!, bad[2]!, unknownRows[1]!, good[4]!];
    const file = join(tmp.dir, 'mixed.csv');
    writeFileSync(file, `${csvOf(rows).join('\r\n')}\r\n`);
    const run = await cli('queue', 'import', file, '--kind', 'remove-membership');
    expect(run.code).toBe(2);
    for (const [line, row] of [
      [3, bad[0]!],
      [6, bad[1]!],
      [9, bad[2]!],
    ] as const) {
      const e = tenant.data.entitlements.get(row.appEntitlementId)!;
      const type = e.kind === 'role' ? 'Role' : 'Permission';
      expect(run.err).toContain(
        `${file}:${line}:2: app_entitlement_id: entitlement ${e.id} (${e.displayName}) is a ${type} (synced from its app): ` +
          'the service does not manage its memberships',
      );
    }
    expect(run.err.match(/: app_entitlement_id: entitlement .* is a (Role|Permission)/g)).toHaveLength(3);
    expect(run.err).toContain(`${file}:5:3: warning: app_user_id: unknown app user no-such-app-user: not in the store`);
    expect(run.err).toContain(`${file}:10:2: warning: app_entitlement_id: unknown entitlement no-such-entitlement: not in the store`);
    expect(run.err).toMatch(/nothing imported: 3 row\(s\) with errors out of 10/);
    const listed = await cli('queue', 'list', '--json');
    expect(JSON.parse(listed.out)).toEqual([]);
    kept = rows.filter((r) => !bad.includes(r));
  });

  it('with those rows taken out: the dry run names every id it knows, the import queues the rest and warns', async () => {
    const file = join(tmp.dir, 'kept.csv');
    writeFileSync(file, `${csvOf(kept).join('\n')}\n`);
    const dry = await cli('queue', 'import', file, '--kind', 'remove-membership', '--dry-run');
    expect(dry.code, dry.err).toBe(0);
    const first = kept[0]!;
    const user = tenant.data.appUsers.get(first.appUserId)!;
    const entitlement = tenant.data.entitlements.get(first.appEntitlementId)!;
    const app = tenant.data.apps.get(first.appId)!;
    expect(dry.out).toContain(
      `line 2: remove user ${user.id} (${user.displayName}) from entitlement ${entitlement.id} (${entitlement.displayName}) ` +
        `(app ${app.id} (${app.displayName}))`,
    );
    expect(dry.out.trim().split('\n')).toHaveLength(kept.length);

    const run = await cli('queue', 'import', file, '--kind', 'remove-membership');
    expect(run.code, run.err).toBe(0);
    expect(run.err).toMatch(new RegExp(`queued ${kept.length} of ${kept.length} rows, 2 with warnings`));
    expect(run.err).toMatch(/kept\.csv:4:3: warning: app_user_id: unknown app user no-such-app-user/);
    expect(run.err).toMatch(/kept\.csv:7:2: warning: app_entitlement_id: unknown entitlement no-such-entitlement/);
  });

  it('a send whose answers are all dropped after applying leaves the removals uncertain; attest queue reconcile settles every one by a read', async () => {
    const managedRows = kept.filter((r) => !unknownRows.includes(r));
    tenant.faults.set('dropAfterApply=1');
    const workspace = await openWorkspace(dataDir, 'acts', { env });
    try {
      // The app's send (one round, no settling): what the tenant applied without answering is uncertain.
      const sent = await runSend(workspace, await workspace.requireApi());
      expect(sent.last).toMatchObject({ succeeded: 0, uncertain: managedRows.length, failed: unknownRows.length });
      expect(workspace.outbox.counts()).toMatchObject({ uncertain: managedRows.length, failed: unknownRows.length });
    } finally {
      workspace.close();
    }
    const applied = tenant.journal().filter((j) => j.operation === 'removeMembership');
    expect(applied).toHaveLength(managedRows.length);

    // Reads are not mutations: the faults stay on, and reconciling sends no removal again.
    const rec = await cli('queue', 'reconcile', '--json');
    expect(rec.code, rec.err).toBe(0);
    expect(JSON.parse(rec.out)).toMatchObject({ examined: managedRows.length, applied: managedRows.length, requeued: 0, unknown: 0 });
    expect(tenant.journal().filter((j) => j.operation === 'removeMembership')).toHaveLength(managedRows.length);
    tenant.faults.clear();

    const listed = await cli('queue', 'list', '--json');
    const items = JSON.parse(listed.out) as OutboxItem[];
    expect(items.filter((i) => i.state === 'uncertain')).toEqual([]);
    expect(items.filter((i) => i.state === 'succeeded')).toHaveLength(managedRows.length);

    // In the store at once: each membership gone, each access profile's revoke task stored and linked.
    const store = openStore(storeFile);
    try {
      for (const r of managedRows) {
        expect(store.getObject('memberships', membershipId(r.appEntitlementId, r.appUserId))?.deleted, r.appUserId).toBe(true);
        const item = items.find((i) => i.input.appUserId === r.appUserId && i.input.appEntitlementId === r.appEntitlementId)!;
        const revokeTaskId = String(item.result?.revokeTaskId ?? '');
        if (tenant.data.entitlements.get(r.appEntitlementId)!.kind === 'catalog') {
          expect(revokeTaskId).not.toBe('');
          const task = store.getObject('tasks', revokeTaskId);
          expect(task?.columns).toMatchObject({ taskType: 'revoke', appEntitlementId: r.appEntitlementId, appUserId: r.appUserId });
        } else expect(revokeTaskId).toBe('');
      }
    } finally {
      store.close();
    }
  });
});

describe('results land where users look', () => {
  it('a removal sent shows its membership gone and its revoke task stored; an escalation is read back; the next sync agrees', async () => {
    // The unknown targets the tenant refused (404) are discarded first.
    for (const failed of JSON.parse((await cli('queue', 'list', '--state', 'failed', '--json')).out) as OutboxItem[]) {
      expect(failed.lastError).toMatch(
        /HTTP 404: (app user 'no-such-app-user' is not a member|entitlement 'no-such-entitlement' not found)/,
      );
      expect((await cli('queue', 'discard', failed.id)).code).toBe(0);
    }
    const [row] = membershipsOf(['catalog'], 1);
    const [task] = escalatableTasks(tenant.data, 1);
    expect(
      (
        await cli(
          'queue',
          'add',
          'remove-membership',
          '--app',
          row!.appId,
          '--entitlement',
          row!.appEntitlementId,
          '--user',
          row!.appUserId,
        )
      ).code,
    ).toBe(0);
    const escalation = await cli('queue', 'add', 'escalate', '--task', task!.taskId, '--policy-step', task!.policyStepId);
    expect(escalation.code, escalation.err).toBe(0);
    expect(escalation.err).not.toMatch(/warning/);
    const sent = await cli('queue', 'send');
    expect(sent.code, sent.err).toBe(0);
    expect(sent.err).toMatch(/stored \d+ changed object\(s\) of memberships, tasks from the answers/);

    const items = JSON.parse((await cli('queue', 'list', '--json')).out) as OutboxItem[];
    const removal = items.find((i) => i.kind === 'remove-membership' && i.input.appUserId === row!.appUserId)!;
    const revokeTaskId = String(removal.result?.revokeTaskId);
    let store = openStore(storeFile);
    try {
      expect(store.getObject('memberships', membershipId(row!.appEntitlementId, row!.appUserId))?.deleted).toBe(true);
      expect(store.getObject('tasks', revokeTaskId)?.columns).toMatchObject({ taskType: 'revoke', appUserId: row!.appUserId });
      expect(store.getObject('tasks', task!.taskId)?.columns).toMatchObject({ emergencyAccess: true, escalatable: false });
    } finally {
      store.close();
    }

    const synced = await cli('sync');
    expect(synced.code, synced.err).toBe(0);
    store = openStore(storeFile);
    try {
      // The store equals the tenant: the removed memberships stay gone, counted on both sides.
      expect(store.countObjects('memberships')).toBe(tenant.data.memberships.size);
      expect(store.getObject('memberships', membershipId(row!.appEntitlementId, row!.appUserId))?.deleted).toBe(true);
      expect(store.getObject('tasks', task!.taskId)?.columns).toMatchObject({ emergencyAccess: true });
      expect(store.getObject('tasks', revokeTaskId)?.deleted).toBe(false);
    } finally {
      store.close();
    }
  });
});
