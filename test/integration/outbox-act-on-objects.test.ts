/**
 * Acting on the synced objects, end to end against the reference tenant (127.0.0.1, random port):
 * a CSV of removals mixing managed, unmanaged and unknown targets is refused (exit 2) naming each
 * unmanaged row and each id the complete sync does not hold; a partial import queues the rest and
 * writes the refused rows to a file that, fixed, imports the remainder; a
 * send against a tenant that drops every answer after applying leaves them uncertain, and
 * `attest queue reconcile` settles every one by reading the entitlements' members. Results land in
 * the store at once: removed memberships gone, revoke tasks stored and linked, an escalated task
 * read back; the next sync agrees.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
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
  let rows: Row[] = [];
  let bad: Row[] = [];
  let good: Row[] = [];
  let unknownRows: Row[] = [];
  let queuedRows: Row[] = [];
  const mixed = () => join(tmp.dir, 'mixed.csv');

  it('refuses the whole CSV (exit 2) naming each unmanaged row and each id the complete sync does not hold, by line and column', async () => {
    good = managed();
    bad = unmanaged();
    const [first] = good;
    unknownRows = [
      { ...first!, appUserId: 'no-such-app-user' },
      { appId: first!.appId, appEntitlementId: 'no-such-entitlement', appUserId: first!.appUserId },
    ];
    // Lines 2..: managed, unmanaged and unknown rows mixed.
    rows = [good[0]!, bad[0]!, good[1]!, unknownRows[0]!, bad[1]!, good[2]!, good[3]!, bad[2]!, unknownRows[1]!, good[4]!];
    const file = mixed();
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
    // The first sync walked every app user and entitlement: an id it did not see is not in the tenant.
    expect(run.err).toContain(`${file}:5:3: app_user_id: unknown app user no-such-app-user: not in the tenant as of run 1 (`);
    expect(run.err).toContain(`${file}:10:2: app_entitlement_id: unknown entitlement no-such-entitlement: not in the tenant as of run 1 (`);
    expect(run.err).not.toMatch(/warning/);
    expect(run.err).toMatch(/nothing imported: 5 row\(s\) with errors out of 10 \(--partial queues the valid rows/);
    const listed = await cli('queue', 'list', '--json');
    expect(JSON.parse(listed.out)).toEqual([]);
  });

  it('--partial --dry-run names every id of the valid rows and queues nothing', async () => {
    const dry = await cli('queue', 'import', mixed(), '--kind', 'remove-membership', '--partial', '--dry-run');
    expect(dry.code, dry.err).toBe(6);
    const first = good[0]!;
    const user = tenant.data.appUsers.get(first.appUserId)!;
    const entitlement = tenant.data.entitlements.get(first.appEntitlementId)!;
    const app = tenant.data.apps.get(first.appId)!;
    expect(dry.out).toContain(
      `line 2: remove user ${user.displayName} (${user.id}) from entitlement ${entitlement.displayName} (${entitlement.id}) ` +
        `(app ${app.displayName} (${app.id}))`,
    );
    expect(dry.out.trim().split('\n')).toHaveLength(good.length);
    expect(dry.err).toMatch(/dry run: 5 of 10 rows would be queued, 5 refused/);
    expect(JSON.parse((await cli('queue', 'list', '--json')).out)).toEqual([]);
  });

  it('--partial --rejects queues the valid rows as one batch and writes exactly the refused ones; the fixed file imports the rest', async () => {
    const rejects = join(tmp.dir, 'rejected.csv');
    const run = await cli('queue', 'import', mixed(), '--kind', 'remove-membership', '--partial', '--rejects', rejects);
    expect(run.code, run.err).toBe(6);
    expect(run.err).toMatch(/queued 5 of 10 rows, 5 refused as batch \d+ \(mixed\.csv\)/);
    expect(run.err).toContain(`5 refused row(s) written to ${rejects}`);
    const written = parse(readFileSync(rejects, 'utf8'), { columns: true }) as Record<string, string>[];
    expect(written.map((r) => Number(r.rejected_line))).toEqual([3, 5, 6, 9, 10]);
    expect(written.map((r) => ({ appId: r.app_id, appEntitlementId: r.app_entitlement_id, appUserId: r.app_user_id }))).toEqual([
      bad[0],
      unknownRows[0],
      bad[1],
      bad[2],
      unknownRows[1],
    ]);
    expect(written[1]!.rejected_reason).toMatch(/^app_user_id: unknown app user no-such-app-user: not in the tenant as of run 1/);
    expect(written[0]!.rejected_reason).toContain('the service does not manage its memberships');

    // A second run refuses to overwrite the rejects file, before queueing anything.
    const again = await cli('queue', 'import', mixed(), '--kind', 'remove-membership', '--partial', '--rejects', rejects);
    expect(again.code).toBe(2);
    expect(again.err).toContain(`${rejects} exists already: nothing was written (give --force to overwrite it)`);
    expect(JSON.parse((await cli('queue', 'list', '--json')).out)).toHaveLength(5);

    // Fixed: the unmanaged rows deleted, the unknown ids replaced by real ones; the reject columns left in place.
    const spare = membershipsOf(['group', 'profile'], 5).filter((m) => !good.some((g) => g.appEntitlementId === m.appEntitlementId));
    expect(spare.length).toBeGreaterThanOrEqual(2);
    const fixed = written
      .filter((r) => r.app_entitlement_id === 'no-such-entitlement' || r.app_user_id === 'no-such-app-user')
      .map((r, i) => ({ ...r, app_id: spare[i]!.appId, app_entitlement_id: spare[i]!.appEntitlementId, app_user_id: spare[i]!.appUserId }));
    const fixedFile = join(tmp.dir, 'rejected-fixed.csv');
    writeFileSync(fixedFile, stringify(fixed, { header: true }));
    const rest = await cli(
      'queue',
      'import',
      fixedFile,
      '--kind',
      'remove-membership',
      '--partial',
      '--rejects',
      join(tmp.dir, 'none.csv'),
    );
    expect(rest.code, rest.err).toBe(0);
    expect(rest.err).toMatch(/queued 2 of 2 rows as batch/);
    expect(rest.err).not.toMatch(/warning|ignored/);
    expect(existsSync(join(tmp.dir, 'none.csv'))).toBe(false);
    queuedRows = [...good, ...spare.slice(0, 2)];
    expect(JSON.parse((await cli('queue', 'list', '--json')).out)).toHaveLength(queuedRows.length);
  });

  it('a send whose answers are all dropped after applying leaves the removals uncertain; attest queue reconcile settles every one by a read', async () => {
    const managedRows = queuedRows;
    tenant.faults.set('dropAfterApply=1');
    const workspace = await openWorkspace(dataDir, 'acts', { env });
    try {
      // The app's send (one round, no settling): what the tenant applied without answering is uncertain.
      const sent = await runSend(workspace, await workspace.requireApi());
      expect(sent.last).toMatchObject({ succeeded: 0, uncertain: managedRows.length, failed: 0 });
      expect(workspace.outbox.counts()).toMatchObject({ uncertain: managedRows.length, failed: 0 });
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
    // Nothing the store could tell was unknown reached the tenant to fail there.
    expect(JSON.parse((await cli('queue', 'list', '--state', 'failed', '--json')).out)).toEqual([]);
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
