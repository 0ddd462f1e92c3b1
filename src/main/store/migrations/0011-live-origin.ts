import type { Database } from 'better-sqlite3';

/**
 * A third origin of runs, `live`: one object read from the tenant on request (`attest show --live`,
 * "Refresh from the tenant"), stored as a fresh copy in a run of its own, as the outbox stores the
 * objects sent changes return. The CHECK of 0006 cannot be widened in place: the column is rebuilt
 * beside it, filled, and takes its place (the table and its references stay as they are).
 */
export const version = 11;
export const name = 'live-origin';

export function up(db: Database): void {
  db.exec(`
    ALTER TABLE sync_runs ADD COLUMN origin_next TEXT NOT NULL DEFAULT 'sync' CHECK (origin_next IN ('sync', 'outbox', 'live'));
    UPDATE sync_runs SET origin_next = origin;
    ALTER TABLE sync_runs DROP COLUMN origin;
    ALTER TABLE sync_runs RENAME COLUMN origin_next TO origin;
  `);
}

export default { version, name, up };
