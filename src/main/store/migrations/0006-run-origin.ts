import type { Database } from 'better-sqlite3';

/**
 * Where a run's versions came from. `sync`: a walk of the tenant's collections. `outbox`: the
 * fresh copies of objects that sent changes returned (a created scope, an updated template...),
 * stored as a run of their own so views show them at once and "as of" and diffs see them; such a
 * run has no walks, so it never marks anything deleted nor moves a collection's "data as of".
 */
export const version = 6;
export const name = 'run-origin';

export function up(db: Database): void {
  db.exec("ALTER TABLE sync_runs ADD COLUMN origin TEXT NOT NULL DEFAULT 'sync' CHECK (origin IN ('sync', 'outbox'))");
}

export default { version, name, up };
