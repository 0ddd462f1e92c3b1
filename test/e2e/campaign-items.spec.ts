import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import type { Task } from '../../src/shared/api-types';
import { openpyxlDump } from '../helpers/openpyxl';
import { connectAndSync, expect, test } from './fixtures';

// Runs under scripts/with-keyring.sh: saving the connection stores its secret in the real OS keychain.
let tenant: ReferenceTenant;
test.beforeAll(async () => {
  tenant = await startTenant({ port: 0, scale: 'demo' });
});
test.afterAll(async () => {
  await tenant?.close();
});

test("a campaign's page lists its reviewed items with reviewers and decisions, and exports its certification report", async ({
  page,
  host,
}) => {
  // The campaign with the most certify tasks on the tenant.
  const byCampaign = new Map<string, Task[]>();
  for (const t of tenant.data.tasks.values()) {
    const campaign = t.type?.certify?.accessReviewId;
    if (campaign) byCampaign.set(campaign, [...(byCampaign.get(campaign) ?? []), t]);
  }
  const [campaignId, tasks] = [...byCampaign].sort((a, b) => b[1].length - a[1].length)[0]!;
  const campaign = tenant.data.campaigns.get(campaignId)!;
  await connectAndSync(page, host.url, tenant);

  await page.keyboard.press('Control+k');
  await page.getByRole('dialog', { name: 'Quick search' }).getByRole('textbox').fill(campaignId);
  await page.locator('.hit').first().click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(campaign.displayName!);

  const section = page.getByTestId('campaign-items');
  await expect(section.locator('tbody tr')).toHaveCount(tasks.length);
  for (const t of tasks) {
    const row = section.locator(`tr[data-task="${t.id}"]`);
    const decided = t.type!.certify!.outcome === 'CERTIFY_OUTCOME_CERTIFIED';
    await expect(row).toHaveAttribute('data-decision', decided ? 'certified' : 'outstanding');
    const reviewers = t.stepApproverIds?.length ? t.stepApproverIds : (t.approverIds ?? []);
    // Each reviewer by the synced user's name and email.
    for (const reviewer of reviewers) {
      const user = tenant.data.users.get(reviewer) as { displayName?: string; email?: string } | undefined;
      await expect(row).toContainText(user ? `${user.displayName} <${user.email}>` : reviewer);
    }
  }
  const certified = tasks.filter((t) => t.type!.certify!.outcome === 'CERTIFY_OUTCOME_CERTIFIED').length;
  await expect(section.getByTestId('campaign-summary')).toContainText(`${tasks.length} items`);
  await expect(section.getByTestId('campaign-summary')).toContainText(`${certified} certified`);

  await section.getByRole('button', { name: 'Export certification report…' }).click();
  await expect(section.getByTestId('certification-export')).toBeVisible({ timeout: 60_000 });
  const file = join(host.dialogDir, `attest-certification-${campaignId}.xlsx`);
  expect(existsSync(file)).toBe(true);
  const sheet = openpyxlDump(file, true).sheets.find((s) => s.name === 'Certification')!;
  expect(sheet.rows).toBe(tasks.length);
});
