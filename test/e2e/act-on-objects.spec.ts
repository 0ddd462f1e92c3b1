import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import type { Entitlement } from '../../src/tenant/model';
import { connectAndSync, expect, screenshotDir, test, sendAllQueued, confirmEscalation } from './fixtures';

// Runs under scripts/with-keyring.sh (the connection's secret goes to the real OS keychain).
let tenant: ReferenceTenant;
test.beforeAll(async () => {
  tenant = await startTenant({ port: 0, scale: 'demo', seed: 19 });
});
test.afterAll(async () => {
  await tenant?.close();
});

/** Opens an object through the quick search: its id typed, the hit of its kind clicked. */
async function open(page: Page, id: string, name: string, collection: 'entitlements' | 'tasks'): Promise<void> {
  await page.keyboard.press('Control+k');
  await page.getByRole('dialog', { name: 'Quick search' }).getByRole('textbox').fill(id);
  const noun = collection === 'entitlements' ? 'Entitlement' : 'Task';
  await page
    .locator('.hit')
    .filter({ has: page.locator('.badge', { hasText: new RegExp(`^${noun}$`) }) })
    .filter({ hasText: name })
    .first()
    .click();
  await expect(page.locator(`[data-screen="detail"][data-collection="${collection}"]`)).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
}

/** The members of an entitlement on the tenant. */
const membersOf = (e: Entitlement) => [...tenant.data.memberships.values()].filter((m) => m.appEntitlementId === e.id);

/** An entitlement of one of `kinds` with at least `n` members and a name no other entitlement has. */
function entitlementOf(kinds: Entitlement['kind'][], n: number): Entitlement {
  const all = [...tenant.data.entitlements.values()];
  const found = all.find(
    (e) => kinds.includes(e.kind) && membersOf(e).length >= n && all.filter((o) => o.displayName === e.displayName).length === 1,
  );
  if (!found) throw new Error(`no ${kinds.join('/')} entitlement with ${n} members`);
  return found;
}

test('open an entitlement, select three members, queue their removal, send, see them gone; open a task, escalate it, see emergency access', async ({
  page,
  host,
}) => {
  await connectAndSync(page, host.url, tenant);

  // An entitlement synced from its app: its members cannot be removed, and the page says why.
  const role = entitlementOf(['role'], 1);
  await open(page, role.id, role.displayName, 'entitlements');
  await expect(page.getByTestId('members-not-managed')).toContainText('This entitlement is a Role');
  await expect(page.getByRole('button', { name: /Queue removal/ })).toHaveCount(0);
  await expect(page.getByTestId('member-row').first()).toBeVisible();

  // A group: three members selected, their removal queued.
  const group = entitlementOf(['group', 'profile'], 4);
  const members = membersOf(group);
  await open(page, group.id, group.displayName, 'entitlements');
  const list = page.getByTestId('entitlement-members');
  await expect(list).toContainText(`${members.length} in the local copy`);
  const rows = list.getByTestId('member-row');
  const chosen: string[] = [];
  for (let i = 0; i < 3; i += 1) chosen.push((await rows.nth(i).getAttribute('data-user')) ?? '');
  // The first, then a shift-click on the third: the range between them.
  await rows.nth(0).getByRole('checkbox').check();
  await rows
    .nth(2)
    .getByRole('checkbox')
    .click({ modifiers: ['Shift'] });
  await expect(list.getByTestId('members-selected')).toHaveText('3 selected');
  await list.getByRole('button', { name: 'Queue removal (3)' }).click();
  // Asked before queuing, with a reason kept with each removal (the API's removal takes no comment).
  const confirm = list.getByTestId('confirm-panel');
  await expect(confirm).toContainText(`Remove 3 members from ${group.displayName}?`);
  await confirm.getByLabel(/Why/).fill('left the team (HR ticket 4411)');
  await confirm.getByRole('button', { name: 'Queue 3 removals' }).click();
  await expect(list.getByTestId('queued-note')).toContainText('3 changes queued');
  for (const user of chosen) await expect(list.locator(`[data-user="${user}"]`)).toContainText('pending removal');
  await page.screenshot({ path: join(screenshotDir, 'entitlement-members.png') });

  // A grant task whose current step allows escalation: escalated with that step's id.
  const task = [...tenant.data.tasks.values()].find(
    (t) => t.type?.grant && !t.emergencyAccess && (t.actions ?? []).includes('TASK_ACTION_TYPE_ESCALATE_TO_EMERGENCY_ACCESS'),
  )!;
  await open(page, task.id!, task.displayName!, 'tasks');
  await expect(page.getByTestId('task-actions')).toContainText('Not in emergency access');
  await page.getByRole('button', { name: 'Escalate to emergency access' }).click();
  await confirmEscalation(page, 'on call tonight: the payroll fix needs it');
  await expect(page.getByTestId('task-actions').getByTestId('queued-note')).toContainText('1 change queued');

  // Send: the removals and the escalation.
  await page
    .getByRole('navigation')
    .getByRole('button', { name: /^Outbox/ })
    .click();
  await sendAllQueued(page);
  await expect(page.locator('[data-testid="outbox-item"][data-state="succeeded"]')).toHaveCount(4, { timeout: 60_000 });
  const journal = tenant.journal();
  expect(
    journal
      .filter((e) => e.operation === 'removeMembership')
      .map((e) => (e.request as { appUserId: string }).appUserId)
      .sort(),
  ).toEqual([...chosen].sort());
  // The removals sent their body only; the escalation carried its reason as the API's comment.
  expect(
    journal.filter((e) => e.operation === 'removeMembership').every((e) => Object.keys(e.request as object).join() === 'appUserId'),
  ).toBe(true);
  expect(journal.filter((e) => e.operation === 'escalateTask').map((e) => (e.request as { comment?: string }).comment)).toEqual([
    'on call tonight: the payroll fix needs it',
  ]);
  // The removals' reason is in the outbox's journal.
  await page.getByRole('tab', { name: 'Journal' }).click();
  await expect(page.getByTestId('journal')).toContainText('reason: left the team (HR ticket 4411)');
  await page.getByRole('tab', { name: 'Changes' }).click();
  // The sent escalation links to its task, stored as the tenant now has it.
  await expect(page.getByTestId('result-link')).toHaveText(`Task ${task.id!}`);

  // The members are gone at once (no sync in between); the task shows its emergency access.
  await open(page, group.id, group.displayName, 'entitlements');
  await expect(list).toContainText(`${members.length - 3} in the local copy`);
  for (const user of chosen) await expect(list.locator(`[data-user="${user}"]`)).toHaveCount(0);
  await page
    .getByRole('navigation')
    .getByRole('button', { name: /^Outbox/ })
    .click();
  await page.getByTestId('result-link').click();
  await expect(page.locator('[data-screen="detail"][data-collection="tasks"]')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(task.displayName!);
  await expect(page.getByTestId('emergency-access')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Escalate to emergency access' })).toHaveCount(0);
  await page.screenshot({ path: join(screenshotDir, 'task-escalated.png') });
  await page.getByRole('tab', { name: 'Raw JSON' }).click();
  await expect(page.getByTestId('raw-json')).toContainText('"emergencyAccess": true');
});

test('the forms that take ids pick them from the store by name, show the names, check the change as it is typed, and take the step from the task', async ({
  page,
  host,
}) => {
  await connectAndSync(page, host.url, tenant);
  await page
    .getByRole('navigation')
    .getByRole('button', { name: /^Outbox/ })
    .click();
  await page.getByRole('tab', { name: 'New change' }).click();
  await page.getByLabel('Change', { exact: true }).selectOption('remove-membership');

  // The app picked by a few letters of its name: offered by name with its id.
  const role = entitlementOf(['role'], 1);
  const app = tenant.data.apps.get(role.appId)!;
  await page.getByLabel('App id').fill(app.displayName.slice(0, 4));
  // The options come from a store query as you type: on a busy machine they may take longer than the default 5 s.
  const offered = page.locator(`#appId-options [role="option"][data-id="${app.id}"]`);
  await expect(offered).toContainText(app.displayName, { timeout: 20_000 });
  await expect(offered).toContainText(app.id);
  await page.getByLabel('App id').fill(app.id);
  // Entitlements are offered within that app only.
  await page.getByLabel('Entitlement id').fill(role.displayName);
  await expect(page.locator(`#appEntitlementId-options [role="option"][data-id="${role.id}"]`)).toHaveCount(1);
  const others = await page
    .locator('#appEntitlementId-options [role="option"]')
    .evaluateAll((options) => options.map((o) => o.getAttribute('data-id')));
  for (const id of others) expect(tenant.data.entitlements.get(id ?? '')?.appId).toBe(app.id);
  await page.getByLabel('Entitlement id').fill(role.id);
  const member = membersOf(role)[0]!;
  await page.getByLabel('App user id').fill(member.appUserId);
  // Checked before anything is queued: the names of the ids, and the store's refusal of a role.
  await expect(page.getByTestId('name-appId')).toHaveText(app.displayName);
  await expect(page.getByTestId('name-appUserId')).toHaveText(tenant.data.appUsers.get(member.appUserId)!.displayName);
  await expect(page.getByTestId('error-appEntitlementId')).toContainText('is a Role (synced from its app): the service does not manage');
  const group = entitlementOf(['group', 'profile'], 1);
  await page.getByLabel('App id').fill(group.appId);
  await page.getByLabel('Entitlement id').fill(group.id);
  await page.getByLabel('App user id').fill('someone-new');
  await expect(page.getByTestId('error-appEntitlementId')).toHaveCount(0);
  // The app users were walked whole: one the walk did not see is not in the tenant.
  await expect(page.getByTestId('error-appUserId')).toContainText('unknown app user someone-new: not in the tenant as of run');

  // An escalation: the task picked, its current policy step filled in from the task.
  await page.getByLabel('Change', { exact: true }).selectOption('escalate-task');
  const task = [...tenant.data.tasks.values()].find(
    (t) => t.type?.grant && !t.emergencyAccess && (t.actions ?? []).includes('TASK_ACTION_TYPE_ESCALATE_TO_EMERGENCY_ACCESS'),
  )!;
  await page.getByLabel('Task id').fill(task.id!);
  await expect(page.getByLabel('Policy step id')).toHaveValue(task.policy!.current!.id!);
  await expect(page.getByTestId('name-taskId')).toHaveText(task.displayName!);
  await page.getByRole('button', { name: 'Queue change' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Queued:' })).toBeVisible();
  await expect(page.getByTestId('outbox-badge')).toHaveText('1');
  // Leave the form (its pickers read the store again once emptied) for a screen at rest before the host stops.
  await page.getByRole('navigation').getByRole('button', { name: 'Overview' }).click();
  await expect(page.locator('[data-screen="overview"]')).toBeVisible();
  await expect(page.getByTestId('outbox-badge')).toHaveText('1');
});
