/** `attest export` and `attest verify` in process: exit codes and messages as the README states them. */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportCommand } from '../../src/cli/commands/export';
import { keyCommand } from '../../src/cli/commands/key';
import { main } from '../../src/cli/index';
import type { CliIO } from '../../src/cli/io';
import { prepareConnection, recordConnection } from '../../src/main/app/saved-connections';
import { keychainAvailable, osKeychain } from '../../src/main/keychain';
import { fingerprintFromKeyText, NOTICE_UNSIGNED, SIGNING_KEY_ACCOUNT } from '../../src/main/reports';
import { osUserName } from '../../src/main/os-user';
import { seedFixtureStore } from '../e2e/seed-store';
import { openpyxlDump } from '../helpers/openpyxl';

const dir = mkdtempSync(join(tmpdir(), 'attest-report-cli-'));
const dataDir = join(dir, 'data');
// A keychain service of this test's own: the signing key of `attest` is never touched.
const SERVICE = `attest-test-cli-${process.pid}`;
const secrets = () => osKeychain(SERVICE);

function io(): CliIO & { stdout: string; stderr: string } {
  const captured = {
    stdout: '',
    stderr: '',
    out(text: string) {
      captured.stdout += `${text}\n`;
    },
    err(text: string) {
      captured.stderr += `${text}\n`;
    },
    readStdin: async () => '',
    env: { ATTEST_DATA_DIR: dataDir } as NodeJS.ProcessEnv,
    isTTY: false,
  };
  return captured;
}

async function attest(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = io();
  const code = await main(args, out);
  return { code, stdout: out.stdout, stderr: out.stderr };
}

beforeAll(() => {
  const connection = prepareConnection(dataDir, { clientId: 'abc123@acme.example.test/attest', name: 'acme' });
  mkdirSync(dirname(connection.storeFile), { recursive: true });
  seedFixtureStore(connection.storeFile, 3);
  recordConnection(dataDir, connection);
});
afterAll(async () => {
  await secrets()
    .delete(SIGNING_KEY_ACCOUNT)
    .catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

describe('attest export / verify exit codes', () => {
  it('export: a filter without a value or with an unknown key is invalid input (exit 2), nothing written', async () => {
    const out = join(dir, 'filtered.xlsx');
    const noValue = await attest('export', 'scopes', '--out', out, '--filter', 'state');
    expect(noValue.code).toBe(2);
    expect(noValue.stderr).toContain("attest export: a filter is key=value, not 'state'");
    const unknown = await attest('export', 'scopes', '--out', out, '--filter', 'zzz=1');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("no collection of this report has a column 'zzz'");
    const notRun = await attest('export', 'scopes', '--out', out, '--as-of', '999');
    expect(notRun.code).toBe(2);
    expect(notRun.stderr).toContain('attest export: no sync run 999');
    expect(existsSync(out)).toBe(false);
  });

  it('export then verify: exit 0; verify of a missing file: exit 2', async () => {
    const out = join(dir, 'scopes.xlsx');
    const exported = await attest('export', 'scopes', '--out', out, '--filter', 'state=XAA_SCOPE_STATE_ENABLED');
    expect(exported.code, exported.stderr).toBe(0);
    const verified = await attest('verify', out);
    expect(verified.code, verified.stderr).toBe(0);
    const missing = await attest('verify', join(dir, 'nowhere.xlsx'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`attest verify: no file ${join(dir, 'nowhere.xlsx')}`);
  });

  it('export access and export tasks: the reports of who holds what and of tasks, verified intact', async () => {
    for (const [kind, sheet, child] of [
      ['access', 'Access', []],
      ['tasks', 'Tasks', ['Task details']],
    ] as const) {
      const out = join(dir, `${kind}.xlsx`);
      const exported = await attest('export', kind, '--out', out);
      expect(exported.code, exported.stderr).toBe(0);
      expect(exported.stderr).toContain(sheet);
      expect(openpyxlDump(out).sheets.map((s) => s.name)).toEqual([
        'Cover',
        'Evidence',
        sheet,
        ...child,
        'Raw API values',
        'Dictionary',
        'Locator',
      ]);
      expect((await attest('verify', out)).code).toBe(0);
    }
    const help = await attest('export', '--help');
    expect(help.stdout + help.stderr).toMatch(/access +Access: who holds what/);
  });

  it('the cover names who prepared it (--prepared-by, else the OS account), the server, the version of package.json, how to verify', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(pkg.version).not.toBe('0.0.0');
    const out = join(dir, 'cover.xlsx');
    const exported = await attest(
      'export',
      'scopes',
      '--out',
      out,
      '--prepared-by',
      'Jane Q. Auditor',
      '--filter',
      'state=XAA_SCOPE_STATE_ENABLED',
      '--sort',
      'displayName:desc',
    );
    expect(exported.code, exported.stderr).toBe(0);
    const py = openpyxlDump(out, true);
    const names = py.sheets
      .find((s) => s.name === 'Scopes')!
      .data!.slice(1)
      .map((r) => String(r[3]));
    expect(names.length).toBeGreaterThan(1);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
    expect(py.sheets[0]!.name).toBe('Cover');
    const cover = Object.fromEntries(py.sheets[0]!.data!.map((r) => [r[1], r[2]]));
    expect(cover['Prepared by']).toBe('Jane Q. Auditor');
    expect(cover['Prepared with']).toBe(`Attest ${pkg.version}`);
    expect(cover['Server URL']).toBe('https://acme.example.test');
    expect(cover.Tenant).toBe('acme.example.test');
    expect(cover.Report).toBe('Cross-app scopes (attest export scopes)');
    expect(cover.Filters).toBe('Cross-app scopes: State (state) = Enabled (XAA_SCOPE_STATE_ENABLED)');
    expect(cover.Sort).toBe('Cross-app scopes: by Name (displayName), descending, then by id');
    expect(String(cover['As of'])).toMatch(/^the latest synced data of each collection, as of \d{4}-/);
    expect(String(cover['How to verify'])).toContain('attest verify FILE.xlsx');
    expect(String(cover.Purpose)).toContain('acme.example.test');
    const verified = await attest('verify', out, '--json');
    expect(verified.code, verified.stderr).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ manifest: { 'Prepared by': 'Jane Q. Auditor', 'App version': pkg.version } });

    // Without --prepared-by: the OS account (its full name where the system has one, with the login name).
    const plain = join(dir, 'cover-os.xlsx');
    expect((await attest('export', 'scopes', '--out', plain)).code).toBe(0);
    const byOs = Object.fromEntries(openpyxlDump(plain, true).sheets[0]!.data!.map((r) => [r[1], r[2]]));
    expect(byOs['Prepared by']).toBe(osUserName());
    expect(String(byOs['Prepared by'])).toContain(userInfo().username);

    const bad = await attest('export', 'scopes', '--out', join(dir, 'bad.xlsx'), '--prepared-by', ' ');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--prepared-by takes a name');
  });

  it('key: created in the keychain on first use, the same afterwards; export --sign, then verify --key', async () => {
    if (!(await keychainAvailable())) throw new Error('needs the OS keychain: run under scripts/with-keyring.sh');
    expect(await secrets().get(SIGNING_KEY_ACCOUNT)).toBeNull();
    const first = io();
    const pem = join(dir, 'key.pem');
    expect(await keyCommand({ secrets }).run(['--json', '--out', pem], first)).toBe(0);
    const key = JSON.parse(first.stdout) as { fingerprint: string; publicKey: string; publicKeyPem: string };
    expect(key.fingerprint).toMatch(/^SHA256:[0-9a-f]{64}$/);
    const stored = (await secrets().get(SIGNING_KEY_ACCOUNT))!;
    expect(stored).toMatch(/^ed25519-pkcs8:/);
    expect(first.stdout + first.stderr).not.toContain(stored.slice('ed25519-pkcs8:'.length));
    expect(fingerprintFromKeyText(readFileSync(pem, 'utf8'))).toBe(key.fingerprint);
    const again = io();
    expect(await keyCommand({ secrets }).run([], again)).toBe(0);
    expect(again.stdout).toBe(`${key.fingerprint}\n${key.publicKeyPem.trimEnd()}\n`);

    const signed = join(dir, 'signed.xlsx');
    const exported = io();
    expect(await exportCommand({ secrets }).run(['scopes', '--out', signed, '--sign'], exported)).toBe(0);
    expect(exported.stderr).toContain(`signed by key ${key.fingerprint}`);
    const byKey = await attest('verify', signed, '--key', key.fingerprint);
    expect(byKey.code, byKey.stderr).toBe(0);
    expect(byKey.stderr).toContain(`Signed by the key you gave (${key.fingerprint})`);
    expect((await attest('verify', signed, '--key', pem)).code).toBe(0);

    const unsigned = join(dir, 'unsigned.xlsx');
    expect((await attest('export', 'scopes', '--out', unsigned)).code).toBe(0);
    const plain = await attest('verify', unsigned, '--json');
    expect(plain.code).toBe(0);
    expect(JSON.parse(plain.stdout)).toMatchObject({ notice: NOTICE_UNSIGNED, signature: { status: 'not-signed' } });
    expect(plain.stderr).toContain(NOTICE_UNSIGNED);
    const keyed = await attest('verify', unsigned, '--key', key.fingerprint);
    expect(keyed.code).toBe(1);
    expect(keyed.stderr).toContain(`Not signed, so not by the key you gave (${key.fingerprint})`);
    const badKey = await attest('verify', unsigned, '--key', 'nonsense');
    expect(badKey.code).toBe(2);
  });
});

describe('a file already at --out', () => {
  it('export refuses it (exit 2, naming the file and --force, nothing written); --force overwrites it', async () => {
    const out = join(dir, 'there-already.xlsx');
    writeFileSync(out, 'not a workbook yet');
    const refused = await attest('export', 'scopes', '--out', out);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(`attest export: ${out} exists already: nothing was written (give --force to overwrite it)\n`);
    expect(readFileSync(out, 'utf8')).toBe('not a workbook yet');
    expect(readdirSync(dir).filter((f) => f.startsWith('there-already') || f.includes('.tmp'))).toEqual(['there-already.xlsx']);
    const json = await attest('export', 'scopes', '--out', out, '--json');
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toEqual({
      error: { code: 'usage', message: `${out} exists already: nothing was written (give --force to overwrite it)` },
    });

    const forced = await attest('export', 'scopes', '--out', out, '--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect((await attest('verify', out)).code).toBe(0);
  });

  it('key --out and demo --out refuse it the same way; --force overwrites it', async () => {
    const pem = join(dir, 'there-already.pem');
    writeFileSync(pem, 'old');
    const refused = io();
    await expect(keyCommand({ secrets }).run(['--out', pem], refused)).rejects.toMatchObject({ name: 'OutputFileExistsError' });
    expect(readFileSync(pem, 'utf8')).toBe('old');
    const forced = io();
    expect(await keyCommand({ secrets }).run(['--out', pem, '--force'], forced)).toBe(0);
    expect(readFileSync(pem, 'utf8')).toContain('BEGIN PUBLIC KEY');

    const workbook = join(dir, 'there-already-demo.xlsx');
    writeFileSync(workbook, 'mine');
    const demo = await attest('demo', '--out', workbook, '--data-dir', join(dir, 'demo-data'));
    expect(demo.code).toBe(2);
    expect(demo.stderr).toContain(`${workbook} exists already: nothing was written (give --force to overwrite it)`);
    expect(readFileSync(workbook, 'utf8')).toBe('mine');
    expect(existsSync(join(dir, 'demo-data'))).toBe(false);
  });
});
