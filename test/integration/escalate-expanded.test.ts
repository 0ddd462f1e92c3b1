/**
 * Escalate against the reference tenant (127.0.0.1, random port) from a real synced SQLite store:
 * without a policy step it queues and sends; with --expand the answer's expanded objects are kept
 * with the item, and those a collection stores as the message itself (apps) are stored as fresh
 * copies when whole, while a projection of one is not.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWorkspace } from '../../src/main/app/workspace';
import { prepareConnection, recordConnection } from '../../src/main/app/saved-connections';
import { storeFreshCopies } from '../../src/main/store/fresh-copies';
import type { Task } from '../../src/shared/api-types';
import { startTestTenant, type TestTenant } from '../helpers/tenant';
import { escalatableTasks, tempDir } from './outbox.helpers';
import { runCli } from './sync.helpers';

let tenant: TestTenant;
let tmp: ReturnType<typeof tempDir>;
let dataDir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  tenant = await startTestTenant({ seed: 41 });
  tmp = tempDir('attest-escalate-expanded-');
  dataDir = join(tmp.dir, 'data');
  recordConnection(dataDir, prepareConnection(dataDir, { clientId: tenant.clientId, serverUrl: tenant.url, name: 'esc' }));
  env = { ATTEST_CLIENT_SECRET: tenant.clientSecret, ATTEST_DATA_DIR: dataDir };
  const synced = await runCli(['sync', '--connection', 'esc'], env);
  expect(synced.code, synced.err).toBe(0);
});
afterAll(async () => {
  await tenant?.close();
  tmp?.remove();
});

const grantOf = (taskId: string) => (tenant.data.tasks.get(taskId) as Task).type!.grant!;

async function read<T>(fn: (ws: Awaited<ReturnType<typeof openWorkspace>>) => T): Promise<T> {
  const ws = await openWorkspace(dataDir, 'esc', { env });
  try {
    return fn(ws);
  } finally {
    ws.close();
  }
}

interface ShownItem {
  state: string;
  result: {
    emergencyAccess: boolean;
    expanded?: { type: string; id: string; name: string; collection: string | null; json: Record<string, unknown> }[];
  };
}

async function queueAndSend(args: string[]): Promise<ShownItem & { sendOutput: string }> {
  const added = await runCli(['queue', 'add', 'escalate', '--connection', 'esc', ...args, '--json'], env);
  expect(added.code, added.err).toBe(0);
  const id = (JSON.parse(added.out) as { id: string }).id;
  const sent = await runCli(['queue', 'send', '--connection', 'esc'], env);
  expect(sent.code, sent.err).toBe(0);
  const shown = await runCli(['queue', 'show', id, '--connection', 'esc'], env);
  expect(shown.code, shown.err).toBe(0);
  return { ...(JSON.parse(shown.out) as { item: ShownItem }).item, sendOutput: sent.err };
}

describe('escalate', () => {
  it('with no policy step: queues with the synced current step and the tenant escalates the task', async () => {
    const [task] = escalatableTasks(tenant.data, 1);
    const item = await queueAndSend(['--task', task!.taskId]);
    expect(item.state).toBe('succeeded');
    expect(item.result.emergencyAccess).toBe(true);
    expect(item.result.expanded).toBeUndefined();
    const applied = tenant.journal().filter((j) => j.operation === 'escalateTask' && j.objectId === task!.taskId);
    expect(applied.map((j) => j.request)).toEqual([{ policyStepId: task!.policyStepId }]);
    expect((tenant.data.tasks.get(task!.taskId) as Task).emergencyAccess).toBe(true);
  });

  it('with --expand: the expanded app is stored as a fresh copy; the app user and entitlement stay with the item', async () => {
    const [, task] = escalatableTasks(tenant.data, 2);
    const grant = grantOf(task!.taskId);
    // Changed on the tenant since the sync: only a stored fresh copy brings the new values.
    const app = tenant.data.apps.get(grant.appId!)!;
    app.description = 'Described again after the sync';
    const user = tenant.data.appUsers.get(grant.appUserId!)!;
    const userNameBefore = user.displayName;
    user.displayName = 'Renamed after the sync';
    const before = await read((ws) => ({
      app: ws.store.getObject('apps', app.id)!,
      user: ws.store.getObject('app-users', user.id)!,
    }));
    expect(before.app.json).toMatchObject({ description: expect.not.stringContaining('again') });

    const item = await queueAndSend(['--task', task!.taskId, '--expand', 'app_id,app_user_id,app_entitlement_ids']);
    expect(item.state).toBe('succeeded');
    expect(item.result.expanded?.map((o) => [o.type, o.id, o.collection])).toEqual([
      ['App', app.id, 'apps'],
      ['AppUser', user.id, null],
      ['AppEntitlement', grant.appEntitlementId, null],
    ]);
    expect(item.result.expanded?.[1]?.json).toMatchObject({ id: user.id, displayName: 'Renamed after the sync' });
    expect(item.sendOutput).toMatch(/stored 2 changed object\(s\) of .*apps.* from the answers/);

    await read((ws) => {
      const stored = ws.store.getObject('apps', app.id)!;
      expect(stored.json).toMatchObject({ id: app.id, description: 'Described again after the sync' });
      expect(stored.raw).not.toContain('@type');
      expect(stored.runId).toBeGreaterThan(before.app.runId);
      expect(ws.store.history('apps', app.id).length).toBe(2);
      // The app user is stored as a view of its own: the expanded message is no version of it.
      const storedUser = ws.store.getObject('app-users', user.id)!;
      expect(storedUser.runId).toBe(before.user.runId);
      expect(storedUser.json).toMatchObject({ appUser: { displayName: userNameBefore } });
    });
  });

  it('a projection of an expanded object (fewer members than the stored copy) is not stored as a version', async () => {
    await read((ws) => {
      const app = ws.store.listObjects('apps', { limit: 1 }).rows[0]!;
      const projection = { id: app.id, displayName: 'Projected name' };
      expect(storeFreshCopies(ws.store, [{ collection: 'apps', id: app.id, json: projection, related: true }]).stored).toBe(0);
      expect(ws.store.getObject('apps', app.id)!.title).toBe(app.title);
      // Not held by the store: nothing tells a projection from the whole object.
      expect(
        storeFreshCopies(ws.store, [{ collection: 'apps', id: 'app-unknown', json: { id: 'app-unknown' }, related: true }]).stored,
      ).toBe(0);
      // The whole object (every member the store's copy has) is stored.
      const whole = { ...(app.json as Record<string, unknown>), displayName: 'Whole new name' };
      expect(storeFreshCopies(ws.store, [{ collection: 'apps', id: app.id, json: whole, related: true }]).stored).toBe(1);
      expect(ws.store.getObject('apps', app.id)!.title).toBe('Whole new name');
    });
  });
});
