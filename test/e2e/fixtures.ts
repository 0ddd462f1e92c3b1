import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { expect, test as base, type BrowserContext, type Page } from '@playwright/test';

const root = new URL('../..', import.meta.url).pathname;
const cli = join(root, 'bin', 'attest.mjs');

export interface Spawned<T> {
  info: T;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Runs `attest <args>` and waits for its one JSON line on stdout; stops it by its PID. */
export async function spawnJsonLine<T>(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Spawned<T>> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  // A variable given as undefined is left out (e.g. no session bus: no keychain).
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete childEnv[key];
  const child = spawn(process.execPath, [cli, ...args], { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const info = await new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`attest ${args[0]} printed nothing in 60 s: ${stderr}`)), 60_000);
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(line) as T);
      } catch {
        reject(new Error(`attest ${args[0]} printed no JSON: ${line} ${stderr}`));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`attest ${args[0]} exited with ${code}: ${stderr}`));
    });
  });
  return {
    info,
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface TenantInfo {
  url: string;
  domain: string;
  clientId: string;
  clientSecret: string;
}

/**
 * Closes the pages of `context`, then stops `host`. A page left open on a stopped host tries its
 * event stream again and logs the refusal, which would fail the test for what comes after it.
 */
export async function closePagesThenStop(context: BrowserContext, host: { stop(): Promise<void> }): Promise<void> {
  for (const open of context.pages()) await open.close();
  await host.stop();
}

/** Console errors a test causes on purpose, per page (see allowConsoleError). */
const allowed = new WeakMap<Page, Set<RegExp>>();

/**
 * Lets `page` log an error that the test causes on purpose, matched exactly by `text` (say why, in
 * `why`); until the returned function is called. Anything else the page logs as an error, and any
 * uncaught exception in it, fails the test (the `page` fixture below).
 */
export function allowConsoleError(page: Page, text: RegExp, why: string): () => void {
  if (!why.trim()) throw new Error('say why the error is expected');
  const set = allowed.get(page) ?? new Set<RegExp>();
  allowed.set(page, set);
  set.add(text);
  return () => void set.delete(text);
}

/** Each test gets a fresh data folder and its own browser host over it, and fails on a console error or an uncaught page error. */
export const test = base.extend<{ dataDir: string; host: { url: string; dialogDir: string; stop(): Promise<void> } }>({
  page: async ({ page }, use) => {
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const text = message.text();
      if ([...(allowed.get(page) ?? [])].some((expected) => expected.test(text))) return;
      problems.push(`console error: ${text}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await use(page);
    expect(problems, 'the page logged errors').toEqual([]);
  },
  // eslint-disable-next-line no-empty-pattern
  dataDir: async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'attest-e2e-'));
    await use(dir);
    rmSync(dir, { recursive: true, force: true });
  },
  host: async ({ dataDir, context }, use) => {
    // The save/open dialogs answer from a folder of this test (there are no native dialogs in a browser).
    const dialogDir = join(dataDir, 'dialogs');
    mkdirSync(dialogDir, { recursive: true });
    const host = await spawnJsonLine<{ url: string }>(['ui-host', '--port', '0', '--data-dir', dataDir, '--dialog-dir', dialogDir]);
    await use({ url: host.info.url, dialogDir, stop: host.stop });
    await closePagesThenStop(context, host);
  },
});

export { expect };

/** Connects the app at `url` with pasted credentials on the first-run screen, and runs a first sync to its end. */
export async function connectAndSync(page: Page, url: string, tenant: { clientId: string; clientSecret: string }): Promise<void> {
  await page.goto(url);
  await page.getByLabel('Client ID').fill(tenant.clientId);
  await page.getByLabel('Client secret').fill(tenant.clientSecret);
  await page.getByRole('button', { name: 'Save and open' }).click();
  await expect(page.locator('[data-screen="overview"]')).toBeVisible();
  await syncToEnd(page);
}

/**
 * Waits until the page has seen `count` syncs end (the "data as of" button counts them): the app's
 * own signal that their objects are stored and searchable. Bounded by the test's timeout only, since
 * a loaded machine makes a sync slower but never wrong.
 */
export async function syncsFinished(page: Page, count: number): Promise<void> {
  await expect(page.getByTestId('data-as-of')).toHaveAttribute('data-syncs-finished', String(count), { timeout: 0 });
}

/** Clicks Sync once it can be clicked, and waits for that sync to end (see syncsFinished). */
export async function syncToEnd(page: Page): Promise<void> {
  const sync = page.getByRole('button', { name: 'Sync', exact: true });
  await expect(sync).toBeEnabled({ timeout: 0 });
  const before = Number(await page.getByTestId('data-as-of').getAttribute('data-syncs-finished'));
  await sync.click();
  await syncsFinished(page, before + 1);
}

/** Starts the reference tenant on a random loopback port. */
export function startTenant(extra: string[] = []): Promise<Spawned<TenantInfo>> {
  return spawnJsonLine<TenantInfo>(['tenant', '--port', '0', ...extra]);
}

export const screenshotDir = join(root, 'docs', 'screenshots');

export { startRelay } from '../helpers/relay';

/** Records whether the Sync panel was ever on screen, and the most collections it showed done (a sync can be quicker than a poll). */
export async function watchSyncPanel(page: Page): Promise<() => Promise<{ seen: boolean; done: number }>> {
  await page.addInitScript(() => {
    const seen = { seen: false, done: 0 };
    (window as unknown as { syncPanel: typeof seen }).syncPanel = seen;
    new MutationObserver(() => {
      const panel = document.querySelector('[data-testid="sync-panel"]');
      if (!panel) return;
      seen.seen = true;
      seen.done = Math.max(seen.done, panel.querySelectorAll('[data-state="done"]').length);
    }).observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { syncPanel: { seen: boolean; done: number } }).syncPanel);
}

/** "Send all queued", then its confirmation (which names the count and kinds): the send starts. */
export async function sendAllQueued(page: Page, name: string | RegExp = /Send all queued/): Promise<void> {
  await page.getByRole('button', { name }).click();
  const confirm = page.getByTestId('confirm-panel');
  await expect(confirm).toContainText(/Send \d[\d,]* queued changes? to the tenant now\?/);
  await confirm.getByRole('button', { name: /^Send \d/ }).click();
}

/** An escalation's confirmation: its reason (required: break-glass needs a justification), then the confirm button. */
export async function confirmEscalation(page: Page, reason: string, confirmLabel: string | RegExp = /^Escalate/): Promise<void> {
  const confirm = page.getByTestId('confirm-panel');
  await expect(confirm.getByRole('button', { name: confirmLabel })).toBeDisabled();
  await confirm.getByLabel(/Why/).fill(reason);
  await confirm.getByRole('button', { name: confirmLabel }).click();
}
