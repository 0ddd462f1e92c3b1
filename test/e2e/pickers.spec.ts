import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { join } from 'node:path';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { connectAndSync, expect, screenshotDir, test } from './fixtures';

// Runs under scripts/with-keyring.sh (the connection's secret goes to the real OS keychain).
let tenant: ReferenceTenant;
test.beforeAll(async () => {
  tenant = await startTenant({ port: 0, scale: 'demo' });
});
test.afterAll(async () => {
  await tenant?.close();
});

/**
 * The axe check of accessibility.spec.ts: every WCAG 2.x A and AA rule and the best practices in the
 * light theme, the rules a theme can change in the dark one; nothing critical or serious.
 */
async function expectAccessible(page: Page, screen: string): Promise<void> {
  const blocking: string[] = [];
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator(`html[data-theme="${theme}"]`)).toHaveCount(1);
    const axe = new AxeBuilder({ page });
    if (theme === 'light') axe.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']);
    else axe.withRules(['color-contrast', 'link-in-text-block']);
    const result = await axe.analyze();
    for (const v of result.violations.filter((found) => found.impact === 'critical' || found.impact === 'serious'))
      blocking.push(`${v.id} on ${screen} (${theme}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  expect(blocking).toEqual([]);
}

async function newChange(page: Page, kind: string): Promise<void> {
  await page
    .getByRole('navigation')
    .getByRole('button', { name: /^Outbox/ })
    .click();
  await page.getByRole('tab', { name: 'New change' }).click();
  await page.getByLabel('Change', { exact: true }).selectOption(kind);
}

/** Types words into a picker and clicks the option of `id` once it is offered. */
async function pick(page: Page, box: string | RegExp, words: string, id: string): Promise<void> {
  const combobox = page.getByRole('combobox', { name: box });
  await combobox.fill(words);
  const listbox = page.locator(`#${await combobox.getAttribute('aria-controls')}`);
  // The options come from a store query as you type: on a busy machine they may take longer than the default 5 s.
  await listbox.locator(`[role="option"][data-id="${id}"]`).click({ timeout: 20_000 });
}

test('create a campaign through its form: owners and template picked by name, the JSON in step, queued with their ids', async ({
  page,
  host,
}) => {
  await connectAndSync(page, host.url, tenant);
  const users = [...tenant.data.users.values()];
  const [ada, bob] = [users[3]!, users[7]!];
  const templateId = [...tenant.data.campaigns.values()].map((c) => c.accessReviewTemplateId).find((id) => id)!;
  const template = tenant.data.templates.get(templateId)!;
  await newChange(page, 'create-campaign');

  // An empty box offers the first people by name and says how many there are: never cut short silently.
  await page.getByRole('combobox', { name: /^Owners/ }).focus();
  await expect(page.getByTestId('campaign-owner-count')).toHaveText(`20 of ${users.length.toLocaleString('en-US')} shown; type to narrow`, {
    timeout: 20_000,
  });
  await expectAccessible(page, 'campaign form, owners offered');

  await page.getByLabel(/^Name/).fill('Q4 finance review (e2e)');
  await pick(page, /^Owners/, ada.displayName!, ada.id!);
  await pick(page, /^Owners/, bob.email!, bob.id!);
  const owners = page.getByTestId('campaign-owners');
  await expect(owners.locator('li')).toHaveCount(2);
  await expect(owners.locator(`[data-id="${ada.id}"]`)).toContainText(`${ada.displayName} <${ada.email}>`);
  await expect(owners.locator(`[data-id="${bob.id}"]`)).toContainText(bob.email!);

  await pick(page, 'From template', template.displayName!, templateId);
  await expect(page.getByTestId('name-campaign-template')).toHaveText(template.displayName!);
  await expect(page.getByText('Taken from the template:')).toContainText('policy');
  // The template's policy is named; its length gives the completion date.
  const policy = tenant.data.policies.get(template.policyId!)!;
  await expect(page.getByTestId('name-campaign-policy')).toHaveText(policy.displayName!);
  await expect(page.getByTestId('campaign-completion-hint')).toContainText('Ends ');

  // A duration typed for the completion date: counted from now.
  await page.getByLabel('Completion date').fill('21d');
  await expect(page.getByTestId('campaign-completion-hint')).toHaveText(/^Ends \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
  await page.getByLabel('Completion date').fill('three weeks');
  await expect(page.getByTestId('campaign-completion-hint')).toContainText("'21d', '36h' or '1209600s'");
  await expect(page.getByRole('button', { name: 'Queue change' })).toBeDisabled();
  await page.getByLabel('Completion date').fill('21d');

  // The advanced view is the same input; an edit there shows in the form.
  await page.getByText('Advanced (JSON)').click();
  const json = page.locator('#change-json');
  const shown = JSON.parse(await json.inputValue()) as Record<string, unknown>;
  expect(shown).toMatchObject({ displayName: 'Q4 finance review (e2e)', ownerIds: [ada.id, bob.id], templateId, policyId: policy.id });
  await json.fill(JSON.stringify({ ...shown, displayName: 'Q4 finance review (JSON)' }, null, 2));
  await expect(page.getByLabel(/^Name/)).toHaveValue('Q4 finance review (JSON)');
  await json.fill('{ "displayName": ');
  await expect(page.getByTestId('json-problem')).toContainText('Not valid JSON');
  await expect(page.getByRole('button', { name: 'Queue change' })).toBeDisabled();
  await json.fill(JSON.stringify({ ...shown, displayName: 'Q4 finance review (e2e)' }, null, 2));
  await expect(page.getByTestId('json-problem')).toHaveCount(0);
  await expectAccessible(page, 'campaign form, filled');
  await page.screenshot({ path: join(screenshotDir, 'campaign-form.png') });

  await page.getByRole('button', { name: 'Queue change' }).click();
  const queued = page.getByRole('status').filter({ hasText: 'Queued:' });
  await expect(queued).toContainText(`owned by ${ada.displayName} <${ada.email}> (${ada.id})`);
  await expect(queued).toContainText(`from template ${template.displayName} (${templateId})`);
  await expect(page.getByTestId('outbox-badge')).toHaveText('1');

  // The queued item holds the owners' and the template's ids, as its edit form shows them.
  await page.getByRole('tab', { name: 'Changes' }).click();
  await expect(page.getByTestId('outbox-item')).toHaveCount(1);
  await page.getByTestId('outbox-item').getByRole('button', { name: 'Edit' }).click();
  const editor = page.getByTestId('edit-item');
  await editor.getByText('Advanced (JSON)').click();
  const input = JSON.parse(await editor.locator('#change-json').inputValue()) as Record<string, unknown>;
  expect(input.ownerIds).toEqual([ada.id, bob.id]);
  expect(input.templateId).toBe(templateId);
  expect(input.displayName).toBe('Q4 finance review (e2e)');
  expect(typeof input.completionDate).toBe('string');
  await expect(editor.getByTestId('campaign-owners').locator(`[data-id="${ada.id}"]`)).toContainText(ada.displayName!);
  // Leave for a screen at rest before the host stops.
  await page.getByRole('navigation').getByRole('button', { name: 'Overview' }).click();
  await expect(page.locator('[data-screen="overview"]')).toBeVisible();
});

test('create a scope with the app and its resource server picked by name', async ({ page, host }) => {
  await connectAndSync(page, host.url, tenant);
  const scope = [...tenant.data.scopes.values()].find((s) => s.scopeValue && s.appId)!;
  const app = tenant.data.apps.get(scope.appId!)!;
  const onServer = [...tenant.data.scopes.values()].filter(
    (s) => s.appId === app.id && s.xaaResourceServerId === scope.xaaResourceServerId,
  ).length;
  await newChange(page, 'create-scope');

  // Apps are offered by name, and how many there are is said.
  await page.getByRole('combobox', { name: /^App id/ }).focus();
  const apps = tenant.data.apps.size;
  await expect(page.getByTestId('appId-count')).toHaveText(apps > 20 ? `20 of ${apps} shown; type to narrow` : `${apps} matches`, {
    timeout: 20_000,
  });
  const names = await page.locator('#appId-options [role="option"] > span:first-child').allTextContents();
  // By name, as the Apps list sorts them (code point order), not by id.
  expect(names).toEqual([...names].sort());
  expect(names).toEqual([...tenant.data.apps.values()].map((a) => a.displayName).sort());

  await pick(page, /^App id/, app.displayName!, app.id);
  await expect(page.getByTestId('name-appId')).toHaveText(app.displayName!);
  // The resource servers of that app, told by the app and the scopes on them: found by a scope's value,
  // picked with the keyboard.
  const server = page.getByRole('combobox', { name: /^Resource server id/ });
  await server.fill(scope.scopeValue!);
  const option = page.locator(`#xaaResourceServerId-options [role="option"][data-id="${scope.xaaResourceServerId}"]`);
  await expect(option).toBeVisible({ timeout: 20_000 });
  // Down the list to it (fresh matches may still arrive: the key goes on from the option it is on).
  await expect(async () => {
    await server.press('ArrowDown');
    await expect(option).toHaveAttribute('aria-selected', 'true', { timeout: 200 });
  }).toPass({ timeout: 20_000 });
  await expect(server).toHaveAttribute('aria-activedescendant', (await option.getAttribute('id'))!);
  await server.press('Enter');
  await expect(server).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('combobox', { name: /^Resource server id/ })).toHaveValue(scope.xaaResourceServerId!);
  await expect(page.getByTestId('name-xaaResourceServerId')).toHaveText(
    `${app.displayName} resource server (${onServer} scope${onServer === 1 ? '' : 's'})`,
  );
  // A value already on that resource server is refused before anything is queued.
  await page.getByLabel(/^Scope value/).fill(scope.scopeValue!);
  await expect(page.getByTestId('error-scopeValue')).toContainText('is already on resource server');
  await page.getByLabel(/^Scope value/).fill('files:pickers.read');
  await expect(page.getByTestId('error-scopeValue')).toHaveCount(0);
  await expectAccessible(page, 'scope form with pickers');
  await page.getByRole('button', { name: 'Queue change' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Queued:' })).toContainText(
    `create scope 'files:pickers.read' on resource server ${scope.xaaResourceServerId}`,
  );
  await expect(page.getByTestId('outbox-badge')).toHaveText('1');
  await page.getByRole('navigation').getByRole('button', { name: 'Overview' }).click();
  await expect(page.locator('[data-screen="overview"]')).toBeVisible();
});
