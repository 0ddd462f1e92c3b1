/**
 * Two fronts, one store: the app's session has a connection open while the real CLI binary, in a
 * process of its own, writes to the same data folder. What the CLI queues reaches the app as a
 * storeChanged event within two seconds (the app's own writes raise none); turning "send queued
 * changes when online" on while online sends at once; the CLI's send summary counts only what was
 * sent.
 */
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventName, EventPayload } from '../../src/shared/contract';
import { createSession, type Session } from '../../src/main/app/session';
import { createEventBus } from '../../src/main/events';
import { memorySecretStore } from '../../src/main/keychain';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { spawnAttest, type SpawnedRun } from '../helpers/cli';
import { removableMemberships, tempDir } from './outbox.helpers';

const root = resolve(__dirname, '../..');

let tenant: ReferenceTenant;
let tmp: ReturnType<typeof tempDir>;
let session: Session;
const seen: { event: EventName; payload: unknown; at: number }[] = [];

const storeChanges = () =>
  seen.filter((e) => e.event === 'storeChanged').map((e) => ({ ...(e.payload as EventPayload<'storeChanged'>), seenAt: e.at }));
const sendsFinished = () =>
  seen.filter((e) => e.event === 'sendProgress' && (e.payload as EventPayload<'sendProgress'>).phase === 'finished').length;
const removals = () => tenant.journal().filter((e) => e.operation === 'removeMembership');

/** Polls `done` every 20 ms up to `ms`; false when it never held. */
async function within(ms: number, done: () => boolean): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (done()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return done();
}

/** The real `attest` binary against the test's data folder; the secret (when given) for this run only. */
function attest(args: string[], secret?: string): Promise<SpawnedRun> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.ATTEST_CLIENT_SECRET;
  if (secret) env.ATTEST_CLIENT_SECRET = secret;
  return spawnAttest([...args, '--connection', 'shared', '--data-dir', tmp.dir], { cwd: root, env });
}

function addRemoval(row: { appId: string; appEntitlementId: string; appUserId: string }): Promise<SpawnedRun> {
  return attest(['queue', 'add', 'remove-membership', '--app', row.appId, '--entitlement', row.appEntitlementId, '--user', row.appUserId]);
}

beforeAll(async () => {
  tenant = await startTenant({ port: 0, seed: 31, scale: 'demo' });
  tmp = tempDir('attest-store-watch-');
  const events = createEventBus();
  events.subscribe((event, payload) => seen.push({ event, payload, at: Date.now() }));
  session = createSession({
    dataDir: tmp.dir,
    appVersion: 'test',
    events,
    dialogs: { open: async () => null, save: async () => null },
    secrets: memorySecretStore(),
  });
  await session.saveConnection({
    name: 'shared',
    clientId: tenant.clientId,
    clientSecret: tenant.clientSecret,
    serverUrl: tenant.url,
    authMethod: 'assertion',
    keep: 'keychain',
  });
  await session.openConnection('shared');
  expect(await session.connectionState()).toMatchObject({ status: 'online' });
});

afterAll(async () => {
  await session?.shutdown();
  await tenant?.close();
  tmp?.remove();
});

describe('one store, two fronts', () => {
  const rows = () => removableMemberships(tenant.data, 4);

  it("the app's own writes raise no storeChanged event", async () => {
    const before = storeChanges().filter((c) => c.store).length;
    const item = session.workspace().outbox.enqueue('remove-membership', rows()[3]!);
    session.workspace().outbox.discard(item.id);
    expect(await within(1500, () => storeChanges().filter((c) => c.store).length > before)).toBe(false);
  });

  it('a change the CLI queues reaches the open app within two seconds, and its outbox counts it', async () => {
    const before = storeChanges().length;
    const added = await addRemoval(rows()[0]!);
    const exitedAt = Date.now();
    expect(added.code, added.stderr).toBe(0);
    expect(
      await within(2000, () =>
        storeChanges()
          .slice(before)
          .some((c) => c.store),
      ),
    ).toBe(true);
    const change = storeChanges()
      .slice(before)
      .find((c) => c.store)!;
    expect(change).toMatchObject({ connection: 'shared', store: true });
    expect(change.seenAt - exitedAt).toBeLessThan(2000);
    expect(session.workspace().outbox.counts().queued).toBe(1);
    expect(removals()).toHaveLength(0);
  });

  it('turning "send queued changes when online" on while online sends what is queued at once', async () => {
    const before = sendsFinished();
    const { status } = session.setAutoRun('shared', { sendWhenOnline: true, syncEveryMinutes: null });
    expect(status.sendWhenOnline).toBe(true);
    expect(await within(10_000, () => sendsFinished() > before)).toBe(true);
    expect(session.autoRunStatus().last).toMatchObject({ kind: 'send', outcome: 'started' });
    expect(session.workspace().outbox.counts()).toMatchObject({ queued: 0, succeeded: 1 });
    expect(removals()).toHaveLength(1);
    // Saving the same choice again sends nothing more.
    session.setAutoRun('shared', { sendWhenOnline: true, syncEveryMinutes: null });
    expect(session.sending()).toBe(false);
    session.setAutoRun('shared', { sendWhenOnline: false, syncEveryMinutes: null });
  });

  it('a CLI send refused by the tenant says nothing was sent; a good one counts what it sent', async () => {
    const added = await addRemoval(rows()[1]!);
    expect(added.code, added.stderr).toBe(0);
    // A malformed secret: no request leaves, and the change stays queued (not uncertain).
    const malformed = await attest(['queue', 'send'], 'not-the-secret');
    expect(malformed.code, malformed.stderr).toBe(3);
    expect(malformed.stderr).toMatch(/nothing was sent: 1 item\(s\) stay queued/);
    expect(malformed.stderr).toMatch(/does not start with 'secret-token:'/);
    expect(session.workspace().outbox.counts()).toMatchObject({ queued: 1, uncertain: 0 });
    // A well-formed secret, of another tenant's client: the token endpoint refuses it.
    const other = await startTenant({ port: 0, seed: 31, scale: 'demo' });
    await other.close();
    const refused = await attest(['queue', 'send'], other.clientSecret);
    expect(refused.code, refused.stderr).toBe(3);
    expect(refused.stderr).not.toMatch(/sent \d+ of/);
    expect(refused.stderr).toMatch(/nothing was sent: 1 item\(s\) stay queued/);
    expect(removals()).toHaveLength(1);
    const before = storeChanges().length;
    const sent = await attest(['queue', 'send'], tenant.clientSecret);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stderr).toMatch(/sent 1 of 1: 1 succeeded, 0 failed, 0 uncertain, 0 not sent/);
    expect(removals()).toHaveLength(2);
    // The app is told of the CLI's send too.
    expect(
      await within(2000, () =>
        storeChanges()
          .slice(before)
          .some((c) => c.store),
      ),
    ).toBe(true);
    expect(session.workspace().outbox.counts()).toMatchObject({ queued: 0, succeeded: 2 });
  });
});
