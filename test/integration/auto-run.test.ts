/**
 * Runs on its own against the reference tenant on loopback, behind a TCP relay that stands for the
 * network: off by default nothing runs; with "send when online" the queued changes send once when
 * the tenant is reachable again; a sync that falls due while a sync runs starts no other; a send on
 * its own that ends with failures is told once, with the count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventPayload, Notice } from '../../src/shared/contract';
import { createSession, type Session } from '../../src/main/app/session';
import { createEventBus } from '../../src/main/events';
import { memorySecretStore } from '../../src/main/keychain';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { startRelay, type Relay } from '../helpers/relay';
import { removableMemberships, tempDir } from './outbox.helpers';

let tenant: ReferenceTenant;
let relay: Relay;
let tmp: ReturnType<typeof tempDir>;
let session: Session;
const notices: Notice[] = [];
const badges: number[] = [];
const sends: EventPayload<'sendProgress'>[] = [];
const syncs: EventPayload<'syncProgress'>[] = [];
const waiters = new Set<() => void>();

/** Resolves when `done()` holds, checked after every event of the session (no time limit but the test's). */
function until(done: () => boolean): Promise<void> {
  if (done()) return Promise.resolve();
  return new Promise((resolve) => {
    const check = () => {
      if (!done()) return;
      waiters.delete(check);
      resolve();
    };
    waiters.add(check);
  });
}

const sendsFinished = () => sends.filter((e) => e.phase === 'finished').length;
const removals = () => tenant.journal().filter((e) => e.operation === 'removeMembership');

beforeAll(async () => {
  tenant = await startTenant({ port: 0, seed: 47, scale: 'demo' });
  relay = await startRelay(Number(new URL(tenant.url).port));
  tmp = tempDir('attest-auto-run-');
  const events = createEventBus();
  events.subscribe((event, payload) => {
    if (event === 'sendProgress') sends.push(payload as EventPayload<'sendProgress'>);
    if (event === 'syncProgress') syncs.push(payload as EventPayload<'syncProgress'>);
    for (const check of [...waiters]) check();
  });
  session = createSession({
    dataDir: tmp.dir,
    appVersion: 'test',
    events,
    dialogs: { open: async () => null, save: async () => null },
    secrets: memorySecretStore(),
    notifier: {
      notify: (notice) => {
        notices.push(notice);
        for (const check of [...waiters]) check();
      },
      badge: (count) => badges.push(count),
    },
    onlineCheckMs: 50,
  });
  await session.saveConnection({
    name: 'auto',
    clientId: tenant.clientId,
    clientSecret: tenant.clientSecret,
    serverUrl: relay.url,
    authMethod: 'assertion',
    keep: 'keychain',
  });
});
afterAll(async () => {
  await session?.shutdown();
  await relay?.close();
  await tenant?.close();
  tmp?.remove();
});

describe('runs on their own', () => {
  it('off by default: the connection going online sends nothing', async () => {
    expect(session.connections().connections[0]?.autoRun).toEqual({ sendWhenOnline: false, syncEveryMinutes: null });
    await relay.down();
    const workspace = await session.openConnection('auto');
    expect(await session.connectionState()).toMatchObject({ status: 'offline' });
    for (const r of removableMemberships(tenant.data, 2)) workspace.outbox.enqueue('remove-membership', r);
    await relay.up();
    expect(await session.connectionState(true)).toMatchObject({ status: 'online' });
    // The decision to send is taken as the state changes: none was taken.
    expect(session.sending()).toBe(false);
    expect(session.autoRunStatus()).toMatchObject({ sendWhenOnline: false, nextSyncAt: null, waitingToSend: false, last: null });
    expect(workspace.outbox.counts().queued).toBe(2);
    expect(removals()).toHaveLength(0);
  });

  it('refuses an interval out of range, naming it, and keeps the choice it had', () => {
    expect(() => session.setAutoRun('auto', { sendWhenOnline: true, syncEveryMinutes: 2 })).toThrow(/whole number from 5 to 1440.*not '2'/);
    expect(session.connections().connections[0]?.autoRun).toEqual({ sendWhenOnline: false, syncEveryMinutes: null });
  });

  it('on: the tenant coming back sends the queued changes once, on its own', async () => {
    await relay.down();
    expect(await session.connectionState(true)).toMatchObject({ status: 'offline' });
    const { connection, status } = session.setAutoRun('auto', { sendWhenOnline: true, syncEveryMinutes: null });
    expect(connection.autoRun).toEqual({ sendWhenOnline: true, syncEveryMinutes: null });
    expect(status).toMatchObject({ sendWhenOnline: true, waitingToSend: true });
    const before = sendsFinished();
    await relay.up();
    // The main process checks the offline tenant, finds it back, and sends.
    await until(() => sendsFinished() > before);
    expect(session.autoRunStatus().last).toMatchObject({ kind: 'send', outcome: 'started' });
    expect(session.workspace().outbox.counts()).toMatchObject({ queued: 0, succeeded: 2 });
    expect(removals()).toHaveLength(2);
    expect(new Set(removals().map((e) => e.objectId)).size).toBe(2);
    expect(notices).toHaveLength(0);
    // Staying online sends nothing again.
    expect(await session.connectionState(true)).toMatchObject({ status: 'online' });
    expect(session.sending()).toBe(false);
  });

  it('a sync that falls due while a sync runs starts no other', async () => {
    session.setAutoRun('auto', { sendWhenOnline: true, syncEveryMinutes: 5 });
    expect(session.autoRunStatus().nextSyncAt).not.toBeNull();
    tenant.faults.set('latency=40');
    const started = syncs.filter((e) => e.phase === 'started').length;
    expect(session.startSync(null)).toBe(true);
    session.autoRun.tickSync();
    expect(session.autoRunStatus().last).toMatchObject({ kind: 'sync', outcome: 'skipped', reason: 'a sync was running' });
    await until(() => !session.syncing());
    tenant.faults.clear();
    expect(syncs.filter((e) => e.phase === 'started')).toHaveLength(started + 1);
    expect(syncs.filter((e) => e.phase === 'finished').at(-1)).toMatchObject({ state: 'done' });
    // The next one is an interval away, not queued up.
    expect(Date.parse(session.autoRunStatus().nextSyncAt!)).toBeGreaterThan(Date.now() + 4 * 60_000);
    session.setAutoRun('auto', { sendWhenOnline: true, syncEveryMinutes: null });
  }, 60_000);

  it('a send on its own that ends with failures is told once, with the count, and the badge counts them', async () => {
    await relay.down();
    expect(await session.connectionState(true)).toMatchObject({ status: 'offline' });
    const rows = removableMemberships(tenant.data, 5).slice(2);
    for (const r of rows) session.workspace().outbox.enqueue('remove-membership', r);
    tenant.faults.set('error5xx=1');
    const before = sendsFinished();
    await relay.up();
    await until(() => sendsFinished() > before && notices.length > 0);
    tenant.faults.clear();
    const counts = session.workspace().outbox.counts();
    expect(counts.failed + counts.uncertain).toBe(3);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ kind: 'send', connection: 'auto', failures: 3, title: '3 changes not sent' });
    expect(badges.at(-1)).toBe(3);
  }, 60_000);

  it('a sync on its own that fails is told once', async () => {
    session.setAutoRun('auto', { sendWhenOnline: false, syncEveryMinutes: 5 });
    expect(await session.connectionState(true)).toMatchObject({ status: 'online' });
    await relay.down();
    const told = notices.length;
    // The interval comes round while the tenant has just gone away (the app does not know yet).
    session.autoRun.tickSync();
    expect(session.autoRunStatus().last).toMatchObject({ kind: 'sync', outcome: 'started' });
    await until(() => notices.length > told);
    expect(notices.slice(told)).toEqual([expect.objectContaining({ kind: 'sync', connection: 'auto', title: 'Sync failed', failures: 0 })]);
    await relay.up();
  }, 90_000);
});
