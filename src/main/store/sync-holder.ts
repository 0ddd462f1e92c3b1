import type { Database } from 'better-sqlite3';
import { hostname, uptime } from 'node:os';
import { CoreError } from '../errors';

/** The sync that holds a store: released when it ends, however it ends. */
export interface SyncHold {
  release(): void;
}

interface HolderRow {
  pid: number;
  host: string;
  booted_at: number;
  since: string;
}

/** When this machine booted, to the minute (a process id from before a reboot names another process). */
const bootedAt = (): number => Math.round((Date.now() - uptime() * 1000) / 60_000);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * True when the recorded holder is still running: this machine, this boot, its process alive. A
 * store is a local file; one copied from another machine keeps no hold of that machine's.
 */
function holding(row: HolderRow): boolean {
  return row.host === hostname() && Math.abs(row.booted_at - bootedAt()) <= 1 && alive(row.pid);
}

/**
 * Takes the store for one sync, in one immediate transaction: refused (CoreError 'busy', naming the
 * process) while another sync holds it, from this process or another; a holder that is gone is
 * replaced. The hold is this process's until released.
 */
export function holdForSync(db: Database): SyncHold {
  const since = new Date().toISOString();
  const row = { pid: process.pid, host: hostname(), booted_at: bootedAt(), since };
  db.transaction(() => {
    const current = db.prepare('SELECT pid, host, booted_at, since FROM sync_holder WHERE id = 1').get() as HolderRow | undefined;
    if (current && holding(current)) {
      const who = current.pid === process.pid ? 'in this process' : `by process ${current.pid}`;
      throw new CoreError('busy', `A sync of this store is already running (${who}, since ${current.since}); wait for it to end.`);
    }
    db.prepare(
      'INSERT INTO sync_holder (id, pid, host, booted_at, since) VALUES (1, @pid, @host, @booted_at, @since) ' +
        'ON CONFLICT (id) DO UPDATE SET pid = @pid, host = @host, booted_at = @booted_at, since = @since',
    ).run(row);
  }).immediate();
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      db.prepare('DELETE FROM sync_holder WHERE id = 1 AND pid = ? AND since = ?').run(row.pid, since);
    },
  };
}
