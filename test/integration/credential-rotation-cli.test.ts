/**
 * A rotated credential, as an admin meets it with the CLI: the real binary, the REAL OS keychain
 * (scripts/with-keyring.sh on a headless machine), the reference tenant on loopback. Changes are
 * queued; the tenant restarts on the same address with a new credential; the send pauses on 401
 * and `attest connections` says "credentials-refused"; `attest connect --name N` with the new
 * credential replaces it in place (token check first, keychain entry swapped, the same store and
 * outbox); then the queued changes send, each applied once.
 */
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnAttest, type SpawnedRun } from '../helpers/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keychainAvailable, KEYCHAIN_SERVICE } from '../../src/main/keychain';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { removableMemberships, removalsCsv } from './outbox.helpers';

const keytar = createRequire(import.meta.url)('keytar') as {
  getPassword(service: string, account: string): Promise<string | null>;
  deletePassword(service: string, account: string): Promise<boolean>;
};

const root = resolve(__dirname, '../..');
const SEED = 23;

function attest(args: string[], stdin = ''): Promise<SpawnedRun> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.ATTEST_CLIENT_SECRET;
  return spawnAttest(args, { cwd: root, env, stdin });
}

interface Listed {
  name: string;
  clientId: string;
  storeFile: string;
  state: string | null;
  stateReason: string | null;
}

let tenant: ReferenceTenant;
let other: ReferenceTenant | undefined;
let dataDir: string;
let port: number;
const accounts = new Set<string>();

beforeAll(async () => {
  if (!(await keychainAvailable())) {
    throw new Error('This test needs the real OS keychain: run it as scripts/with-keyring.sh npx vitest run <this file>');
  }
  tenant = await startTenant({ port: 0, seed: SEED });
  port = Number(new URL(tenant.url).port);
  dataDir = mkdtempSync(join(tmpdir(), 'attest-rotate-'));
});

afterAll(async () => {
  for (const account of accounts) await keytar.deletePassword(KEYCHAIN_SERVICE, account).catch(() => undefined);
  await tenant?.close();
  await other?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const list = async (): Promise<Listed[]> => {
  const run = await attest(['connections', '--json', '--data-dir', dataDir]);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Listed[];
};

describe('a credential rotated on the tenant, replaced in place with attest connect --name', () => {
  const removals = () => removableMemberships(tenant.data, 6);
  let storeFile = '';
  let oldClientId = '';

  it('connects, and queues six removals offline', async () => {
    oldClientId = tenant.clientId;
    accounts.add(oldClientId);
    const connect = await attest(['connect', '--client-id', tenant.clientId, '--name', 'acme', '--data-dir', dataDir], tenant.clientSecret);
    expect(connect.code, connect.stderr).toBe(0);
    const csv = join(dataDir, 'removals.csv');
    writeFileSync(csv, removalsCsv(removals()));
    const queued = await attest(['queue', 'import', csv, '--kind', 'remove-membership', '--connection', 'acme', '--data-dir', dataDir]);
    expect(queued.code, queued.stderr).toBe(0);
    const [listed] = await list();
    expect(listed).toMatchObject({ name: 'acme', clientId: oldClientId, state: 'online', stateReason: null });
    storeFile = listed!.storeFile;
  });

  it('the tenant restarts with a new credential: the send pauses on 401, and the connection shows credentials-refused', async () => {
    await tenant.close();
    tenant = await startTenant({ port, seed: SEED });
    accounts.add(tenant.clientId);
    expect(tenant.clientId).not.toBe(oldClientId);
    const send = await attest(['queue', 'send', '--connection', 'acme', '--data-dir', dataDir]);
    expect(send.code, send.stderr).toBe(3);
    expect(send.stderr).toMatch(/refused the credentials.*Replace credential.*attest connect --name/s);
    const [listed] = await list();
    expect(listed).toMatchObject({ name: 'acme', state: 'credentials-refused', stateReason: expect.stringMatching(/invalid_client/) });
    const human = await attest(['connections', '--data-dir', dataDir]);
    expect(human.stdout).toMatch(/acme\s+credentials-refused/);
    expect(tenant.journal()).toEqual([]);
  });

  it('refuses a credential of another tenant for it, and changes nothing', async () => {
    other = await startTenant({ port: 0, seed: SEED });
    const refused = await attest(['connect', '--client-id', other.clientId, '--name', 'acme', '--data-dir', dataDir], other.clientSecret);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/another tenant cannot replace it/);
    expect(await list()).toEqual([expect.objectContaining({ name: 'acme', clientId: oldClientId, storeFile })]);
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, other.clientId)).toBeNull();
  });

  it('attest connect --name acme with the new credential replaces it: keychain entry swapped, the same store and outbox', async () => {
    const replace = await attest(
      ['connect', '--client-id', tenant.clientId, '--name', 'acme', '--data-dir', dataDir, '--json'],
      tenant.clientSecret,
    );
    expect(replace.code, replace.stderr).toBe(0);
    expect(replace.stderr).toMatch(/Token check passed/);
    expect(replace.stderr).toMatch(/Replaced the credential of 'acme'.*outbox are kept/);
    expect(JSON.parse(replace.stdout)).toMatchObject({
      name: 'acme',
      clientId: tenant.clientId,
      storeFile,
      secretStored: true,
      replaced: { previousClientId: oldClientId, previousSecretRemoved: true },
    });
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, tenant.clientId)).toBe(tenant.clientSecret);
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, oldClientId)).toBeNull();
    expect(await list()).toEqual([expect.objectContaining({ name: 'acme', clientId: tenant.clientId, storeFile, state: 'online' })]);
    const queued = await attest(['queue', 'list', '--connection', 'acme', '--data-dir', dataDir, '--json']);
    const items = JSON.parse(queued.stdout) as { state: string }[];
    expect(items.map((i) => i.state)).toEqual(Array(6).fill('queued'));
  });

  it('then the queued changes send, each removal applied once', async () => {
    const send = await attest(['queue', 'send', '--connection', 'acme', '--data-dir', dataDir]);
    expect(send.code, send.stderr).toBe(0);
    const applied = tenant.journal().filter((e) => e.operation === 'removeMembership');
    expect(applied).toHaveLength(6);
    const targets = applied.map((e) => `${e.path} ${JSON.stringify(e.request)}`);
    expect(new Set(targets).size).toBe(6);
    const queued = await attest(['queue', 'list', '--connection', 'acme', '--data-dir', dataDir, '--json']);
    expect((JSON.parse(queued.stdout) as { state: string }[]).map((i) => i.state)).toEqual(Array(6).fill('succeeded'));
  });
});
