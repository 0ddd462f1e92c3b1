import { existsSync } from 'node:fs';

/** Flags for the system Chromium on a closed, headless machine (no sandbox as root, no background traffic). */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function chromiumExecutable(): string {
  return process.env.PLAYWRIGHT_CHROMIUM_EXECUTABLE || '/usr/bin/chromium';
}

/** Launch options for Playwright. A missing browser is a hard error naming the path, never a silent skip. */
export function chromiumLaunchOptions(): { executablePath: string; args: string[] } {
  const executablePath = chromiumExecutable();
  if (!existsSync(executablePath)) {
    throw new Error(`Chromium not found at ${executablePath}: install it (apt-get install chromium) or set PLAYWRIGHT_CHROMIUM_EXECUTABLE`);
  }
  return { executablePath, args: CHROMIUM_FLAGS };
}
