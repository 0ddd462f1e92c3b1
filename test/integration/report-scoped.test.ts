/**
 * Exports of a part of the store, and what they say while they run, on the demo tenant's store
 * (`attest demo`): an access export scoped by a text filter carries raw only the objects of its
 * rows; the export's progress never counts more rows written than its total, and ends on the
 * rows the workbook holds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExport } from '../../src/main/app/tasks/export';
import { openWorkspace, type Workspace } from '../../src/main/app/workspace';
import type { ExportProgress } from '../../src/shared/contract';
import { openpyxlDump } from '../helpers/openpyxl';
import { runCli } from './sync.helpers';

const dir = mkdtempSync(join(tmpdir(), 'attest-report-scoped-'));
const dataDir = join(dir, 'data');
let workspace: Workspace;

beforeAll(async () => {
  const demo = await runCli(['demo', '--out', join(dir, 'demo.xlsx'), '--data-dir', dataDir]);
  expect(demo.code, demo.err).toBe(0);
  workspace = await openWorkspace(dataDir, 'demo', { existing: true });
}, 120_000);

afterAll(() => {
  workspace?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A sheet's rows as objects by header. */
function table(file: string, name: string): Record<string, unknown>[] {
  const rows = openpyxlDump(file, true).sheets.find((s) => s.name === name)!.data!;
  const header = rows[0]!.slice(1).map(String);
  return rows.slice(1).map((r) => Object.fromEntries(header.map((h, i) => [h, r[i + 1]])));
}

describe('a scoped export', () => {
  it("an access export of one person's memberships carries raw only them, their entitlements and apps", async () => {
    // The app user who holds the most memberships in the demo store.
    const held = new Map<string, number>();
    for (const m of workspace.store.iterateObjects('memberships')) {
      const name = String(m.columns.appUserName ?? '');
      if (name) held.set(name, (held.get(name) ?? 0) + 1);
    }
    const [person, count] = [...held].sort((a, b) => b[1] - a[1])[0]!;
    expect(count).toBeGreaterThan(1);

    const out = join(dir, 'access-one.xlsx');
    const run = await runCli(['export', 'access', '--text', person, '--out', out, '--connection', 'demo', '--data-dir', dataDir]);
    expect(run.code, run.err).toBe(0);
    const access = table(out, 'Access');
    expect(access.length).toBeGreaterThanOrEqual(count);
    const raw = table(out, 'Raw API values');
    const ids = (collection: string): string[] => raw.filter((r) => r.Collection === collection).map((r) => String(r.ID));
    const named = (column: string): Set<string> => new Set(access.map((r) => String(r[column])));
    expect(ids('Memberships')).toHaveLength(access.length);
    expect(new Set(ids('Entitlements'))).toEqual(named('Entitlement ID'));
    expect(new Set(ids('Apps'))).toEqual(named('App ID'));
    const entitlements = workspace.store.countObjects('entitlements');
    expect(ids('Entitlements').length).toBeLessThan(entitlements);

    // Unscoped, the access report still carries every entitlement and app.
    const whole = join(dir, 'access-all.xlsx');
    expect((await runCli(['export', 'access', '--out', whole, '--connection', 'demo', '--data-dir', dataDir])).code).toBe(0);
    expect(table(whole, 'Raw API values').filter((r) => r.Collection === 'Entitlements')).toHaveLength(entitlements);
  }, 120_000);
});

describe('export progress', () => {
  it('never counts more rows written than its total, and ends on the rows the workbook holds', async () => {
    const events: ExportProgress[] = [];
    const result = await runExport(workspace, {
      kind: 'evidence',
      out: join(dir, 'progress.xlsx'),
      appVersion: 'test',
      onProgress: (event) => events.push(event),
    });
    const sheets = events.filter((e) => e.phase === 'sheet');
    expect(sheets.length).toBeGreaterThanOrEqual(result.sheets.length);
    for (const e of sheets) {
      expect(e.rowsTotal, `${e.sheet}`).not.toBeNull();
      expect(e.rowsWritten, `${e.sheet}: ${e.rowsWritten} of ${e.rowsTotal}`).toBeLessThanOrEqual(e.rowsTotal!);
    }
    // The totals only grow as sheets of no stated size are written.
    const totals = sheets.map((e) => e.rowsTotal!);
    expect(totals).toEqual([...totals].sort((a, b) => a - b));
    const finished = events.at(-1)!;
    expect(finished.phase).toBe('finished');
    const written = result.sheets.reduce((sum, s) => sum + s.rows, 0);
    expect([finished.rowsWritten, finished.rowsTotal]).toEqual([written, written]);
    expect(sheets.at(-1)!.rowsWritten).toBeLessThanOrEqual(written);
  }, 120_000);
});
