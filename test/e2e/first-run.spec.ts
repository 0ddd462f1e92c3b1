import { join } from 'node:path';
import { expect, screenshotDir, test } from './fixtures';

test('a fresh data folder opens on the first-run screen, with the bridge and a strict CSP', async ({ page, host }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  const response = await page.goto(host.url);
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  await expect(page.locator('[data-screen="first-run"]')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Welcome to Attest' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Open demo tenant' })).toBeVisible();
  await expect(page.getByLabel('Client ID')).toBeVisible();
  // The token left the address bar; window.attest has exactly the contract's names.
  expect(page.url()).not.toContain('token=');
  const names = await page.evaluate(() => Object.keys(window.attest));
  expect(names).toContain('listConnections');
  expect(names).toContain('onSyncProgress');
  expect(names).not.toContain('invoke');
  await page.screenshot({ path: join(screenshotDir, 'first-run.png') });
  expect(errors).toEqual([]);
});
