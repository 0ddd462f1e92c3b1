import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openpyxlDump, openpyxlSetCell } from '../helpers/openpyxl';
import { RAW, rawEnumCells } from '../helpers/report-cells';

/** `attest demo` end to end through the real CLI, then `attest verify` on its workbook. */
const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = join(root, 'bin', 'attest.mjs');
const dir = mkdtempSync(join(tmpdir(), 'attest-demo-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function attest(args: string[], cwd = dir) {
  const run = spawnSync(process.execPath, [cli, ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, ATTEST_DATA_DIR: join(dir, 'data') },
  });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

describe('attest demo', () => {
  const file = join(dir, 'attest-demo-evidence.xlsx');

  it('syncs the demo tenant and writes ./attest-demo-evidence.xlsx by default; verify passes', () => {
    const demo = attest(['demo']);
    expect(demo.err).toMatch(/credentials: (the OS keychain|memory only)/);
    expect(demo.code, demo.err).toBe(0);
    expect(existsSync(file)).toBe(true);
    expect(demo.err).toContain('verify: intact');
    const py = openpyxlDump(file);
    expect(py.sheets.map((s) => s.name)).toEqual([
      'Cover',
      'Evidence',
      'Campaigns',
      'Campaign settings',
      'Templates',
      'Template settings',
      'Automations',
      'Automation steps',
      'Step settings',
      'MCP toolsets',
      'Routing rules',
      'Scopes',
      'Access',
      'Tasks',
      'Task details',
      'Certification summary',
      'Certification',
      'Users',
      'Policies',
      'Outbox journal',
      'Review decisions',
      'Review totals',
      'Diff',
      RAW,
      'Dictionary',
      'Locator',
    ]);
    expect(py.sheets.find((s) => s.name === 'Scopes')!.rows).toBeGreaterThan(0);
    // Readable: no cell of a data sheet holds a known enum value's raw name (its label is there instead).
    expect(rawEnumCells(openpyxlDump(file, true))).toEqual([]);
    const verify = attest(['verify', file]);
    expect(verify.code, verify.err).toBe(0);
    expect(verify.err).toMatch(/^intact/);
  });

  it("prints where the workbook went and how to open the app on its data: the data folder's 'demo' connection, kept from run to run", () => {
    const data = join(dir, 'data');
    const lines = attest(['demo']).err.trim().split('\n');
    expect(lines).toContain(`workbook: ${file} (verify: intact; \`npx attest verify ${file}\` checks it again)`);
    expect(lines).toContain(`  in a browser:  npm run build && npx attest ui-host --data-dir ${data}   (then open the URL it prints)`);
    expect(lines).toContain(`  desktop app:   ATTEST_DATA_DIR=${data} npm start`);
    // Two demos so far in this folder: the same store holds both runs, and the app opens on it (demo is the last used).
    const runs = attest(['runs', '--json']);
    expect(runs.code, runs.err).toBe(0);
    const stored = JSON.parse(runs.out) as { runs: { status: string }[] };
    expect(stored.runs.map((r) => r.status)).toEqual(['completed', 'completed']);
    const connections = JSON.parse(attest(['connections', '--json']).out) as unknown;
    expect(JSON.stringify(connections)).toContain('"demo"');
  });

  it('verify exits 1 naming the cell changed with openpyxl, with its old value from the store that exported it', () => {
    const edited = join(dir, 'edited.xlsx');
    expect(attest(['demo', '--out', edited]).code).toBe(0);
    const old = openpyxlDump(edited, true).sheets.find((s) => s.name === 'Scopes')!.data![1]![3];
    openpyxlSetCell(edited, 'Scopes', 'C2', 'edited by hand');
    const verify = attest(['verify', edited, '--json']);
    expect(verify.code).toBe(1);
    expect(verify.err).toContain(`'Scopes'!C2: ${JSON.stringify(old)} → "edited by hand"`);
    expect(verify.err).not.toContain("'Campaigns'");
    const json = JSON.parse(verify.out) as { status: string; sheets: { name: string; status: string }[] };
    expect(json.status).toBe('altered');
    expect(json.sheets.filter((s) => s.status !== 'intact').map((s) => s.name)).toEqual(['Scopes']);
  });

  it('verify exits 2 for a file that is not an Attest workbook', () => {
    const junk = join(dir, 'junk.xlsx');
    writeFileSync(junk, 'PK not really');
    const verify = attest(['verify', junk]);
    expect(verify.code).toBe(2);
    expect(verify.err).toContain('not an Attest workbook');
  });
});
