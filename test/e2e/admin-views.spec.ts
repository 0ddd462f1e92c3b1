import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import type { Task } from '../../src/shared/api-types';
import { connectAndSync, expect, screenshotDir, syncToEnd, test, confirmEscalation } from './fixtures';

// Runs under scripts/with-keyring.sh (the connection's secret goes to the real OS keychain).
let tenant: ReferenceTenant;
test.beforeAll(async () => {
  tenant = await startTenant({ port: 0, scale: 'demo', seed: 7 });
});
test.afterAll(async () => {
  await tenant?.close();
});

/** No critical or serious axe finding (WCAG 2.1 A/AA and best practices) on what is on screen. */
async function expectAccessible(page: Page, screen: string): Promise<void> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  const blocking = result.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious');
  expect(
    blocking.map((v) => `${v.id} on ${screen}: ${v.nodes[0]?.target.join(' ') ?? ''}`),
    screen,
  ).toEqual([]);
}

const ESCALATE = 'TASK_ACTION_TYPE_ESCALATE_TO_EMERGENCY_ACCESS';
const tasks = (): Task[] => [...tenant.data.tasks.values()];

test('Tasks: filtered by emergency access, state and app, two selected, the one that can be escalated queued and the other skipped', async ({
  page,
  host,
}) => {
  await connectAndSync(page, host.url, tenant);
  await page.getByRole('navigation').getByRole('button', { name: 'Tasks' }).click();
  await expect(page.locator('[data-screen="list"][data-collection="tasks"]')).toBeVisible();
  const total = page.getByTestId('list-total');
  await expect(total).toHaveText(`${tasks().length.toLocaleString('en-US')} objects`);

  // Emergency access: the tasks in it, then those not in it.
  const inEmergency = tasks().filter((t) => t.emergencyAccess === true).length;
  expect(inEmergency).toBeGreaterThan(0);
  const emergencyFilter = page.getByRole('combobox', { name: 'Filter by Emergency access' });
  await emergencyFilter.selectOption({ label: 'Yes' });
  await expect(total).toHaveText(`${inEmergency.toLocaleString('en-US')} ${inEmergency === 1 ? 'object' : 'objects'}`);
  await emergencyFilter.selectOption({ label: 'No' });
  // ... and open: the tasks an admin can still act on.
  await page.getByRole('combobox', { name: 'Filter by State' }).selectOption({ label: 'Open' });
  const open = tasks().filter((t) => t.emergencyAccess !== true && t.state === 'TASK_STATE_OPEN');
  await expect(total).toHaveText(`${open.length.toLocaleString('en-US')} objects`);

  // A grant task that offers escalation and a revoke task of the same app (which does not).
  const grant = open.find(
    (t) =>
      t.type?.grant &&
      (t.actions ?? []).includes(ESCALATE) &&
      open.some((o) => o.type?.revoke && o.type.revoke.appId === t.type!.grant!.appId),
  )!;
  const appId = grant.type!.grant!.appId!;
  const revoke = open.find((t) => t.type?.revoke?.appId === appId)!;
  // Apps offered by name.
  await page.getByRole('combobox', { name: 'Filter by App' }).selectOption({ label: tenant.data.apps.get(appId)!.displayName });
  const ofApp = open.filter((t) => Object.values(t.type ?? {}).some((d) => (d as { appId?: string } | null)?.appId === appId));
  await expect(total).toHaveText(`${ofApp.length.toLocaleString('en-US')} ${ofApp.length === 1 ? 'object' : 'objects'}`);
  for (const t of [grant, revoke]) {
    await page.getByTestId('list-text-filter').fill(t.id!);
    await page.getByRole('row').filter({ hasText: t.displayName! }).first().getByRole('checkbox').check();
  }
  await page.getByTestId('list-text-filter').fill('');
  const bar = page.getByTestId('selection-bar');
  await expect(bar).toContainText('2 selected');
  await bar.getByRole('button', { name: 'Escalate (2)' }).click();
  await expect(bar.getByTestId('confirm-panel')).toContainText('Escalate these 2 tasks to emergency access?');
  await confirmEscalation(page, 'audit finding 12: access needed for the fix', 'Escalate 2');
  await expect(bar.getByRole('status')).toHaveText(
    `Queued 1 change in the outbox. 1 skipped (its current step does not offer escalation): ${revoke.displayName}. Open the outbox`,
  );
  await expect(page.getByTestId('outbox-badge')).toHaveText('1');
  await expectAccessible(page, 'the Tasks list with its selection bar');
  // Marked at once in the list as it is (no other filter or sort needed to read the rows again).
  await expect(page.getByRole('row').filter({ hasText: grant.displayName! }).first()).toContainText('Change pending');
  await expect(page.getByRole('row').filter({ hasText: revoke.displayName! }).first()).not.toContainText('Change pending');
  // The escalated task is marked pending in the list; the outbox holds its escalation with the task's current step.
  await page.getByTestId('list-text-filter').fill(grant.id!);
  await expect(page.getByRole('row').filter({ hasText: grant.displayName! }).first()).toContainText('Change pending');
  await page.screenshot({ path: join(screenshotDir, 'tasks-escalate.png') });
  await bar.getByRole('button', { name: 'Open the outbox' }).click();
  const item = page.getByTestId('outbox-item').filter({ hasText: grant.id! });
  await expect(item).toHaveAttribute('data-state', 'queued');
  await expect(item).toContainText(grant.policy!.current!.id!);
});

test('an App lists its entitlements, users and resource servers from the store; each leads to its page', async ({ page, host }) => {
  await connectAndSync(page, host.url, tenant);
  const entitlementsOf = (appId: string) => [...tenant.data.entitlements.values()].filter((e) => e.appId === appId);
  const usersOf = (appId: string) => [...tenant.data.appUsers.values()].filter((u) => u.appId === appId);
  const scopesOf = (appId: string) => [...tenant.data.scopes.values()].filter((s) => s.appId === appId);
  const app = [...tenant.data.apps.values()].find(
    (a) => scopesOf(a.id).length > 0 && entitlementsOf(a.id).length > 0 && usersOf(a.id).length > 0,
  )!;
  const servers = [...new Set(scopesOf(app.id).map((s) => s.xaaResourceServerId ?? ''))].sort();

  await page.getByRole('navigation').getByRole('button', { name: 'Apps' }).click();
  await page.getByRole('row').filter({ hasText: app.displayName }).first().click();
  await expect(page.locator('[data-screen="detail"][data-collection="apps"]')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(app.displayName);
  const inCopy = (n: number) => `${n.toLocaleString('en-US')} in the local copy`;
  await expect(page.getByTestId('app-entitlements-total')).toHaveText(inCopy(entitlementsOf(app.id).length));
  await expect(page.getByTestId('app-users-total')).toHaveText(inCopy(usersOf(app.id).length));
  await expect(page.getByTestId('app-resource-servers-total')).toHaveText(inCopy(servers.length));
  const shown = await page
    .getByTestId('resource-server-link')
    .evaluateAll((links) => links.map((l) => l.getAttribute('data-server') ?? ''));
  expect(shown.sort()).toEqual(servers);
  // Names from the store, in name order: the first entitlement by name, opened from its link.
  const first = entitlementsOf(app.id)
    .map((e) => e.displayName)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))[0]!;
  await expect(page.getByTestId('app-entitlements-link').first()).toHaveText(first);
  const user = page.getByTestId('app-users-link').first();
  await expect(user).toBeVisible();
  await expectAccessible(page, 'an app');
  await page.getByTestId('app-entitlements').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(screenshotDir, 'app-objects.png') });

  await page.getByTestId('app-entitlements-link').first().click();
  await expect(page.locator('[data-screen="detail"][data-collection="entitlements"]')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(first);
  await page.getByRole('button', { name: '← Back' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(app.displayName);

  // A resource server opens the scopes list of this app on that server.
  const server = servers[0]!;
  await page.locator(`[data-testid="resource-server-link"][data-server="${server}"]`).click();
  await expect(page.locator('[data-screen="list"][data-collection="scopes"]')).toBeVisible();
  const onServer = scopesOf(app.id).filter((s) => (s.xaaResourceServerId ?? '') === server).length;
  await expect(page.getByTestId('list-total')).toHaveText(`${onServer} ${onServer === 1 ? 'object' : 'objects'}`);
});

test("an entitlement's page shows its MCP toolset live from the tenant, then from the local copy once the tenant stops", async ({
  page,
  host,
}) => {
  const own = await startTenant({ port: 0, scale: 'demo', seed: 11 });
  let running = true;
  try {
    await page.goto(host.url);
    await page.getByLabel('Client ID').fill(own.clientId);
    await page.getByLabel('Client secret').fill(own.clientSecret);
    await page.getByRole('button', { name: 'Save and open' }).click();
    await expect(page.locator('[data-screen="overview"]')).toBeVisible();
    // The search below finds the entitlement once the sync has ended (its objects are indexed by then).
    await syncToEnd(page);

    const toolset = [...own.data.toolsets.values()][0]!;
    const entitlement = own.data.entitlements.get(toolset.appEntitlementId!)!;
    await page.keyboard.press('Control+k');
    await page.getByRole('dialog', { name: 'Quick search' }).getByRole('textbox').fill(entitlement.id);
    await page
      .locator('.hit')
      .filter({ has: page.locator('.badge', { hasText: /^Entitlement$/ }) })
      .first()
      .click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(entitlement.displayName);
    const section = page.getByTestId('entitlement-toolset');
    // The connection's first check may still be under way when the page opens: the live answer follows it.
    await expect(section).toHaveAttribute('data-source', 'live', { timeout: 20_000 });
    await expect(section.getByTestId('toolset-source')).toHaveText('Live from the tenant');
    await expect(section.getByTestId('toolset')).toContainText(toolset.displayName!);
    await expect(section.getByTestId('toolset')).toContainText(`${toolset.toolCount} tools`);
    await expectAccessible(page, "an entitlement's toolset");
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(screenshotDir, 'entitlement-toolset.png') });

    // The tenant stops: the lookup fails, the synced toolsets answer, and the page says so.
    await own.close();
    running = false;
    await section.getByRole('button', { name: 'Look again' }).click();
    await expect(section).toHaveAttribute('data-source', 'store', { timeout: 30_000 });
    await expect(section.getByTestId('toolset-source')).toContainText('From the local copy (synced');
    await expect(section.getByTestId('toolset-reason')).toContainText(/tenant did not answer the lookup|offline/);
    await expect(section.getByTestId('toolset')).toContainText(toolset.displayName!);
    await expectAccessible(page, "an entitlement's toolset from the local copy");
    await section.getByRole('button', { name: toolset.displayName! }).click();
    await expect(page.locator('[data-screen="detail"][data-collection="toolsets"]')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(toolset.displayName!);
  } finally {
    if (running) await own.close();
  }
});
