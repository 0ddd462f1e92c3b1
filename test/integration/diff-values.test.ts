/**
 * Change evidence with values, against the reference tenant (127.0.0.1, random port): after a sync,
 * a change on the tenant and a membership removed by a send (whose fresh copies are a run of their
 * own), then a second sync, `attest diff` (text and --json) and `attest export diff` compare the two
 * syncs by default and give each changed value with its label, old and new value, and name the app
 * and entitlement of the removed membership.
 */
import ExcelJS from 'exceljs';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareConnection, recordConnection } from '../../src/main/app/saved-connections';
import { spawnAttest } from '../helpers/cli';
import { startTestTenant, type TestTenant } from '../helpers/tenant';
import { removableMemberships, removalsCsv } from './outbox.helpers';
import { runCli, tempDir } from './sync.helpers';

const root = fileURLToPath(new URL('../..', import.meta.url));
let tenant: TestTenant;
let tmp: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;
const cli = (...argv: string[]) => runCli([...argv, '--connection', 'changes'], env);

const DESCRIPTION = 'Quarterly review of the finance apps';
let campaignId: string;
let oldDescription: string;
let oldUpdatedAt: string;
let removed: { appId: string; appEntitlementId: string; appUserId: string };
let runs: { id: number; origin: string }[];

/** "2026-03-01T09:00:00.123Z" as the reports write a time: "2026-03-01 09:00:00.123 UTC". */
const utc = (iso: string): string => {
  const text = new Date(iso).toISOString();
  return `${text.slice(0, 10)} ${text.endsWith('.000Z') ? text.slice(11, 19) : text.slice(11, 23)} UTC`;
};

beforeAll(async () => {
  tenant = await startTestTenant({ seed: 31 });
  tmp = tempDir('attest-diff-values-');
  const dataDir = join(tmp.dir, 'data');
  recordConnection(dataDir, prepareConnection(dataDir, { clientId: tenant.clientId, serverUrl: tenant.url, name: 'changes' }));
  env = { ATTEST_CLIENT_SECRET: tenant.clientSecret, ATTEST_DATA_DIR: dataDir };
  expect((await cli('sync')).code).toBe(0);

  const campaign = [...tenant.data.campaigns.values()][0]!;
  campaignId = campaign.id!;
  oldDescription = campaign.description ?? '';
  oldUpdatedAt = campaign.updatedAt!;
  tenant.data.touch('campaigns', campaignId, { description: DESCRIPTION });

  [removed] = removableMemberships(tenant.data, 1) as [typeof removed];
  const csv = join(tmp.dir, 'leaver.csv');
  writeFileSync(csv, removalsCsv([removed]));
  expect((await cli('queue', 'import', csv, '--kind', 'remove-membership')).code).toBe(0);
  const sent = await cli('queue', 'send');
  expect(sent.code, sent.err).toBe(0);
  const synced = await cli('sync');
  expect(synced.code, synced.err).toBe(0);
  runs = (JSON.parse((await cli('runs', '--json')).out) as { runs: { id: number; origin: string }[] }).runs;
}, 90_000);

afterAll(async () => {
  await tenant?.close();
  tmp?.remove();
});

interface Printed {
  from: number;
  to: number;
  changes: {
    collection: string;
    id: string;
    change: string;
    app: string | null;
    entitlement: string | null;
    values: { field: string; label: string; before: unknown; after: unknown }[];
  }[];
}

describe('change evidence with values', () => {
  it('attest diff compares the two latest syncs by default (the send read back in between folds in), with values and names', async () => {
    const syncs = runs.filter((r) => r.origin === 'sync').map((r) => r.id);
    expect(syncs).toHaveLength(2);
    // The send's fresh copies are a run of their own, between the two syncs.
    expect(runs.some((r) => r.origin === 'outbox' && r.id > Math.min(...syncs) && r.id < Math.max(...syncs))).toBe(true);

    const json = await cli('diff', '--json');
    expect(json.code, json.err).toBe(0);
    const printed = JSON.parse(json.out) as Printed;
    expect([printed.from, printed.to]).toEqual([Math.min(...syncs), Math.max(...syncs)]);

    const campaign = printed.changes.find((c) => c.collection === 'campaigns' && c.id === campaignId)!;
    expect(campaign.change).toBe('modified');
    expect(campaign.values).toContainEqual({
      field: 'description',
      label: 'Description',
      before: oldDescription || null,
      after: DESCRIPTION,
    });
    const updated = campaign.values.find((v) => v.field === 'updatedAt')!;
    expect(updated.label).toBe('Updated');
    expect(updated.before).toBe(utc(oldUpdatedAt));
    expect(updated.after).toBe(utc(tenant.data.campaigns.get(campaignId)!.updatedAt!));

    const membership = printed.changes.find((c) => c.collection === 'memberships' && c.change === 'removed')!;
    expect(membership.id).toBe(`${removed.appEntitlementId}:${removed.appUserId}`);
    expect(membership.app).toBe(tenant.data.apps.get(removed.appId)!.displayName);
    expect(membership.entitlement).toBe(tenant.data.entitlements.get(removed.appEntitlementId)!.displayName);

    const text = await cli('diff');
    expect(text.out).toContain(`    Description: ${oldDescription ? JSON.stringify(oldDescription) : '(none)'} -> "${DESCRIPTION}"`);
    expect(text.out).toContain(`    Updated: "${utc(oldUpdatedAt)}" -> "${updated.after as string}"`);
    expect(text.out).toContain(`(${membership.entitlement} in ${membership.app})`);
  });

  it('attest export diff holds the label, old and new value of each change, and the app and entitlement of a membership', async () => {
    const out = join(tmp.dir, 'diff.xlsx');
    const exported = await spawnAttest(['export', 'diff', '--out', out, '--connection', 'changes'], {
      cwd: root,
      env: { ...process.env, ...env },
    });
    expect(exported.code, exported.stderr).toBe(0);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(out);
    const ws = wb.getWorksheet('Diff')!;
    const header = (ws.getRow(1).values as unknown[]).slice(1).map(String);
    const rows: Record<string, unknown>[] = [];
    for (let r = 2; r <= ws.actualRowCount; r += 1) {
      const values = ws.getRow(r).values as unknown[];
      rows.push(Object.fromEntries(header.map((h, i) => [h, values[i + 1] ?? null])));
    }
    const { changes, from, to } = JSON.parse((await cli('diff', '--json')).out) as Printed;
    // One row per changed value of each modified object, one per object added or removed.
    expect(rows).toHaveLength(changes.reduce((n, c) => n + Math.max(1, c.values.length), 0));
    for (const c of changes)
      for (const v of c.values) {
        const row = rows.find((r) => r['ID'] === c.id && r['Field path'] === v.field);
        expect(row, `${c.id} ${v.field}`).toMatchObject({
          Field: v.label,
          'Old value': v.before,
          'New value': v.after,
          'From run': from,
          'To run': to,
        });
      }
    expect(rows.find((r) => r['ID'] === campaignId && r['Field'] === 'Description')).toMatchObject({
      'Old value': oldDescription || null,
      'New value': DESCRIPTION,
    });
    expect(rows.find((r) => r['ID'] === `${removed.appEntitlementId}:${removed.appUserId}`)).toMatchObject({
      Change: 'removed',
      App: tenant.data.apps.get(removed.appId)!.displayName,
      Entitlement: tenant.data.entitlements.get(removed.appEntitlementId)!.displayName,
    });
    const verified = await spawnAttest(['verify', out], { cwd: root, env: { ...process.env, ...env } });
    expect(verified.code, verified.stderr).toBe(0);
  }, 60_000);
});
