import { join } from 'node:path';
import { expect, screenshotDir, test } from './fixtures';

test('open the demo tenant from the first-run screen, sync it, and find its data', async ({ page, host }) => {
  await page.goto(host.url);
  await page.getByRole('button', { name: 'Open demo tenant' }).click();
  await expect(page.locator('[data-screen="overview"]')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('combobox', { name: 'Tenant' })).toHaveValue('demo');
  await expect(page.getByTestId('online-indicator')).toHaveAttribute('data-online', 'true');
  await page.getByRole('button', { name: 'Sync', exact: true }).click();
  await expect(page.getByTestId('data-as-of')).toContainText('Data as of', { timeout: 60_000 });
  await page.locator('h1', { hasText: 'Overview' }).click();
  await expect(page.getByTestId('count-scopes')).not.toContainText(/Scopes0/);
  await page.screenshot({ path: join(screenshotDir, 'demo-overview.png'), fullPage: true });

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
