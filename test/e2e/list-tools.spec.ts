import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { closePagesThenStop, expect, spawnJsonLine, test } from './fixtures';
import { seedFixtureStore } from './seed-store';

const nav = (page: Page, name: RegExp | string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name }).click();

test('list tools: a text filter over the store, a column chooser remembered per list, unknown enum values as written and marked', async ({
  page,
  dataDir,
}) => {
  const storeFile = join(dataDir, 'fixtures.sqlite');
  seedFixtureStore(storeFile, 300);
  const host = await spawnJsonLine<{ url: string }>(['ui-host', '--port', '0', '--data-dir', dataDir, '--store', storeFile]);
  try {
    await page.goto(host.info.url);
    await expect(page.getByTestId('count-scopes')).toContainText('302');

    // The overview's charts: a value no enumeration lists reads as written and marked, as the CLI and workbooks write it.
    const regulated = page.locator('section[aria-label="Scopes by classification"] svg title', {
      hasText: 'XAA_SCOPE_CLASSIFICATION_REGULATED',
    });
    await expect(regulated).toHaveText('XAA_SCOPE_CLASSIFICATION_REGULATED (value not known to this version)');

    await nav(page, /^Scopes/);
    await expect(page.getByTestId('list-total')).toHaveText('302 objects');

    // The text filter asks the store: the total counts the matches, not the rows on screen.
    const filter = page.getByRole('searchbox', { name: 'Filter scopes by text' });
    await filter.fill('payroll');
    await expect(page.getByTestId('list-total')).toHaveText('2 objects');
    await expect(page.getByTestId('list-row')).toHaveCount(2);
    await filter.fill('extra scope');
    await expect(page.getByTestId('list-total')).toHaveText('300 objects');
    await filter.fill('nothing-holds-this-word');
    await expect(page.getByRole('heading', { name: 'Nothing matches these filters' })).toBeVisible();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(filter).toHaveValue('');
    await expect(page.getByTestId('list-total')).toHaveText('302 objects');

    // An unknown classification and state: as written and marked (as the CLI and workbooks write them), flagged.
    await filter.fill('payroll export');
    await expect(page.getByTestId('list-total')).toHaveText('1 object');
    const row = page.getByTestId('list-row').first();
    await expect(
      row.locator('.badge.unknown', { hasText: 'XAA_SCOPE_CLASSIFICATION_REGULATED (value not known to this version)' }),
    ).toHaveAttribute('title', 'Unknown value: XAA_SCOPE_CLASSIFICATION_REGULATED');
    await expect(
      row.locator('.badge.unknown', { hasText: 'XAA_SCOPE_STATE_QUARANTINED (value not known to this version)' }),
    ).toHaveAttribute('title', 'Unknown value: XAA_SCOPE_STATE_QUARANTINED');

    // The column chooser: a hidden column stays hidden in this list (and only this one) after a restart.
    await expect(page.getByRole('columnheader', { name: 'Source', exact: true })).toBeVisible();
    await page.getByText('Columns', { exact: true }).click();
    await page.getByRole('group', { name: 'Columns shown' }).getByRole('checkbox', { name: 'Source', exact: true }).uncheck();
    await expect(page.getByRole('columnheader', { name: 'Source', exact: true })).toHaveCount(0);
    await page.reload();
    await nav(page, /^Scopes/);
    await expect(page.getByTestId('list-row').first()).toHaveAttribute('data-loaded', 'true');
    await expect(page.getByRole('columnheader', { name: 'Source', exact: true })).toHaveCount(0);
    await expect(page.getByRole('columnheader', { name: 'Scope' })).toBeVisible();
    await nav(page, /^Automations/);
    await expect(page.getByRole('columnheader', { name: 'Name' })).toBeVisible();
    await nav(page, /^Scopes/);
    await page.getByText('Columns', { exact: true }).click();
    await page.getByRole('group', { name: 'Columns shown' }).getByRole('checkbox', { name: 'Source', exact: true }).check();
    await expect(page.getByRole('columnheader', { name: 'Source', exact: true })).toBeVisible();

    // Filters on the ids a user narrows by: a campaign's template is offered by its name, the id on hover.
    await nav(page, /^Campaigns/);
    const template = page.getByRole('combobox', { name: 'Filter by Template' });
    await expect(template.getByRole('option', { name: 'Quarterly finance access review' })).toHaveAttribute(
      'title',
      'art_quarterly_finance',
    );
    await template.selectOption({ label: 'Quarterly finance access review' });
    await expect(page.getByTestId('list-total')).toHaveText('1 object');
    await expect(page.getByRole('combobox', { name: 'Filter by Created by' })).toBeVisible();
  } finally {
    await closePagesThenStop(page.context(), host);
  }
});

test('a list keeps its text filter, sort, selection and scroll across Back, Forward and a restart', async ({ page, dataDir }) => {
  const storeFile = join(dataDir, 'fixtures.sqlite');
  seedFixtureStore(storeFile, 300);
  const host = await spawnJsonLine<{ url: string }>(['ui-host', '--port', '0', '--data-dir', dataDir, '--store', storeFile]);
  const scroller = page.getByTestId('virtual-scroller');
  const scrollTop = () => scroller.evaluate((element) => element.scrollTop);
  const asLeft = async () => {
    await expect(page.getByRole('searchbox', { name: 'Filter scopes by text' })).toHaveValue('extra scope');
    await expect(page.getByTestId('list-total')).toHaveText('300 objects');
    await expect(page.getByRole('columnheader', { name: 'Name', exact: true })).toHaveAttribute('aria-sort', 'descending');
    await expect(page.getByTestId('selection-bar')).toContainText('2 selected');
    await expect.poll(scrollTop).toBeGreaterThan(2500);
  };
  try {
    await page.goto(host.info.url);
    await nav(page, /^Scopes/);
    await page.getByRole('searchbox', { name: 'Filter scopes by text' }).fill('extra scope');
    await expect(page.getByTestId('list-total')).toHaveText('300 objects');
    const name = page.getByRole('columnheader', { name: 'Name', exact: true });
    await name.getByRole('button').click();
    await name.getByRole('button').click();
    await expect(name).toHaveAttribute('aria-sort', 'descending');
    await page.getByTestId('list-row').nth(0).getByRole('checkbox').check();
    await page.getByTestId('list-row').nth(1).getByRole('checkbox').check();
    await expect(page.getByTestId('selection-bar')).toContainText('2 selected');
    await scroller.evaluate((element) => element.scrollTo(0, 3000));
    await expect.poll(scrollTop).toBeGreaterThan(2500);

    await nav(page, /^Automations/);
    await expect(page.getByRole('heading', { name: 'Automations' })).toBeVisible();
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await asLeft();
    await page.getByRole('button', { name: 'Forward', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Automations' })).toBeVisible();
    await page.keyboard.press('Alt+ArrowLeft');
    await asLeft();

    // A restart: the list opens again as it was left, for this connection.
    await page.reload();
    await nav(page, /^Scopes/);
    await asLeft();
  } finally {
    await closePagesThenStop(page.context(), host);
  }
});
