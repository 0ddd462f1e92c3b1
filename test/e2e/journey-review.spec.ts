import { copyFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import ExcelJS from 'exceljs';
import type { Page } from '@playwright/test';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { MANAGED_ENTITLEMENT_KINDS } from '../../src/tenant/dataset';
import { editWorksheet } from '../helpers/review-edit';
import { connectAndSync, expect, sendAllQueued, syncToEnd, test } from './fixtures';

// Runs under scripts/with-keyring.sh (the connection's secret goes to the real OS keychain).
let tenant: ReferenceTenant;
/** The managed entitlement with the most members (its memberships can be removed through the API). */
let entitlementId: string;
test.beforeAll(async () => {
  tenant = await startTenant({ port: 0, seed: 77 });
  const members = new Map<string, number>();
  for (const m of tenant.data.memberships.values()) {
    const kind = tenant.data.entitlements.get(m.appEntitlementId)?.kind;
    if (kind && MANAGED_ENTITLEMENT_KINDS.includes(kind)) members.set(m.appEntitlementId, (members.get(m.appEntitlementId) ?? 0) + 1);
  }
  const [most] = [...members.entries()].sort((a, b) => b[1] - a[1]);
  expect(most![1]).toBeGreaterThanOrEqual(10);
  entitlementId = most![0];
});
test.afterAll(async () => {
  await tenant?.close();
});

const nav = (page: Page, name: RegExp | string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name }).click();

/** Opens the entitlement's page from the Entitlements list, filtered by its id. */
async function openEntitlement(page: Page, id: string): Promise<void> {
  await nav(page, /^Entitlements/);
  await page.getByRole('searchbox', { name: 'Filter entitlements by text' }).fill(id);
  await expect(page.getByTestId('list-row')).toHaveCount(1);
  await page.getByTestId('list-row').click();
  await expect(page.locator('[data-screen="detail"][data-collection="entitlements"]')).toBeVisible();
}

/** No critical or serious axe finding (WCAG 2.1 A/AA and best practices) on what is on screen. */
async function expectAccessible(page: Page, screen: string): Promise<void> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  const blocking = result.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious');
  expect(
    blocking.map((v) => `${v.id} on ${screen}: ${v.nodes[0]?.target.join(' ') ?? ''}`),
    screen,
  ).toEqual([]);
}

const xlsxIn = (dir: string): string[] => readdirSync(dir).filter((f) => f.endsWith('.xlsx'));

/** A sheet's rows below its header, each as an object keyed by the header's names (exceljs reading). */
async function sheetRows(file: string, name: string): Promise<Record<string, unknown>[]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  const sheet = workbook.getWorksheet(name);
  expect(sheet, `the sheet ${name}`).toBeTruthy();
  const header = (sheet!.getRow(1).values as unknown[]).map((v) => (v === undefined || v === null ? '' : String(v)));
  const rows: Record<string, unknown>[] = [];
  sheet!.eachRow((row, n) => {
    if (n === 1) return;
    const values = row.values as unknown[];
    rows.push(Object.fromEntries(header.map((h, i) => [h, values[i]]).filter(([h]) => h)));
  });
  return rows;
}

test('a review worksheet out from an entitlement page, decisions in through the Outbox: refused when altered, else 3 removals sent and proven', async ({
  page,
  host,
}) => {
  test.setTimeout(240_000);
  await connectAndSync(page, host.url, tenant);

  // Export the worksheet from the entitlement's page, for a named reviewer.
  await openEntitlement(page, entitlementId);
  await page.getByRole('button', { name: 'Export review worksheet…' }).click();
  await page.getByLabel('Reviewer').fill('Rita Reviewer');
  await page.getByRole('button', { name: 'Save worksheet…' }).click();
  const exported = page.getByTestId('review-export');
  await expect(exported).toContainText(/Review worksheet of entitlement .*: \d+ memberships, for Rita Reviewer\./, { timeout: 60_000 });
  await expect(exported).toContainText(host.dialogDir);
  await expectAccessible(page, 'a review worksheet exported');
  const [worksheet] = xlsxIn(host.dialogDir);
  expect(worksheet).toMatch(/^review-.*\.xlsx$/);
  const file = join(host.dialogDir, worksheet!);
  const pristine = join(host.dialogDir, '..', 'pristine.xlsx');
  copyFileSync(file, pristine);

  // Refused: a worksheet with a cell other than Decision or Comment changed is named by that cell; nothing is queued.
  const changed = join(host.dialogDir, 'changed.xlsx');
  copyFileSync(pristine, changed);
  editWorksheet(changed, [
    [2, 'Revoke', 'gone'],
    ['set', 'B3', 'Someone Else'],
  ]);
  await nav(page, /^Outbox/);
  await page.getByRole('tab', { name: 'Import review decisions' }).click();
  await page.getByRole('button', { name: 'Choose a returned worksheet…' }).click();
  const refused = page.getByTestId('review-refused');
  await expect(refused).toContainText(`Refused: ${worksheet}. Nothing was queued or recorded.`);
  await expect(refused).toContainText(/'Review'!B3: ".*" → "Someone Else"/);
  await expect(page.getByRole('button', { name: /^Import: queue/ })).toHaveCount(0);
  await expect(page.getByTestId('outbox-badge')).toHaveCount(0);
  await expectAccessible(page, 'a review worksheet refused');
  rmSync(changed);

  // The reviewer's decisions, by openpyxl: 3 Revoke and 2 Keep, each with a comment.
  const decisions: [number, string, string][] = [
    [2, 'Revoke', 'left the team in March'],
    [3, 'Keep', 'needs it for payroll'],
    [5, 'Revoke', 'contractor, contract ended'],
    [7, 'Keep', 'on-call admin'],
    [9, 'Revoke', 'duplicate account'],
  ];
  editWorksheet(file, decisions);
  await page.getByRole('button', { name: 'Choose a returned worksheet…' }).click();
  const preview = page.getByTestId('review-preview');
  await expect(preview).toContainText(`${worksheet} · reviewer Rita Reviewer`);
  await expect(preview).toContainText('5 decisions');
  await expect(preview).toContainText(`Dry run: 3 removals would be queued as one batch named ${worksheet}`);
  const rows = page.getByTestId('review-decisions').locator('tbody tr');
  await expect(rows).toHaveCount(5);
  for (const [i, [row, decision, comment]] of decisions.entries()) {
    await expect(rows.nth(i)).toContainText(`${row}`);
    await expect(rows.nth(i)).toContainText(decision);
    await expect(rows.nth(i)).toContainText(comment);
    await expect(rows.nth(i)).toContainText(decision === 'Revoke' ? 'removal would be queued' : 'kept');
  }
  // A dry run queues nothing.
  await expect(page.getByTestId('outbox-badge')).toHaveCount(0);
  await expectAccessible(page, "a review worksheet's dry run");
  await page.getByRole('button', { name: 'Import: queue 3 removals' }).click();

  // On to the batch just queued: the three removals.
  await expect(page.getByTestId('outbox-item')).toHaveCount(3);
  await expect(page.getByTestId('outbox-badge')).toHaveText('3');
  await sendAllQueued(page);
  await expect(page.locator('[data-testid="outbox-item"][data-state="succeeded"]')).toHaveCount(3, { timeout: 60_000 });
  expect(tenant.journal().filter((e) => e.operation === 'removeMembership')).toHaveLength(3);
  await syncToEnd(page);

  // The proof: the Review decisions report, read with exceljs.
  for (const f of xlsxIn(host.dialogDir)) rmSync(join(host.dialogDir, f));
  await nav(page, 'Reports');
  await expect(page.locator('[data-screen="reports"]')).toBeVisible();
  await page.getByRole('radio', { name: /Review decisions and their proof/ }).check();
  await page.getByRole('button', { name: 'Export…' }).click();
  await expect(page.getByTestId('export-result')).toBeVisible({ timeout: 60_000 });
  const [report] = xlsxIn(host.dialogDir);
  const proof = await sheetRows(join(host.dialogDir, report!), 'Review decisions');
  expect(proof).toHaveLength(5);
  for (const r of proof) {
    expect(r.Reviewer).toBe('Rita Reviewer');
    expect(r.Worksheet).toBe(worksheet);
  }
  expect(proof.filter((r) => r.Outcome === 'removed').map((r) => r.Row)).toEqual([2, 5, 9]);
  expect(proof.filter((r) => r.Outcome === 'kept').map((r) => r.Row)).toEqual([3, 7]);
  expect(proof.filter((r) => r.Decision === 'Revoke').every((r) => r['Item state'] === 'succeeded' && r['In latest sync'] === 'gone')).toBe(
    true,
  );
});

test('an app page and a campaign page export their review worksheets too', async ({ page, host }) => {
  await connectAndSync(page, host.url, tenant);
  const held = (appId: string) => [...tenant.data.memberships.values()].filter((m) => m.appId === appId).length;
  const single = ([...tenant.data.campaigns.values()] as unknown as { id: string; singleApp: { appId: string } | null }[]).find(
    (c) => c.singleApp && held(c.singleApp.appId) > 0,
  )!;
  const appId = single.singleApp!.appId;
  for (const [label, collection, id] of [
    ['Apps', 'apps', appId],
    ['Campaigns', 'campaigns', single.id],
  ] as const) {
    await nav(page, new RegExp(`^${label}`));
    await page.getByRole('searchbox', { name: `Filter ${label.toLowerCase()} by text` }).fill(id);
    await expect(page.getByTestId('list-row')).toHaveCount(1);
    await page.getByTestId('list-row').click();
    await expect(page.locator(`[data-screen="detail"][data-collection="${collection}"]`)).toBeVisible();
    await page.getByRole('button', { name: 'Export review worksheet…' }).click();
    await page.getByLabel('Reviewer').fill('Owen Owner');
    await page.getByRole('button', { name: 'Save worksheet…' }).click();
    await expect(page.getByTestId('review-export')).toContainText(`Review worksheet of ${collection === 'apps' ? 'app' : 'campaign'} `, {
      timeout: 60_000,
    });
    await expect(page.getByTestId('review-export')).toContainText(`: ${held(appId)} memberships, for Owen Owner.`);
  }
  expect(xlsxIn(host.dialogDir)).toHaveLength(2);
});
