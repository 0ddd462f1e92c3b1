import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession, type Session } from '../../src/main/app/session';
import { createEventBus } from '../../src/main/events';
import { KeychainError, memorySecretStore, unavailableSecretStore } from '../../src/main/keychain';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';

/** The app layer where the OS has no keychain (its secret store is one that is never there). */
let tenant: ReferenceTenant;
let dir: string;
beforeAll(async () => {
  tenant = await startTenant({ port: 0, scale: 'demo' });
  dir = mkdtempSync(join(tmpdir(), 'attest-session-secrets-'));
});
afterAll(async () => {
  await tenant.close();
  rmSync(dir, { recursive: true, force: true });
});

const noDialogs = { open: async () => null, save: async () => null };
const session = (dataDir: string, secrets = unavailableSecretStore()): Session =>
  createSession({ dataDir, appVersion: 'test', events: createEventBus(), dialogs: noDialogs, secrets });
const credentials = () => ({
  clientId: tenant.clientId,
  clientSecret: tenant.clientSecret,
  serverUrl: null,
  authMethod: 'assertion' as const,
});

describe('a session without a keychain', () => {
  it('says the keychain is missing, refuses to save to it, and holds the secret for this run when asked', async () => {
    const dataDir = join(dir, 'held');
    const first = session(dataDir);
    expect(await first.keychainAvailable()).toBe(false);
    await expect(first.saveConnection({ ...credentials(), name: null, keep: 'keychain' })).rejects.toBeInstanceOf(KeychainError);
    expect(first.connections().connections).toEqual([]);

    const saved = await first.saveConnection({ ...credentials(), name: 'held', keep: 'this-run' });
    const workspace = await first.openConnection(saved.name);
    expect(workspace.api).not.toBeNull();
    expect(await first.connectionState()).toMatchObject({ connection: 'held', needsSecret: false });
    await first.shutdown();

    // The next start: the connection is there, its secret is not; the store opens offline and the secret is asked for.
    const second = session(dataDir);
    const reopened = await second.openConnection('held');
    expect(reopened.api).toBeNull();
    const state = await second.connectionState();
    expect(state).toMatchObject({ online: false, needsSecret: true });
    expect(state.reason).toMatch(/no keychain/);
    await expect(second.provideSecret('secret-token:nope', 'this-run')).rejects.toThrow();
    const connected = await second.provideSecret(tenant.clientSecret, 'this-run');
    expect(connected.api).not.toBeNull();
    expect(await second.connectionState()).toMatchObject({ online: true, needsSecret: false });

    // Forgetting it works without a keychain to remove an entry from.
    await second.removeConnection('held');
    expect(second.connections().connections).toEqual([]);
    await second.shutdown();
  });

  it('with a keychain, a secret pasted again is kept there', async () => {
    const dataDir = join(dir, 'kept');
    const keychain = memorySecretStore();
    const first = session(dataDir, keychain);
    await first.saveConnection({ ...credentials(), name: 'kept', keep: 'keychain' });
    await keychain.delete(tenant.clientId);
    await first.openConnection('kept');
    expect(await first.connectionState()).toMatchObject({ needsSecret: true, reason: expect.stringMatching(/keychain holds no secret/) });
    await first.provideSecret(tenant.clientSecret, 'keychain');
    expect(await keychain.get(tenant.clientId)).toBe(tenant.clientSecret);
    await first.shutdown();
  });
});
