import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { COLLECTION_IDS } from '../../src/shared/contract';
import { expect, screenshotDir, syncsFinished, test, watchSyncPanel } from './fixtures';

const cli = join(new URL('../..', import.meta.url).pathname, 'bin', 'attest.mjs');

test('open the demo tenant from the first-run screen: it syncs at once, with its progress, and lands on its data', async ({
  page,
  host,
}) => {
  const syncPanel = await watchSyncPanel(page);
  await page.goto(host.url);
  await page.getByRole('button', { name: 'Open demo tenant' }).click();
  await expect(page.locator('[data-screen="overview"]')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('combobox', { name: 'Tenant' })).toHaveValue('demo');
  await expect(page.getByTestId('online-indicator')).toHaveAttribute('data-online', 'true');

  // No other click: the sync runs with its progress shown, the panel closes when it ends, the counts are there.
  await syncsFinished(page, 1);
  await expect(page.getByTestId('count-scopes')).toContainText(/Scopes[1-9]/);
  await expect(page.getByTestId('data-as-of')).toContainText('Data as of');
  const panel = page.getByTestId('sync-panel');
  await expect(panel).toBeHidden();
  expect(await syncPanel()).toEqual({ seen: true, done: COLLECTION_IDS.length });
  await expect(page.getByTestId('count-automations')).toContainText(/Automations[1-9]/);
  await page.screenshot({ path: join(screenshotDir, 'demo-overview.png'), fullPage: true });

  // The panel opens on demand and closes on Escape, or on a click elsewhere.
  await page.getByTestId('data-as-of').click();
  await expect(panel).toBeVisible();
  await expect(panel.getByTestId('sync-scopes')).toContainText('✓');
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await page.getByTestId('data-as-of').click();
  await expect(panel).toBeVisible();
  await page.locator('h1', { hasText: 'Overview' }).click();
  await expect(panel).toBeHidden();

  // Settings: the demo connection is listed; the theme can follow the OS or be forced.
  await page.getByRole('navigation').getByRole('button', { name: 'Settings' }).click();
  await expect(page.locator('[data-screen="settings"]')).toContainText('demo');
  await page.getByRole('radio', { name: 'Dark' }).check();
  await page
    .getByRole('navigation')
    .getByRole('button', { name: /^Automations/ })
    .click();
  await page.getByTestId('list-row').first().click();
  await expect(page.getByTestId('automation-flow')).toBeVisible();
  await page.screenshot({ path: join(screenshotDir, 'automation-dark.png') });
  await page.getByRole('navigation').getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('radio', { name: 'Follow the system' }).check();
  // Following the system: the OS's scheme, and its changes while the app is open.
  const root = page.locator('html');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(root).toHaveAttribute('data-theme', 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(root).toHaveAttribute('data-theme', 'light');
  await page.getByRole('radio', { name: 'Dark' }).check();
  await expect(root).toHaveAttribute('data-theme', 'dark');
  await page.getByRole('radio', { name: 'Follow the system' }).check();
  await expect(root).toHaveAttribute('data-theme', 'light');
});

test('`attest demo` prints its workbook and how to open the app on the same data, and the app opens there on its data', async ({
  page,
  host,
  dataDir,
}) => {
  const out = join(dataDir, 'evidence.xlsx');
  const demo = spawnSync(process.execPath, [cli, 'demo', '--data-dir', dataDir, '--out', out], { encoding: 'utf8', timeout: 120_000 });
  expect(demo.status, demo.stderr).toBe(0);
  expect(demo.stderr).toContain(`workbook: ${out} (verify: intact;`);
  expect(demo.stderr).toContain(`npx attest ui-host --data-dir ${dataDir}`);

  // The browser host over that folder (what the printed command starts) reopens the demo on the run the CLI stored.
  await page.goto(host.url);
  await expect(page.locator('[data-screen="overview"]')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('combobox', { name: 'Tenant' })).toHaveValue('demo');
  await expect(page.getByTestId('count-scopes')).toContainText(/Scopes[1-9]/);
  const history = page.getByTestId('sync-history');
  await expect(history.locator('tbody tr').filter({ hasText: 'completed' })).toHaveCount(2, { timeout: 60_000 });
});
