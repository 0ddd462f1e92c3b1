import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { MANAGED_ENTITLEMENT_KINDS } from '../../src/tenant/dataset';
import { osKeychain } from '../../src/main/keychain';
import { join } from 'node:path';
import { expect, screenshotDir, syncToEnd, test, sendAllQueued } from './fixtures';

// Runs under scripts/with-keyring.sh: the connection's secret goes to the real OS keychain.
const SEED = 31;
let tenant: ReferenceTenant;
let port = 0;
test.beforeAll(async () => {
  tenant = await startTenant({ port: 0, scale: 'demo', seed: SEED });
  port = Number(new URL(tenant.url).port);
});
test.afterAll(async () => {
  await tenant?.close();
});

test('the tenant rotates its credential: the header says credentials refused, the credential is replaced in Settings, and the queued changes send', async ({
  page,
  host,
}) => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  const keychain = osKeychain();

  // Connect, sync, and queue three removals.
  await page.goto(host.url);
  await page.getByLabel('Client ID').fill(tenant.clientId);
  await page.getByLabel('Client secret').fill(tenant.clientSecret);
  await page.getByRole('button', { name: 'Save and open' }).click();
  await expect(page.locator('[data-screen="overview"]')).toBeVisible();
  await expect(page.getByTestId('online-indicator')).toHaveAttribute('data-status', 'online');
  await syncToEnd(page);
  const oldClientId = tenant.clientId;
  const memberships = [...tenant.data.memberships.values()]
    .filter((m) => MANAGED_ENTITLEMENT_KINDS.includes(tenant.data.entitlements.get(m.appEntitlementId)!.kind))
    .slice(0, 3);
  await page
    .getByRole('navigation')
    .getByRole('button', { name: /^Outbox/ })
    .click();
  await page.getByRole('tab', { name: 'Import CSV' }).click();
  await page.getByLabel('Kind').selectOption('remove-membership');
  const csv = ['app_id,app_entitlement_id,app_user_id', ...memberships.map((m) => `${m.appId},${m.appEntitlementId},${m.appUserId}`)];
  await page.getByLabel('CSV file').setInputFiles({ name: 'removals.csv', mimeType: 'text/csv', buffer: Buffer.from(csv.join('\n')) });
  await page.getByRole('button', { name: 'Queue 3 changes' }).click();
  await expect(page.getByTestId('outbox-item')).toHaveCount(3);

  // The tenant restarts on the same address with a new credential: the send pauses on 401.
  await tenant.close();
  tenant = await startTenant({ port, scale: 'demo', seed: SEED });
  expect(tenant.clientId).not.toBe(oldClientId);
  await sendAllQueued(page);
  const indicator = page.getByTestId('online-indicator');
  await expect(indicator).toHaveAttribute('data-status', 'credentials-refused', { timeout: 30_000 });
  await expect(indicator).toHaveText('Credentials refused');
  await expect(page.getByTestId('credentials-refused-banner')).toContainText('Replace the credential in Settings');
  await expect(page.locator('[data-testid="outbox-item"][data-state="queued"]')).toHaveCount(3);
  // Checking again asks the tenant for a token: it is still refused, not "offline".
  await indicator.click();
  await expect(indicator).toHaveAttribute('data-status', 'credentials-refused');
  await expect(page.getByRole('button', { name: /Send all queued/ })).toBeDisabled();

  // Settings → Replace credential: paste, test, save.
  await page.getByTestId('credentials-refused-banner').getByRole('button', { name: 'Replace credential' }).click();
  const form = page.getByTestId('replace-credential');
  await expect(form).toBeVisible();
  await form.getByLabel('New client ID').fill(tenant.clientId);
  await form.getByLabel('New client secret').fill(tenant.clientSecret);
  await expect(form.getByRole('button', { name: 'Save credential' })).toBeDisabled();
  await form.getByRole('button', { name: 'Test' }).click();
  await expect(form.getByTestId('replace-test-result')).toContainText('gave a token');
  await page.screenshot({ path: join(screenshotDir, 'credential-replace.png') });
  await form.getByRole('button', { name: 'Save credential' }).click();
  await expect(page.getByTestId('settings-notice')).toContainText('its local data and its outbox are kept');
  await expect(indicator).toHaveAttribute('data-status', 'online');
  await expect(indicator).toHaveText('Online');
  await expect(page.getByTestId('credentials-refused-banner')).toHaveCount(0);
  expect(await keychain.get(tenant.clientId)).toBe(tenant.clientSecret);
  expect(await keychain.get(oldClientId)).toBeNull();
  // The page never holds the secret again.
  expect(await page.content()).not.toContain(tenant.clientSecret);

  // The queued changes are still there, and now they send.
  await page
    .getByRole('navigation')
    .getByRole('button', { name: /^Outbox/ })
    .click();
  await expect(page.locator('[data-testid="outbox-item"][data-state="queued"]')).toHaveCount(3);
  await sendAllQueued(page);
  await expect(page.locator('[data-testid="outbox-item"][data-state="succeeded"]')).toHaveCount(3, { timeout: 60_000 });
  expect(tenant.journal().filter((e) => e.operation === 'removeMembership')).toHaveLength(3);

  await keychain.delete(tenant.clientId);
  expect(problems).toEqual([]);
});
