import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { openpyxlDump } from '../helpers/openpyxl';
import { connectAndSync, expect, screenshotDir, syncToEnd, test } from './fixtures';

// Runs under scripts/with-keyring.sh: saving the connection stores its secret in the real OS keychain.
let tenant: ReferenceTenant;
test.beforeAll(async () => {
  tenant = await startTenant({ port: 0, scale: 'demo' });
});
test.afterAll(async () => {
  await tenant?.close();
});

const nav = (page: Page, name: RegExp) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name }).click();

test('sync, the tenant changes, sync again: Changes shows each changed value before and after, opens the object, exports the diff', async ({
  page,
  host,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await connectAndSync(page, host.url, tenant);

  // One completed run: nothing to compare yet, said without naming any command-line option.
  await nav(page, /^Changes/);
  await expect(page.getByRole('heading', { name: 'Nothing to compare yet' })).toBeVisible();
  await expect(page.locator('[data-screen="changes"]')).not.toContainText('--');

  // The tenant changes one scope (a rename and a new classification), then the app syncs again.
  const [scopeId, before] = [...tenant.data.scopes.entries()].find(([, s]) => s.classification !== 'XAA_SCOPE_CLASSIFICATION_DANGEROUS')!;
  const oldName = before.displayName;
  tenant.data.touch('scopes', scopeId, { displayName: 'Renamed between two syncs', classification: 'XAA_SCOPE_CLASSIFICATION_DANGEROUS' });
  await syncToEnd(page);

  // Changes compares the last two runs by default.
  await expect(page.getByTestId('changes-summary')).toContainText('1 modified');
  await expect(page.getByLabel('From')).toHaveValue('1');
  await expect(page.getByLabel('To')).toHaveValue('2');
  const changed = page.locator(`[data-testid="changed-object"][data-id="${scopeId}"]`);
  await expect(changed).toBeVisible();
  const nameRow = changed.locator('tr[data-field="displayName"]');
  await expect(nameRow.getByTestId('value-before')).toHaveText(oldName!);
  await expect(nameRow.getByTestId('value-after')).toHaveText('Renamed between two syncs');
  const classificationRow = changed.locator('tr[data-field="classification"]');
  await expect(classificationRow.getByTestId('value-before')).toContainText(before.classification === undefined ? '(not set)' : /\w/);
  await expect(classificationRow.getByTestId('value-after')).toContainText('Dangerous');
  await page.screenshot({ path: join(screenshotDir, 'changes.png') });

  // The per-collection counts filter the list.
  await page
    .getByTestId('changes-counts')
    .locator('tr[data-collection="scopes"]')
    .getByRole('button', { name: /modified in Scopes/ })
    .click();
  await expect(page.getByTestId('changed-object')).toHaveCount(1);

  // Export the diff report of the same two runs, and read it back.
  await page.getByRole('button', { name: 'Export diff report…' }).click();
  await expect(page.getByTestId('diff-export')).toBeVisible({ timeout: 60_000 });
  const file = join(host.dialogDir, 'attest-diff-run1-run2.xlsx');
  expect(existsSync(file)).toBe(true);
  const diffSheet = openpyxlDump(file, true).sheets.find((s) => s.name === 'Diff')!;
  expect(diffSheet.rows).toBeGreaterThanOrEqual(1);
  expect(JSON.stringify(diffSheet.data)).toContain(scopeId);

  // Open the object: its history shows the same values before and after.
  await changed.getByRole('button', { name: 'Renamed between two syncs' }).click();
  await expect(page.getByRole('heading', { name: 'Renamed between two syncs' })).toBeVisible();
  await page.getByRole('tab', { name: 'History' }).click();
  const history = page.getByTestId('history');
  await expect(history.locator('tr[data-field="displayName"]').getByTestId('value-before')).toHaveText(oldName!);
  await expect(history.locator('tr[data-field="displayName"]').getByTestId('value-after')).toHaveText('Renamed between two syncs');
  await page.screenshot({ path: join(screenshotDir, 'history-values.png') });
  expect(errors).toEqual([]);
});
