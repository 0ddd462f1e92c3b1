/**
 * The journal as evidence, against the reference tenant (127.0.0.1, random port) with a synced
 * store: each entry tells its change with the names the store has (a removal: the app, the
 * entitlement and the user), and the journal filters by kind, outcome, import and time, newest first.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntryInWords } from '../../src/main/outbox/queue';
import { openpyxlDump } from '../helpers/openpyxl';
import type { TestTenant } from '../helpers/tenant';
import { removableMemberships, removalsCsv } from './outbox.helpers';
import { useSyncedTenant } from './synced-tenant';

const synced = useSyncedTenant({ seed: 23, name: 'words' });
const cli = synced.cli;
let tenant: TestTenant;
beforeAll(() => {
  tenant = synced.tenant();
});

const journal = async (...args: string[]) => {
  const run = await cli('journal', '--json', ...args);
  expect(run.code, run.err).toBe(0);
  return JSON.parse(run.out) as JournalEntryInWords[];
};

describe('attest journal: the change in words, filtered', () => {
  it('names the app, entitlement and user of each removal as the store has them, and filters by outcome, import, kind and time', async () => {
    const rows = removableMemberships(tenant.data, 4);
    const csv = join(synced.dir(), 'leavers.csv');
    writeFileSync(csv, removalsCsv(rows));
    const before = new Date().toISOString();
    expect((await cli('queue', 'import', csv, '--kind', 'remove-membership')).code).toBe(0);
    // One removal refused as concurrent: a failed attempt in the journal next to the successes.
    tenant.faults.set('aborted=1');
    expect((await cli('queue', 'send', '--ids', (await queuedIds())[0]!)).code).toBe(5);
    tenant.faults.clear();
    expect((await cli('queue', 'retry', '--state', 'failed')).code).toBe(0);
    expect((await cli('queue', 'send')).code).toBe(0);

    const sent = await journal('--state', 'succeeded', '--batch', 'leavers.csv');
    expect(sent).toHaveLength(4);
    for (const entry of sent) {
      const row = rows.find((r) => entry.target.endsWith(`${r.appEntitlementId}/${r.appUserId}`))!;
      const app = tenant.data.apps.get(row.appId)!;
      const entitlement = tenant.data.entitlements.get(row.appEntitlementId)!;
      const user = tenant.data.appUsers.get(row.appUserId)!;
      expect(entry.change).toContain(`${user.displayName} (${row.appUserId})`);
      expect(entry.change).toContain(`${entitlement.displayName} (${row.appEntitlementId})`);
      expect(entry.change).toContain(`${app.displayName} (${row.appId})`);
      expect(entry.batchId).toBe(1);
    }
    const failed = await journal('--state', 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.httpStatus).toBe(409);

    const all = await journal('--kind', 'remove-membership', '--newest-first');
    expect(all.map((e) => e.seq)).toEqual([...all.map((e) => e.seq)].sort((a, b) => b - a));
    expect(all.map((e) => e.event)).toEqual(expect.arrayContaining(['queued', 'send']));
    expect(await journal('--until', before)).toEqual([]);
    expect(await journal('--since', new Date(Date.now() + 60_000).toISOString())).toEqual([]);
    expect(await journal('--kind', 'create-scope')).toEqual([]);

    const table = await cli('journal', '--state', 'succeeded');
    expect(table.out).toContain(tenant.data.appUsers.get(rows[0]!.appUserId)!.displayName);
    const bad = await cli('journal', '--state', 'gone');
    expect(bad.code).toBe(2);

    // The report's "Outbox journal" sheet carries the same words and the import, read back with openpyxl.
    const out = join(synced.dir(), 'changes.xlsx');
    const exported = await cli('export', 'changes', '--out', out);
    expect(exported.code, exported.err).toBe(0);
    const sheet = openpyxlDump(out, true).sheets.find((s) => s.name === 'Outbox journal')!;
    const header = sheet.header as string[];
    const [change, batch, event, outcome] = ['Change', 'Import', 'Event', 'Outcome'].map((h) => header.indexOf(h) + 1);
    const rowsOut = sheet.data!.filter((r) => r[event!] === 'send' && r[outcome!] === 'succeeded');
    expect(rowsOut).toHaveLength(4);
    for (const r of rowsOut) {
      const words = String(r[change!]);
      const row = rows.find((m) => words.includes(`(${m.appUserId})`))!;
      expect(words).toContain(`${tenant.data.appUsers.get(row.appUserId)!.displayName} (${row.appUserId})`);
      expect(words).toContain(`${tenant.data.entitlements.get(row.appEntitlementId)!.displayName} (${row.appEntitlementId})`);
      expect(r[batch!]).toBe(1);
    }
  });
});

async function queuedIds(): Promise<string[]> {
  const listed = await cli('queue', 'list', '--state', 'queued', '--json');
  return (JSON.parse(listed.out) as { id: string }[]).map((i) => i.id);
}
