import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { expect, screenshotDir, syncToEnd, test, sendAllQueued } from './fixtures';

// Runs under scripts/with-keyring.sh (the connection's secret goes to the real OS keychain).
let tenant: ReferenceTenant;
test.beforeAll(async () => {
  tenant = await startTenant({ port: 0, scale: 'demo' });
});
test.afterAll(async () => {
  await tenant?.close();
});

const NARROW = { width: 1024, height: 700 };
const nav = (page: Page, name: RegExp | string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name }).click();

/** The page does not scroll sideways, and the Sync button is whole inside the window. */
async function fitsTheWindow(page: Page, screen: string): Promise<void> {
  const sizes = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
    bodyScrollWidth: document.body.scrollWidth,
  }));
  expect(sizes.scrollWidth, `${screen}: the page scrolls sideways`).toBeLessThanOrEqual(sizes.clientWidth);
  expect(sizes.bodyScrollWidth, `${screen}: the body scrolls sideways`).toBeLessThanOrEqual(sizes.clientWidth);
  const sync = page.getByRole('button', { name: 'Sync', exact: true });
  if (await sync.count()) {
    const box = (await sync.boundingBox())!;
    expect(box.x + box.width, `${screen}: the Sync button is cut`).toBeLessThanOrEqual(NARROW.width);
    expect(box.x).toBeGreaterThanOrEqual(0);
  }
}

async function shoot(page: Page, name: string): Promise<void> {
  await fitsTheWindow(page, name);
  await page.screenshot({ path: join(screenshotDir, `narrow-${name}.png`) });
}

test('at 1024×700 every screen fits the window with the Sync button whole; columns resize and are remembered; cut values show in full', async ({
  page,
  host,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize(NARROW);
  await page.goto(host.url);
  await expect(page.locator('[data-screen="first-run"]')).toBeVisible();
  await shoot(page, 'first-run');

  await page.getByLabel('Client ID').fill(tenant.clientId);
  await page.getByLabel('Client secret').fill(tenant.clientSecret);
  await page.getByRole('button', { name: 'Save and open' }).click();
  await expect(page.locator('[data-screen="overview"]')).toBeVisible();
  await syncToEnd(page);
  await page.keyboard.press('Escape');

  // The sidebar keeps its icons only; each entry keeps its name (and its tooltip).
  const sidebar = page.getByRole('navigation', { name: 'Main' });
  expect((await sidebar.boundingBox())!.width).toBeLessThan(80);
  await expect(sidebar.getByRole('button', { name: /^Automations/ })).toHaveAttribute('title', 'Automations');
  await shoot(page, 'overview');

  for (const [name, file] of [
    ['Campaigns', 'campaigns'],
    ['Templates', 'templates'],
    ['Automations', 'automations'],
    ['Toolsets', 'toolsets'],
    ['Routing rules', 'routing-rules'],
    ['Scopes', 'scopes'],
  ] as const) {
    await nav(page, new RegExp(`^${name}`));
    await expect(page.getByTestId('list-row').first()).toHaveAttribute('data-loaded', 'true');
    await shoot(page, `list-${file}`);
  }

  // Scopes: a value cut to its column is whole on hover (title) and, for the focused row, under the list.
  const cell = page.getByTestId('list-row').first().locator('[role="gridcell"]').nth(1);
  expect(await cell.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
  const whole = (await cell.locator('[title]').first().getAttribute('title')) ?? '';
  expect(whole.length).toBeGreaterThan(0);
  await page.getByTestId('list-row').first().focus();
  await expect(page.getByTestId('row-preview')).toContainText(whole);

  // A column resized by its edge keeps its width when the list is opened again.
  const header = page.getByRole('columnheader', { name: 'Scope' });
  const before = (await header.boundingBox())!.width;
  const handle = (await header.getByTestId('column-resize').boundingBox())!;
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await page.mouse.down();
  await page.mouse.move(handle.x + handle.width / 2 + 150, handle.y + handle.height / 2, { steps: 5 });
  await page.mouse.up();
  const after = (await header.boundingBox())!.width;
  expect(after).toBeGreaterThan(before + 100);
  await nav(page, 'Overview');
  await nav(page, /^Scopes/);
  await expect(page.getByTestId('list-row').first()).toHaveAttribute('data-loaded', 'true');
  expect(Math.round((await page.getByRole('columnheader', { name: 'Scope' }).boundingBox())!.width)).toBe(Math.round(after));
  await fitsTheWindow(page, 'scopes with a wide column');

  await nav(page, /^Automations/);
  await page.getByTestId('list-row').first().click();
  await expect(page.getByTestId('automation-flow')).toBeVisible();
  await shoot(page, 'detail');

  await nav(page, 'Search');
  await page.getByRole('textbox', { name: 'Search' }).fill('read');
  await expect(page.getByTestId('search-hit').first()).toBeVisible();
  await shoot(page, 'search');

  await nav(page, /^Changes/);
  await expect(page.locator('[data-screen="changes"]')).toBeVisible();
  await shoot(page, 'changes');

  // The outbox with a change the tenant refuses: a long reason, the actions still on screen.
  await nav(page, /^Outbox/);
  await page.getByRole('tab', { name: 'New change' }).click();
  // A real app (an unknown one is refused before queuing now the apps are walked whole), a resource server it lacks.
  await page.getByLabel('App id').fill([...tenant.data.apps.keys()][0]!);
  await page.getByLabel('Resource server id').fill(`no-such-server-${'y'.repeat(60)}`);
  await page.getByLabel(/^Scope value/).fill('files:layout.read');
  await page.getByLabel('Display name').fill('Read files (layout)');
  await page.getByRole('button', { name: 'Queue change' }).click();
  await expect(page.getByTestId('outbox-badge')).toHaveText('1');
  await page.getByRole('tab', { name: 'Changes' }).click();
  await sendAllQueued(page);
  await expect(page.locator('[data-testid="outbox-item"][data-state="failed"]')).toHaveCount(1, { timeout: 60_000 });
  for (const width of [NARROW.width, 1366]) {
    await page.setViewportSize({ width, height: NARROW.height });
    const discard = page.getByTestId('outbox-item').getByRole('button', { name: 'Discard' });
    await expect(discard).toBeVisible();
    const box = (await discard.boundingBox())!;
    expect(box.x + box.width, `the row actions are cut at ${width}`).toBeLessThanOrEqual(width);
    const table = await page.getByTestId('outbox-items').evaluate((element) => ({
      scroll: element.parentElement!.scrollWidth,
      client: element.parentElement!.clientWidth,
    }));
    expect(table.scroll, `the outbox scrolls sideways at ${width}`).toBeLessThanOrEqual(table.client);
    // The tenant's reason reads once: in its column, or under the change where the window has no room for the column.
    await expect(
      page
        .getByTestId('outbox-item')
        .getByText(/HTTP 404/)
        .locator('visible=true'),
    ).toHaveCount(1);
  }
  await page.setViewportSize(NARROW);
  await shoot(page, 'outbox');

  await nav(page, 'Reports');
  await expect(page.locator('[data-screen="reports"]')).toBeVisible();
  await shoot(page, 'reports');
  await nav(page, 'Settings');
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await shoot(page, 'settings');
});
