import { join } from 'node:path';
import { closePagesThenStop, expect, screenshotDir, spawnJsonLine, test } from './fixtures';
import { seedFixtureStore } from './seed-store';

// Browsing a stored workspace with no tenant at all: lists, details, search, offline states.
test('browse a stored workspace offline: overview, lists, automation steps, search, raw JSON, history', async ({ page, dataDir }) => {
  const storeFile = join(dataDir, 'fixtures.sqlite');
  seedFixtureStore(storeFile, 300);
  const host = await spawnJsonLine<{ url: string }>(['ui-host', '--port', '0', '--data-dir', dataDir, '--store', storeFile]);
  try {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(host.info.url);

    // Overview: counts and the offline banner (no tenant behind this workspace).
    await expect(page.locator('[data-screen="overview"]')).toBeVisible();
    await expect(page.getByTestId('count-scopes')).toContainText('302');
    await expect(page.getByTestId('offline-banner')).toBeVisible();
    await expect(page.getByTestId('online-indicator')).toHaveAttribute('data-online', 'false');
    await expect(page.getByRole('button', { name: 'Sync', exact: true })).toBeDisabled();

    // A virtualized list: 302 rows, far fewer in the DOM.
    await page
      .getByRole('navigation')
      .getByRole('button', { name: /^Scopes/ })
      .click();
    await expect(page.getByTestId('list-total')).toHaveText('302 objects');
    const rendered = await page.getByTestId('list-row').count();
    expect(rendered).toBeGreaterThan(5);
    expect(rendered).toBeLessThan(80);
    await page.screenshot({ path: join(screenshotDir, 'list-scopes.png') });

    // Rows come in id order until a header is clicked: then ascending, then descending.
    await expect(page.getByTestId('list-row').first()).toContainText('payroll');
    await page.getByRole('columnheader', { name: 'Scope' }).click();
    await expect(page.getByRole('columnheader', { name: /Scope/ }).first()).toHaveAttribute('aria-sort', 'ascending');
    await expect(page.getByTestId('list-row').first()).toContainText('extra:scope-0');
    await page.getByRole('columnheader', { name: /Scope/ }).first().click();
    await expect(page.getByRole('columnheader', { name: /Scope/ }).first()).toHaveAttribute('aria-sort', 'descending');
    await expect(page.getByTestId('list-row').first()).not.toContainText('extra:scope-0');

    // An automation's triggers and steps with their CEL.
    await page
      .getByRole('navigation')
      .getByRole('button', { name: /^Automations/ })
      .click();
    await page.getByTestId('list-row').filter({ hasText: 'Leaver offboarding' }).click();
    await expect(page.locator('[data-screen="detail"]')).toBeVisible();
    await expect(page.getByTestId('automation-flow')).toBeVisible();
    expect(await page.getByTestId('automation-step').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('automation-trigger').count()).toBeGreaterThan(0);
    await expect(page.locator('.cel').first()).toBeVisible();
    await page.screenshot({ path: join(screenshotDir, 'automation-detail.png'), fullPage: false });
    await page.getByRole('tab', { name: 'Raw JSON' }).click();
    await expect(page.getByTestId('raw-json')).toContainText('"auto_leaver"');
    await page.getByRole('tab', { name: 'History' }).click();
    await expect(page.getByTestId('history')).toContainText('added');

    // Ctrl+K from anywhere: as-you-type search, Enter opens the hit.
    await page.keyboard.press('Control+k');
    await page.getByRole('dialog', { name: 'Quick search' }).getByRole('textbox').fill('payroll');
    await expect(page.locator('.hit').first()).toContainText(/payroll/i);
    await page.keyboard.press('Enter');
    await expect(page.locator('[data-screen="detail"][data-collection="scopes"]')).toBeVisible();

    // The search screen with facets.
    await page.getByRole('navigation').getByRole('button', { name: 'Search' }).click();
    await page.getByRole('textbox', { name: 'Search' }).fill('extra');
    await expect(page.getByTestId('search-summary')).toContainText('300 results');
    await expect(page.getByTestId('facet-scopes')).toContainText('300');
    await page.screenshot({ path: join(screenshotDir, 'search.png') });

    await page.getByRole('navigation').getByRole('button', { name: 'Overview' }).click();
    await expect(page.locator('[data-screen="overview"]')).toBeVisible();
    await page.screenshot({ path: join(screenshotDir, 'overview-offline.png') });
    expect(errors).toEqual([]);
  } finally {
    await closePagesThenStop(page.context(), host);
  }
});
