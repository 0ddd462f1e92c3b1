import { AxeBuilder } from '@axe-core/playwright';
import ExcelJS from 'exceljs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { openStore } from '../../src/main/store/db';
import { storeRun } from '../helpers/report-fixtures';
import { closePagesThenStop, expect, spawnJsonLine, test } from './fixtures';

const fixtures = new URL('../fixtures/', import.meta.url).pathname;
const load = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(fixtures, `${name}.json`), 'utf8')) as Record<string, unknown>;
/** Every WCAG 2.x A and AA rule and the best practices, on what is on screen: no finding. */
async function expectAccessible(page: Page): Promise<void> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

const nav = (page: Page, name: RegExp | string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name }).click();

/** How many resource servers the scopes name: more than a filter lists (500), so it says how many it shows. */
const RESOURCE_SERVERS = 530;
/** A resource server of one scope only (the others have two): the least frequent, so not among the 500 listed. */
const RARE_SERVER = 'rs_zeta_rare';

/**
 * A store with the fixture campaign, its description and review instructions in Markdown (with raw
 * HTML and a javascript: link that must not come through), the two apps it names deep inside, and
 * scopes on more resource servers than a filter lists.
 */
function seedStore(file: string): void {
  const campaign = (load('access-review-wrapper') as { accessReview: Record<string, unknown> }).accessReview;
  campaign.description = [
    '**Quarterly** certification of [finance apps](https://example.com/finance).',
    '',
    '- NetSuite',
    '- Workday',
    '',
    '<img src="x" onerror="window.pwned=1"><b>raw html</b> [do not run](javascript:window.pwned=2)',
  ].join('\n');
  campaign.reviewInstructions = 'Revoke _anything_ the person no longer needs.';
  const scope = load('scope');
  const scopes = Array.from({ length: RESOURCE_SERVERS * 2 }, (_, i) => ({
    ...scope,
    id: `xs_${i}`,
    scopeValue: `scope:${i}`,
    displayName: `Scope ${i}`,
    xaaResourceServerId: `rs_${String(i % RESOURCE_SERVERS).padStart(3, '0')}`,
  }));
  scopes.push({ ...scope, id: 'xs_rare', scopeValue: 'scope:rare', displayName: 'Rare scope', xaaResourceServerId: RARE_SERVER });
  const store = openStore(file);
  try {
    storeRun(store, {
      campaigns: [campaign],
      scopes,
      apps: [
        { id: 'app_netsuite', displayName: 'NetSuite' },
        { id: 'app_workday', displayName: 'Workday' },
      ],
      // One action of a kind this version knows, one it does not.
      'routing-rules': [
        { id: 'rr_accept', displayName: 'Accept known risk', priority: 1, action: { acceptRisk: { reason: 'known' } } },
        { id: 'rr_ciso', displayName: 'Escalate to the CISO', priority: 2, action: { escalateToCiso: { pager: true } } },
      ],
    });
  } finally {
    store.close();
  }
}

/** The browser host over the seeded store, without a dialog folder: saves are downloads. */
async function startHost(dataDir: string) {
  const storeFile = join(dataDir, 'words.sqlite');
  seedStore(storeFile);
  return spawnJsonLine<{ url: string }>(['ui-host', '--port', '0', '--data-dir', dataDir, '--store', storeFile]);
}

test('a campaign page renders its Markdown (no raw HTML, no unsafe link) and names the apps it names deep inside', async ({
  page,
  context,
  dataDir,
}) => {
  const host = await startHost(dataDir);
  try {
    await page.goto(host.info.url);
    await nav(page, /^Campaigns/);
    await page.getByTestId('list-row').first().click();
    await expect(page.locator('[data-screen="detail"]')).toBeVisible();

    const description = page.getByTestId('markdown').filter({ hasText: 'certification of finance apps' });
    await expect(description.locator('strong')).toHaveText('Quarterly');
    await expect(description.locator('li')).toHaveText(['NetSuite', 'Workday']);
    await expect(description.getByRole('link', { name: 'finance apps' })).toHaveAttribute('href', 'https://example.com/finance');
    await expect(description).not.toContainText('**');
    // Raw HTML is dropped, a javascript: link is text, never a link.
    await expect(description.locator('img, b, script')).toHaveCount(0);
    await expect(description.getByRole('link', { name: 'do not run' })).toHaveCount(0);
    await expect(description).toContainText('do not run');
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    await expect(page.getByTestId('markdown').filter({ hasText: 'the person no longer needs' }).locator('em')).toHaveText('anything');
    await expectAccessible(page);

    // Ids nested in the campaign's settings: the app's name beside each.
    const named = page.getByTestId('named-id');
    await expect(named.filter({ hasText: 'Workday' }).first()).toContainText('app_workday');
    await expect(named.filter({ hasText: 'NetSuite' }).first()).toContainText('app_netsuite');
  } finally {
    await closePagesThenStop(context, host);
  }
});

test("a routing rule's action reads the same in the list, its filter and its page: an unknown kind as sent and marked", async ({
  page,
  context,
  dataDir,
}) => {
  const host = await startHost(dataDir);
  try {
    await page.goto(host.info.url);
    await nav(page, /^Routing rules/);
    const marked = 'escalateToCiso (value not known to this version)';
    const rows = page.getByTestId('list-row');
    await expect(rows.filter({ hasText: 'Escalate to the CISO' })).toContainText(marked);
    await expect(rows.filter({ hasText: 'Accept known risk' })).toContainText('Accept risk');
    const select = page.getByRole('combobox', { name: 'Filter by Action' });
    await expect(select.locator('option')).toHaveText(['Action: all', 'Accept risk', marked]);
    await select.selectOption('escalateToCiso');
    await expect(page.getByTestId('list-total')).toHaveText('1 object');
    await expectAccessible(page);
    await rows.first().click();
    await expect(page.locator('[data-screen="detail"]')).toBeVisible();
    await expect(page.getByTestId('rule-action').locator('.badge').first()).toHaveText(marked);
  } finally {
    await closePagesThenStop(context, host);
  }
});

test('a filter with many values is searchable and says how many it lists; an export is a browser download without --dialog-dir', async ({
  page,
  context,
  dataDir,
}) => {
  const host = await startHost(dataDir);
  try {
    await page.goto(host.info.url);
    await nav(page, /^Scopes/);
    await expect(page.getByTestId('list-total')).toHaveText(`${(RESOURCE_SERVERS * 2 + 1).toLocaleString('en-US')} objects`);

    // 531 resource servers, 500 listed: said, never silent; typing looks the text up in the whole store.
    const servers = RESOURCE_SERVERS + 1;
    const note = page.getByTestId('filter-xaaResourceServerId-note');
    await expect(note).toHaveText(`500 of ${servers} shown (the most frequent): type to narrow`);
    const select = page.getByRole('combobox', { name: 'Filter by Resource server' });
    await expect(select.locator('option')).toHaveCount(501);
    await expect(select.locator(`option[value="${RARE_SERVER}"]`)).toHaveCount(0);
    const find = page.getByRole('searchbox', { name: 'Find a Resource server to filter by' });
    // The rare one, beyond the 500 listed, found by part of its text, chosen, and the list holds its one scope.
    await find.fill('zeta');
    await expect(note).toHaveText('1 match');
    await expect(select.locator('option')).toHaveCount(2);
    await select.selectOption(RARE_SERVER);
    await expect(page.getByTestId('list-total')).toHaveText('1 object');
    await expect(page.getByTestId('list-row')).toHaveCount(1);
    await expect(page.getByTestId('list-row')).toContainText('Rare scope');
    // The chosen value stays listed once the box is cleared.
    await find.fill('');
    await expect(select).toHaveValue(RARE_SERVER);
    await expect(select.locator('option')).toHaveCount(502);

    await find.fill('rs_04');
    await expect(note).toHaveText('10 matches');
    await expect(select.locator('option')).toHaveCount(12);
    await expectAccessible(page);
    await select.selectOption('rs_042');
    await expect(page.getByTestId('list-total')).toHaveText('2 objects');

    // Export this view: no dialog folder, so the workbook arrives as a download.
    await page.getByTestId('export-view').click();
    await expect(page.locator('[data-screen="reports"]')).toBeVisible();
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export…' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    const saved = join(dataDir, download.suggestedFilename());
    await download.saveAs(saved);
    await expect(page.getByTestId('export-result')).toBeVisible();

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(saved);
    expect(workbook.worksheets.map((w) => w.name)).toEqual(expect.arrayContaining(['Cover', 'Evidence', 'Scopes']));
    const sheet = workbook.getWorksheet('Scopes')!;
    const header = (sheet.getRow(1).values as unknown[]).map(String);
    const rows: string[] = [];
    sheet.eachRow((row, n) => {
      if (n > 1) rows.push(String(row.getCell(header.indexOf('Name')).value));
    });
    expect(rows.sort()).toEqual(['Scope 42', 'Scope 572']);
  } finally {
    await closePagesThenStop(context, host);
  }
});
