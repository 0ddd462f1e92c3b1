import { statSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { CONNECTIONS_FILE } from './saved-connections';

/**
 * Notices what another process (the CLI) changed in the open store and in the saved connections,
 * so the app's views follow without a reload. One cheap check per tick on the main process:
 * SQLite's `PRAGMA data_version`, which changes when another connection commits to the database
 * file (never for this connection's own writes), and the size, time and inode of
 * `connections.json` (written whole and renamed into place, so any change shows).
 */

/** How often the store and the connections file are looked at: a change shows within about this. */
export const STORE_WATCH_MS = 500;

export interface StoreWatchOptions {
  /** Another connection committed to the store file. */
  onStore(): void;
  /** The saved connections file was written (by any process, this one too). */
  onConnections(): void;
  intervalMs?: number;
  log?: (line: string) => void;
}

/** What `connections.json` looks like on disk now (empty when it does not exist). */
function fileMark(file: string): string {
  try {
    const stat = statSync(file);
    return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    return '';
  }
}

/** Starts watching; the function returned stops it (the workspace closes). */
export function watchStore(db: Database.Database, dataDir: string, options: StoreWatchOptions): () => void {
  const connectionsFile = join(dataDir, CONNECTIONS_FILE);
  const version = (): number => db.pragma('data_version', { simple: true }) as number;
  let lastVersion = version();
  let lastMark = fileMark(connectionsFile);
  const tick = () => {
    let storeChanged = false;
    try {
      const now = version();
      storeChanged = now !== lastVersion;
      lastVersion = now;
    } catch (error) {
      // The store closed under the timer: the next workspace starts a watch of its own.
      stop();
      options.log?.(`store watch: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    const mark = fileMark(connectionsFile);
    const connectionsChanged = mark !== lastMark;
    lastMark = mark;
    try {
      if (storeChanged) options.onStore();
      if (connectionsChanged) options.onConnections();
    } catch (error) {
      options.log?.(`store watch: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const timer = setInterval(tick, options.intervalMs ?? STORE_WATCH_MS);
  timer.unref?.();
  function stop(): void {
    clearInterval(timer);
  }
  return stop;
}
