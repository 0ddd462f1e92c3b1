import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { connectAndSync, expect, test } from './fixtures';

// Runs under scripts/with-keyring.sh (the connection's secret goes to the real OS keychain).
let tenant: ReferenceTenant;
test.beforeAll(async () => {
  tenant = await startTenant({ port: 0, scale: 'demo', seed: 7 });
});
test.afterAll(async () => {
  await tenant?.close();
});

/** No critical or serious axe finding on what is on screen. */
async function expectAccessible(page: Page, screen: string): Promise<void> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  const blocking = result.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious');
  expect(blocking.map((v) => `${v.id} on ${screen}: ${v.nodes[0]?.target.join(' ') ?? ''}`)).toEqual([]);
}

/** The ids of templates that no campaign or automation names: a sync never reads them on its own. */
function unreferencedTemplateIds(): string[] {
  const named = new Set<string>();
  for (const c of tenant.data.campaigns.values()) if (c.accessReviewTemplateId) named.add(c.accessReviewTemplateId);
  for (const a of tenant.data.automations.values())
    for (const step of [...(a.automationSteps ?? []), ...(a.draftAutomationSteps ?? [])]) {
      const id = step.createAccessReview?.accessReviewTemplateId;
      if (id) named.add(id);
    }
  return [...tenant.data.templates.keys()].filter((id) => !named.has(id));
}

test('Templates: a template no campaign names is added by id, then refreshed from the tenant on its page, showing what changed', async ({
  page,
  host,
}) => {
  await connectAndSync(page, host.url, tenant);
  await page
    .getByRole('navigation')
    .getByRole('button', { name: /^Templates/ })
    .click();
  await expect(page.locator('[data-screen="list"][data-collection="templates"]')).toBeVisible();
  const total = page.getByTestId('list-total');
  await expect(total).toHaveText(/^\d+ objects?$/);
  const before = Number((await total.textContent())!.split(' ')[0]);

  const [id] = unreferencedTemplateIds();
  const template = tenant.data.templates.get(id!)!;
  const panel = page.getByTestId('add-template-by-id');
  await panel.getByRole('button', { name: 'Add a template by id' }).click();
  await panel.getByRole('textbox', { name: 'Template ids' }).fill(`${id} no-such-template`);
  await panel.getByRole('button', { name: 'Add', exact: true }).click();
  const result = panel.getByTestId('add-template-result');
  await expect(result).toContainText(`Added ${template.displayName}`);
  await expect(result).toContainText('The tenant has no template no-such-template (404): not added.');
  await expect(total).toHaveText(`${before + 1} objects`);
  await expect(panel.getByTestId('added-templates')).toContainText(template.displayName!);
  await expectAccessible(page, 'the Templates list with a template added by id');

  // Its page: the tenant renames it, and "Refresh from the tenant" reads and stores it, saying what changed.
  await page.getByTestId('list-row').filter({ hasText: template.displayName! }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(template.displayName!);
  tenant.data.touch('templates', id!, { displayName: 'Vendor access review, renamed' });
  await page.getByTestId('refresh-from-tenant').click();
  const refreshed = page.getByTestId('refresh-result');
  await expect(refreshed).toContainText(/values changed since the version of run \d+; stored as a fresh copy in run \d+/);
  await expect(refreshed.getByTestId('field-changes')).toContainText('Vendor access review, renamed');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Vendor access review, renamed');
  await expectAccessible(page, 'a template refreshed from the tenant');

  // Again: nothing new on the tenant, nothing new stored.
  await page.getByTestId('refresh-from-tenant').click();
  await expect(refreshed).toContainText(/no change since the version of run \d+/);
});
