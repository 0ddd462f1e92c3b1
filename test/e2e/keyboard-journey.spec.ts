import type { Locator, Page } from '@playwright/test';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { connectAndSync, expect, test } from './fixtures';

// Runs under scripts/with-keyring.sh (the connection's secret goes to the real OS keychain).
let tenant: ReferenceTenant;
test.beforeAll(async () => {
  tenant = await startTenant({ port: 0, scale: 'demo' });
});
test.afterAll(async () => {
  await tenant?.close();
});

const isFocused = (target: Locator) => target.evaluate((element) => element === document.activeElement);

/** Presses Tab (or Shift+Tab) until `target` has the focus; fails if it never does. Answers the number of presses. */
async function tabTo(page: Page, target: Locator, { back = false, max = 80 } = {}): Promise<number> {
  for (let presses = 1; presses <= max; presses += 1) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    if (await isFocused(target)) return presses;
  }
  throw new Error(`${String(target)} never got the focus in ${max} presses of ${back ? 'Shift+Tab' : 'Tab'}`);
}

const focusedRowIndex = (page: Page) =>
  page.evaluate(
    () => (document.activeElement as HTMLElement | null)?.closest('[data-testid="list-row"]')?.getAttribute('data-index') ?? null,
  );

test('with the keyboard alone: search, open a result, sort a list, filter it, select two rows, queue a change, send it', async ({
  page,
  host,
}) => {
  // Setting up: connect and sync.
  await connectAndSync(page, host.url, tenant);
  await page.keyboard.press('Escape');

  // From here on, only keys. The skip link, first in the page, moves the focus to the content.
  await tabTo(page, page.getByRole('link', { name: 'Skip to content' }), { back: true });
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();

  // Search, and open a result.
  await page.keyboard.press('Control+k');
  await expect(page.getByRole('dialog', { name: 'Quick search' }).getByRole('textbox')).toBeFocused();
  await page.keyboard.type('Production access attestation Q3 2026');
  await expect(page.locator('.palette .hit').first()).toContainText('Campaign');
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-screen="detail"][data-collection="campaigns"]')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Production access attestation Q3 2026');

  // To the campaigns list, from the detail's way back to its list.
  await tabTo(page, page.locator('[data-screen="detail"]').getByRole('button', { name: 'Campaigns' }));
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-screen="list"][data-collection="campaigns"]')).toBeVisible();
  await expect(page.getByTestId('list-total')).toHaveText('16 objects');

  // Sort by name: the header is a button.
  const nameHeader = page.getByRole('columnheader', { name: 'Name' });
  await tabTo(page, nameHeader.getByRole('button'));
  await page.keyboard.press('Enter');
  await expect(nameHeader).toHaveAttribute('aria-sort', 'ascending');
  const names = await page.getByTestId('list-row').locator('[role="gridcell"]:nth-child(2)').allTextContents();
  expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));

  // Filter by state: open campaigns only.
  const stateFilter = page.getByRole('combobox', { name: 'Filter by State' });
  await tabTo(page, stateFilter, { back: true });
  await page.keyboard.type('Open');
  await expect(stateFilter).toHaveValue('ACCESS_REVIEW_STATE_OPEN');
  const open = [...tenant.data.campaigns.values()].filter((c) => c.state === 'ACCESS_REVIEW_STATE_OPEN');
  await expect(page.getByTestId('list-total')).toHaveText(`${open.length} objects`);
  expect(open.length).toBeGreaterThan(2);

  // The rows are one Tab stop: arrows, Home and End move within it.
  const grid = page.getByRole('grid', { name: 'Campaigns' });
  await tabTo(page, grid.getByTestId('list-row').first());
  await page.keyboard.press('End');
  expect(await focusedRowIndex(page)).toBe(String(open.length - 1));
  await page.keyboard.press('Home');
  expect(await focusedRowIndex(page)).toBe('0');
  await page.keyboard.press('Tab');
  expect(await focusedRowIndex(page)).toBeNull();
  await page.keyboard.press('Shift+Tab');
  expect(await focusedRowIndex(page)).toBe('0');

  // Select two rows with Space.
  await page.keyboard.press('ArrowDown');
  expect(await focusedRowIndex(page)).toBe('1');
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Space');
  await expect(grid.locator('[role="row"][aria-selected="true"]')).toHaveCount(2);
  const chosen = await grid.locator('[role="row"][aria-selected="true"] [role="gridcell"]:nth-child(2)').allTextContents();
  await expect(page.getByTestId('selection-bar')).toContainText('2 selected');

  // Queue a change for them: a copy of each campaign.
  await tabTo(page, page.getByRole('button', { name: 'Queue a copy of each (2)' }), { back: true });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('selection-bar').getByRole('status')).toContainText('Queued 2 changes');
  await expect(page.getByTestId('outbox-badge')).toHaveText('2');
  await tabTo(page, page.getByRole('button', { name: 'Open the outbox' }));
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-screen="outbox"]')).toBeVisible();
  await expect(page.getByTestId('outbox-item')).toHaveCount(2);

  // Send it.
  await tabTo(page, page.getByRole('button', { name: /Send all queued \(2\)/ }));
  await page.keyboard.press('Enter');
  // The confirmation names what goes out and takes the focus: Enter sends.
  await expect(page.getByTestId('confirm-panel')).toContainText('Send 2 queued changes to the tenant now?');
  await expect(page.getByRole('button', { name: 'Send 2' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-testid="outbox-item"][data-state="succeeded"]')).toHaveCount(2, { timeout: 60_000 });
  await expect(page.getByTestId('send-announcement')).toContainText('Send finished: 2 succeeded');
  const created = tenant.journal().filter((entry) => entry.operation === 'createCampaign');
  expect(created).toHaveLength(2);
  const copies = [...tenant.data.campaigns.values()].map((c) => c.displayName).filter((n) => n?.endsWith('(copy)'));
  expect(copies.sort()).toEqual(chosen.map((name) => `${name} (copy)`).sort());
});
