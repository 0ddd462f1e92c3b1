import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, screenshotDir, test } from './fixtures';

const root = new URL('../..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };

// Help: the documentation that ships with the app, read in the app; About: version, runtime, data folder, licence notices.
test('Help shows the README and docs/ rendered in the app, follows their links inside it, and About names the version, runtime, data folder and notices', async ({
  page,
  host,
  dataDir,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // Nothing is fetched from outside the app: every request stays on the host's origin.
  const foreign: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(new URL(host.url).origin) && !request.url().startsWith('data:')) foreign.push(request.url());
  });
  await page.goto(host.url);

  // From the first-run screen (no tenant yet): the README, rendered.
  await page.getByRole('button', { name: 'Documentation' }).click();
  const article = page.locator('article.doc');
  await expect(article).toHaveAttribute('data-doc', 'readme');
  await expect(article.getByRole('heading', { level: 1, name: 'Attest' })).toBeVisible();
  await expect(article.locator('table').first()).toBeVisible();
  await expect(article.locator('pre').first()).toContainText('npm run demo');

  // A link to docs/desktop-app.md opens that page in the app, its screenshots from the bundle.
  await article.getByRole('link', { name: 'docs/desktop-app.md' }).click();
  await expect(article).toHaveAttribute('data-doc', 'desktop-app');
  await expect(article.getByRole('heading', { level: 1, name: 'The desktop app' })).toBeVisible();
  const shot = article.getByRole('img', { name: 'Connect a tenant' });
  await shot.scrollIntoViewIfNeeded();
  await expect.poll(() => shot.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(100);
  // Every page of docs/ is listed.
  for (const id of ['desktop-app', 'evidence', 'sync-and-store']) await expect(page.getByTestId(`doc-${id}`)).toBeVisible();
  await page.getByTestId('doc-evidence').click();
  await expect(article).toHaveAttribute('data-doc', 'evidence');
  // Another page opens at its top, its title without markdown.
  await expect(page.getByTestId('doc-evidence')).toHaveText(/^Evidence workbooks: what export writes/);
  await expect(article.getByRole('heading', { level: 1 })).toBeInViewport();
  await page.screenshot({ path: join(screenshotDir, 'help.png') });

  // About: the version of package.json, what runs it, the data folder, the notices written at build time.
  await page.getByRole('button', { name: 'About Attest' }).click();
  const about = page.getByRole('dialog', { name: 'About Attest' });
  await expect(about.getByTestId('about-version')).toHaveText(pkg.version);
  await expect(about.getByTestId('about-runtime')).toContainText(`The browser host on Node ${process.versions.node}`);
  await expect(about.getByTestId('about-runtime')).toContainText(/shown in (Chrome|Chromium) \d+/);
  await expect(about.getByTestId('about-data-dir')).toHaveText(dataDir);
  const notices = JSON.parse(readFileSync(join(root, 'out', 'renderer', 'third-party-notices.json'), 'utf8')) as {
    packages: { name: string; licenses: string; text: string }[];
  };
  expect(notices.packages.length).toBeGreaterThan(20);
  await expect(about.getByTestId('about-notices-count')).toContainText(`${notices.packages.length.toLocaleString('en-US')} packages`);
  await about.getByRole('textbox', { name: 'Filter the notices' }).fill('react-dom');
  const reactDom = about.locator('details[data-package="react-dom"]');
  await expect(reactDom).toContainText('MIT');
  await reactDom.locator('summary').click();
  await expect(reactDom.locator('pre')).toContainText('Permission is hereby granted');
  await page.screenshot({ path: join(screenshotDir, 'about.png') });
  await page.keyboard.press('Escape');
  await expect(about).toBeHidden();

  expect(foreign).toEqual([]);
  expect(errors).toEqual([]);
});
