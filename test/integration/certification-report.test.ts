/**
 * The certification report against the reference tenant (127.0.0.1, random port) after a real
 * sync: one row per certify task with its reviewers, decision and date, checked against the
 * tenant's own tasks; a summary per campaign; remediation of revoke decisions (the revoke task,
 * whether the access is gone); scoped to one campaign; verified intact by `attest verify`.
 */
import ExcelJS from 'exceljs';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareConnection, recordConnection } from '../../src/main/app/saved-connections';
import { startBrowserHost } from '../../src/main/browser-host/server';
import type { ChannelResult } from '../../src/shared/contract';
import type { Task } from '../../src/shared/api-types';
import { spawnAttest } from '../helpers/cli';
import { openpyxlDump } from '../helpers/openpyxl';
import { startTestTenant, type TestTenant } from '../helpers/tenant';
import { runCli, tempDir } from './sync.helpers';

const root = fileURLToPath(new URL('../..', import.meta.url));
let tenant: TestTenant;
let tmp: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;
let storeFile: string;
const cli = (...argv: string[]) => runCli([...argv, '--connection', 'review'], env);

const certifyOf = (t: Task) => t.type?.certify ?? null;
const certifyTasks = (): Task[] => [...tenant.data.tasks.values()].filter((t) => certifyOf(t) !== null);

/** The decided item whose access was revoked and removed, and the one revoked but still held. */
let removed: Task;
let stillHeld: Task;
let revokeTaskId: string;
/** A revoked item whose revoke task names no review: the first revoke of that access since the review began is its remediation. */
let byAccess: Task;

beforeAll(async () => {
  tenant = await startTestTenant({ seed: 7 });
  tmp = tempDir('attest-certification-');
  const dataDir = join(tmp.dir, 'data');
  const connection = prepareConnection(dataDir, { clientId: tenant.clientId, serverUrl: tenant.url, name: 'review' });
  recordConnection(dataDir, connection);
  storeFile = connection.storeFile;
  env = { ATTEST_CLIENT_SECRET: tenant.clientSecret, ATTEST_DATA_DIR: dataDir };

  // Two decided items revoked (decertified): one whose revoke task removed the access, one still held with no revoke task yet.
  const decided = certifyTasks().filter((t) => certifyOf(t)!.outcome === 'CERTIFY_OUTCOME_CERTIFIED');
  expect(decided.length).toBeGreaterThanOrEqual(3);
  [removed, stillHeld, byAccess] = decided as [Task, Task, Task];
  certifyOf(byAccess)!.outcome = 'CERTIFY_OUTCOME_DECERTIFIED';
  certifyOf(removed)!.outcome = 'CERTIFY_OUTCOME_DECERTIFIED';
  certifyOf(stillHeld)!.outcome = 'CERTIFY_OUTCOME_DECERTIFIED';
  const gone = certifyOf(removed)!;
  for (const [id, m] of tenant.data.memberships)
    if (m.appEntitlementId === gone.appEntitlementId && m.appUserId === gone.appUserId) tenant.data.memberships.delete(id);
  const revoke = [...tenant.data.tasks.values()].find((t) => t.type?.revoke)!;
  revokeTaskId = `${revoke.id!}-review`;
  tenant.data.tasks.set(revokeTaskId, {
    ...revoke,
    id: revokeTaskId,
    type: {
      revoke: {
        ...revoke.type!.revoke!,
        appId: gone.appId!,
        appEntitlementId: gone.appEntitlementId!,
        appUserId: gone.appUserId!,
        source: { review: { accessReviewId: gone.accessReviewId!, certTicketId: removed.id! } },
      },
    },
  });
  // Two revokes of that access without a review: one from before the review began (not its remediation), one after.
  const access = certifyOf(byAccess)!;
  for (const [suffix, createdAt] of [
    ['before', '2001-01-01T00:00:00Z'],
    ['after', new Date(Date.parse(byAccess.createdAt!) + 1000).toISOString()],
  ] as const)
    tenant.data.tasks.set(`${revoke.id!}-${suffix}`, {
      ...revoke,
      id: `${revoke.id!}-${suffix}`,
      createdAt,
      type: {
        revoke: {
          ...revoke.type!.revoke!,
          appId: access.appId!,
          appEntitlementId: access.appEntitlementId!,
          appUserId: access.appUserId!,
          source: null,
        },
      },
    });
  const held = [...tenant.data.memberships.values()][0]!;
  Object.assign(certifyOf(stillHeld)!, { appId: held.appId, appEntitlementId: held.appEntitlementId, appUserId: held.appUserId });

  const synced = await cli('sync');
  expect(synced.code, synced.err).toBe(0);
}, 60_000);

afterAll(async () => {
  await tenant?.close();
  tmp?.remove();
});

type Row = Record<string, unknown>;

/** The rows of a sheet as header -> value, read by exceljs. */
async function rowsOf(file: string, sheet: string): Promise<Row[]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  const ws = wb.getWorksheet(sheet)!;
  const header = (ws.getRow(1).values as unknown[]).slice(1).map(String);
  const rows: Row[] = [];
  for (let r = 2; r <= ws.actualRowCount; r += 1) {
    const values = ws.getRow(r).values as unknown[];
    rows.push(Object.fromEntries(header.map((h, i) => [h, values[i + 1] ?? null])));
  }
  return rows;
}

const DECISION = {
  CERTIFY_OUTCOME_CERTIFIED: 'Certified',
  CERTIFY_OUTCOME_DECERTIFIED: 'Revoked',
  CERTIFY_OUTCOME_UNSPECIFIED: 'Outstanding',
};

describe('attest export certification', () => {
  it('writes one row per certify task with its reviewers, decision and date, as the tenant has them; verify passes', async () => {
    const out = join(tmp.dir, 'certification.xlsx');
    const exported = await spawnAttest(['export', 'certification', '--out', out, '--connection', 'review'], {
      cwd: root,
      env: { ...process.env, ...env },
    });
    expect(exported.code, exported.stderr).toBe(0);

    const rows = await rowsOf(out, 'Certification');
    const tasks = certifyTasks();
    expect(rows).toHaveLength(tasks.length);
    expect(new Set(rows.map((r) => r['Task ID']))).toEqual(new Set(tasks.map((t) => t.id)));
    for (const row of rows) {
      const task = tenant.data.tasks.get(String(row['Task ID']))!;
      const certify = certifyOf(task)!;
      const reviewers = task.stepApproverIds?.length ? task.stepApproverIds : task.approverIds;
      // Each reviewer by the synced user's name and email (the tenant's people are synced as users).
      const named = (id: string) => {
        const user = tenant.data.users.get(id) as { displayName?: string; email?: string } | undefined;
        return user ? `${user.displayName} <${user.email}>` : id;
      };
      expect(row['Reviewers'], String(row['Task ID'])).toBe(reviewers?.length ? reviewers.map(named).join(', ') : null);
      expect(row['Decision']).toBe(DECISION[certify.outcome as keyof typeof DECISION]);
      expect(row['Campaign ID']).toBe(certify.accessReviewId);
      expect(row['Campaign']).toBe(tenant.data.campaigns.get(certify.accessReviewId!)?.displayName ?? null);
      expect(row['Entitlement']).toBe(tenant.data.entitlements.get(certify.appEntitlementId!)?.displayName ?? null);
      expect(row['App']).toBe(tenant.data.apps.get(certify.appId!)?.displayName ?? null);
      expect(row['Subject']).toBe(tenant.data.appUsers.get(certify.appUserId!)?.displayName ?? null);
      const decidedAt = row['Decided at (UTC)'] as Date | null;
      if (certify.outcome === 'CERTIFY_OUTCOME_UNSPECIFIED') expect(decidedAt).toBeNull();
      else expect(decidedAt?.toISOString()).toBe(new Date(certify.outcomeTime!).toISOString());
      expect(row['Comments']).toBe(task.commentCount ?? null);
    }
    // Remediation: the revoke whose task removed the access, and the one still held with no task.
    const gone = rows.find((r) => r['Task ID'] === removed.id)!;
    expect([gone['Revoke task ID'], gone['Access gone']]).toEqual([revokeTaskId, true]);
    const held = rows.find((r) => r['Task ID'] === stillHeld.id)!;
    expect([held['Revoke task ID'], held['Access gone']]).toEqual([null, false]);
    expect(rows.find((r) => r['Task ID'] === byAccess.id)!['Revoke task ID']).toBe(
      `${[...tenant.data.tasks.values()].find((t) => t.type?.revoke)!.id!}-after`,
    );

    // The summary adds up, per campaign, to the rows.
    const summary = await rowsOf(out, 'Certification summary');
    expect(summary.map((s) => s['Campaign ID']).sort()).toEqual([...tenant.data.campaigns.keys()].sort());
    for (const s of summary) {
      const of = rows.filter((r) => r['Campaign ID'] === s['Campaign ID']);
      const count = (d: string) => of.filter((r) => r['Decision'] === d).length;
      expect([s['Population'], s['Certified'], s['Revoked'], s['Outstanding'], s['Decided']]).toEqual([
        of.length,
        count('Certified'),
        count('Revoked'),
        count('Outstanding'),
        of.length - count('Outstanding'),
      ]);
      expect(s['Revokes done']).toBe(of.filter((r) => r['Access gone'] === true).length);
    }
    // Read independently too.
    expect(openpyxlDump(out).sheets.find((s) => s.name === 'Certification')!.rows).toBe(tasks.length);
    const verified = await spawnAttest(['verify', out], { cwd: root, env: { ...process.env, ...env } });
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stderr).toMatch(/^intact/);
  }, 60_000);

  it('--campaign ID: only that campaign, named on the cover; an unknown campaign is refused and nothing is written', async () => {
    const campaign = certifyOf(removed)!.accessReviewId!;
    const out = join(tmp.dir, 'one-campaign.xlsx');
    const exported = await cli('export', 'certification', '--campaign', campaign, '--out', out);
    expect(exported.code, exported.err).toBe(0);
    const rows = await rowsOf(out, 'Certification');
    expect(rows.length).toBe(certifyTasks().filter((t) => certifyOf(t)!.accessReviewId === campaign).length);
    expect(new Set(rows.map((r) => r['Campaign ID']))).toEqual(new Set([campaign]));
    expect((await rowsOf(out, 'Certification summary')).map((s) => s['Campaign ID'])).toEqual([campaign]);
    const cover = openpyxlDump(out, true).sheets.find((s) => s.name === 'Cover')!;
    expect(cover.data!.some((r) => r[1] === 'Campaign' && r[2] === campaign)).toBe(true);

    const nowhere = join(tmp.dir, 'nowhere.xlsx');
    const unknown = await cli('export', 'certification', '--campaign', 'no-such-campaign', '--out', nowhere);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain("no campaign 'no-such-campaign' in the synced data");
    expect(existsSync(nowhere)).toBe(false);
    const wrongReport = await cli('export', 'tasks', '--campaign', campaign, '--out', nowhere);
    expect(wrongReport.code).toBe(2);
    expect(wrongReport.err).toContain('a campaign scopes the certification report only');
  }, 60_000);

  it("a campaign's page in the app reads the same rows over the contract, with the campaign's counts", async () => {
    const campaign = certifyOf(removed)!.accessReviewId!;
    const out = join(tmp.dir, 'page.xlsx');
    expect((await cli('export', 'certification', '--campaign', campaign, '--out', out)).code).toBe(0);
    const rows = await rowsOf(out, 'Certification');
    const [summary] = await rowsOf(out, 'Certification summary');

    const renderer = join(tmp.dir, 'renderer');
    mkdirSync(renderer, { recursive: true });
    writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>Attest</title>');
    const host = await startBrowserHost({ rendererRoot: renderer, dataDir: join(tmp.dir, 'host-data'), storeFile });
    try {
      const response = await fetch(`${host.origin}/rpc/campaignItems`, {
        method: 'POST',
        headers: { origin: host.origin, 'content-type': 'application/json', 'x-attest-token': host.token },
        body: JSON.stringify({ campaignId: campaign }),
      });
      const reply = (await response.json()) as { ok: boolean; value: ChannelResult<'campaignItems'> };
      expect(reply.ok).toBe(true);
      const { items, summary: counts } = reply.value;
      expect(items.map((i) => [i.taskId, i.reviewers.join(', ') || null, i.decision, i.accessGone])).toEqual(
        rows.map((r) => [r['Task ID'], r['Reviewers'], String(r['Decision']).toLowerCase(), r['Access gone']]),
      );
      expect(counts).toMatchObject({
        population: summary!['Population'],
        certified: summary!['Certified'],
        revoked: summary!['Revoked'],
        outstanding: summary!['Outstanding'],
        revokesGone: summary!['Revokes done'],
      });
      expect(items.find((i) => i.taskId === removed.id)).toMatchObject({ decision: 'revoked', revokeTaskId, accessGone: true });
    } finally {
      await host.close();
    }
  }, 60_000);
});
