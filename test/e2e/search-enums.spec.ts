import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, screenshotDir, syncsFinished, test } from './fixtures';

/** The list's object count once a filter is chosen (the count changes from the whole collection's). */
async function filteredTotal(page: Page, filter: string, label: string): Promise<number> {
  const total = page.getByTestId('list-total');
  await expect(total).toHaveText(/^\d+ objects?$/);
  const all = await total.innerText();
  await page.getByRole('combobox', { name: filter }).selectOption({ label });
  await expect(total).not.toHaveText(all);
  await expect(total).toHaveText(/^\d+ objects?$/);
  return Number((await total.innerText()).split(' ')[0]);
}

// Search over states and classifications, and the Search screen's field filters, on the demo tenant.
test('search finds the scopes classified dangerous by the word, and narrows by field filters', async ({ page, host }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(host.url);
  await page.getByRole('button', { name: 'Open demo tenant' }).click();
  // Opening the demo tenant syncs it; what follows searches what that sync stored.
  await syncsFinished(page, 1);
  await expect(page.getByTestId('sync-panel')).toBeHidden();

  // How many scopes the store holds as dangerous: the Scopes list filtered by classification.
  const nav = page.getByRole('navigation');
  await nav.getByRole('button', { name: /^Scopes/ }).click();
  const dangerous = await filteredTotal(page, 'Filter by Classification', 'Dangerous');
  expect(dangerous).toBeGreaterThan(0);

  // The word finds exactly those: every hit a scope, as many as the list.
  await nav.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('textbox', { name: 'Search' }).fill('dangerous');
  const summary = page.getByTestId('search-summary');
  await expect(summary).toContainText(`${dangerous} result`);
  await expect(page.getByTestId('facet-scopes')).toContainText(String(dangerous));
  await expect(page.getByTestId('search-hit')).toHaveCount(dangerous);
  for (const badge of await page.getByTestId('search-hit').locator('.badge').allInnerTexts()) expect(badge).toBe('Scope');
  // The raw name finds the same.
  await page.getByRole('textbox', { name: 'Search' }).fill('XAA_SCOPE_CLASSIFICATION_DANGEROUS');
  await expect(page.locator(`[data-results-for="XAA_SCOPE_CLASSIFICATION_DANGEROUS"]`)).toBeVisible();
  await expect(page.getByTestId('search-hit')).toHaveCount(dangerous);

  // Field filters come with a collection, from its descriptor: the automations' trigger type, enabled.
  // With the trigger type Schedule, "schedule" finds exactly the automations the list shows for it.
  await nav.getByRole('button', { name: /^Automations/ }).click();
  const byTrigger = await filteredTotal(page, 'Filter by Trigger type', 'Schedule');
  expect(byTrigger).toBeGreaterThan(0);
  await nav.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('textbox', { name: 'Search' }).fill('schedule');
  await expect(page.locator('[data-results-for="schedule"]')).toBeVisible();
  await expect(page.getByTestId('field-filters')).toHaveCount(0);
  await page.getByTestId('facet-automations').click();
  const filters = page.getByTestId('field-filters');
  await expect(filters.getByRole('combobox', { name: 'Filter by Classification' })).toHaveCount(0);
  await expect(filters.getByRole('combobox', { name: 'Filter by Enabled' })).toBeVisible();
  await filters.getByRole('combobox', { name: 'Filter by Trigger type' }).selectOption({ label: 'Schedule' });
  await expect(summary).toContainText(`${byTrigger} result`);
  await expect(page.getByTestId('search-hit')).toHaveCount(byTrigger);
  await page.screenshot({ path: join(screenshotDir, 'search-filters.png') });
  // Back and Forward keep the search: its words, collection and field filters.
  await page.getByTestId('search-hit').first().click();
  await expect(page.locator('[data-screen="detail"]')).toBeVisible();
  await page.getByRole('button', { name: 'Back', exact: true }).click();
  await expect(page.getByRole('textbox', { name: 'Search' })).toHaveValue('schedule');
  await expect(filters.getByRole('combobox', { name: 'Filter by Trigger type' })).toHaveValue('TRIGGER_TYPE_SCHEDULE');
  await expect(page.getByTestId('search-hit')).toHaveCount(byTrigger);
  await page.getByRole('button', { name: 'Forward', exact: true }).click();
  await expect(page.locator('[data-screen="detail"]')).toBeVisible();
  await page.keyboard.press('Alt+ArrowLeft');
  await expect(page.getByTestId('search-summary')).toContainText(`${byTrigger} result`);
  await expect(page.getByTestId('facet-automations')).toHaveClass(/active/);
  // A restart keeps it too, for this connection.
  await page.reload();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('textbox', { name: 'Search' })).toHaveValue('schedule');
  await expect(filters.getByRole('combobox', { name: 'Filter by Trigger type' })).toHaveValue('TRIGGER_TYPE_SCHEDULE');
  await expect(page.getByTestId('search-summary')).toContainText(`${byTrigger} result`);
  // Another collection: its own filters, none of the previous ones kept.
  await page.getByTestId('facet-scopes').click();
  await expect(filters.getByRole('combobox', { name: 'Filter by Classification' })).toHaveValue('');
  await expect(filters.getByRole('combobox', { name: 'Filter by Trigger type' })).toHaveCount(0);
  expect(errors).toEqual([]);
});
