/**
 * `attest verify` tells an auditor what changed, not only that something did: a workbook of the
 * demo tenant (synced from the reference tenant on loopback, exported from a real store), re-saved
 * by openpyxl with no cell changed, is "data intact" naming the program; edited, each changed cell
 * is named with its old value (from the store that exported it, exported again) and its new one,
 * and rows added or removed are named. Without that store (a recipient's machine) the workbook's own
 * Locator sheet names the changed rows, and the changed cell where one row changed, with its value now.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerifyResult } from '../../src/main/reports';
import { runAttest } from '../helpers/cli';
import { openpyxlDump, SYSTEM_PYTHON } from '../helpers/openpyxl';

const dir = mkdtempSync(join(tmpdir(), 'attest-verify-locate-'));
const dataDir = join(dir, 'data');
const exported = join(dir, 'evidence.xlsx');
const env = { ATTEST_DATA_DIR: dataDir };

/** Runs a few lines of openpyxl on a copy of the export, saved as `name`. */
function withOpenpyxl(name: string, code: string): string {
  const file = join(dir, name);
  const script = `import sys, openpyxl\nwb = openpyxl.load_workbook(sys.argv[1])\n${code}\nwb.save(sys.argv[2])`;
  execFileSync(SYSTEM_PYTHON, ['-c', script, exported, file]);
  return file;
}

async function verify(file: string, ...args: string[]): Promise<{ code: number; stderr: string; json: VerifyResult }> {
  const run = await runAttest(['verify', file, '--json', ...args], '', env);
  return { code: run.code, stderr: run.stderr, json: JSON.parse(run.stdout) as VerifyResult };
}

/** The value openpyxl reads in a cell of the export. */
const cellOf = (sheet: string, row: number, col: number): unknown =>
  openpyxlDump(exported, true)
    .sheets.find((s) => s.name === sheet)!
    .data!.find((r) => r[0] === row)![col];

beforeAll(async () => {
  const demo = await runAttest(['demo', '--out', exported], '', env);
  expect(demo.code, demo.stderr).toBe(0);
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('verify locates what changed', () => {
  it('a workbook opened and saved by openpyxl, no cell changed: data intact, naming the program', async () => {
    const file = withOpenpyxl('resaved.xlsx', '');
    const result = await verify(file);
    expect(result.code, result.stderr).toBe(0);
    expect(result.json).toMatchObject({ status: 'intact', ok: true, problems: [], changes: [] });
    expect(result.json.resaved).toMatchObject({ application: 'Microsoft Excel' });
    expect(result.stderr).toMatch(/^data intact: /m);
    expect(result.stderr).toContain('re-saved by another program after export');
  });

  it('one cell edited by openpyxl: named with its old and its new value', async () => {
    const old = cellOf('Scopes', 5, 5);
    expect(typeof old).toBe('string');
    const file = withOpenpyxl('one-cell.xlsx', "wb['Scopes']['E5'] = 'Forged'");
    const result = await verify(file);
    expect(result.code).toBe(1);
    expect(result.json.status).toBe('altered');
    expect(result.json.changes).toEqual([
      { sheet: 'Scopes', where: 'E5', kind: 'changed', old: JSON.stringify(old), new: JSON.stringify('Forged') },
    ]);
    expect(result.stderr).toContain(`'Scopes'!E5: ${JSON.stringify(old)} → "Forged"`);
    expect(result.stderr).toContain('cells located against the store of the connection demo, with their values as exported');
  });

  it('a row removed and a cell emptied: the row named with what it held, the cell with its old value', async () => {
    const removed = cellOf('Scopes', 7, 1);
    const emptied = cellOf('Scopes', 3, 2);
    const file = withOpenpyxl('rows.xlsx', "ws = wb['Scopes']\nws['B3'] = None\nws.delete_rows(7)");
    const result = await verify(file);
    expect(result.code).toBe(1);
    expect(result.json.changes).toEqual([
      { sheet: 'Scopes', where: 'B3', kind: 'changed', old: JSON.stringify(emptied), new: null },
      { sheet: 'Scopes', where: 'row 7', kind: 'removed', old: expect.stringContaining(JSON.stringify(removed)), new: null },
    ]);
    expect(result.stderr).toContain(`'Scopes'!B3: ${JSON.stringify(emptied)} → (empty)`);
  });

  it('a row added at the end: named with what it holds', async () => {
    const file = withOpenpyxl('added.xlsx', "ws = wb['Scopes']\nws.append(['added-id', 'scope:forged'])");
    const rows = openpyxlDump(exported).sheets.find((s) => s.name === 'Scopes')!.rows;
    const result = await verify(file);
    expect(result.json.changes).toEqual([
      { sheet: 'Scopes', where: `row ${rows + 2}`, kind: 'added', old: null, new: '"added-id","scope:forged"' },
    ]);
  });

  it("without the store that exported it: the workbook's Locator sheet names the changed cell, with its value now", async () => {
    const file = join(dir, 'elsewhere.xlsx');
    copyFileSync(join(dir, 'one-cell.xlsx'), file);
    const result = await verify(file, '--data-dir', join(dir, 'no-such-data'));
    expect(result.code).toBe(1);
    expect(result.json.changes).toEqual([{ sheet: 'Scopes', where: 'E5', kind: 'changed', new: JSON.stringify('Forged') }]);
    expect(result.json.located).toContain("located by the workbook's Locator sheet");
    expect(result.json.located).toContain('the store that exported it (the connection demo) is not at hand here');
    expect(result.stderr).toContain(`'Scopes'!E5: changed, now "Forged"`);
  });

  it('without the store, a row removed and two cells in two rows emptied: the rows named, the removal placed', async () => {
    const file = withOpenpyxl('rows-elsewhere.xlsx', "ws = wb['Scopes']\nws['B3'] = None\nws['C5'] = None\nws.delete_rows(7)");
    const result = await verify(file, '--data-dir', join(dir, 'no-such-data'));
    expect(result.json.changes.map(({ where, kind }) => `${kind} ${where}`)).toEqual([
      'changed row 3',
      'changed row 5',
      'removed a row before row 7',
    ]);
  });

  it('the Locator sheet itself edited: the changes are not located by it, and the sheet is named', async () => {
    const file = withOpenpyxl('locator.xlsx', "wb['Scopes']['E5'] = 'Forged'\nwb['Locator']['A2'] = 'Elsewhere'");
    const result = await verify(file, '--data-dir', join(dir, 'no-such-data'));
    expect(result.json.sheets.filter((s) => s.status !== 'intact').map((s) => s.name)).toEqual(['Scopes', 'Locator']);
    expect(result.json.changes).toEqual([]);
    expect(result.json.located).toContain("not located in 'Scopes', 'Locator'");
  });
});
