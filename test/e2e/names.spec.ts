import { expect, syncsFinished, test } from './fixtures';

test('the demo tenant shows people and policies by name: a campaign list, a campaign page, the Users and Policies lists', async ({
  page,
  host,
}) => {
  await page.goto(host.url);
  await page.getByRole('button', { name: 'Open demo tenant' }).click();
  await expect(page.locator('[data-screen="overview"]')).toBeVisible({ timeout: 60_000 });
  await syncsFinished(page, 1);

  await page
    .getByRole('navigation')
    .getByRole('button', { name: /^Campaigns/ })
    .click();
  const firstRow = page.getByTestId('list-row').first();
  // The creator by name and email, the id after it.
  await expect(firstRow).toContainText(/[A-Z][a-z]+ [A-Z][a-z]+ <[a-z0-9.]+@example\.com> \([0-9A-Za-z]{27}\)/);
  await firstRow.click();
  const named = page.getByTestId('named-references');
  await expect(named).toContainText('Created by');
  await expect(named).toContainText(/@example\.com>/);
  await expect(named).toContainText('Policy');

  await page
    .getByRole('navigation')
    .getByRole('button', { name: /^Users/ })
    .click();
  await expect(page.getByTestId('list-row').first()).toContainText(/@example\.com/);
  await page
    .getByRole('navigation')
    .getByRole('button', { name: /^Policies/ })
    .click();
  await expect(page.getByTestId('list-row').first()).toContainText(/approval|revoke|certification|review|ticket|access/i);
});
