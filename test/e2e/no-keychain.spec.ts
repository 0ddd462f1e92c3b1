import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { closePagesThenStop, allowConsoleError, expect, spawnJsonLine, syncToEnd, test } from './fixtures';

// The browser host started with no session bus: the Secret Service cannot be reached, as on a
// machine without a keychain. The app says so, holds the secret in memory for this run only, and
// asks for it again after a restart; the secret is never written anywhere in the data folder.
let tenant: ReferenceTenant;
test.beforeAll(async () => {
  tenant = await startTenant({ port: 0, scale: 'demo' });
});
test.afterAll(async () => {
  await tenant?.close();
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

test('without a keychain: connect with a pasted secret held for this run only, sync, and be asked again after a restart', async ({
  page,
  dataDir,
}) => {
  const noKeychain = { DBUS_SESSION_BUS_ADDRESS: undefined, DISPLAY: undefined, XDG_RUNTIME_DIR: join(dataDir, 'no-runtime') };
  const startHost = () => spawnJsonLine<{ url: string }>(['ui-host', '--port', '0', '--data-dir', dataDir], noKeychain);
  let host = await startHost();
  try {
    await page.goto(host.info.url);
    await page.getByLabel('Client ID').fill(tenant.clientId);
    await page.getByLabel('Client secret').fill(tenant.clientSecret);
    // Said plainly before anything is saved, and nothing happens until the user agrees.
    const notice = page.getByTestId('no-keychain');
    await expect(notice).toContainText("The secret can't be kept on this computer.");
    const connect = page.getByRole('button', { name: 'Connect for this run' });
    await expect(connect).toBeDisabled();
    await notice.getByLabel('Hold the secret for this run only').check();
    await connect.click();
    await expect(page.locator('[data-screen="overview"]')).toBeVisible();
    await expect(page.getByTestId('online-indicator')).toHaveAttribute('data-online', 'true');
    await syncToEnd(page);
    expect(await page.content()).not.toContain(tenant.clientSecret);
    const scopes = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Scopes/ });
    await scopes.click();
    await expect(page.getByTestId('list-row').first()).toBeVisible();

    // A restart: the local copy opens at once, offline, and the secret is asked for again.
    const stopped = allowConsoleError(
      page,
      /^Failed to load resource: net::ERR_CONNECTION_(REFUSED|RESET)$/,
      'the page still open on the stopped host tries its event stream again, and is refused (or cut off mid-stop) until it loads the new host',
    );
    await host.stop();
    host = await startHost();
    await page.goto(host.info.url);
    stopped();
    const prompt = page.getByTestId('secret-prompt');
    await expect(prompt).toContainText('no keychain');
    await expect(page.getByTestId('online-indicator')).toHaveAttribute('data-online', 'false');
    await expect(page.getByRole('button', { name: 'Sync', exact: true })).toBeDisabled();
    await scopes.click();
    await expect(page.getByTestId('list-row').first()).toBeVisible();
    // A wrong secret is refused; the right one connects for this run again.
    await prompt.getByLabel(/Client secret of/).fill('secret-token:not-a-secret');
    await prompt.getByRole('button', { name: 'Connect for this run' }).click();
    await expect(prompt.getByRole('alert')).toBeVisible();
    await prompt.getByLabel(/Client secret of/).fill(tenant.clientSecret);
    await prompt.getByRole('button', { name: 'Connect for this run' }).click();
    await expect(page.getByTestId('online-indicator')).toHaveAttribute('data-online', 'true');
    await expect(page.getByTestId('secret-prompt')).toBeHidden();
    await syncToEnd(page);
  } finally {
    await closePagesThenStop(page.context(), host);
  }

  // Nowhere in the data folder: not the secret, not its key.
  const payload = tenant.clientSecret.split(':v1:')[1]!;
  const privateKey = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { d: string }).d;
  const files = filesUnder(dataDir);
  expect(files.some((f) => f.endsWith('.sqlite'))).toBe(true);
  for (const file of files) {
    const bytes = readFileSync(file);
    for (const needle of [tenant.clientSecret, payload, privateKey])
      expect(bytes.includes(Buffer.from(needle)), `${file} holds key material`).toBe(false);
  }
});
