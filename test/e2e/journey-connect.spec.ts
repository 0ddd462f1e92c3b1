import { join } from 'node:path';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { COLLECTION_IDS } from '../../src/shared/contract';
import { expect, screenshotDir, startRelay, syncToEnd, test, watchSyncPanel } from './fixtures';

// Runs under scripts/with-keyring.sh: saving a connection stores its secret in the real OS keychain
// (a missing keychain fails this test, it never skips).
let tenant: ReferenceTenant;
test.beforeAll(async () => {
  tenant = await startTenant({ port: 0, scale: 'demo' });
});
test.afterAll(async () => {
  await tenant?.close();
});

test('connect with pasted credentials, sync with visible progress, search and open an automation’s steps', async ({ page, host }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const syncPanel = await watchSyncPanel(page);
  await page.goto(host.url);
  await expect(page.locator('[data-screen="first-run"]')).toBeVisible();

  // What will be used is shown before anything is saved.
  await page.getByLabel('Client ID').fill(tenant.clientId);
  const hostPort = new URL(tenant.url).host;
  await expect(page.getByTestId('derived-host')).toHaveText(hostPort);
  await expect(page.getByTestId('derived-token-url')).toHaveText(`${tenant.url}/auth/v1/token`);
  await expect(page.getByTestId('derived-auth')).toContainText('Signed client assertion');
  await page.getByLabel('Client secret').fill('secret-token:not-a-secret');
  await expect(page.locator('.field-error').first()).toBeVisible();
  await page.getByLabel('Client secret').fill(tenant.clientSecret);
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByTestId('test-result')).toContainText('Connected');
  await page.screenshot({ path: join(screenshotDir, 'connect.png') });
  await page.getByRole('button', { name: 'Save and open' }).click();

  // The frame, online, nothing synced yet.
  await expect(page.locator('[data-screen="overview"]')).toBeVisible();
  await expect(page.getByTestId('online-indicator')).toHaveAttribute('data-online', 'true');
  await expect(page.getByRole('heading', { name: 'Nothing synced yet' })).toBeVisible();
  // The secret never reaches the page again.
  expect(await page.content()).not.toContain(tenant.clientSecret);

  // Sync: per-collection progress while it runs, the panel closes when it ends, then "data as of".
  await syncToEnd(page);
  const panel = page.getByTestId('sync-panel');
  await expect(page.getByTestId('data-as-of')).toContainText('Data as of');
  await expect(panel).toBeHidden();
  expect(await syncPanel()).toEqual({ seen: true, done: COLLECTION_IDS.length });
  // Opened again, it keeps the last sync's progress per collection.
  await page.getByTestId('data-as-of').click();
  for (const id of ['campaigns', 'templates', 'automations', 'toolsets', 'routing-rules', 'scopes']) {
    await expect(panel.getByTestId(`sync-${id}`).locator('[data-state="done"]')).toBeVisible();
    await expect(panel.getByTestId(`sync-${id}`).getByRole('progressbar')).toBeVisible();
  }
  await page.screenshot({ path: join(screenshotDir, 'sync-progress.png') });
  await page.locator('h1', { hasText: 'Overview' }).click();
  await expect(panel).toBeHidden();
  await expect(page.getByTestId('count-automations')).not.toContainText(/^Automations0/);
  await page.screenshot({ path: join(screenshotDir, 'overview.png') });

  // Open an automation from its list and see its steps as a flow with their CEL.
  await page
    .getByRole('navigation')
    .getByRole('button', { name: /^Automations/ })
    .click();
  const firstRow = page.getByTestId('list-row').first();
  await expect(firstRow).toBeVisible();
  await page.screenshot({ path: join(screenshotDir, 'list-automations.png') });
  const name = (await firstRow.locator('div').nth(1).textContent())?.trim() ?? '';
  await firstRow.click();
  await expect(page.getByTestId('automation-flow')).toBeVisible();
  expect(await page.getByTestId('automation-step').count()).toBeGreaterThan(0);
  await page.screenshot({ path: join(screenshotDir, 'automation-steps.png') });

  // Search as you type (Ctrl+K) finds it by a word of its name.
  const word = name.split(/\s+/).find((w) => w.length >= 4) ?? name;
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Quick search' });
  await palette.getByRole('textbox').fill(word.slice(0, 4));
  await expect(palette.locator('.hit').first()).toBeVisible();
  await page.screenshot({ path: join(screenshotDir, 'quick-search.png') });
  await palette.getByRole('textbox').fill(name);
  await expect(palette.locator('.hit', { hasText: name }).first()).toBeVisible();
  await palette.locator('.hit', { hasText: name }).first().click();
  await expect(page.getByTestId('automation-flow')).toBeVisible();
  expect(errors).toEqual([]);
});

test('work offline with the tenant unreachable, then sync again when it is back', async ({ page, host }) => {
  const relay = await startRelay(Number(new URL(tenant.url).port));
  try {
    await page.goto(host.url);
    await page.getByLabel('Client ID').fill(tenant.clientId);
    await page.getByLabel('Client secret').fill(tenant.clientSecret);
    await page.getByRole('button', { name: /advanced options/ }).click();
    await page.getByLabel('Server URL (overrides the host)').fill(relay.url);
    await expect(page.getByTestId('derived-token-url')).toHaveText(`${relay.url}/auth/v1/token`);
    await page.getByLabel('Name').fill('via-relay');
    await page.getByRole('button', { name: 'Save and open' }).click();
    await expect(page.locator('[data-screen="overview"]')).toBeVisible();
    await syncToEnd(page);

    // The tenant goes away: the app says so and keeps serving the local copy.
    await relay.down();
    await page.getByTestId('online-indicator').click();
    await expect(page.getByTestId('online-indicator')).toHaveAttribute('data-online', 'false', { timeout: 30_000 });
    await expect(page.getByTestId('offline-banner')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sync', exact: true })).toBeDisabled();
    await page
      .getByRole('navigation')
      .getByRole('button', { name: /^Scopes/ })
      .click();
    const row = page.getByTestId('list-row').first();
    await expect(row).toBeVisible();
    await row.click();
    await expect(page.locator('[data-screen="detail"][data-collection="scopes"]')).toBeVisible();
    const scopeId = (await page.locator('[data-screen="detail"] code').first().textContent())?.trim() ?? '';
    const title = (await page.locator('[data-screen="detail"] h1').textContent())?.trim() ?? '';
    await page.keyboard.press('Control+k');
    await page.getByRole('dialog', { name: 'Quick search' }).getByRole('textbox').fill(title);
    await expect(page.locator('.hit', { hasText: title }).first()).toBeVisible();
    await page.keyboard.press('Escape');
    await page.screenshot({ path: join(screenshotDir, 'offline.png') });

    // Meanwhile the tenant changes; when it is reachable again, a sync brings the change.
    tenant.data.touch('scopes', scopeId, { displayName: 'Renamed while the app was offline' });
    await relay.up();
    await page.getByTestId('offline-banner').getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByTestId('online-indicator')).toHaveAttribute('data-online', 'true', { timeout: 30_000 });
    await syncToEnd(page);
    await expect(page.getByRole('heading', { name: 'Renamed while the app was offline' })).toBeVisible();
    await page.getByRole('tab', { name: 'History' }).click();
    await expect(page.getByTestId('history')).toContainText('modified');
  } finally {
    await relay.close();
  }
});

test('remove a connection in Settings: its keychain entry is deleted and the app is back to first run', async ({ page, host }) => {
  const { osKeychain } = await import('../../src/main/keychain');
  const credential = tenant.issueCredentials({ useCase: 'removal' });
  await page.goto(host.url);
  await page.getByLabel('Client ID').fill(credential.clientId);
  await page.getByLabel('Client secret').fill(credential.clientSecret);
  await page.getByRole('button', { name: 'Save and open' }).click();
  await expect(page.locator('[data-screen="overview"]')).toBeVisible();
  expect(await osKeychain().get(credential.clientId)).toBe(credential.clientSecret);

  // Reopening the app opens the tenant used last, with its secret from the keychain.
  await page.reload();
  await expect(page.locator('[data-screen="overview"]')).toBeVisible();
  await expect(page.getByTestId('online-indicator')).toHaveAttribute('data-online', 'true');

  await page.getByRole('navigation').getByRole('button', { name: 'Settings' }).click();
  await page.screenshot({ path: join(screenshotDir, 'settings.png') });
  await page.getByRole('button', { name: 'Remove…' }).click();
  await page.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(page.locator('[data-screen="first-run"]')).toBeVisible();
  expect(await osKeychain().get(credential.clientId)).toBeNull();
});
