import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './test/helpers/chromium';

// The renderer is driven in the system Chromium through the browser host; no browser is downloaded.
export default defineConfig({
  testDir: 'test/e2e',
  timeout: 120_000,
  workers: 1,
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  use: { launchOptions: chromiumLaunchOptions(), screenshot: 'only-on-failure' },
  outputDir: 'test-results/playwright-artifacts',
});
