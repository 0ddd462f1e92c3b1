/**
 * The application layer's one opener against a real data folder and real SQLite files: when the
 * secret is looked for, what a workspace without one can still do, and what it refuses to create.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStoreFile, openWorkspace, StoreMissingError } from '../../src/main/app/workspace';
import { getConnection, lastUsedConnection, prepareConnection, recordConnection } from '../../src/main/app/saved-connections';
import { memorySecretStore, type SecretStore } from '../../src/main/keychain';
import { testCredentials } from '../helpers/api-credentials';

const creds = testCredentials();
let dataDir: string;

/** A keychain that counts how often it is asked. */
function countingSecrets(initial: Record<string, string> = {}): SecretStore & { reads: number } {
  const inner = memorySecretStore(initial);
  const counting = {
    reads: 0,
    get: async (account: string) => {
      counting.reads += 1;
      return inner.get(account);
    },
    set: inner.set,
    delete: inner.delete,
  };
  return counting;
}

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'attest-workspace-'));
  recordConnection(dataDir, prepareConnection(dataDir, { clientId: testCredentials('other.example.com').clientId, name: 'other' }));
  recordConnection(dataDir, prepareConnection(dataDir, { clientId: creds.clientId, name: 'acme' }));
  recordConnection(dataDir, { ...getConnection(dataDir, 'other') });
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

describe('openWorkspace', () => {
  it('opens store and outbox without asking for the secret until the tenant is needed, then marks the connection used', async () => {
    const secrets = countingSecrets({ [creds.clientId]: creds.clientSecret });
    expect(lastUsedConnection(dataDir)).toBe('other');
    const workspace = await openWorkspace(dataDir, 'acme', { secrets });
    try {
      expect(secrets.reads).toBe(0);
      expect(workspace.api).toBeNull();
      expect(workspace.outbox.counts().queued).toBe(0);
      expect(workspace.store.runs()).toEqual([]);
      expect(lastUsedConnection(dataDir)).toBe('other');
      const api = await workspace.requireApi();
      expect(api.apiRoot).toBe('https://tenant.example.com/api/v1');
      expect(workspace.api).toBe(api);
      expect(secrets.reads).toBe(1);
      expect(lastUsedConnection(dataDir)).toBe('acme');
    } finally {
      workspace.close();
    }
  });

  it('without a secret still opens the store (offline), and says why there is no API client', async () => {
    const workspace = await openWorkspace(dataDir, 'acme', { secrets: memorySecretStore(), secret: 'if-available' });
    try {
      expect(workspace.api).toBeNull();
      expect(workspace.credentials).toBeNull();
      expect(workspace.connection).toMatchObject({ name: 'acme', hostname: 'tenant.example.com' });
      expect(workspace.store.collectionStatus().length).toBeGreaterThan(0);
      await expect(workspace.requireApi()).rejects.toMatchObject({ name: 'ConnectionError', code: 'no_secret' });
    } finally {
      workspace.close();
    }
  });

  it('takes ATTEST_CLIENT_SECRET only when the front passes its environment, and says so', async () => {
    const notices: string[] = [];
    const env = { ATTEST_CLIENT_SECRET: creds.clientSecret };
    const workspace = await openWorkspace(dataDir, 'acme', {
      secrets: memorySecretStore(),
      env,
      onNotice: (m) => notices.push(m),
      secret: 'required',
    });
    workspace.close();
    expect(workspace.credentials?.clientSecret).toBe(creds.clientSecret);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/ATTEST_CLIENT_SECRET for this run only/);
    expect(notices[0]).not.toContain(creds.clientSecret);
  });

  it('refuses before any store opens: a required secret that is missing, or a store that was never created', async () => {
    const storeFile = getConnection(dataDir, 'acme').storeFile;
    await expect(openWorkspace(dataDir, 'acme', { secrets: memorySecretStore(), env: {}, secret: 'required' })).rejects.toMatchObject({
      code: 'no_secret',
    });
    expect(existsSync(storeFile)).toBe(false);
    const missing = await openWorkspace(dataDir, 'acme', { existing: true }).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(StoreMissingError);
    expect(missing).toMatchObject({ file: storeFile, connectionName: 'acme' });
    expect(existsSync(storeFile)).toBe(false);
  });

  it('opens a bare store file offline, named after the file', async () => {
    const file = join(dataDir, 'elsewhere', 'snapshot.sqlite');
    expect(() => openStoreFile(file, { existing: true })).toThrow(StoreMissingError);
    const workspace = openStoreFile(file);
    try {
      expect(workspace.connection).toMatchObject({ name: 'snapshot', hostname: 'offline' });
      expect(workspace.api).toBeNull();
      await expect(workspace.requireApi()).rejects.toMatchObject({ code: 'auth' });
    } finally {
      workspace.close();
      workspace.close();
    }
    expect(existsSync(file)).toBe(true);
  });
});
