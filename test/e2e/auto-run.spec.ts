import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { MANAGED_ENTITLEMENT_KINDS } from '../../src/tenant/dataset';
import { osKeychain } from '../../src/main/keychain';
import { closePagesThenStop, expect, screenshotDir, spawnJsonLine, startRelay, syncToEnd, test } from './fixtures';

// Runs under scripts/with-keyring.sh: the connection's secret goes to the real OS keychain.
let tenant: ReferenceTenant;
test.beforeAll(async () => {
  tenant = await startTenant({ port: 0, scale: 'demo', seed: 53 });
});
test.afterAll(async () => {
  await tenant?.close();
});

test('send when online: enabled in Settings, the queued changes send on their own when the tenant is back, and a failure is told by a toast and a badge', async ({
  page,
  context,
  dataDir,
}) => {
  const relay = await startRelay(Number(new URL(tenant.url).port));
  const dialogDir = join(dataDir, 'dialogs');
  mkdirSync(dialogDir, { recursive: true });
  // The offline tenant is checked every second (30 by default).
  const host = await spawnJsonLine<{ url: string }>(['ui-host', '--port', '0', '--data-dir', dataDir, '--online-check-seconds', '1']);
  try {
    await page.goto(host.info.url);
    await page.getByLabel('Client ID').fill(tenant.clientId);
    await page.getByLabel('Client secret').fill(tenant.clientSecret);
    await page.getByRole('button', { name: /advanced options/ }).click();
    await page.getByLabel('Server URL (overrides the host)').fill(relay.url);
    await page.getByLabel('Name').fill('auto');
    await page.getByRole('button', { name: 'Save and open' }).click();
    await expect(page.locator('[data-screen="overview"]')).toBeVisible();
    await syncToEnd(page);

    // Settings: off by default; a bad interval is named and cannot be saved; then both are turned on.
    await page
      .getByRole('navigation')
      .getByRole('button', { name: /^Settings/ })
      .click();
    const form = page.getByTestId('auto-run-auto');
    const sendBox = form.getByLabel('Send queued changes when online');
    await expect(sendBox).not.toBeChecked();
    await sendBox.check();
    await form.getByLabel('Sync every', { exact: true }).check();
    const minutes = form.getByLabel('Sync every N minutes');
    await minutes.fill('2');
    await expect(form.locator('.field-error')).toContainText('whole number from 5 to 1440');
    await expect(minutes).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByRole('button', { name: 'Save' })).toBeDisabled();
    await minutes.fill('30');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByRole('status')).toHaveText('Saved.');
    await expect(form.getByTestId('auto-run-due')).toContainText('Next sync due at');
    await expect(page.getByTestId('auto-run-status')).toContainText('Next sync');

    // The tenant goes away; three removals are queued offline, one of a membership the tenant will no longer have.
    await relay.down();
    await page.getByTestId('online-indicator').click();
    await expect(page.getByTestId('online-indicator')).toHaveAttribute('data-online', 'false', { timeout: 30_000 });
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
    await expect(page.getByTestId('auto-run-status')).toContainText('3 changes send when online');
    const gone = memberships[2]!;
    tenant.data.memberships.delete(`${gone.appEntitlementId}:${gone.appUserId}`);

    // The tenant is back: nobody clicks anything; the app notices and sends.
    await relay.up();
    await expect(page.getByTestId('online-indicator')).toHaveAttribute('data-online', 'true', { timeout: 30_000 });
    const toast = page.getByTestId('notice-toast');
    await expect(toast).toBeVisible({ timeout: 60_000 });
    await expect(toast).toHaveAttribute('role', 'alert');
    await expect(toast).toContainText('1 change not sent');
    await expect(toast).toContainText('1 failed');
    await expect(page.getByTestId('outbox-failures-badge')).toContainText('1');
    await expect(page.locator('[data-testid="outbox-item"][data-state="succeeded"]')).toHaveCount(2);
    await expect(page.locator('[data-testid="outbox-item"][data-state="failed"]')).toHaveCount(1);
    expect(tenant.journal().filter((e) => e.operation === 'removeMembership')).toHaveLength(2);
    await expect(page.getByTestId('auto-run-status')).not.toContainText('send when online');
    await page.screenshot({ path: join(screenshotDir, 'auto-run-toast.png') });
    await toast.getByRole('button', { name: 'Dismiss' }).click();
    await expect(toast).toHaveCount(0);
  } finally {
    await osKeychain()
      .delete(tenant.clientId)
      .catch(() => undefined);
    await closePagesThenStop(context, host);
    await relay.close();
  }
});
