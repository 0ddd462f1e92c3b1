/**
 * Connections, the data dir, the keychain fallback and the connect/connections/disconnect
 * commands in-process, with in-memory or absent keychains and a tiny local token endpoint.
 * (test/integration/connect-cli.test.ts runs the real binary against the reference tenant and
 * the real keychain.)
 */
import { createServer } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectCommand } from '../../src/cli/commands/connect';
import { connectionsCommand } from '../../src/cli/commands/connections';
import { disconnectCommand } from '../../src/cli/commands/disconnect';
import { EXIT, exitCodeFor } from '../../src/cli/exit-codes';
import { UsageError, type CliIO } from '../../src/cli/io';
import { ApiError } from '../../src/main/api/errors';
import { CredentialError } from '../../src/main/api/credentials';
import {
  ConnectionError,
  getConnection,
  listConnections,
  prepareConnection,
  recordConnection,
  recordDemoConnection,
  removeConnection,
} from '../../src/main/app/saved-connections';
import { openApiForConnection } from '../../src/main/app/workspace';
import { defaultDataDir } from '../../src/main/app/data-dir';
import { KeychainError, memorySecretStore, unavailableSecretStore } from '../../src/main/keychain';
import { testCredentials } from '../helpers/api-credentials';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'attest-conn-'));
  return () => rmSync(dataDir, { recursive: true, force: true });
});

describe('defaultDataDir', () => {
  it('prefers ATTEST_DATA_DIR, else the OS app-data folder', () => {
    expect(defaultDataDir({ ATTEST_DATA_DIR: '/tmp/x' }, 'linux', '/home/u')).toBe('/tmp/x');
    expect(defaultDataDir({}, 'linux', '/home/u')).toBe('/home/u/.config/attest');
    expect(defaultDataDir({ XDG_CONFIG_HOME: '/cfg' }, 'linux', '/home/u')).toBe('/cfg/attest');
    expect(defaultDataDir({ XDG_CONFIG_HOME: 'relative' }, 'linux', '/home/u')).toBe('/home/u/.config/attest');
    expect(defaultDataDir({}, 'darwin', '/Users/u')).toBe('/Users/u/Library/Application Support/attest');
    expect(defaultDataDir({ APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'win32', 'C:\\Users\\u')).toBe(
      'C:\\Users\\u\\AppData\\Roaming\\attest',
    );
  });
});

describe('connections', () => {
  it('records, lists, defaults and removes connections without any secret', () => {
    const a = prepareConnection(dataDir, { clientId: 'a@tenant-a.example.com/attest' });
    expect(a.name).toBe('tenant-a.example.com');
    expect(a.storeFile.startsWith(join(dataDir, 'stores'))).toBe(true);
    expect(a.storeFile.endsWith('.sqlite')).toBe(true);
    recordConnection(dataDir, a);
    const b = prepareConnection(dataDir, {
      clientId: 'b@127.0.0.1:8080/attest',
      serverUrl: 'http://127.0.0.1:8080',
      auth: 'secret',
      name: 'lab',
    });
    recordConnection(dataDir, b);
    expect(listConnections(dataDir).map((c) => c.name)).toEqual(['tenant-a.example.com', 'lab']);
    expect(getConnection(dataDir).name).toBe('lab'); // last used
    expect(getConnection(dataDir, 'tenant-a.example.com').clientId).toBe('a@tenant-a.example.com/attest');
    expect(getConnection(dataDir, 'lab')).toMatchObject({
      auth: 'secret',
      serverUrl: 'http://127.0.0.1:8080',
      tenantHost: '127.0.0.1:8080',
    });
    // Reconnecting the same client id keeps its name, date and store file.
    const again = prepareConnection(dataDir, { clientId: 'a@tenant-a.example.com/attest', auth: 'secret' });
    expect(again).toMatchObject({ name: a.name, storeFile: a.storeFile, createdAt: a.createdAt, auth: 'secret' });
    // Store files are kept relative in the file, absolute in the API.
    const raw = readFileSync(join(dataDir, 'connections.json'), 'utf8');
    expect(raw).not.toContain(dataDir);
    expect(removeConnection(dataDir, 'lab')?.name).toBe('lab');
    expect(removeConnection(dataDir, 'lab')).toBeUndefined();
    expect(getConnection(dataDir).name).toBe('tenant-a.example.com'); // the only one
  });

  it('keeps one demo connection and its store across runs of the demo tenant, and never takes over a real tenant named demo', () => {
    const first = recordDemoConnection(dataDir, { clientId: 'a1@127.0.0.1:4001/attest', url: 'http://127.0.0.1:4001' });
    expect(first).toMatchObject({ name: 'demo', storeFile: join(dataDir, 'stores', 'demo.sqlite'), serverUrl: 'http://127.0.0.1:4001' });
    recordConnection(dataDir, prepareConnection(dataDir, { clientId: 'x@t.example.com/attest' }));
    const second = recordDemoConnection(dataDir, { clientId: 'b2@127.0.0.1:4002/attest', url: 'http://127.0.0.1:4002' });
    expect(second).toMatchObject({ name: 'demo', clientId: 'b2@127.0.0.1:4002/attest', storeFile: first.storeFile });
    expect(getConnection(dataDir).name).toBe('demo'); // the last used
    expect(listConnections(dataDir).map((c) => c.name)).toEqual(['demo', 't.example.com']);

    removeConnection(dataDir, 'demo');
    recordConnection(dataDir, prepareConnection(dataDir, { clientId: 'r@real.example.com/attest', name: 'demo' }));
    expect(() => recordDemoConnection(dataDir, { clientId: 'c3@127.0.0.1:4003/attest', url: 'http://127.0.0.1:4003' })).toThrow(
      expect.objectContaining({ code: 'exists', message: expect.stringContaining('is for real.example.com, not the demo tenant') }),
    );
    expect(getConnection(dataDir, 'demo').clientId).toBe('r@real.example.com/attest');
  });

  it('names a second connection to the same host apart, and refuses clashes', () => {
    recordConnection(dataDir, prepareConnection(dataDir, { clientId: 'a@t.example.com/attest' }));
    const second = prepareConnection(dataDir, { clientId: 'b@t.example.com/attest' });
    expect(second.name).toBe('t.example.com-2');
    recordConnection(dataDir, second);
    expect(() => getConnection(dataDir, 'nope')).toThrow(expect.objectContaining({ code: 'not_found' }));
    expect(() => prepareConnection(dataDir, { clientId: 'a@t.example.com/attest', name: 'other' })).toThrow(
      expect.objectContaining({ code: 'exists' }),
    );
    expect(() => prepareConnection(dataDir, { clientId: 'c@t.example.com/attest', name: 't.example.com' })).toThrow(
      expect.objectContaining({ code: 'exists' }),
    );
    expect(() => prepareConnection(dataDir, { clientId: 'c@t.example.com/attest', name: '../evil' })).toThrow(
      expect.objectContaining({ code: 'invalid_name' }),
    );
    expect(() => prepareConnection(dataDir, { clientId: 'no-at-sign' })).toThrow(CredentialError);
  });

  it('says clearly when there is none, several, or a broken file', () => {
    expect(() => getConnection(dataDir)).toThrow(expect.objectContaining({ code: 'none' }));
    writeFileSync(
      join(dataDir, 'connections.json'),
      '{"version":1,"connections":[{"name":"a","clientId":"a@x.example.com/u","auth":"assertion","tenantHost":"x.example.com","createdAt":"2026-01-01T00:00:00Z","storeFile":"stores/a.sqlite"},{"name":"b","clientId":"b@x.example.com/u","auth":"assertion","tenantHost":"x.example.com","createdAt":"2026-01-01T00:00:00Z","storeFile":"stores/b.sqlite"}]}',
    );
    expect(() => getConnection(dataDir)).toThrow(expect.objectContaining({ code: 'ambiguous' }));
    expect(getConnection(dataDir, 'b').storeFile).toBe(join(dataDir, 'stores', 'b.sqlite'));
    writeFileSync(join(dataDir, 'connections.json'), '{not json');
    expect(() => listConnections(dataDir)).toThrow(expect.objectContaining({ code: 'corrupt' }));
  });
});

describe('openApiForConnection', () => {
  const creds = testCredentials();
  beforeEach(() => recordConnection(dataDir, prepareConnection(dataDir, { clientId: creds.clientId })));

  it('takes the secret from the keychain', async () => {
    const notices: string[] = [];
    const { api, connection } = await openApiForConnection(dataDir, undefined, {
      secrets: memorySecretStore({ [creds.clientId]: creds.clientSecret }),
      env: {},
      onNotice: (m) => notices.push(m),
    });
    expect(connection.clientId).toBe(creds.clientId);
    expect(api.apiRoot).toBe('https://tenant.example.com/api/v1');
    expect(notices).toEqual([]);
  });

  it('falls back to ATTEST_CLIENT_SECRET for this run when the keychain is not available, and says so', async () => {
    const notices: string[] = [];
    const { api } = await openApiForConnection(dataDir, undefined, {
      secrets: unavailableSecretStore(),
      env: { ATTEST_CLIENT_SECRET: creds.clientSecret },
      onNotice: (m) => notices.push(m),
    });
    expect(api.clientId).toBe(creds.clientId);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/keychain is not available.*ATTEST_CLIENT_SECRET.*this run only/);
    expect(notices[0]).not.toContain(creds.jwk.d);
    expect(readdirSync(dataDir).join()).not.toContain('secret');
  });

  it('fails with an auth-class error when no secret can be found', async () => {
    await expect(openApiForConnection(dataDir, undefined, { secrets: unavailableSecretStore(), env: {} })).rejects.toMatchObject({
      code: 'keychain_unavailable',
    });
    await expect(openApiForConnection(dataDir, undefined, { secrets: memorySecretStore(), env: {} })).rejects.toMatchObject({
      code: 'no_secret',
    });
  });
});

describe('exitCodeFor', () => {
  it('maps typed errors to the documented exit codes', () => {
    expect(exitCodeFor(new UsageError('x'))).toBe(EXIT.usage);
    expect(exitCodeFor(new CredentialError('secret_prefix', 'x'))).toBe(EXIT.auth);
    expect(exitCodeFor(new ApiError('auth', 'x'))).toBe(EXIT.auth);
    expect(exitCodeFor(new KeychainError('x'))).toBe(EXIT.auth);
    expect(exitCodeFor(new ConnectionError('no_secret', 'x'))).toBe(EXIT.auth);
    expect(exitCodeFor(new ConnectionError('not_found', 'x'))).toBe(EXIT.usage);
    for (const kind of ['network', 'timeout', 'uncertain'] as const) expect(exitCodeFor(new ApiError(kind, 'x'))).toBe(EXIT.network);
    for (const kind of ['server', 'bad_response', 'not_found', 'conflict'] as const)
      expect(exitCodeFor(new ApiError(kind, 'x'))).toBe(EXIT.other);
    expect(exitCodeFor(new Error('x'))).toBe(EXIT.other);
    expect(exitCodeFor('x')).toBe(EXIT.other);
  });
});

describe('connect / connections / disconnect (in-process)', () => {
  const creds = testCredentials('127.0.0.1', '127.0.0.1');
  let server: ReturnType<typeof createServer>;
  let port = 0;
  let refuse = false;
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(refuse ? 401 : 200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            refuse
              ? { error: 'invalid_client', error_description: 'unknown client' }
              : { access_token: 't', token_type: 'Bearer', expires_in: 3600 },
          ),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  function io(stdin: string, env: NodeJS.ProcessEnv = {}) {
    const out: string[] = [];
    const err: string[] = [];
    const cli: CliIO = { out: (t) => void out.push(t), err: (t) => void err.push(t), readStdin: async () => stdin, env, isTTY: false };
    return { cli, out, err };
  }

  async function run(command: { run(argv: string[], io: CliIO): Promise<number> }, argv: string[], cli: CliIO): Promise<number> {
    try {
      return await command.run(argv, cli);
    } catch (error) {
      cli.err(String((error as Error).message));
      return exitCodeFor(error);
    }
  }

  it('connects, stores the secret, lists and disconnects', async () => {
    const keychain = memorySecretStore();
    const clientId = `quiet-otter-42@127.0.0.1:${port}/attest`;
    const a = io(`${creds.clientSecret}\n`);
    expect(await run(connectCommand({ secrets: () => keychain }), ['--client-id', clientId, '--data-dir', dataDir, '--json'], a.cli)).toBe(
      EXIT.ok,
    );
    const printed = JSON.parse(a.out.join(''));
    expect(printed).toMatchObject({ name: `127.0.0.1-${port}`, clientId, secretStored: true, auth: 'assertion' });
    expect(await keychain.get(clientId)).toBe(creds.clientSecret);

    const list = io('');
    const connections = connectionsCommand({ secrets: () => keychain });
    expect(await run(connections, ['--data-dir', dataDir, '--json'], list.cli)).toBe(EXIT.ok);
    expect(JSON.parse(list.out.join(''))).toEqual([
      expect.objectContaining({ name: printed.name, clientId, default: true, state: 'online', stateReason: null }),
    ]);
    const human = io('');
    await run(connections, ['--data-dir', dataDir], human.cli);
    expect(human.out.join('\n')).toMatch(new RegExp(`${printed.name.replace(/\./g, '\\.')}\\s+online`));
    const unchecked = io('');
    await run(connections, ['--data-dir', dataDir, '--no-check', '--json'], unchecked.cli);
    expect(JSON.parse(unchecked.out.join(''))).toEqual([expect.objectContaining({ name: printed.name, state: null })]);

    mkdirSync(join(dataDir, 'stores'), { recursive: true });
    writeFileSync(printed.storeFile, 'db');
    const d = io('');
    expect(
      await run(disconnectCommand({ secrets: () => keychain }), [printed.name, '--data-dir', dataDir, '--delete-data', '--json'], d.cli),
    ).toBe(EXIT.ok);
    expect(JSON.parse(d.out.join(''))).toMatchObject({ secretRemoved: true, dataDeleted: true });
    expect(await keychain.get(clientId)).toBeNull();
    expect(existsSync(printed.storeFile)).toBe(false);
    expect(listConnections(dataDir)).toEqual([]);

    for (const text of [
      ...a.out,
      ...a.err,
      ...list.out,
      ...human.out,
      ...d.out,
      ...d.err,
      readFileSync(join(dataDir, 'connections.json'), 'utf8'),
    ]) {
      expect(text).not.toContain(creds.jwk.d);
      expect(text).not.toContain(creds.clientSecret.split(':v1:')[1]);
    }
  });

  it('records the connection but stores nothing where no keychain exists', async () => {
    const clientId = `quiet-otter-42@127.0.0.1:${port}/attest`;
    const c = io(creds.clientSecret);
    expect(
      await run(connectCommand({ secrets: () => unavailableSecretStore() }), ['--client-id', clientId, '--data-dir', dataDir], c.cli),
    ).toBe(EXIT.ok);
    expect(c.err.join('\n')).toMatch(/keychain is not available[\s\S]*NOT stored[\s\S]*ATTEST_CLIENT_SECRET/);
    expect(getConnection(dataDir).clientId).toBe(clientId);
    // Its state: no secret, unless one is given for this run, which is then checked (and said so).
    const connections = connectionsCommand({ secrets: () => unavailableSecretStore() });
    const without = io('');
    expect(await run(connections, ['--data-dir', dataDir, '--json'], without.cli)).toBe(EXIT.ok);
    expect(JSON.parse(without.out.join(''))).toEqual([expect.objectContaining({ clientId, state: 'no-secret' })]);
    const given = io('', { ATTEST_CLIENT_SECRET: creds.clientSecret });
    expect(await run(connections, ['--data-dir', dataDir, '--json'], given.cli)).toBe(EXIT.ok);
    expect(JSON.parse(given.out.join(''))).toEqual([
      expect.objectContaining({ clientId, state: 'online', stateReason: expect.stringMatching(/^checked with ATTEST_CLIENT_SECRET \(/) }),
    ]);
    expect(given.out.join('')).not.toContain(creds.clientSecret);
    const files = readdirSync(dataDir, { recursive: true }).map(String);
    for (const file of files) {
      const path = join(dataDir, file);
      if (existsSync(path) && !file.endsWith('stores')) {
        try {
          expect(readFileSync(path, 'utf8')).not.toContain(creds.jwk.d);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EISDIR') throw error;
        }
      }
    }
  });

  it('exits 2 on usage errors and malformed credentials, 3 on refused ones, 4 when the tenant is unreachable', async () => {
    const keychain = memorySecretStore();
    const cmd = connectCommand({ secrets: () => keychain });
    const clientId = `quiet-otter-42@127.0.0.1:${port}/attest`;
    expect(await run(cmd, ['--data-dir', dataDir], io(creds.clientSecret).cli)).toBe(EXIT.usage);
    expect(await run(cmd, ['--client-id', clientId, '--data-dir', dataDir], io('').cli)).toBe(EXIT.usage);
    expect(await run(cmd, ['--client-id', clientId, '--data-dir', dataDir, '--auth', 'basic'], io(creds.clientSecret).cli)).toBe(
      EXIT.usage,
    );
    const asArgument = io(creds.clientSecret);
    expect(await run(cmd, ['--client-id', clientId, '--data-dir', dataDir, creds.clientSecret], asArgument.cli)).toBe(EXIT.usage);
    expect(await run(cmd, ['--client-id', clientId, `--secret=${creds.clientSecret}`], asArgument.cli)).toBe(EXIT.usage);
    expect(asArgument.err.join('\n')).toMatch(/never taken as an argument/);
    expect(asArgument.err.join('\n')).not.toContain(creds.jwk.d);
    expect(asArgument.err.join('\n')).not.toContain(creds.clientSecret);
    const bad = io('secret-token:127.0.0.1:v2:abc');
    // Malformed credentials given to connect are bad input (2); only the tenant's refusal is an auth failure (3).
    expect(await run(cmd, ['--client-id', clientId, '--data-dir', dataDir], bad.cli)).toBe(EXIT.usage);
    expect(bad.err.join('\n')).toMatch(/unsupported version/);
    expect(await run(cmd, ['--client-id', 'no-at-sign', '--data-dir', dataDir], io(creds.clientSecret).cli)).toBe(EXIT.usage);
    refuse = true;
    try {
      const refused = io(creds.clientSecret);
      expect(await run(cmd, ['--client-id', clientId, '--data-dir', dataDir], refused.cli)).toBe(EXIT.auth);
      expect(refused.err.join('\n')).toMatch(/invalid_client/);
    } finally {
      refuse = false;
    }
    const unreachable = io(creds.clientSecret);
    expect(await run(cmd, ['--client-id', 'quiet-otter-42@127.0.0.1:1/attest', '--data-dir', dataDir], unreachable.cli)).toBe(EXIT.network);
    expect(listConnections(dataDir)).toEqual([]);
    expect(await keychain.get(clientId)).toBeNull();
    // The secret can come from the environment when stdin is empty.
    const fromEnv = io('', { ATTEST_CLIENT_SECRET: creds.clientSecret });
    expect(await run(cmd, ['--client-id', clientId, '--data-dir', dataDir], fromEnv.cli)).toBe(EXIT.ok);
    expect(fromEnv.err.join('\n')).toMatch(/from ATTEST_CLIENT_SECRET/);
    expect(await run(disconnectCommand({ secrets: () => keychain }), ['nope', '--data-dir', dataDir], io('').cli)).toBe(EXIT.usage);
    expect(await run(disconnectCommand({ secrets: () => keychain }), ['--data-dir', dataDir], io('').cli)).toBe(EXIT.usage);
  });
});
