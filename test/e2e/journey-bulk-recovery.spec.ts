import { join } from 'node:path';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { appliedCounts, removableMemberships, removalsCsv } from '../integration/outbox.helpers';
import type { OutboxItem } from '../../src/main/outbox/queue';
import { expect, screenshotDir, test, sendAllQueued } from './fixtures';

// Runs under scripts/with-keyring.sh (the connection's secret goes to the real OS keychain). The
// fixture fails the test on any console error or uncaught page error: a send of 300 changes once
// drove the outbox into a render loop (React #185).
let tenant: ReferenceTenant;
test.beforeAll(async () => {
  // Twice the demo tenant: enough removable memberships for 300 removals.
  tenant = await startTenant({ port: 0, scale: 2, seed: 14 });
});
test.afterAll(async () => {
  await tenant?.close();
});

test('a send of 300 removals to a faulty tenant, watched from every outbox tab, then the batch recovered with two bulk actions', async ({
  page,
  host,
}) => {
  test.setTimeout(240_000);
  await page.goto(host.url);
  await page.getByLabel('Client ID').fill(tenant.clientId);
  await page.getByLabel('Client secret').fill(tenant.clientSecret);
  await page.getByRole('button', { name: 'Save and open' }).click();
  await expect(page.locator('[data-screen="overview"]')).toBeVisible();
  await page
    .getByRole('navigation')
    .getByRole('button', { name: /^Outbox/ })
    .click();

  // 300 removals from one CSV: one batch.
  const rows = removableMemberships(tenant.data, 300);
  await page.getByRole('tab', { name: 'Import CSV' }).click();
  await page.getByLabel('Kind').selectOption('remove-membership');
  await page
    .getByLabel('CSV file')
    .setInputFiles({ name: 'q3-removals.csv', mimeType: 'text/csv', buffer: Buffer.from(removalsCsv(rows)) });
  await page.getByRole('button', { name: 'Queue 300 changes' }).click();
  await expect(page.getByTestId('outbox-badge')).toHaveText('300');
  // A page of 100 at a time.
  await expect(page.getByTestId('outbox-item')).toHaveCount(100);
  await expect(page.getByRole('navigation', { name: 'Pages of changes' })).toContainText('1–100 of 300');

  // The tenant has a bad day; the send is watched from each tab in turn.
  tenant.faults.set('error5xx=0.1,rate429=0.1,dropAfterApply=0.05,truncate=0.03,aborted=0.1');
  await sendAllQueued(page);
  // Each tab stays on screen while the next 50 changes go out (the progress card is above the tabs).
  const done = async () => Number(/ (\d+) \/ 300/.exec((await page.getByTestId('send-progress').textContent()) ?? '')?.[1] ?? 0);
  const tabs: [string, string | null][] = [
    ['Journal', null],
    ['Changes', 'uncertain'],
    ['Imports', null],
    ['Journal', null],
    ['Changes', null],
  ];
  for (const [i, [tab, state]] of tabs.entries()) {
    await page.getByRole('tab', { name: tab }).click();
    if (state) await page.getByTestId(`filter-${state}`).click();
    await expect.poll(done, { timeout: 120_000 }).toBeGreaterThanOrEqual(Math.min(300, 50 * (i + 1)));
  }
  await expect(page.getByTestId('send-progress')).toContainText('Last send 300 / 300', { timeout: 120_000 });
  const progress = (await page.getByTestId('send-progress').textContent()) ?? '';
  const failed = Number(/(\d+) failed/.exec(progress)?.[1]);
  const uncertain = Number(/(\d+) uncertain/.exec(progress)?.[1]);
  expect(failed).toBeGreaterThan(0);
  // 5xx, cut answers and changes applied but unanswered are read from the tenant and retried within the send.
  expect(uncertain).toBe(0);

  // The batch, with where its changes are now; its changes shown from there.
  await page.getByRole('tab', { name: 'Imports' }).click();
  const batch = page.getByTestId('batch');
  await expect(batch).toHaveCount(1);
  await expect(batch).toContainText('q3-removals.csv');
  await expect(batch).toContainText(`${failed} failed`);
  await batch.getByRole('button', { name: 'Show the changes of q3-removals.csv' }).click();
  await expect(page.getByLabel('Import', { exact: true })).not.toHaveValue('');

  // Bulk action 1: every failed change of the batch (refused as concurrent) retried, then sent again while the
  // tenant still refuses each one: failed again.
  await page.getByTestId('filter-failed').click();
  await page.getByRole('button', { name: `Select all ${failed} matching` }).click();
  await expect(page.getByTestId('selected-count')).toHaveText(`All ${failed} matching selected`);
  await page.screenshot({ path: join(screenshotDir, 'outbox-bulk-selection.png') });
  await page.getByRole('button', { name: `Retry (${failed})` }).click();
  await expect(page.locator('.banner')).toContainText(`Retried ${failed} change`);
  await expect(page.getByTestId('outbox-badge')).toHaveText(String(failed));
  tenant.faults.set('aborted=1');
  await sendAllQueued(page, `Send all queued (${failed})`);
  await expect(page.getByTestId('send-progress')).toContainText(`Last send ${failed} / ${failed}`, { timeout: 60_000 });
  await expect(page.getByTestId('send-progress')).toContainText(`${failed} failed`);
  tenant.faults.clear();

  // Bulk action 2: the failed ones marked resolved with one note.
  await page.getByTestId('filter-failed').click();
  await expect(page.getByTestId('outbox-item')).toHaveCount(failed);
  await page.getByRole('button', { name: /^Select all on screen/ }).click();
  await expect(page.getByTestId('selected-count')).toHaveText(`${failed} selected`);
  await page.getByRole('button', { name: `Resolve (${failed})…` }).click();
  await page.getByLabel(`Note for all ${failed}`).fill('checked in the tenant console: removed');
  await page.getByRole('button', { name: `Mark ${failed} resolved` }).click();
  await expect(page.locator('.banner')).toContainText(`Marked ${failed} change`);
  await expect(page.getByTestId('outbox-badge')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'No change matches' })).toBeVisible();

  await page.getByRole('tab', { name: 'Imports' }).click();
  await expect(batch).toContainText(`${300 - failed} succeeded`);
  await expect(batch).toContainText(`${failed} resolved`);
  await expect(batch).not.toContainText('failed');
  await page.screenshot({ path: join(screenshotDir, 'outbox-imports.png') });

  // Each removal reached the tenant at most once.
  const items = (await page.evaluate(async () => {
    const reply = await (
      window as unknown as { attest: { outboxList(a: unknown): Promise<{ value: { items: unknown[] } }> } }
    ).attest.outboxList({
      limit: 500,
    });
    return reply.value.items;
  })) as OutboxItem[];
  expect(items).toHaveLength(300);
  const applied = appliedCounts(items, tenant.journal());
  expect(Math.max(...applied.values())).toBeLessThanOrEqual(1);
});
