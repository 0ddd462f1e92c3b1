import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { MANAGED_ENTITLEMENT_KINDS } from '../../src/tenant/dataset';
import { osKeychain } from '../../src/main/keychain';
import { spawnAttest } from '../helpers/cli';
import { expect, sendAllQueued, test } from './fixtures';

// Runs under scripts/with-keyring.sh: the app keeps the secret in the real OS keychain, where the CLI finds it.
const root = new URL('../..', import.meta.url).pathname;
let tenant: ReferenceTenant;
test.beforeAll(async () => {
  tenant = await startTenant({ port: 0, scale: 'demo', seed: 61 });
});
test.afterAll(async () => {
  await tenant?.close();
});

test('two fronts, one store: what the CLI queues and sends shows in the open app without a reload', async ({ page, host, dataDir }) => {
  const attest = (args: string[]) => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.ATTEST_CLIENT_SECRET;
    return spawnAttest([...args, '--connection', 'shared', '--data-dir', dataDir], { cwd: root, env });
  };
  try {
    await page.goto(host.url);
    await page.getByLabel('Client ID').fill(tenant.clientId);
    await page.getByLabel('Client secret').fill(tenant.clientSecret);
    await page.getByRole('button', { name: /advanced options/ }).click();
    await page.getByLabel('Server URL (overrides the host)').fill(tenant.url);
    await page.getByLabel('Name').fill('shared');
    await page.getByRole('button', { name: 'Save and open' }).click();
    await expect(page.locator('[data-screen="overview"]')).toBeVisible();
    await page
      .getByRole('navigation')
      .getByRole('button', { name: /^Outbox/ })
      .click();
    const sendAll = page.getByRole('button', { name: /^Send all queued/ });
    await expect(sendAll).toHaveText('Send all queued (0)');
    await expect(page.getByTestId('outbox-item')).toHaveCount(0);
    // Marks this page: a reload would lose the mark.
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

    // The CLI, in a process of its own, queues a removal in the same data folder.
    const membership = [...tenant.data.memberships.values()].find((m) =>
      MANAGED_ENTITLEMENT_KINDS.includes(tenant.data.entitlements.get(m.appEntitlementId)!.kind),
    )!;
    const added = await attest([
      'queue',
      'add',
      'remove-membership',
      '--app',
      membership.appId,
      '--entitlement',
      membership.appEntitlementId,
      '--user',
      membership.appUserId,
    ]);
    expect(added.code, added.stderr).toBe(0);

    // The open app shows it within a few seconds: the badge, the count, the item.
    await expect(page.getByTestId('outbox-badge')).toHaveText('1', { timeout: 4_000 });
    await expect(sendAll).toHaveText('Send all queued (1)', { timeout: 4_000 });
    const item = page.getByTestId('outbox-item');
    await expect(item).toHaveCount(1, { timeout: 4_000 });
    await expect(item).toHaveAttribute('data-state', 'queued');
    await expect(item).toContainText(membership.appUserId);

    // The CLI sends it: the app shows it sent, and nothing left to send.
    const sent = await attest(['queue', 'send']);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stderr).toMatch(/sent 1 of 1: 1 succeeded/);
    await expect(item).toHaveAttribute('data-state', 'succeeded', { timeout: 4_000 });
    await expect(sendAll).toHaveText('Send all queued (0)', { timeout: 4_000 });
    await expect(page.getByTestId('outbox-badge')).toHaveCount(0);
    expect(tenant.journal().filter((e) => e.operation === 'removeMembership')).toHaveLength(1);
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  } finally {
    await osKeychain()
      .delete(tenant.clientId)
      .catch(() => undefined);
  }
});

test('a credential replaced by the CLI: the open app leaves "credentials refused" on its own, and Settings follows', async ({
  page,
  host,
  dataDir,
}) => {
  const SEED = 67;
  let rotated = await startTenant({ port: 0, scale: 'demo', seed: SEED });
  const port = Number(new URL(rotated.url).port);
  const oldClientId = rotated.clientId;
  const attest = (args: string[], stdin = '') => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.ATTEST_CLIENT_SECRET;
    return spawnAttest([...args, '--data-dir', dataDir], { cwd: root, env, stdin });
  };
  try {
    await page.goto(host.url);
    await page.getByLabel('Client ID').fill(rotated.clientId);
    await page.getByLabel('Client secret').fill(rotated.clientSecret);
    await page.getByRole('button', { name: /advanced options/ }).click();
    await page.getByLabel('Server URL (overrides the host)').fill(rotated.url);
    await page.getByLabel('Name').fill('rotated');
    await page.getByRole('button', { name: 'Save and open' }).click();
    await expect(page.locator('[data-screen="overview"]')).toBeVisible();
    const indicator = page.getByTestId('online-indicator');
    await expect(indicator).toHaveAttribute('data-status', 'online');
    const membership = [...rotated.data.memberships.values()].find((m) =>
      MANAGED_ENTITLEMENT_KINDS.includes(rotated.data.entitlements.get(m.appEntitlementId)!.kind),
    )!;
    await page
      .getByRole('navigation')
      .getByRole('button', { name: /^Outbox/ })
      .click();
    const added = await attest([
      'queue',
      'add',
      'remove-membership',
      '--connection',
      'rotated',
      '--app',
      membership.appId,
      '--entitlement',
      membership.appEntitlementId,
      '--user',
      membership.appUserId,
    ]);
    expect(added.code, added.stderr).toBe(0);
    const item = page.getByTestId('outbox-item');
    await expect(item).toHaveCount(1, { timeout: 4_000 });

    // The tenant restarts with a new credential: the app's send is refused.
    await rotated.close();
    rotated = await startTenant({ port, scale: 'demo', seed: SEED });
    await sendAllQueued(page, /^Send all queued/);
    await expect(indicator).toHaveAttribute('data-status', 'credentials-refused', { timeout: 30_000 });
    await expect(page.getByTestId('credentials-refused-banner')).toBeVisible();
    await page
      .getByRole('navigation')
      .getByRole('button', { name: /^Settings/ })
      .click();
    const row = page.getByTestId('connection-rotated');
    await expect(row).toContainText('open · credentials refused');

    // The CLI replaces the credential in place: the open app notices, and is online again without a click.
    const replaced = await attest(['connect', '--client-id', rotated.clientId, '--name', 'rotated'], rotated.clientSecret);
    expect(replaced.code, replaced.stderr).toBe(0);
    await expect(indicator).toHaveAttribute('data-status', 'online', { timeout: 5_000 });
    await expect(page.getByTestId('credentials-refused-banner')).toHaveCount(0);
    await expect(row).toContainText(rotated.clientId);
    await expect(row).not.toContainText('credentials refused');

    // The CLI sends what was queued: the app's outbox shows it sent.
    const sent = await attest(['queue', 'send', '--connection', 'rotated']);
    expect(sent.code, sent.stderr).toBe(0);
    await page
      .getByRole('navigation')
      .getByRole('button', { name: /^Outbox/ })
      .click();
    await expect(item).toHaveAttribute('data-state', 'succeeded', { timeout: 4_000 });
    await expect(page.getByRole('button', { name: /^Send all queued/ })).toHaveText('Send all queued (0)');
    expect(rotated.journal().filter((e) => e.operation === 'removeMembership')).toHaveLength(1);
  } finally {
    for (const account of [oldClientId, rotated.clientId])
      await osKeychain()
        .delete(account)
        .catch(() => undefined);
    await rotated.close();
  }
});
