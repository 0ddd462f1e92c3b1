import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { connectAndSync, expect, syncToEnd, test } from './fixtures';

// Runs under scripts/with-keyring.sh (the connection's secret goes to the real OS keychain).
let tenant: ReferenceTenant;
test.beforeAll(async () => {
  tenant = await startTenant({ port: 0, scale: 'demo' });
});
test.afterAll(async () => {
  await tenant?.close();
});

test('a failed sync says when it failed and that the data from the sync before is intact, not that every collection failed', async ({
  page,
  host,
}) => {
  await connectAndSync(page, host.url, tenant);
  await expect(page.getByTestId('last-sync-failed')).toHaveCount(0);
  // Every page answered with a portal's HTML page: the walks fail, the stored data stays.
  tenant.faults.set('html=1');
  await syncToEnd(page);
  tenant.faults.clear();
  await page.getByRole('navigation').getByRole('button', { name: 'Overview' }).click();
  const banner = page.getByTestId('last-sync-failed');
  await expect(banner).toContainText(/The last sync \(run 2\) failed at \d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
  await expect(banner).toContainText('The data from the sync before is intact');
  const apps = page.getByTestId('count-apps');
  await expect(apps).toContainText('last sync failed · data intact');
  await expect(apps).not.toContainText(/\bfailed\b(?! ·)/);
  await expect(apps).toContainText(String(tenant.data.apps.size));
  // A sync that ends well clears it.
  await syncToEnd(page);
  await expect(page.getByTestId('last-sync-failed')).toHaveCount(0);
  await expect(apps).not.toContainText('failed');
});
