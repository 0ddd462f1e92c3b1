import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { MANAGED_ENTITLEMENT_KINDS } from '../../src/tenant/dataset';
import { connectAndSync, expect, screenshotDir, test, sendAllQueued } from './fixtures';

// Runs under scripts/with-keyring.sh (the connection's secret goes to the real OS keychain).
let tenant: ReferenceTenant;
test.beforeAll(async () => {
  tenant = await startTenant({ port: 0, scale: 'demo' });
});
test.afterAll(async () => {
  await tenant?.close();
});

test('queue a scope (bad value refused inline, then a good one), bulk-import a CSV, send the outbox and see the results', async ({
  page,
  host,
}) => {
  await connectAndSync(page, host.url, tenant);
  const scope = [...tenant.data.scopes.values()][0]!;
  const memberships = [...tenant.data.memberships.values()]
    .filter((m) => MANAGED_ENTITLEMENT_KINDS.includes(tenant.data.entitlements.get(m.appEntitlementId)!.kind))
    .slice(0, 2);
  expect(memberships).toHaveLength(2);

  await page
    .getByRole('navigation')
    .getByRole('button', { name: /^Outbox/ })
    .click();
  await expect(page.getByRole('heading', { name: 'Nothing queued' })).toBeVisible();
  await page.getByRole('tab', { name: 'New change' }).click();
  await page.getByLabel('App id').fill(scope.appId ?? '');
  await page.getByLabel('Resource server id').fill(scope.xaaResourceServerId ?? '');
  await page.getByLabel(/^Scope value/).fill('files read');
  await expect(page.getByTestId('error-scopeValue')).toContainText('a space');
  await expect(page.getByRole('button', { name: 'Queue change' })).toBeDisabled();
  await page.getByLabel(/^Scope value/).fill('x'.repeat(257));
  await expect(page.getByTestId('error-scopeValue')).toContainText('257 bytes');
  await page.screenshot({ path: join(screenshotDir, 'outbox-scope-refused.png') });
  await page.getByLabel(/^Scope value/).fill('files:e2e.read');
  await expect(page.getByTestId('error-scopeValue')).toHaveCount(0);
  await page.getByLabel('Display name').fill('Read files (e2e)');
  await page.getByRole('button', { name: 'Queue change' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Queued:' })).toBeVisible();
  await expect(page.getByTestId('outbox-badge')).toHaveText('1');

  // Bulk CSV: a file with a bad row is checked whole, with line numbers; its valid row is queued all the same
  // (a partial import) and the refused one downloaded with its line and reason; fixed, that file queues the rest.
  await page.getByRole('tab', { name: 'Import CSV' }).click();
  await page.getByLabel('Kind').selectOption('remove-membership');
  const header = 'app_id,app_entitlement_id,app_user_id';
  const rows = memberships.map((m) => `${m.appId},${m.appEntitlementId},${m.appUserId}`);
  await page.getByLabel('CSV file').setInputFiles({
    name: 'bad.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from([header, rows[0], `${memberships[1]!.appId},,someone`].join('\n')),
  });
  await expect(page.getByTestId('import-errors')).toContainText('3');
  await expect(page.getByRole('button', { name: /^Queue 1 change/ })).toHaveCount(0);
  await page.screenshot({ path: join(screenshotDir, 'outbox-import-errors.png') });
  await page.getByRole('button', { name: 'Queue the 1 valid row, leave out 1' }).click();
  await expect(page.getByText('1 change queued from bad.csv. 1 row refused')).toBeVisible();
  await expect(page.getByTestId('outbox-badge')).toHaveText('2');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('import-rejects').click()]);
  expect(download.suggestedFilename()).toBe('bad-rejected.csv');
  const rejected = parse(readFileSync(await download.path()), { columns: true }) as Record<string, string>[];
  expect(rejected).toHaveLength(1);
  expect(rejected[0]).toMatchObject({ app_id: memberships[1]!.appId, app_entitlement_id: '', app_user_id: 'someone', rejected_line: '3' });
  expect(rejected[0]!.rejected_reason).toBe('app_entitlement_id is required');
  const fixed = [{ ...rejected[0], app_entitlement_id: memberships[1]!.appEntitlementId, app_user_id: memberships[1]!.appUserId }];
  await page.getByLabel('CSV file').setInputFiles({
    name: 'bad-rejected.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(stringify(fixed, { header: true })),
  });
  await expect(page.getByTestId('import-valid')).toBeVisible();
  await expect(page.getByTestId('import-errors')).toHaveCount(0);
  await page.getByRole('button', { name: 'Queue 1 change' }).click();
  await expect(page.getByTestId('outbox-item')).toHaveCount(3);
  await expect(page.getByTestId('outbox-badge')).toHaveText('3');
  await page.screenshot({ path: join(screenshotDir, 'outbox-queued.png') });

  // Escalations from a CSV: the preview names each task and takes its step from the synced task; a task the complete
  // sync did not see is refused as not in the tenant.
  const grant = [...tenant.data.tasks.values()].find((t) => t.type?.grant && !t.emergencyAccess && t.policy?.current?.id)!;
  const grantId = grant.id!;
  await page.getByRole('tab', { name: 'Import CSV' }).click();
  await page.getByLabel('Kind').selectOption('escalate-task');
  await page.getByLabel('CSV file').setInputFiles({
    name: 'escalations.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(['task_id,comment', `${grantId},on call`, 'no-such-task,'].join('\n')),
  });
  await expect(page.getByTestId('import-errors')).toContainText('unknown task no-such-task: not in the tenant as of run');
  await expect(page.getByTestId('import-valid')).toContainText(
    `escalate task ${grant.displayName} (${grantId}) (policy step ${grant.policy!.current!.id})`,
  );
  await page.getByRole('tab', { name: 'Changes' }).click();

  // Send everything and see the results.
  await sendAllQueued(page);
  await expect(page.locator('[data-testid="outbox-item"][data-state="succeeded"]')).toHaveCount(3, { timeout: 60_000 });
  await expect(page.getByTestId('send-progress')).toContainText('3 succeeded');
  await expect(page.getByTestId('outbox-badge')).toHaveCount(0);
  expect(tenant.journal().filter((e) => e.operation === 'createScope' || e.operation === 'removeMembership')).toHaveLength(3);
  await page.screenshot({ path: join(screenshotDir, 'outbox-sent.png') });
  await page.getByRole('tab', { name: 'Journal' }).click();
  await expect(page.getByTestId('journal')).toContainText('/xaa/scopes');
  // Newest first, each change in words: a removal names its user, entitlement and app as the store has them.
  const [first] = memberships;
  await expect(page.getByTestId('journal-entry').first()).toContainText('succeeded');
  await page.getByLabel('Kind', { exact: true }).selectOption('remove-membership');
  await page.getByLabel('Outcome').selectOption('succeeded');
  // The journal reads again on each filter, each change put in words from the store: time for a busy machine.
  await expect(page.getByTestId('journal-entry')).toHaveCount(2, { timeout: 20_000 });
  await expect(page.getByTestId('journal')).toContainText(
    `${tenant.data.appUsers.get(first!.appUserId)!.displayName} (${first!.appUserId})`,
    { timeout: 20_000 },
  );
  await expect(page.getByTestId('journal')).toContainText(`${tenant.data.apps.get(first!.appId)!.displayName} (${first!.appId})`, {
    timeout: 20_000,
  });

  // Export the evidence report (with the journal of these changes) and verify it.
  await page.getByRole('navigation').getByRole('button', { name: 'Reports' }).click();
  await expect(page.locator('[data-screen="reports"]')).toBeVisible();
  await page.getByRole('radio', { name: 'Evidence: the whole tenant' }).check();
  // Signed with this machine's key (created in the OS keychain on first use).
  await page.getByRole('checkbox', { name: /Sign with this computer's signing key/ }).check();
  await page.getByRole('button', { name: 'Export…' }).click();
  await expect(page.getByTestId('export-result')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('export-result')).toContainText(host.dialogDir);
  const fingerprint = (await page.getByTestId('export-signature').locator('code').textContent()) ?? '';
  expect(fingerprint).toMatch(/^SHA256:[0-9a-f]{64}$/);
  await page.screenshot({ path: join(screenshotDir, 'reports-exported.png') });
  await page.getByTestId('export-result').getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByTestId('verify-result')).toContainText('Intact');
  await expect(page.getByTestId('verify-notice')).toContainText(`Signed with the key ${fingerprint}`);
  // A recipient who holds the fingerprint: the workbook must be signed by that key.
  await page.getByLabel(/Exporter's key fingerprint/).fill(fingerprint);
  await page.getByRole('button', { name: 'Choose a workbook…' }).click();
  await expect(page.getByTestId('verify-result')).toContainText('Intact');
  await expect(page.getByTestId('verify-notice')).toContainText(`Signed by the key you gave (${fingerprint})`);
  await page.getByTestId('verify-notice').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(screenshotDir, 'reports-verified.png') });
  await page.getByLabel(/Exporter's key fingerprint/).fill(`SHA256:${'0'.repeat(64)}`);
  await page.getByRole('button', { name: 'Choose a workbook…' }).click();
  await expect(page.getByTestId('verify-result')).toContainText('Signed by another key');
});

test('update a synced template in its editor (the derived updateMask shown before queuing), edit the queued change, send it, and see the template updated at once', async ({
  page,
  host,
}) => {
  await connectAndSync(page, host.url, tenant);
  // From a synced template's details to its editor.
  await page
    .getByRole('navigation')
    .getByRole('button', { name: /^Templates/ })
    .click();
  await page.getByTestId('list-row').first().click();
  await expect(page.locator('[data-screen="detail"][data-collection="templates"]')).toBeVisible();
  await page.getByRole('button', { name: 'Edit template…' }).click();
  await expect(page.getByLabel('Change', { exact: true })).toHaveValue('update-template');
  // The picker shows the template once the synced list has loaded; read its value only then.
  await expect(page.locator('#template-id')).not.toHaveValue('');
  const templateId = await page.locator('#template-id').inputValue();
  expect(tenant.data.templates.has(templateId)).toBe(true);
  await expect(page.getByTestId('template-preview')).toContainText('No change yet');

  const name = page.locator('#template-displayName');
  const description = page.locator('#template-description');
  const duration = page.locator('#template-accessReviewDuration');
  const [oldName, oldDescription, oldDuration] = [await name.inputValue(), await description.inputValue(), await duration.inputValue()];
  await name.fill(`${oldName} (H2)`);
  await description.fill('Reviewed twice a year.');
  // Only what really differs from the synced template is in the mask, as the core derives it.
  await expect(page.getByTestId('update-mask')).toHaveText('displayName,description');
  await expect(page.getByTestId('template-preview')).toContainText('Reviewed twice a year.');
  // A value the spec refuses is named at its field, and nothing can be queued.
  await duration.fill('two weeks');
  await expect(page.getByTestId('error-template-accessReviewDuration')).toContainText("must be a duration: '21d', '36h'");
  await expect(page.getByRole('button', { name: 'Queue update' })).toBeDisabled();
  await duration.fill(oldDuration);
  await expect(page.getByTestId('update-mask')).toHaveText('displayName,description');
  await page.screenshot({ path: join(screenshotDir, 'template-editor.png') });
  await page.getByRole('button', { name: 'Queue update' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Queued:' })).toContainText(
    `update template ${oldName} (${templateId}): displayName,description`,
  );

  // Edit the queued change: the description back as synced, so only the name is sent.
  await page.getByRole('tab', { name: 'Changes' }).click();
  await expect(page.getByTestId('outbox-item')).toHaveCount(1);
  await page.getByTestId('outbox-item').getByRole('button', { name: 'Edit' }).click();
  const editor = page.getByTestId('edit-item');
  await expect(editor.locator('#template-description')).toHaveValue('Reviewed twice a year.');
  await editor.locator('#template-description').fill(oldDescription);
  await expect(editor.getByTestId('update-mask')).toHaveText('displayName');
  await editor.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByTestId('edit-item')).toHaveCount(0);
  await expect(page.getByTestId('outbox-item')).toContainText(`update template ${oldName} (${templateId}): displayName`);

  await sendAllQueued(page);
  await expect(page.locator('[data-testid="outbox-item"][data-state="succeeded"]')).toHaveCount(1, { timeout: 60_000 });
  const applied = tenant.journal().filter((e) => e.operation === 'updateTemplate' && e.objectId === templateId);
  expect(applied.map((e) => (e.request as { updateMask?: string }).updateMask)).toEqual(['displayName']);
  expect(tenant.data.templates.get(templateId)).toMatchObject({ displayName: `${oldName} (H2)`, description: oldDescription || undefined });

  // The answer's template is in the store at once: the list shows the new name without a sync.
  await page.getByRole('navigation').getByRole('button', { name: 'Templates' }).click();
  await expect(page.getByText(`${oldName} (H2)`)).toBeVisible();
  await page.getByRole('navigation').getByRole('button', { name: 'Overview' }).click();
  await expect(page.getByTestId('sync-history').locator('tr').nth(1)).toContainText('from sent changes');
});
