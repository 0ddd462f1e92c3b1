/**
 * Spreadsheet access reviews end to end, with real CLI processes against the reference tenant on
 * loopback: `attest export review` for an entitlement with at least 10 members; the reviewer's
 * decisions written with openpyxl and the file re-saved by LibreOffice headless; `attest review
 * import` queues the 3 Revokes (their comments kept), `attest queue send` sends them, `attest
 * sync` sees them gone, and the Review decisions sheet proves it. A worksheet with another cell
 * changed, a row added or removed, or a Decision outside the list is refused, naming it, and
 * nothing is queued.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareConnection, recordConnection } from '../../src/main/app/saved-connections';
import { MANAGED_ENTITLEMENT_KINDS } from '../../src/tenant/dataset';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { spawnAttest, type SpawnedRun } from '../helpers/cli';
import { openpyxlDump } from '../helpers/openpyxl';
import { editWorksheet } from '../helpers/review-edit';
import { tempDir } from './sync.helpers';

let tenant: ReferenceTenant;
let tmp: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;
let entitlementId: string;
/** An entitlement whose memberships its app manages (a role, a permission...): not removable through the API. */
let unmanagedId: string;
const root = process.cwd();

beforeAll(async () => {
  tenant = await startTenant({ port: 0, seed: 77 });
  tmp = tempDir('attest-review-');
  const dataDir = join(tmp.dir, 'data');
  recordConnection(dataDir, prepareConnection(dataDir, { clientId: tenant.clientId, serverUrl: tenant.url, name: 'review' }));
  env = { ...process.env, ATTEST_CLIENT_SECRET: tenant.clientSecret, ATTEST_DATA_DIR: dataDir };
  // The managed entitlement with the most members.
  const members = new Map<string, number>();
  for (const m of tenant.data.memberships.values()) {
    const kind = tenant.data.entitlements.get(m.appEntitlementId)?.kind;
    if (kind && MANAGED_ENTITLEMENT_KINDS.includes(kind)) members.set(m.appEntitlementId, (members.get(m.appEntitlementId) ?? 0) + 1);
  }
  [entitlementId] = [...members.entries()].sort((a, b) => b[1] - a[1])[0]!;
  unmanagedId = [...tenant.data.memberships.values()]
    .map((m) => m.appEntitlementId)
    .find((id) => !MANAGED_ENTITLEMENT_KINDS.includes(tenant.data.entitlements.get(id)!.kind))!;
  expect(unmanagedId).toBeTruthy();
  expect(members.get(entitlementId)).toBeGreaterThanOrEqual(10);
  const synced = await attest('sync', '--only', 'apps,entitlements,app-users,memberships,campaigns');
  expect(synced.code, synced.stderr).toBe(0);
}, 120_000);
afterAll(async () => {
  await tenant?.close();
  tmp?.remove();
});

const attest = (...args: string[]): Promise<SpawnedRun> => spawnAttest(args, { cwd: root, env });

/** A re-save by LibreOffice headless (its own profile, so it runs beside any other). */
function resaveWithLibreOffice(file: string): string {
  const outDir = join(tmp.dir, 'libreoffice');
  mkdirSync(outDir, { recursive: true });
  const profile = `file://${join(tmp.dir, 'lo-profile')}`;
  execFileSync('soffice', [`-env:UserInstallation=${profile}`, '--headless', '--convert-to', 'xlsx', '--outdir', outDir, file], {
    stdio: 'ignore',
    timeout: 120_000,
  });
  const out = join(outDir, basename(file));
  expect(existsSync(out)).toBe(true);
  return out;
}

async function exportWorksheet(name: string, ...more: string[]): Promise<string> {
  const out = join(tmp.dir, name);
  const run = await attest('export', 'review', '--entitlement', entitlementId, ...more, '--reviewer', 'Rita Reviewer', '--out', out);
  expect(run.code, run.stderr).toBe(0);
  return out;
}

async function queued(): Promise<number> {
  const run = await attest('queue', 'list', '--json');
  return (JSON.parse(run.stdout) as unknown[]).length;
}

/** The rows of a worksheet's Review sheet (below its header), as openpyxl reads them: [row, ...cells]. */
const reviewRowsOf = (file: string): unknown[][] =>
  openpyxlDump(file, true)
    .sheets.find((s) => s.name === 'Review')!
    .data!.slice(1);

describe('attest export review / review import', () => {
  it('scopes: an app, a single-app and a multi-app campaign (its entitlements); an unknown one refused', async () => {
    const users = (rows: unknown[][]) => rows.map((r) => `${r[12] as string}:${r[11] as string}`).sort();
    const held = (keep: (m: { appId: string; appEntitlementId: string }) => boolean) =>
      [...tenant.data.memberships.values()]
        .filter(keep)
        .map((m) => `${m.appEntitlementId}:${m.appUserId}`)
        .sort();
    const appId = tenant.data.entitlements.get(entitlementId)!.appId;
    const byApp = join(tmp.dir, 'by-app.xlsx');
    expect((await attest('export', 'review', '--app', appId, '--out', byApp)).code).toBe(0);
    expect(users(reviewRowsOf(byApp))).toEqual(held((m) => m.appId === appId));
    const campaigns = [...tenant.data.campaigns.values()] as unknown as {
      id: string;
      singleApp: { appId: string } | null;
      multiApp: { appEntitlements: Record<string, { appId: string; entitlementIds: string[] }> } | null;
    }[];
    const single = campaigns.find((c) => c.singleApp)!;
    const bySingle = join(tmp.dir, 'by-single.xlsx');
    expect((await attest('export', 'review', '--campaign', single.id, '--out', bySingle)).code).toBe(0);
    expect(users(reviewRowsOf(bySingle))).toEqual(held((m) => m.appId === single.singleApp!.appId));
    // A multi-app campaign whose entitlements have members: those memberships, not the rest of the apps'.
    const namedBy = (c: (typeof campaigns)[number]) =>
      new Set(Object.values(c.multiApp?.appEntitlements ?? {}).flatMap((a) => a.entitlementIds));
    const multi = campaigns.find((c) => c.multiApp && held((m) => namedBy(c).has(m.appEntitlementId)).length > 0)!;
    const byMulti = join(tmp.dir, 'by-multi.xlsx');
    const multiRun = await attest('export', 'review', '--campaign', multi.id, '--out', byMulti);
    expect(multiRun.code, multiRun.stderr).toBe(0);
    expect(users(reviewRowsOf(byMulti))).toEqual(held((m) => namedBy(multi).has(m.appEntitlementId)));
    const unknown = await attest('export', 'review', '--entitlement', 'no-such-entitlement', '--out', join(tmp.dir, 'none.xlsx'));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/the store holds no entitlement no-such-entitlement/);
    expect(existsSync(join(tmp.dir, 'none.xlsx'))).toBe(false);
  }, 300_000);

  it('refuses a changed cell, a row added or removed, a Decision outside the list: each named, nothing queued', async () => {
    const original = await exportWorksheet('refusals.xlsx');
    const cases: [string, unknown[], RegExp][] = [
      [
        'changed',
        [
          [2, 'Revoke', 'gone'],
          ['set', 'B3', 'Someone Else'],
        ],
        /'Review'!B3: ".*" → "Someone Else"/,
      ],
      ['added', [['append', [99, 'Extra Person', 'x@example.com']]], /'Review' row \d+: added \(99, "Extra Person", "x@example.com"\)/],
      // The rows below a deleted one move up: the last exported row is named as removed.
      ['removed', [['delete', 4]], /'Review' row \d+: removed \(it held /],
      ['decision', [[5, 'Maybe', 'not sure']], /'Review'!I5: "Maybe" is not a decision \(Keep or Revoke\)/],
      // The guidance is part of what was exported: a widened list, a sheet left unprotected.
      [
        'widened',
        [['widen']],
        /the sheet 'Review' has its Decision list changed: exported I2:I\d+ list "Keep,Revoke", now I2:I\d+ list "Keep,Revoke,Maybe"/,
      ],
      ['unprotected', [['unprotect']], /the sheet 'Review' is no longer protected/],
      ['formula', [['set', 'J6', '=1+1']], /formula in 'Review'!J6: =1\+1/],
    ];
    for (const [name, edits, named] of cases) {
      const file = join(tmp.dir, `refused-${name}.xlsx`);
      copyFileSync(original, file);
      editWorksheet(file, edits);
      const run = await attest('review', 'import', file);
      expect(run.code, `${name}: ${run.stderr}`).toBe(1);
      expect(run.stderr).toMatch(/REFUSED: refusals\.xlsx: nothing was queued or recorded/);
      expect(run.stderr).toMatch(named);
      // verify, without the store, tells it altered too.
      const verified = await attest('verify', file);
      expect(verified.code, `${name}: ${verified.stderr}`).toBe(1);
      expect(verified.stderr).toMatch(/^ALTERED: .*\[review worksheet/);
    }
    expect(await queued()).toBe(0);
    // The worksheet as exported still imports (no decision: nothing queued, nothing refused).
    const dry = await attest('review', 'import', original, '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toMatch(/dry run: refusals\.xlsx \(reviewer Rita Reviewer\): 0 decisions/);
  }, 300_000);

  it('decisions by openpyxl, re-saved by LibreOffice: 3 removals queued with their comments, sent, synced, proven', async () => {
    const exported = await exportWorksheet('admins-review.xlsx');
    // Exported at the same time, decided after the removals: rows gone by then, rows never removable.
    const late = await exportWorksheet('late.xlsx', '--entitlement', unmanagedId);
    const filled = join(tmp.dir, 'filled', 'admins-review.xlsx');
    mkdirSync(join(tmp.dir, 'filled'), { recursive: true });
    copyFileSync(exported, filled);
    const decisions: [number, string, string][] = [
      [2, 'Revoke', 'left the team in March'],
      [3, 'Keep', 'needs it for payroll'],
      [5, 'Revoke', 'contractor, contract ended'],
      [7, 'Keep', 'on-call admin'],
      [9, 'Revoke', 'duplicate account'],
    ];
    editWorksheet(filled, decisions);
    // openpyxl's own save imports as well (a dry run), then LibreOffice re-saves it.
    const dry = await attest('review', 'import', filled, '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toMatch(/dry run: .*5 decisions, 2 keep, 3 revoke; 3 removals would be queued/);
    const resaved = resaveWithLibreOffice(filled);
    const verified = await attest('verify', resaved);
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stderr).toMatch(/^intact: .*\[review worksheet; 5 decisions\]/);

    const imported = await attest('review', 'import', resaved, '--json');
    expect(imported.code, imported.stderr).toBe(0);
    const result = JSON.parse(imported.stdout) as {
      decisions: { row: number; decision: string; comment: string; itemId: string | null }[];
      batch: { name: string };
      worksheet: { sha256: string };
    };
    expect(result.batch.name).toBe('admins-review.xlsx');
    expect(result.decisions.map((d) => [d.row, d.decision, d.comment])).toEqual(decisions);
    const revokes = result.decisions.filter((d) => d.decision === 'Revoke');
    expect(revokes.every((d) => d.itemId)).toBe(true);

    const list = await attest('queue', 'list', '--json');
    const items = JSON.parse(list.stdout) as { id: string; kind: string; note: string | null; batchId: number | null }[];
    expect(items).toHaveLength(3);
    expect(items.map((i) => i.kind)).toEqual(['remove-membership', 'remove-membership', 'remove-membership']);
    for (const [row, , comment] of decisions.filter((d) => d[1] === 'Revoke'))
      expect(items.some((i) => i.note === `review comment (admins-review.xlsx row ${row}): ${comment}`)).toBe(true);
    // Imported once: the same worksheet again is refused.
    const again = await attest('review', 'import', resaved);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/imported already/);

    const sent = await attest('queue', 'send');
    expect(sent.code, sent.stderr).toBe(0);
    const synced = await attest('sync', '--only', 'apps,entitlements,app-users,memberships');
    expect(synced.code, synced.stderr).toBe(0);

    const report = join(tmp.dir, 'decisions.xlsx');
    const exportedReport = await attest('export', 'review-decisions', '--out', report);
    expect(exportedReport.code, exportedReport.stderr).toBe(0);
    expect((await attest('verify', report)).code).toBe(0);
    const sheet = openpyxlDump(report, true).sheets.find((s) => s.name === 'Review decisions')!;
    const header = sheet.header as string[];
    const rows = sheet.data!.slice(1).map((r) => Object.fromEntries(header.map((h, i) => [h, r[i + 1]])));
    expect(rows).toHaveLength(5);
    for (const r of rows) {
      expect(r.Reviewer).toBe('Rita Reviewer');
      expect(r.Worksheet).toBe('admins-review.xlsx');
      expect(r['Worksheet SHA-256']).toBe(result.worksheet.sha256);
    }
    expect(rows.filter((r) => r.Outcome === 'removed').map((r) => r.Row)).toEqual([2, 5, 9]);
    expect(rows.filter((r) => r.Outcome === 'kept').map((r) => r.Row)).toEqual([3, 7]);
    expect(
      rows.filter((r) => r.Decision === 'Revoke').every((r) => r['Item state'] === 'succeeded' && r['In latest sync'] === 'gone'),
    ).toBe(true);

    // Revoke of a membership removed since, and of one its app manages: each skipped and named, a Keep recorded.
    const lateRows = openpyxlDump(late, true).sheets.find((s) => s.name === 'Review')!.data!;
    const gone = new Set(rows.filter((r) => r.Outcome === 'removed').map((r) => r['App user ID']));
    const goneRow = lateRows.find((r) => r[12] === entitlementId && gone.has(r[11] as string))![0] as number;
    const fixedRow = lateRows.find((r) => r[12] === unmanagedId)![0] as number;
    editWorksheet(late, [
      [goneRow, 'Revoke', 'still there?'],
      [fixedRow, 'revoke', 'not ours to remove'],
      [lateRows.find((r) => (r[0] as number) > 1 && r[0] !== goneRow && r[0] !== fixedRow)![0], 'Keep', null],
    ]);
    const skipped = await attest('review', 'import', late);
    expect(skipped.code, skipped.stderr).toBe(0);
    expect(skipped.stderr).toMatch(/3 decisions, 1 keep, 2 revoke; 0 removals queued/);
    expect(skipped.stderr).toMatch(new RegExp(`row ${goneRow} \\(.*\\): not queued: already gone`));
    expect(skipped.stderr).toMatch(new RegExp(`row ${fixedRow} \\(.*\\): not queued: cannot be removed \\(no: `));
    expect(await queued()).toBe(3);
    const totals = openpyxlDump(report, true).sheets.find((s) => s.name === 'Review totals')!;
    expect(totals.data!.slice(1).map((r) => r.slice(1))).toEqual([['admins-review.xlsx', result.worksheet.sha256, 5, 2, 3, 3, 0]]);
  }, 300_000);
});
