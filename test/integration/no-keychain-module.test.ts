/**
 * A machine where npm could not build the keychain module (keytar is optional: no compiler or no
 * libsecret headers, and npm leaves it out). A preload makes `require('keytar')` fail there as it
 * does then. The real binary runs: the demo works and its workbook verifies, `connect` records the
 * connection and says what is missing, how to add it and how to use ATTEST_CLIENT_SECRET meanwhile,
 * a sync runs on that variable; the install check says so in one line and passes, except in CI.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnAttest, type SpawnedRun } from '../helpers/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';

const root = resolve(__dirname, '../..');
const withoutKeytar = join(root, 'test', 'helpers', 'without-keytar.mjs');
const dir = mkdtempSync(join(tmpdir(), 'attest-no-keytar-'));
const APT = 'sudo apt-get install libsecret-1-dev g++ make';

let tenant: ReferenceTenant;
beforeAll(async () => {
  tenant = await startTenant({ port: 0, seed: 5 });
});
afterAll(async () => {
  await tenant?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** This machine's environment, less what would reach a keychain or a secret, with keytar gone. */
function env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: `--import ${withoutKeytar}`, ...extra };
  if (!('ATTEST_CLIENT_SECRET' in extra)) delete base.ATTEST_CLIENT_SECRET;
  if (!('CI' in extra)) delete base.CI;
  return base;
}

function attest(args: string[], stdin = '', extra: NodeJS.ProcessEnv = {}): Promise<SpawnedRun> {
  return spawnAttest(args, { cwd: dir, env: env(extra), stdin });
}

describe('without the keychain module', () => {
  it('the preload takes keytar away as a missing build does', () => {
    const run = spawnSync(process.execPath, ['-e', "require('keytar')"], { cwd: root, env: env(), encoding: 'utf8' });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain("Cannot find module 'keytar'");
  });

  it('the demo runs with the secret in memory, says how to add the module, and its workbook verifies', async () => {
    const out = join(dir, 'demo.xlsx');
    const demo = await attest(['demo', '--data-dir', join(dir, 'demo-data'), '--out', out]);
    expect(demo.code, demo.stderr).toBe(0);
    expect(demo.stderr).toContain('credentials: memory only. The OS keychain module (keytar) is not installed');
    expect(demo.stderr).toContain(APT);
    expect(demo.stderr).toContain('verify: intact');
    const verify = await attest(['verify', out]);
    expect(verify.code, verify.stderr).toBe(0);
  });

  it('connect records the connection, names what is missing and ATTEST_CLIENT_SECRET; a sync runs on that variable', async () => {
    const dataDir = join(dir, 'connect-data');
    const connect = await attest(['connect', '--client-id', tenant.clientId, '--data-dir', dataDir, '--json'], tenant.clientSecret);
    expect(connect.code, connect.stderr).toBe(0);
    expect(connect.stderr).toContain('The OS keychain module (keytar) is not installed');
    expect(connect.stderr).toContain(`${APT}\`, then run \`npm install\` again`);
    expect(connect.stderr).toMatch(/NOT stored.*set ATTEST_CLIENT_SECRET for each run/);
    expect(JSON.parse(connect.stdout)).toMatchObject({ clientId: tenant.clientId, secretStored: false });

    const withoutSecret = await attest(['sync', '--only', 'scopes', '--data-dir', dataDir]);
    expect(withoutSecret.code).toBe(3);
    expect(withoutSecret.stderr).toContain('ATTEST_CLIENT_SECRET');
    const sync = await attest(['sync', '--only', 'scopes', '--data-dir', dataDir, '--json'], '', {
      ATTEST_CLIENT_SECRET: tenant.clientSecret,
    });
    expect(sync.code, sync.stderr).toBe(0);
    expect(JSON.parse(sync.stdout)).toMatchObject({ status: 'completed' });
  });

  it("npm install's check says so in one line naming the command, and passes; in CI it fails", () => {
    const check = (ci: NodeJS.ProcessEnv) =>
      spawnSync(process.execPath, [join(root, 'scripts', 'check-native.mjs')], { cwd: root, env: env(ci), encoding: 'utf8' });
    const local = check({});
    expect(local.status, local.stderr).toBe(0);
    const lines = local.stderr.trim().split('\n');
    expect(lines[0]).toMatch(/^attest: the OS keychain module \(keytar\) was not built/);
    expect(lines[0]).toContain('set ATTEST_CLIENT_SECRET instead');
    expect(lines[0]).toContain(`To add it: ${APT}, then npm install`);
    expect(local.stderr).not.toContain('building keytar');

    const ci = check({ CI: 'true' });
    expect(ci.status).toBe(1);
    expect(ci.stderr).toContain("keytar (Error: Cannot find module 'keytar'; CI needs it");
  });
});
