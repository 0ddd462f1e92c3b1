/**
 * A connection's runs on its own (opt-in, off by default): sending its queued changes when the
 * tenant is reachable again, and syncing every N minutes while it is. The limits and their check,
 * the same in the app, the CLI and the main process.
 */

export const SYNC_EVERY_MIN_MINUTES = 5;
export const SYNC_EVERY_MAX_MINUTES = 1440;

export interface AutoRunChoice {
  /** Send the queued changes when the connection goes online. */
  sendWhenOnline: boolean;
  /** Sync every this many minutes while online; null: never on its own. */
  syncEveryMinutes: number | null;
}

export const AUTO_RUN_OFF: AutoRunChoice = { sendWhenOnline: false, syncEveryMinutes: null };

/** Why `minutes` cannot be a sync interval, in words; null when it can. */
export function syncEveryProblem(minutes: unknown): string | null {
  if (minutes === null) return null;
  if (typeof minutes !== 'number' || !Number.isInteger(minutes) || minutes < SYNC_EVERY_MIN_MINUTES || minutes > SYNC_EVERY_MAX_MINUTES) {
    const shown = typeof minutes === 'number' || typeof minutes === 'string' ? `'${String(minutes).slice(0, 40)}'` : 'that';
    return (
      `Sync every N minutes: N must be a whole number from ${SYNC_EVERY_MIN_MINUTES} to ${SYNC_EVERY_MAX_MINUTES} ` +
      `(a day), not ${shown}; leave it off to sync only when asked.`
    );
  }
  return null;
}

/** A stored choice read back leniently: anything unreadable is off. */
export function autoRunOf(stored: unknown): AutoRunChoice {
  if (!stored || typeof stored !== 'object') return { ...AUTO_RUN_OFF };
  const { sendWhenOnline, syncEveryMinutes } = stored as Record<string, unknown>;
  return {
    sendWhenOnline: sendWhenOnline === true,
    syncEveryMinutes: syncEveryMinutes !== null && syncEveryProblem(syncEveryMinutes) === null ? (syncEveryMinutes as number) : null,
  };
}
