/**
 * What the CLI writes when the tenant's text is hostile (the reference tenant on loopback, a real
 * data folder and store): no bidi control, C0 or C1 control or escape sequence of the tenant's
 * reaches stderr or stdout, on the live progress lines, in errors, tables and JSON; and with
 * `--json`, every failure is also a JSON object on stdout, `{"error":{"code","message"}}`.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/index';
import { prepareConnection, recordConnection } from '../../src/main/app/saved-connections';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { captureIO } from '../helpers/cli';
import { tempDir } from './sync.helpers';

/** An id that would reverse the rest of its line, clear the screen and write to the clipboard. */
const HOSTILE = 'evil\u202egnp.exe\u001b[2J\u001b]52;c;ZXZpbA==\u0007\u0085\u2066x';
/** Every raw control a terminal would act on: C0 but line breaks, DEL, C1, bidi controls, separators. */
// eslint-disable-next-line no-control-regex
const RAW_CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;
/** The cursor moves of our own live lines (up N lines, erase the line). */
// eslint-disable-next-line no-control-regex
const OUR_REDRAW = /\u001b\[(\d+A|2K)/g;

let tenant: ReferenceTenant;
let tmp: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  tenant = await startTenant({ port: 0, seed: 37, scale: 1 });
  tmp = tempDir('attest-hostile-output-');
  const dataDir = join(tmp.dir, 'data');
  recordConnection(dataDir, prepareConnection(dataDir, { clientId: tenant.clientId, serverUrl: tenant.url, name: 'hostile' }));
  env = { ...process.env, ATTEST_CLIENT_SECRET: tenant.clientSecret, ATTEST_DATA_DIR: dataDir };
  // The scopes are one, whose id is hostile: the repeatRow fault lists it twice, which the sync names as an error.
  const [first] = [...tenant.data.scopes.values()];
  for (const id of [...tenant.data.scopes.keys()]) tenant.data.scopes.delete(id);
  tenant.data.scopes.set(HOSTILE, { ...first!, id: HOSTILE });
});
afterEach(() => tenant.faults.clear());
afterAll(async () => {
  await tenant?.close();
  tmp?.remove();
});

async function attest(args: string[], terminal = false): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = captureIO('', env, terminal);
  const code = await main(args, io);
  return { code, stdout: io.stdout, stderr: io.stderr };
}

/** The one JSON error `--json` prints on stdout for a failure, parsed. */
function jsonError(stdout: string): { code: string; message: string } {
  expect(stdout.trimEnd().split('\n')).toHaveLength(1);
  const parsed = JSON.parse(stdout) as { error: { code: string; message: string } };
  expect(Object.keys(parsed)).toEqual(['error']);
  return parsed.error;
}

describe('the tenant’s text on a terminal', () => {
  it('a sync error carrying U+202E and escape sequences is escaped on the live progress line, in the table and in the run’s end', async () => {
    tenant.faults.set('repeatRow=1');
    const run = await attest(['sync', '--connection', 'hostile', '--only', 'scopes'], true);
    expect(run.code).toBe(1);
    // The live lines were drawn (with our own cursor moves), and the failed walk's line names the id, escaped.
    expect(run.stderr).toMatch(OUR_REDRAW);
    const stderr = run.stderr.replace(OUR_REDRAW, '');
    expect(stderr).toContain('✖ scopes         failed');
    expect(stderr).toContain("the id 'evil\\u202egnp.exe\\x1b[2J\\x1b]52;c;ZXZpbA==\\x07\\x85\\u2066x' is listed twice");
    expect(stderr).not.toMatch(RAW_CONTROLS);
    expect(run.stdout).toContain('evil\\u202egnp.exe\\x1b[2J');
    expect(run.stdout).not.toMatch(RAW_CONTROLS);
  });

  it('with --json, the failed sync’s summary on stdout carries the error too, its JSON the same text and its bytes without a raw control', async () => {
    tenant.faults.set('repeatRow=1');
    const run = await attest(['sync', '--connection', 'hostile', '--only', 'scopes', '--json'], true);
    expect(run.code).toBe(1);
    expect(run.stdout).not.toMatch(RAW_CONTROLS);
    expect(run.stderr).not.toMatch(RAW_CONTROLS);
    const summary = JSON.parse(run.stdout) as { status: string; error: { code: string; message: string } };
    expect(summary.status).toBe('failed');
    expect(summary.error).toEqual({ code: 'other', message: `scopes: scopes page: the id '${HOSTILE}' is listed twice` });
    expect(run.stdout).toContain('\\u202e');
    expect(run.stderr).toContain("scopes: scopes page: the id 'evil\\u202egnp.exe\\x1b[2J");
  });

  it('an error naming a hostile connection name is escaped on stderr, and is a JSON error on stdout with --json', async () => {
    const plain = await attest(['sync', '--connection', HOSTILE]);
    expect(plain.code).toBe(2);
    expect(plain.stdout).toBe('');
    expect(plain.stderr).toMatch(/^attest sync: No connection named 'evil\\u202egnp\.exe\\x1b\[2J.*' \(known: hostile\)\n$/);
    const json = await attest(['sync', '--connection', HOSTILE, '--json']);
    expect(json.code).toBe(2);
    expect(json.stderr).toBe(plain.stderr);
    expect(json.stdout).not.toMatch(RAW_CONTROLS);
    expect(jsonError(json.stdout)).toEqual({ code: 'usage', message: `No connection named '${HOSTILE}' (known: hostile)` });
  });

  it('with the sync complete, tables and JSON show the hostile id escaped, JSON as the same value', async () => {
    expect((await attest(['sync', '--connection', 'hostile', '--only', 'scopes'])).code).toBe(0);
    const table = await attest(['list', 'scopes', '--connection', 'hostile', '--columns', 'id'], true);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('evil\\u202egnp.exe\\x1b[2J');
    expect(table.stdout).not.toMatch(RAW_CONTROLS);
    const json = await attest(['list', 'scopes', '--connection', 'hostile', '-o', 'json']);
    expect(json.code).toBe(0);
    expect(json.stdout).not.toMatch(RAW_CONTROLS);
    expect((JSON.parse(json.stdout) as { rows: { id: string }[] }).rows.map((s) => s.id)).toEqual([HOSTILE]);
  });
});

describe('--json errors, for every command', () => {
  it('a usage error: the JSON error on stdout, the message and usage on stderr, exit 2 as before', async () => {
    for (const args of [
      ['list', 'scopes', '--json', '--bogus'],
      ['list', 'scopes', '-o', 'json', '--limit', 'many'],
      ['runs', '--output=json', '--nope'],
      ['export', 'evidence', '--json'],
    ]) {
      const run = await attest(args);
      expect({ args, code: run.code }).toEqual({ args, code: 2 });
      const error = jsonError(run.stdout);
      expect(error.code).toBe('usage');
      expect(run.stderr).toContain(`attest ${args[0]}: ${error.message}`);
      expect(run.stderr).toContain('Usage: attest');
    }
  });

  it('an unknown command', async () => {
    const run = await attest(['bogus', '--json']);
    expect(run.code).toBe(2);
    expect(jsonError(run.stdout)).toEqual({ code: 'usage', message: "unknown command 'bogus'. Run 'attest --help' for the list." });
  });

  it('a bad file: a folder given as the CSV to import', async () => {
    const folder = join(tmp.dir, 'a-folder.csv');
    mkdirSync(folder);
    const run = await attest(['queue', 'import', folder, '--kind', 'remove-membership', '--connection', 'hostile', '--json']);
    expect(run.code).toBe(2);
    const error = jsonError(run.stdout);
    expect(error.code).toBe('usage');
    expect(error.message).toContain('a-folder.csv');
    expect(run.stderr).toContain(error.message);
  });

  it('a network failure: exit 4 and code "network"', async () => {
    const dataDir = join(tmp.dir, 'offline');
    recordConnection(
      dataDir,
      prepareConnection(dataDir, { clientId: 'abc123@127.0.0.1:9/attest', serverUrl: 'http://127.0.0.1:9', name: 'gone' }),
    );
    const io = captureIO('', { ...env, ATTEST_DATA_DIR: dataDir });
    const code = await main(['sync', '--connection', 'gone', '--only', 'scopes', '--json'], io);
    expect(code).toBe(4);
    const summary = JSON.parse(io.stdout) as { status: string; error: { code: string; message: string } };
    expect(summary.status).toBe('failed');
    expect(summary.error.code).toBe('network');
    expect(summary.error.message).toMatch(/^scopes: /);
  });

  it('without a failure, stdout is the command’s result alone', async () => {
    const run = await attest(['runs', '--connection', 'hostile', '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).not.toHaveProperty('error');
  });
});
