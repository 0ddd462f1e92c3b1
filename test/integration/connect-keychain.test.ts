/**
 * The core's keychain door and connection opener against the REAL OS keychain and the reference
 * tenant: store, read and delete a secret; open an API client for a recorded connection from the
 * keychain; fall back to ATTEST_CLIENT_SECRET (for one run, with a notice) when the keychain holds
 * none. A missing keychain fails these tests; they never skip.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as endpoints from '../../src/main/api/endpoints';
import { openApiForConnection } from '../../src/main/app/workspace';
import { prepareConnection, recordConnection } from '../../src/main/app/saved-connections';
import { keychainAvailable, osKeychain } from '../../src/main/keychain';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';

let tenant: ReferenceTenant;
let dataDir: string;
let keychainUp = false;
// A service of its own, so nothing here touches real `attest` entries.
const SERVICE = `attest-test-${process.pid}`;

function requireKeychain(): void {
  if (!keychainUp) throw new Error('The OS keychain (Secret Service) is not available: run under scripts/with-keyring.sh');
}

beforeAll(async () => {
  keychainUp = await keychainAvailable();
  tenant = await startTenant({ port: 0, seed: 12 });
  dataDir = mkdtempSync(join(tmpdir(), 'attest-keychain-'));
});

afterAll(async () => {
  if (keychainUp)
    await osKeychain(SERVICE)
      .delete(tenant.clientId)
      .catch(() => undefined);
  await tenant?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('OS keychain', () => {
  it('stores, reads and deletes a secret under service and account', async () => {
    requireKeychain();
    const store = osKeychain(SERVICE);
    expect(await store.get('nobody@example.com/x')).toBeNull();
    await store.set(tenant.clientId, tenant.clientSecret);
    expect(await store.get(tenant.clientId)).toBe(tenant.clientSecret);
    expect(await store.delete(tenant.clientId)).toBe(true);
    expect(await store.get(tenant.clientId)).toBeNull();
    expect(await store.delete(tenant.clientId)).toBe(false);
  });

  it('opens an API client for a connection with the secret from the keychain, else from the environment', async () => {
    requireKeychain();
    const connection = prepareConnection(dataDir, { clientId: tenant.clientId, serverUrl: tenant.url, name: 'kc' });
    recordConnection(dataDir, connection);
    const secrets = osKeychain(SERVICE);
    const notices: string[] = [];

    await secrets.set(tenant.clientId, tenant.clientSecret);
    const fromKeychain = await openApiForConnection(dataDir, 'kc', { secrets, env: {}, onNotice: (m) => notices.push(m) });
    expect((await endpoints.listRoutingRules(fromKeychain.api, { pageSize: 10 })).status).toBe(200);
    expect(notices).toEqual([]);

    await secrets.delete(tenant.clientId);
    await expect(openApiForConnection(dataDir, 'kc', { secrets, env: {} })).rejects.toMatchObject({ code: 'no_secret' });
    const fromEnv = await openApiForConnection(dataDir, undefined, {
      secrets,
      env: { ATTEST_CLIENT_SECRET: tenant.clientSecret },
      onNotice: (m) => notices.push(m),
    });
    expect((await endpoints.listRoutingRules(fromEnv.api, { pageSize: 10 })).status).toBe(200);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/ATTEST_CLIENT_SECRET for this run only/);
    // Nothing was written to the keychain on the way.
    expect(await secrets.get(tenant.clientId)).toBeNull();
  });
});
