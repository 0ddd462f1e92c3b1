/**
 * `attest connections --name N --send-when-online on|off --sync-every N|off`: the real binary on a
 * real connections file; what it records is what the app's main process reads.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnAttest, type SpawnedRun } from '../helpers/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listConnections, prepareConnection, recordConnection } from '../../src/main/app/saved-connections';

const root = resolve(__dirname, '../..');
let dataDir: string;

function attest(args: string[]): Promise<SpawnedRun> {
  return spawnAttest([...args, '--data-dir', dataDir], { cwd: root });
}

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'attest-auto-run-cli-'));
  recordConnection(dataDir, prepareConnection(dataDir, { clientId: 'a1b2c3@tenant-a.example.com/attest', name: 'prod' }));
  recordConnection(dataDir, prepareConnection(dataDir, { clientId: 'd4e5f6@tenant-b.example.com/attest', name: 'other' }));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('attest connections: what the app runs on its own', () => {
  it('is off by default, set per connection, and listed', async () => {
    const before = JSON.parse((await attest(['connections', '--no-check', '--json'])).stdout) as Array<{ name: string; autoRun: unknown }>;
    expect(before.map((c) => c.autoRun)).toEqual([
      { sendWhenOnline: false, syncEveryMinutes: null },
      { sendWhenOnline: false, syncEveryMinutes: null },
    ]);

    const set = await attest(['connections', '--name', 'prod', '--send-when-online', 'on', '--sync-every', '30', '--json']);
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ name: 'prod', autoRun: { sendWhenOnline: true, syncEveryMinutes: 30 } });
    // One option changed, the other kept.
    const off = await attest(['connections', '--name', 'prod', '--sync-every', 'off']);
    expect(off.code).toBe(0);
    expect(off.stderr).toContain('prod: on its own: send when online');
    expect(listConnections(dataDir).find((c) => c.name === 'prod')?.autoRun).toEqual({ sendWhenOnline: true, syncEveryMinutes: null });
    expect(listConnections(dataDir).find((c) => c.name === 'other')?.autoRun).toBeUndefined();

    const human = await attest(['connections', '--no-check']);
    expect(human.stdout).toMatch(/ON ITS OWN/);
    expect(human.stdout).toMatch(/prod .*send when online/);
  });

  it('refuses a bad interval or switch, naming it, and writes nothing', async () => {
    const file = join(dataDir, 'connections.json');
    const before = readFileSync(file, 'utf8');
    for (const [args, message] of [
      [['--sync-every', '2'], /--sync-every: .*whole number from 5 to 1440.*not '2'/],
      [['--sync-every', 'soon'], /whole number from 5 to 1440.*not 'soon'/],
      [['--sync-every', '1441'], /not '1441'/],
      [['--send-when-online', 'yes'], /--send-when-online takes on or off, not 'yes'/],
      [[], /give --send-when-online on\|off and\/or --sync-every N\|off/],
    ] as const) {
      const run = await attest(['connections', '--name', 'prod', ...args]);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(message);
    }
    const unnamed = await attest(['connections', '--sync-every', '30']);
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toContain('name it with --name NAME');
    const unknown = await attest(['connections', '--name', 'nope', '--sync-every', '30']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("No connection named 'nope'");
    expect(readFileSync(file, 'utf8')).toBe(before);
  });
});
