/** `attest export` and `attest verify` in process: exit codes and messages as the README states them. */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/index';
import type { CliIO } from '../../src/cli/io';
import { prepareConnection, saveConnection } from '../../src/main/connections';
import { seedFixtureStore } from '../e2e/seed-store';

const dir = mkdtempSync(join(tmpdir(), 'attest-report-cli-'));
const dataDir = join(dir, 'data');

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
  saveConnection(dataDir, connection);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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
});
