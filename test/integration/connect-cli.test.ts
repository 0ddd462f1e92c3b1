/**
 * `attest connect`, `attest connections` and `attest disconnect` as a user runs them: the real
 * binary (node bin/attest.mjs), the secret on stdin, the reference tenant on a random loopback
 * port and the REAL OS keychain (run under scripts/with-keyring.sh on a headless machine). Then
 * every file of the data dir, every stdout/stderr and every error text is searched for the secret
 * and the JWK's private `d`: none may hold them.
 *
 * A missing keychain fails this suite (in CI and out of it): it never skips.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keychainAvailable, KEYCHAIN_SERVICE } from '../../src/main/keychain';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';

const keytar = createRequire(import.meta.url)('keytar') as {
  getPassword(service: string, account: string): Promise<string | null>;
  deletePassword(service: string, account: string): Promise<boolean>;
};

const root = resolve(__dirname, '../..');
const bin = join(root, 'bin', 'attest.mjs');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Every text the CLI produced, for the final scan. */
const transcript: string[] = [];

function attest(args: string[], stdin: string, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (!('ATTEST_CLIENT_SECRET' in env)) delete childEnv.ATTEST_CLIENT_SECRET;
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete childEnv[key];
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: root, env: childEnv, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', fail);
    child.on('close', (code) => {
      transcript.push(stdout, stderr);
      done({ code, stdout, stderr });
    });
    child.stdin.end(stdin);
  });
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push(path);
  }
  return out;
}

let tenant: ReferenceTenant;
let dataDir: string;
let jwkD: string;
let secretPayload: string;
const accounts = new Set<string>();
/** Every secret handed to the CLI, with its key's `d`, for the final scan. */
const secretsUsed: string[] = [];

function remember(secret: string): string {
  const payload = secret.split(':v1:')[1]!;
  const d = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { d: string }).d;
  secretsUsed.push(secret, payload, d, payload.slice(10, 60));
  return secret;
}

let keychainUp = false;

/** Fails the calling test (never skips it) when the real keychain is missing. */
function requireKeychain(): void {
  if (!keychainUp) {
    throw new Error(
      'The OS keychain (Secret Service) is not available, and this test needs the real one. ' +
        'Run it as: scripts/with-keyring.sh npx vitest run test/integration/connect-cli.test.ts',
    );
  }
}

beforeAll(async () => {
  keychainUp = await keychainAvailable();
  tenant = await startTenant({ port: 0, seed: 11 });
  dataDir = mkdtempSync(join(tmpdir(), 'attest-connect-'));
  secretPayload = tenant.clientSecret.split(':v1:')[1]!;
  jwkD = (JSON.parse(Buffer.from(secretPayload, 'base64url').toString('utf8')) as { d: string }).d;
  expect(jwkD.length).toBeGreaterThan(20);
  remember(tenant.clientSecret);
});

afterAll(async () => {
  if (keychainUp) for (const account of accounts) await keytar.deletePassword(KEYCHAIN_SERVICE, account).catch(() => undefined);
  await tenant?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('attest connect / connections / disconnect with the real keychain', () => {
  it('has the real OS keychain to work with', () => {
    requireKeychain();
  });

  it('connects with the secret on stdin, stores it in the keychain, lists and disconnects', async () => {
    requireKeychain();
    accounts.add(tenant.clientId);
    const connect = await attest(
      ['connect', '--client-id', tenant.clientId, '--server-url', tenant.url, '--data-dir', dataDir, '--name', 'demo', '--json'],
      `${tenant.clientSecret}\n`,
    );
    expect(connect.stderr).toContain(
      `Token check passed: the token endpoint ${tenant.url}/auth/v1/token accepted the credentials (signed assertion) and issued an access token; ` +
        `no API endpoint under ${tenant.url}/api/v1 was called yet.`,
    );
    expect(connect.code).toBe(0);
    const printed = JSON.parse(connect.stdout) as Record<string, unknown>;
    expect(printed).toMatchObject({
      name: 'demo',
      clientId: tenant.clientId,
      serverUrl: tenant.url,
      auth: 'assertion',
      secretStored: true,
    });
    expect(String(printed.storeFile).startsWith(dataDir)).toBe(true);

    // The secret is in the OS keychain: service attest, account = client id.
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, tenant.clientId)).toBe(tenant.clientSecret);

    const list = await attest(['connections', '--json', '--data-dir', dataDir], '');
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([expect.objectContaining({ name: 'demo', clientId: tenant.clientId, default: true })]);
    const human = await attest(['connections', '--data-dir', dataDir], '');
    expect(human.stdout).toContain('demo');

    // The data dir comes from ATTEST_DATA_DIR as well.
    const viaEnv = await attest(['connections', '--json'], '', { ATTEST_DATA_DIR: dataDir });
    expect(JSON.parse(viaEnv.stdout)).toHaveLength(1);

    const disconnect = await attest(['disconnect', 'demo', '--data-dir', dataDir, '--json'], '');
    expect(disconnect.code).toBe(0);
    expect(JSON.parse(disconnect.stdout)).toMatchObject({ name: 'demo', secretRemoved: true });
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, tenant.clientId)).toBeNull();
    const after = await attest(['connections', '--json', '--data-dir', dataDir], '');
    expect(JSON.parse(after.stdout)).toEqual([]);
  });

  it('connects with the basic secret form too, and keeps the connection for the next run', async () => {
    requireKeychain();
    const second = tenant.issueCredentials();
    remember(second.clientSecret);
    accounts.add(second.clientId);
    const connect = await attest(
      ['connect', '--client-id', second.clientId, '--auth', 'secret', '--data-dir', dataDir],
      second.clientSecret,
    );
    expect(connect.code).toBe(0);
    expect(connect.stdout).toBe('');
    expect(connect.stderr).toMatch(/Connected '127\.0\.0\.1-\d+'/);
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, second.clientId)).toBe(second.clientSecret);
    const list = JSON.parse((await attest(['connections', '--json', '--data-dir', dataDir], '')).stdout) as Array<{
      auth: string;
      clientId: string;
    }>;
    expect(list).toEqual([expect.objectContaining({ clientId: second.clientId, auth: 'secret' })]);
  });

  it('exits 2 for malformed credentials and usage, 3 for refused ones, 4 when the tenant is unreachable', async () => {
    requireKeychain();
    const other = tenant.issueCredentials();
    remember(other.clientSecret);
    const malformed = await attest(
      ['connect', '--client-id', tenant.clientId, '--data-dir', dataDir],
      tenant.clientSecret.replace(':v1:', ':v2:'),
    );
    // Malformed input given to connect is invalid input (2); a well-formed credential the tenant refuses is auth (3).
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/unsupported version/);
    const truncated = await attest(['connect', '--client-id', tenant.clientId, '--data-dir', dataDir], tenant.clientSecret.slice(0, -7));
    expect(truncated.code).toBe(2);
    expect(truncated.stderr).toMatch(/Client secret key/);
    const badId = await attest(['connect', '--client-id', 'x', '--data-dir', dataDir], tenant.clientSecret);
    expect(badId.code).toBe(2);
    expect(badId.stderr).toMatch(/^attest connect: Client ID/);
    expect(badId.stderr).not.toContain(tenant.clientSecret);
    const badIdNoSecret = await attest(['connect', '--client-id', 'x', '--data-dir', dataDir], '');
    expect(badIdNoSecret.code).toBe(2);
    const wrongKey = await attest(['connect', '--client-id', tenant.clientId, '--data-dir', dataDir], other.clientSecret);
    expect(wrongKey.code).toBe(3);
    expect(wrongKey.stderr).toMatch(/refused the credentials.*invalid_client/);
    const unreachable = await attest(
      ['connect', '--client-id', 'quiet-otter-42@127.0.0.1:1/attest', '--data-dir', dataDir],
      tenant.clientSecret,
    );
    expect(unreachable.code).toBe(4);
    const asArgument = await attest(['connect', '--client-id', tenant.clientId, '--data-dir', dataDir, tenant.clientSecret], '');
    expect(asArgument.code).toBe(2);
    const noSecret = await attest(['connect', '--client-id', tenant.clientId, '--data-dir', dataDir], '');
    expect(noSecret.code).toBe(2);
    const unknown = await attest(['disconnect', 'nope', '--data-dir', dataDir], '');
    expect(unknown.code).toBe(2);
    // None of these left a secret in the keychain.
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, tenant.clientId)).toBeNull();
  });

  it('on a machine without a keychain: records the connection, says so, and stores the secret nowhere', async () => {
    requireKeychain();
    const headless = tenant.issueCredentials();
    remember(headless.clientSecret);
    const dir = join(dataDir, 'headless');
    // No session bus: the Secret Service cannot be reached, as on a headless server.
    const noBus = { DBUS_SESSION_BUS_ADDRESS: undefined, DISPLAY: undefined, XDG_RUNTIME_DIR: join(dataDir, 'no-runtime') };
    const connect = await attest(['connect', '--client-id', headless.clientId, '--data-dir', dir, '--json'], headless.clientSecret, noBus);
    expect(connect.code).toBe(0);
    expect(connect.stderr).toMatch(/keychain is not available/);
    expect(connect.stderr).toMatch(/NOT stored.*ATTEST_CLIENT_SECRET/);
    expect(JSON.parse(connect.stdout)).toMatchObject({ clientId: headless.clientId, secretStored: false });
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, headless.clientId)).toBeNull();
    const disconnect = await attest(['disconnect', JSON.parse(connect.stdout).name, '--data-dir', dir], '', noBus);
    expect(disconnect.code).toBe(0);
    expect(disconnect.stderr).toMatch(/no keychain entry was removed/);
  });

  it('leaves neither the secret nor the private key anywhere: data dir, output, errors', () => {
    requireKeychain();
    const files = filesUnder(dataDir);
    expect(files.length).toBeGreaterThan(0);
    const needles = [tenant.clientSecret, secretPayload, jwkD, ...secretsUsed];
    expect(secretsUsed.length).toBe(16);
    for (const file of files) {
      const bytes = readFileSync(file);
      for (const needle of needles) expect(bytes.includes(Buffer.from(needle)), `${file} holds key material`).toBe(false);
    }
    expect(transcript.length).toBeGreaterThanOrEqual(20);
    for (const text of transcript) {
      for (const needle of needles) expect(text.includes(needle), 'CLI output holds key material').toBe(false);
    }
  });
});
