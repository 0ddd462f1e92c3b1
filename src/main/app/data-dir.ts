/**
 * Where Attest keeps its files: `ATTEST_DATA_DIR` when set, else the OS app-data folder —
 * `$XDG_CONFIG_HOME/attest` or `~/.config/attest` on Linux, `~/Library/Application Support/attest`
 * on macOS, `%APPDATA%\attest` on Windows (the folder Electron uses for an app named attest).
 */
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { posix, resolve, win32 } from 'node:path';

export const APP_DIR_NAME = 'attest';

export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  const override = env.ATTEST_DATA_DIR?.trim();
  if (override) return resolve(override);
  if (platform === 'win32') {
    const appData = env.APPDATA?.trim() || win32.join(home, 'AppData', 'Roaming');
    return win32.join(appData, APP_DIR_NAME);
  }
  if (platform === 'darwin') return posix.join(home, 'Library', 'Application Support', APP_DIR_NAME);
  const xdg = env.XDG_CONFIG_HOME?.trim();
  // XDG: a relative value is invalid and must be ignored.
  const config = xdg && posix.isAbsolute(xdg) ? xdg : posix.join(home, '.config');
  return posix.join(config, APP_DIR_NAME);
}

/** Creates the data dir (and parents) readable by the user only; returns it. */
export function ensureDataDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}
