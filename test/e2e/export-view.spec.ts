import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { openpyxlDump } from '../helpers/openpyxl';
import { expect, spawnJsonLine, test } from './fixtures';
import { seedFixtureStore } from './seed-store';

const nav = (page: Page, name: RegExp | string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name }).click();

/** Exports from the Reports screen (the save dialog: a file in `dir`) and reads the workbook back. */
async function exportAndRead(page: Page, dir: string) {
  for (const f of readdirSync(dir)) rmSync(join(dir, f));
  await page.getByRole('button', { name: 'Export…' }).click();
  await expect(page.getByTestId('export-result')).toBeVisible({ timeout: 60_000 });
  const [file] = readdirSync(dir).filter((f) => f.endsWith('.xlsx'));
  const py = openpyxlDump(join(dir, file!), true);
  const cover = Object.fromEntries(py.sheets.find((s) => s.name === 'Cover')!.data!.map((r) => [r[1], r[2]]));
  const names = (sheet: string): string[] => {
    const rows = py.sheets.find((s) => s.name === sheet)!.data!;
    const at = (rows[0] as unknown[]).indexOf('Name');
    return rows.slice(1).map((r) => String(r[at]));
  };
  return { cover, names };
}

test('export this view: a list and a search become a report with their filters, text and sort, named on the cover', async ({
  page,
  dataDir,
}) => {
  const storeFile = join(dataDir, 'fixtures.sqlite');
  seedFixtureStore(storeFile, 30);
  const dialogDir = join(dataDir, 'dialogs');
  mkdirSync(dialogDir, { recursive: true });
  const host = await spawnJsonLine<{ url: string }>([
    'ui-host',
    '--port',
    '0',
    '--data-dir',
    dataDir,
    '--store',
    storeFile,
    '--dialog-dir',
    dialogDir,
  ]);
  try {
    await page.goto(host.info.url);
    await nav(page, /^Scopes/);
    await expect(page.getByTestId('list-total')).toHaveText('32 objects');

    // The list: a text filter, and the rows by name, descending.
    await page.getByRole('searchbox', { name: 'Filter scopes by text' }).fill('extra');
    await expect(page.getByTestId('list-total')).toHaveText('30 objects');
    const name = page.getByRole('columnheader', { name: 'Name', exact: true });
    await name.getByRole('button').click();
    await name.getByRole('button').click();
    await expect(name).toHaveAttribute('aria-sort', 'descending');
    await expect(page.locator('[data-testid="list-row"][data-index="0"]')).toHaveAttribute('data-loaded', 'true');
    const labels = await page
      .locator('[data-testid="list-row"][data-loaded="true"] input[type="checkbox"]')
      .evaluateAll((boxes) => boxes.map((box) => box.getAttribute('aria-label') ?? ''));
    const shown = labels.map((label) => label.replace(/^Select /, ''));
    expect(shown.length).toBeGreaterThan(3);

    await page.getByTestId('export-view').click();
    await expect(page.locator('[data-screen="reports"]')).toBeVisible();
    await expect(page.getByRole('radio', { name: 'Cross-app scopes' })).toBeChecked();
    await expect(page.getByLabel(/^Text filter/)).toHaveValue('extra');
    await expect(page.getByLabel(/^Sort/)).toHaveValue(/^(title|displayName):desc$/);
    await expect(page.getByTestId('report-view')).toContainText('the Scopes list');

    const list = await exportAndRead(page, dialogDir);
    expect(list.names('Scopes')).toHaveLength(30);
    expect(list.names('Scopes').slice(0, shown.length)).toEqual(shown);
    expect(list.cover['Text filter']).toBe('Cross-app scopes: extra (objects whose text holds every word)');
    expect(list.cover.Sort).toMatch(/^Cross-app scopes: by Name \((title|displayName)\), descending, then by id$/);
    expect(list.cover.View).toBe('the Scopes list');

    // A search: its query and collection become the report's text filter and report.
    await nav(page, 'Search');
    await page.getByRole('textbox', { name: 'Search' }).fill('payroll');
    await page.getByTestId('facet-scopes').click();
    await expect(page.getByTestId('search-summary')).toContainText('2 results');
    await page.getByTestId('export-view').click();
    await expect(page.getByRole('radio', { name: 'Cross-app scopes' })).toBeChecked();
    await expect(page.getByLabel(/^Text filter/)).toHaveValue('payroll');
    const search = await exportAndRead(page, dialogDir);
    expect(search.names('Scopes')).toHaveLength(2);
    expect(search.cover.View).toBe('a search of Scopes for “payroll”');
    expect(search.cover['Text filter']).toBe('Cross-app scopes: payroll (objects whose text holds every word)');

    // Changing a parameter on the Reports screen: the cover no longer names the view.
    await page.getByLabel(/^Text filter/).fill('');
    await expect(page.getByTestId('report-view')).toHaveCount(0);
  } finally {
    await host.stop();
  }
});
