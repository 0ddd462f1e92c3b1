import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { join } from 'node:path';
import { closePagesThenStop, expect, spawnJsonLine, syncToEnd, test, sendAllQueued } from './fixtures';
import { seedFixtureStore } from './seed-store';

// Runs under scripts/with-keyring.sh (the connection's secret goes to the real OS keychain).
let tenant: ReferenceTenant;
test.beforeAll(async () => {
  tenant = await startTenant({ port: 0, scale: 'demo' });
});
test.afterAll(async () => {
  await tenant?.close();
});

interface Finding {
  screen: string;
  theme: string;
  rule: string;
  impact: string;
  nodes: number;
  sample: string;
}

const THEMES = ['light', 'dark'] as const;

/**
 * Runs axe on what is on screen in the light theme (every WCAG 2.x A and AA rule and the best
 * practices), then in the dark theme with the rules a theme can change (the themes differ in
 * colours only: same DOM, same names, same roles).
 */
async function audit(page: Page, screen: string, findings: Finding[]): Promise<void> {
  for (const theme of THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator(`html[data-theme="${theme}"]`)).toHaveCount(1);
    const axe = new AxeBuilder({ page });
    if (theme === 'light') axe.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']);
    else axe.withRules(['color-contrast', 'link-in-text-block']);
    const result = await axe.analyze();
    for (const violation of result.violations) {
      findings.push({
        screen,
        theme,
        rule: violation.id,
        impact: violation.impact ?? 'unknown',
        nodes: violation.nodes.length,
        sample: violation.nodes
          .slice(0, 2)
          .map((node) => `${node.target.join(' ')}: ${node.failureSummary?.split('\n').slice(1, 2).join(' ').trim() ?? ''}`)
          .join(' | '),
      });
    }
  }
}

function report(findings: Finding[]): void {
  const blocking = findings.filter((f) => f.impact === 'critical' || f.impact === 'serious');
  const summary = (list: Finding[]) =>
    list.map((f) => `${f.impact} ${f.rule} ×${f.nodes} on ${f.screen} (${f.theme}): ${f.sample}`).join('\n');
  const totals = (impact: string) => findings.filter((f) => f.impact === impact).reduce((n, f) => n + f.nodes, 0);
  console.log(
    `axe: ${totals('critical')} critical, ${totals('serious')} serious, ${totals('moderate')} moderate, ${totals('minor')} minor nodes\n${summary(findings)}`,
  );
  expect(blocking, summary(blocking)).toEqual([]);
}

const nav = (page: Page, name: RegExp | string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name }).click();

test('axe on a stored workspace: overview, every list, a detail and its history, search, quick search, reports, settings', async ({
  page,
  dataDir,
}) => {
  test.setTimeout(360_000);
  const storeFile = join(dataDir, 'fixtures.sqlite');
  seedFixtureStore(storeFile, 300);
  const host = await spawnJsonLine<{ url: string }>(['ui-host', '--port', '0', '--data-dir', dataDir, '--store', storeFile]);
  const findings: Finding[] = [];
  try {
    await page.setViewportSize({ width: 1366, height: 800 });
    await page.goto(host.info.url);
    await expect(page.getByTestId('count-scopes')).toContainText('302');
    await audit(page, 'overview', findings);

    for (const name of ['Campaigns', 'Templates', 'Automations', 'Toolsets', 'Routing rules', 'Scopes']) {
      await nav(page, new RegExp(`^${name}`));
      await expect(page.getByTestId('list-row').first()).toHaveAttribute('data-loaded', 'true');
      await audit(page, `list ${name}`, findings);
    }

    await nav(page, /^Automations/);
    await page.getByTestId('list-row').filter({ hasText: 'Leaver offboarding' }).click();
    await expect(page.getByTestId('automation-flow')).toBeVisible();
    await audit(page, 'detail automation', findings);
    await page.getByRole('tab', { name: 'History' }).click();
    await expect(page.getByTestId('history')).toBeVisible();
    await audit(page, 'detail history', findings);

    await nav(page, 'Search');
    await page.getByRole('textbox', { name: 'Search' }).fill('extra');
    await expect(page.getByTestId('search-hit').first()).toBeVisible();
    await audit(page, 'search', findings);
    await page.keyboard.press('Control+k');
    await page.getByRole('dialog', { name: 'Quick search' }).getByRole('textbox').fill('payroll');
    await expect(page.locator('.palette .hit').first()).toBeVisible();
    await audit(page, 'quick search', findings);
    await page.keyboard.press('Escape');

    await nav(page, 'Reports');
    await expect(page.locator('[data-screen="reports"]')).toBeVisible();
    await audit(page, 'reports', findings);
    await nav(page, 'Settings');
    await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
    await audit(page, 'settings', findings);
  } finally {
    await closePagesThenStop(page.context(), host);
  }
  report(findings);
});

test('axe with a tenant: first run, the sync panel, Changes, the outbox queued, sent and its journal', async ({ page, host }) => {
  test.setTimeout(360_000);
  const findings: Finding[] = [];
  await page.setViewportSize({ width: 1366, height: 800 });

  await page.goto(host.url);
  await expect(page.locator('[data-screen="first-run"]')).toBeVisible();
  await audit(page, 'first-run', findings);

  await page.getByLabel('Client ID').fill(tenant.clientId);
  await page.getByLabel('Client secret').fill(tenant.clientSecret);
  await page.getByRole('button', { name: 'Save and open' }).click();
  await expect(page.locator('[data-screen="overview"]')).toBeVisible();
  await syncToEnd(page);
  // A second run with a change, so Changes has something to show.
  const [scopeId] = [...tenant.data.scopes.keys()];
  tenant.data.touch('scopes', scopeId!, { displayName: 'Renamed between two syncs' });
  await syncToEnd(page);
  await expect(page.getByTestId('sync-announcement')).toContainText('Sync finished');

  await page.getByTestId('data-as-of').click();
  await expect(page.getByTestId('sync-panel')).toBeVisible();
  await audit(page, 'overview with the sync panel', findings);
  await page.keyboard.press('Escape');

  await nav(page, /^Changes/);
  await expect(page.getByTestId('changed-object').first()).toBeVisible();
  await audit(page, 'changes', findings);

  // The outbox: a change queued (a bad value refused inline first), then sent (progress, results, journal).
  const scope = [...tenant.data.scopes.values()][0]!;
  await nav(page, /^Outbox/);
  await page.getByRole('tab', { name: 'New change' }).click();
  await page.getByLabel('App id').fill(scope.appId ?? '');
  await page.getByLabel('Resource server id').fill(scope.xaaResourceServerId ?? '');
  await page.getByLabel(/^Scope value/).fill('files read');
  await expect(page.getByTestId('error-scopeValue')).toBeVisible();
  await audit(page, 'outbox new change', findings);
  await page.getByLabel(/^Scope value/).fill('files:a11y.read');
  await page.getByLabel('Display name').fill('Read files (a11y)');
  await page.getByRole('button', { name: 'Queue change' }).click();
  await expect(page.getByTestId('outbox-badge')).toHaveText('1');
  await page.getByRole('tab', { name: 'Changes' }).click();
  await expect(page.getByTestId('outbox-item')).toHaveCount(1);
  await audit(page, 'outbox queued', findings);
  await sendAllQueued(page);
  await expect(page.locator('[data-testid="outbox-item"][data-state="succeeded"]')).toHaveCount(1, { timeout: 60_000 });
  await expect(page.getByTestId('send-progress')).toContainText('1 succeeded');
  await expect(page.getByTestId('send-announcement')).toContainText('Send finished: 1 succeeded');
  await audit(page, 'outbox sent', findings);
  await page.getByRole('tab', { name: 'Journal' }).click();
  await expect(page.getByTestId('journal')).toBeVisible();
  await audit(page, 'outbox journal', findings);
  report(findings);
});
