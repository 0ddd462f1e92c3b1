import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import type { Automation, AutomationTriggerKey } from '../../src/shared/api-types';
import { AUTOMATION_TRIGGER_KEYS, TRIGGER_TYPE_OF } from '../../src/shared/api-types';
import { connectAndSync, expect, test, sendAllQueued } from './fixtures';

// Runs under scripts/with-keyring.sh (the connection's secret goes to the real OS keychain).
let tenant: ReferenceTenant;
test.beforeAll(async () => {
  tenant = await startTenant({ port: 0, seed: 11 });
});
test.afterAll(async () => {
  await tenant?.close();
});

function anyTriggerTypes(a: Automation): Set<string> {
  const kinds = [...(a.triggers ?? []), ...(a.draftTriggers ?? [])].flatMap((t) =>
    AUTOMATION_TRIGGER_KEYS.filter((k) => (t as Record<string, unknown>)[k] !== undefined),
  );
  return new Set([a.primaryTriggerType ?? '', ...kinds.map((k: AutomationTriggerKey) => TRIGGER_TYPE_OF[k])]);
}

test('the Automations view searches with the spec filters in the store and in the tenant, and says which answered', async ({
  page,
  host,
}) => {
  await connectAndSync(page, host.url, tenant);
  const all = [...tenant.data.automations.values()];
  // A type some automation has only as a second or a draft trigger: the primary and "any" filters part there.
  const type = [...new Set(all.map((a) => a.primaryTriggerType!))].find((t) =>
    all.some((a) => a.primaryTriggerType !== t && anyTriggerTypes(a).has(t)),
  )!;
  expect(type).toBeDefined();
  const primary = all.filter((a) => a.primaryTriggerType === type).length;
  const anyTrigger = all.filter((a) => anyTriggerTypes(a).has(type)).length;

  await page
    .getByRole('navigation')
    .getByRole('button', { name: /^Automations/ })
    .click();
  const search = page.getByTestId('automation-search');
  await search.locator('summary').click();
  await search.getByLabel('Primary trigger type (as the server matches)').selectOption(type);
  await search.getByTestId('search-store').click();
  await expect(page.getByTestId('automation-search-source')).toHaveText(new RegExp(`^${primary} from the store, synced`));
  await expect(page.getByTestId('automation-search-results').locator('tbody tr')).toHaveCount(primary);
  await search.getByTestId('search-tenant').click();
  await expect(page.getByTestId('automation-search-source')).toHaveText(
    new RegExp(`^${primary} from the tenant, asked .*\\(\\d+ pages?\\)`),
  );
  await expect(page.getByTestId('automation-search-results').locator('tbody tr')).toHaveCount(primary);

  // The store's own "any trigger type": wider, and not one to ask the tenant.
  await search.getByLabel('Primary trigger type (as the server matches)').selectOption([]);
  await search.getByLabel('Any trigger type (store only)').selectOption(type);
  await expect(search.getByTestId('search-tenant')).toBeDisabled();
  await search.getByTestId('search-store').click();
  await expect(page.getByTestId('automation-search-source')).toHaveText(new RegExp(`^${anyTrigger} from the store`));
  expect(anyTrigger).toBeGreaterThan(primary);
});

test('the escalate form sends the chosen expand paths, and the sent change shows what was expanded', async ({ page, host }) => {
  await connectAndSync(page, host.url, tenant);
  const task = [...tenant.data.tasks.values()].find((t) => t.type?.grant && !t.emergencyAccess && t.policy?.current?.id)!;
  const app = tenant.data.apps.get(task.type!.grant!.appId!)!;
  await page
    .getByRole('navigation')
    .getByRole('button', { name: /^Outbox/ })
    .click();
  await page.getByRole('tab', { name: 'New change' }).click();
  await page.getByLabel('Change', { exact: true }).selectOption('escalate-task');
  await page.getByLabel(/^Task id/).fill(task.id!);
  const expand = page.getByTestId('expand-choice');
  await expand.getByRole('checkbox', { name: /App app_id/ }).check();
  await expand.getByRole('checkbox', { name: /App user app_user_id/ }).check();
  await page.getByRole('button', { name: 'Queue change' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Queued:' })).toBeVisible();
  await page.getByRole('tab', { name: 'Changes' }).click();
  await sendAllQueued(page);
  await expect(page.locator('[data-testid="outbox-item"][data-state="succeeded"]')).toHaveCount(1, { timeout: 60_000 });
  const sent = tenant.journal().filter((e) => e.operation === 'escalateTask' && e.objectId === task.id);
  expect(sent.map((e) => (e.request as { expandMask?: unknown }).expandMask)).toEqual([{ paths: ['app_id', 'app_user_id'] }]);
  await expect(page.getByTestId('expanded-objects')).toContainText(`App ${app.displayName}`);
  await expect(page.getByTestId('expanded-objects')).toContainText('AppUser');
});
