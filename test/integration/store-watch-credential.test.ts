/**
 * A credential replaced by the CLI while the app has the connection open, with the REAL OS keychain
 * (scripts/with-keyring.sh on a headless machine): the tenant restarts with a new credential, the
 * app's send pauses on 401 and its state says credentials-refused; `attest connect --name` in a
 * process of its own replaces the credential; the app notices the saved connections changed,
 * opens the connection again with the new secret and is online within a few seconds, without
 * anything asked of it.
 */
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventName, EventPayload } from '../../src/shared/contract';
import { createSession, type Session } from '../../src/main/app/session';
import { createEventBus } from '../../src/main/events';
import { keychainAvailable, KEYCHAIN_SERVICE } from '../../src/main/keychain';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { spawnAttest, type SpawnedRun } from '../helpers/cli';
import { removableMemberships, tempDir } from './outbox.helpers';

const keytar = createRequire(import.meta.url)('keytar') as {
  deletePassword(service: string, account: string): Promise<boolean>;
};

const root = resolve(__dirname, '../..');
const SEED = 37;

let tenant: ReferenceTenant;
let port: number;
let tmp: ReturnType<typeof tempDir>;
let session: Session;
const accounts = new Set<string>();
const seen: { event: EventName; payload: unknown }[] = [];

const payloads = <E extends EventName>(event: E) => seen.filter((e) => e.event === event).map((e) => e.payload as EventPayload<E>);

async function within(ms: number, done: () => boolean): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (done()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return done();
}

function attest(args: string[], stdin = ''): Promise<SpawnedRun> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.ATTEST_CLIENT_SECRET;
  return spawnAttest([...args, '--data-dir', tmp.dir], { cwd: root, env, stdin });
}

beforeAll(async () => {
  if (!(await keychainAvailable())) {
    throw new Error('This test needs the real OS keychain: run it as scripts/with-keyring.sh npx vitest run <this file>');
  }
  tenant = await startTenant({ port: 0, seed: SEED });
  port = Number(new URL(tenant.url).port);
  tmp = tempDir('attest-store-watch-cred-');
  const events = createEventBus();
  events.subscribe((event, payload) => seen.push({ event, payload }));
  session = createSession({ dataDir: tmp.dir, appVersion: 'test', events, dialogs: { open: async () => null, save: async () => null } });
});

afterAll(async () => {
  await session?.shutdown();
  for (const account of accounts) await keytar.deletePassword(KEYCHAIN_SERVICE, account).catch(() => undefined);
  await tenant?.close();
  tmp?.remove();
});

describe('a credential replaced by the CLI while the app has the connection open', () => {
  it('the app, refused after the tenant rotated the credential, is online again on its own once the CLI replaced it', async () => {
    accounts.add(tenant.clientId);
    await session.saveConnection({
      name: 'shared',
      clientId: tenant.clientId,
      clientSecret: tenant.clientSecret,
      serverUrl: tenant.url,
      authMethod: 'assertion',
      keep: 'keychain',
    });
    await session.openConnection('shared');
    session.workspace().outbox.enqueue('remove-membership', removableMemberships(tenant.data, 1)[0]!);

    await tenant.close();
    tenant = await startTenant({ port, seed: SEED });
    accounts.add(tenant.clientId);
    expect(session.startSend(null)).toBe(true);
    expect(await within(15_000, () => !session.sending())).toBe(true);
    expect(await session.connectionState()).toMatchObject({ status: 'credentials-refused' });
    expect(session.workspace().outbox.counts().queued).toBe(1);

    const told = payloads('connectionState').length;
    const replace = await attest(['connect', '--client-id', tenant.clientId, '--name', 'shared'], tenant.clientSecret);
    expect(replace.code, replace.stderr).toBe(0);
    expect(
      await within(5_000, () =>
        payloads('connectionState')
          .slice(told)
          .some((s) => s.status === 'online'),
      ),
    ).toBe(true);
    expect(await session.connectionState()).toMatchObject({ connection: 'shared', status: 'online', reason: null });
    expect(session.workspace().connection.clientId).toBe(tenant.clientId);
    expect(payloads('storeChanged').some((c) => c.connections)).toBe(true);
    // Reopened without `recover`: the queued change is still queued, and the app may send it.
    expect(session.workspace().outbox.counts().queued).toBe(1);
    expect(session.startSend(null)).toBe(true);
    expect(await within(15_000, () => !session.sending())).toBe(true);
    expect(session.workspace().outbox.counts()).toMatchObject({ queued: 0, succeeded: 1 });
    expect(tenant.journal().filter((e) => e.operation === 'removeMembership')).toHaveLength(1);
  }, 60_000);
});
