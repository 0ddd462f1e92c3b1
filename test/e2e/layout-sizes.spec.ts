import type { Browser, Locator, Page } from '@playwright/test';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import type { Entitlement } from '../../src/tenant/model';
import { COLLECTION_IDS } from '../../src/shared/contract';
import { COLLECTION_LABELS } from '../../src/renderer/components/collections';
import { connectAndSync, expect, test } from './fixtures';

// Runs under scripts/with-keyring.sh (the connection's secret goes to the real OS keychain).
let tenant: ReferenceTenant;
test.beforeAll(async () => {
  tenant = await startTenant({ port: 0, scale: 'demo', seed: 19 });
});
test.afterAll(async () => {
  await tenant?.close();
});

/**
 * The two windows the layout must hold in. 200% zoom is emulated as Chromium lays it out: a
 * 1280×800 window at zoom 2 has a CSS viewport of half its size, so the page is opened in a context
 * with a 640×400 CSS px viewport and deviceScaleFactor 2 (what the zoomed window paints).
 */
const SIZES = [
  { name: '1024×700', viewport: { width: 1024, height: 700 }, deviceScaleFactor: 1 },
  { name: '1280×800 at 200% zoom', viewport: { width: 640, height: 400 }, deviceScaleFactor: 2 },
] as const;
type Size = (typeof SIZES)[number];

/** A readable Change column: about 40 characters of the outbox's text. */
const READABLE_CHANGE_CH = 40;

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

/**
 * The screen fits its window: nothing scrolls sideways (the page, the body, the main area), nothing
 * in the main area (filter rows and toolbars among it) reaches past the window's right edge unless
 * it sits in a container that scrolls or clips on purpose (a wide grid), and the Sync button is in
 * the window and can be clicked (nothing covers it).
 */
async function fits(page: Page, screen: string): Promise<void> {
  const report = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const scrolling = document.scrollingElement!;
    const main = document.querySelector('main');
    const clips = (element: Element) => ['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(element).overflowX);
    const outside: string[] = [];
    for (const element of main ? main.querySelectorAll('*') : []) {
      const box = element.getBoundingClientRect();
      if (box.width <= 1 || box.right <= width + 0.5) continue;
      let clipped = false;
      for (let up = element.parentElement; up && up !== main; up = up.parentElement) if (clips(up)) clipped = true;
      if (clipped) continue;
      const name = `${element.tagName.toLowerCase()}${element.className && typeof element.className === 'string' ? `.${element.className.trim().split(/\s+/).join('.')}` : ''}`;
      outside.push(`${name} (right edge ${Math.round(box.right)})`);
    }
    return {
      width,
      page: { scroll: scrolling.scrollWidth, client: scrolling.clientWidth },
      body: { scroll: document.body.scrollWidth, client: document.body.clientWidth },
      main: main ? { scroll: main.scrollWidth, client: main.clientWidth } : null,
      outside: outside.slice(0, 8),
    };
  });
  expect(report.outside, `${screen}: reaches past the window's right edge (${report.width} px)`).toEqual([]);
  expect(report.page.scroll, `${screen}: the page scrolls sideways`).toBeLessThanOrEqual(report.page.client);
  expect(report.body.scroll, `${screen}: the body scrolls sideways`).toBeLessThanOrEqual(report.body.client);
  if (report.main) expect(report.main.scroll, `${screen}: the main area scrolls sideways`).toBeLessThanOrEqual(report.main.client);
  const sync = page.getByRole('button', { name: 'Sync', exact: true });
  if ((await sync.count()) > 0) {
    await expect(sync, `${screen}: the Sync button is out of the window`).toBeInViewport({ ratio: 1 });
    // Actionable: visible, enabled, and the point it would be clicked at is the button's own.
    await sync.click({ trial: true, timeout: 5_000 });
  }
}

/** The outbox's first change is at least 40 characters ('0's of its own font) wide. */
async function changeIsReadable(page: Page, screen: string): Promise<void> {
  const change = await page
    .getByTestId('outbox-item')
    .first()
    .getByTestId('outbox-change')
    .evaluate((cell, chars) => {
      const probe = document.createElement('span');
      probe.style.cssText = 'position:absolute;visibility:hidden;white-space:pre;font:inherit';
      probe.textContent = '0'.repeat(chars);
      cell.appendChild(probe);
      const wanted = probe.getBoundingClientRect().width;
      probe.remove();
      const style = getComputedStyle(cell);
      return { width: cell.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight), wanted };
    }, READABLE_CHANGE_CH);
  expect(change.width, `${screen}: the Change column is narrower than ${READABLE_CHANGE_CH} characters`).toBeGreaterThanOrEqual(
    change.wanted,
  );
}

/** `element` lies wholly inside the window. */
async function inWindow(page: Page, element: Locator, screen: string): Promise<void> {
  await expect(element).toBeVisible();
  const box = (await element.boundingBox())!;
  const size = page.viewportSize()!;
  expect(box.x, `${screen}: starts left of the window`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${screen}: ends right of the window`).toBeLessThanOrEqual(size.width);
  expect(box.y + box.height, `${screen}: ends below the window`).toBeLessThanOrEqual(size.height);
}

/** The focus is on the screen's heading (its level-1 heading, focusable by script), which a screen reader then reads. */
async function focusOnHeading(page: Page, name: string | RegExp): Promise<void> {
  const heading = page.locator('main h1');
  await expect(heading).toBeFocused();
  await expect(heading).toHaveAttribute('tabindex', '-1');
  await expect(page.getByRole('heading', { level: 1, name })).toBeFocused();
}

/** Opens a screen from the sidebar; the focus moves to its heading. */
async function viaSidebar(page: Page, label: string | RegExp, heading: string | RegExp, screen: string): Promise<void> {
  await mainNav(page).getByRole('button', { name: label }).click();
  await expect(page.locator(`[data-screen="${screen}"]`)).toBeVisible();
  await focusOnHeading(page, heading);
}

/** The members of an entitlement on the tenant. */
const membersOf = (e: Entitlement) => [...tenant.data.memberships.values()].filter((m) => m.appEntitlementId === e.id);

/** Every screen at one size: every list, a detail of each kind (opened by Enter, Back to the row), search, changes, the outbox, reports, settings, help. */
async function everyScreen(page: Page, size: Size): Promise<void> {
  const at = (screen: string) => `${screen} at ${size.name}`;
  await viaSidebar(page, 'Overview', 'Overview', 'overview');
  await fits(page, at('overview'));
  // The sync panel and the quick search open inside the window (scrolling within where it is short).
  await page.getByTestId('data-as-of').click();
  await inWindow(page, page.getByTestId('sync-panel'), at('the sync panel'));
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+k');
  await inWindow(page, page.getByRole('dialog', { name: 'Quick search' }), at('the quick search'));
  await page.keyboard.press('Escape');

  for (const collection of COLLECTION_IDS) {
    const label = COLLECTION_LABELS[collection];
    await viaSidebar(page, new RegExp(`^${label}`), label, 'list');
    const rows = page.getByTestId('list-row');
    await expect(rows.first()).toHaveAttribute('data-loaded', 'true');
    await fits(page, at(`the ${label} list`));

    // The second row, opened by Enter: the focus goes to the detail's heading.
    await rows.first().focus();
    await page.keyboard.press('ArrowDown');
    await expect(rows.nth(1)).toBeFocused();
    const opened = await rows.nth(1).getAttribute('data-index');
    await page.keyboard.press('Enter');
    await expect(page.locator(`[data-screen="detail"][data-collection="${collection}"]`)).toBeVisible();
    await expect(page.locator('main h1')).toBeFocused();
    await fits(page, at(`a detail of ${label}`));
    // Back: the focus is on the row that was opened.
    await page.keyboard.press('Alt+ArrowLeft');
    await expect(page.locator(`[data-testid="list-row"][data-index="${opened}"]`)).toBeFocused();
  }

  // Search puts the focus in its box, to type at once.
  await mainNav(page).getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('textbox', { name: 'Search' })).toBeFocused();
  await page.getByRole('textbox', { name: 'Search' }).fill('read');
  await expect(page.getByTestId('search-hit').first()).toBeVisible();
  await fits(page, at('search'));

  await viaSidebar(page, /^Changes/, 'Changes', 'changes');
  await fits(page, at('changes'));

  await viaSidebar(page, /^Outbox/, 'Outbox', 'outbox');
  const items = page.getByTestId('outbox-item');
  await expect(items.first()).toBeVisible();
  await fits(page, at('the outbox'));
  await changeIsReadable(page, at('the outbox'));
  // Its row actions stay in the window.
  const discard = items.first().getByRole('button', { name: 'Discard' });
  await discard.scrollIntoViewIfNeeded();
  await expect(discard).toBeInViewport({ ratio: 1 });

  await viaSidebar(page, 'Reports', 'Reports', 'reports');
  await fits(page, at('reports'));
  await viaSidebar(page, 'Settings', 'Settings', 'settings');
  await fits(page, at('settings'));
  await mainNav(page).getByRole('button', { name: 'Help' }).click();
  await expect(page.locator('[data-screen="help"]')).toBeVisible();
  await expect(page.locator('main h1')).toBeFocused();
  await fits(page, at('help'));
}

/** A page of the same host in a window of `size`, failing on console errors as the fixture's page does. */
async function pageAt(browser: Browser, url: string, size: Size): Promise<{ page: Page; problems: string[]; close(): Promise<void> }> {
  const context = await browser.newContext({ viewport: size.viewport, deviceScaleFactor: size.deviceScaleFactor });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(url);
  return { page, problems, close: () => context.close() };
}

test('every screen holds at 1024×700 and at 200% zoom: no sideways scroll, filters wrap, Sync in reach, a readable Change column; focus follows navigation', async ({
  page,
  host,
  browser,
}) => {
  test.setTimeout(480_000);
  await page.setViewportSize(SIZES[0].viewport);
  await connectAndSync(page, host.url, tenant);

  // Queued changes, so the outbox has rows: removals of members of a group, chosen by keyboard.
  const all = [...tenant.data.entitlements.values()];
  const group = all.find(
    (e) =>
      (e.kind === 'group' || e.kind === 'profile') &&
      membersOf(e).length >= 4 &&
      all.filter((o) => o.displayName === e.displayName).length === 1,
  )!;
  await page.keyboard.press('Control+k');
  await page.getByRole('dialog', { name: 'Quick search' }).getByRole('textbox').fill(group.id);
  await page.locator('.hit').filter({ hasText: group.displayName }).first().click();
  const members = page.getByTestId('entitlement-members');
  const rows = members.getByTestId('member-row');
  // Each member's email (their identity user's) beside the name.
  for (let i = 0; i < 3; i += 1) {
    const appUser = tenant.data.appUsers.get((await rows.nth(i).getAttribute('data-user')) ?? '')!;
    const email = tenant.data.users.get(appUser.identityUserId)?.email;
    expect(email).toBeTruthy();
    await expect(rows.nth(i).getByTestId('member-email')).toHaveText(email!);
  }
  // Shift+arrows extend the selection from the focused row; back toward it gives a row up; arrows alone only move.
  await rows.nth(0).getByRole('checkbox').check();
  await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Shift+ArrowDown');
  await expect(members.getByTestId('members-selected')).toHaveText('3 selected');
  await expect(rows.nth(2).getByRole('checkbox')).toBeFocused();
  await page.keyboard.press('Shift+ArrowUp');
  await expect(members.getByTestId('members-selected')).toHaveText('2 selected');
  await expect(rows.nth(2).getByRole('checkbox')).not.toBeChecked();
  await page.keyboard.press('ArrowDown');
  await expect(rows.nth(2).getByRole('checkbox')).toBeFocused();
  await expect(members.getByTestId('members-selected')).toHaveText('2 selected');
  await expect(rows.nth(0).getByRole('checkbox')).toBeChecked();
  await expect(rows.nth(1).getByRole('checkbox')).toBeChecked();
  // The next range starts at the row the arrows moved to.
  await page.keyboard.press('Shift+ArrowDown');
  await expect(members.getByTestId('members-selected')).toHaveText('4 selected');
  await expect(rows.nth(3).getByRole('checkbox')).toBeFocused();
  await members.getByRole('button', { name: 'Queue removal (4)' }).click();
  await members.getByTestId('confirm-panel').getByRole('button', { name: 'Queue 4 removals' }).click();
  await expect(members.getByTestId('queued-note')).toContainText('4 changes queued');

  // Wide windows too: the Tasks filters stay in the window at 1440, and the outbox keeps its Reason column beside a readable Change.
  await page.setViewportSize({ width: 1440, height: 900 });
  await viaSidebar(page, /^Tasks/, 'Tasks', 'list');
  await expect(page.getByTestId('list-row').first()).toHaveAttribute('data-loaded', 'true');
  await fits(page, 'the Tasks list at 1440×900');
  await viaSidebar(page, /^Outbox/, 'Outbox', 'outbox');
  await expect(page.getByTestId('outbox-items').getByRole('columnheader', { name: 'Reason' })).toBeVisible();
  await changeIsReadable(page, 'the outbox at 1440×900');

  for (const size of SIZES) {
    const window = await pageAt(browser, host.url, size);
    try {
      await expect(window.page.locator('[data-screen="overview"]')).toBeVisible();
      await everyScreen(window.page, size);
      expect(window.problems, `the page logged errors at ${size.name}`).toEqual([]);
    } catch (failure) {
      // What the window showed when the check failed, beside the test's own report.
      await test.info().attach(`window at ${size.name}`, { body: await window.page.screenshot(), contentType: 'image/png' });
      throw failure;
    } finally {
      await window.close();
    }
  }
});

test('first run holds at both sizes', async ({ browser, host }) => {
  for (const size of SIZES) {
    const window = await pageAt(browser, host.url, size);
    try {
      await expect(window.page.locator('[data-screen="first-run"]')).toBeVisible();
      await fits(window.page, `first run at ${size.name}`);
    } finally {
      await window.close();
    }
  }
});
