import type { Database } from 'better-sqlite3';

/**
 * Sync runs and their per-collection checkpoints.
 *
 * - `sync_runs`: one row per run. A run is `running` until every collection in it has finished;
 *   then `completed` (all walked to the end), `failed` or `cancelled`. A run that is not
 *   `completed` is resumed by the next sync, under the same id.
 * - `sync_run_collections`: the walk of one collection in one run. `checkpoint` is the page token
 *   to fetch next ('' = the first page), committed with that page's rows in one transaction;
 *   `walk` counts restarts from the first page (a rejected token); `plan` holds the ids to fetch
 *   for collections read one object at a time (templates), fixed when their walk starts.
 */
export const version = 1;
export const name = 'sync-runs';

export function up(db: Database): void {
  db.exec(`
    CREATE TABLE sync_runs (
      id          INTEGER PRIMARY KEY,
      started_at  TEXT NOT NULL,
      finished_at TEXT,
      status      TEXT NOT NULL CHECK (status IN ('running','completed','failed','cancelled')),
      collections TEXT NOT NULL
    );

    CREATE TABLE sync_run_collections (
      run_id      INTEGER NOT NULL REFERENCES sync_runs(id) ON DELETE CASCADE,
      collection  TEXT NOT NULL,
      status      TEXT NOT NULL CHECK (status IN ('pending','running','completed','failed','cancelled')),
      walk        INTEGER NOT NULL DEFAULT 1,
      checkpoint  TEXT NOT NULL DEFAULT '',
      plan        TEXT,
      pages       INTEGER NOT NULL DEFAULT 0,
      fetched     INTEGER NOT NULL DEFAULT 0,
      upserted    INTEGER NOT NULL DEFAULT 0,
      deleted     INTEGER NOT NULL DEFAULT 0,
      started_at  TEXT,
      finished_at TEXT,
      error       TEXT,
      PRIMARY KEY (run_id, collection)
    ) WITHOUT ROWID;
    CREATE INDEX sync_run_collections_by_collection ON sync_run_collections(collection, status, run_id);
  `);
}

export default { version, name, up };
