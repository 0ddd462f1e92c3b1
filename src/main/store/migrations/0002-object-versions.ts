import type { Database } from 'better-sqlite3';

/**
 * Objects and their versions per sync run: every completed run is a snapshot.
 *
 * - `objects`: one row per (collection, id) ever seen. `current_vid` is the version in force now
 *   (NULL once a completed walk no longer saw it: deleted). `last_seen_run` / `last_seen_walk`
 *   mark the walk that last saw it, so completing a walk can find what it did not see.
 * - `object_versions`: one row per distinct content of an object, valid for the runs
 *   [valid_from, valid_to) (valid_to NULL = still current). An unchanged object is not copied: its
 *   version simply stays valid. `raw` is the JSON exactly as received, `hash` its SHA-1,
 *   `cols` the extracted columns (JSON object) for lists, filters and sorting, `title` its name,
 *   `refs` the ids it points at in other collections (JSON `{collection: [ids]}`, or NULL).
 *
 * "As of run R": valid_from <= R AND (valid_to IS NULL OR valid_to > R).
 */
export const version = 2;
export const name = 'object-versions';

export function up(db: Database): void {
  db.exec(`
    CREATE TABLE objects (
      oid            INTEGER PRIMARY KEY,
      collection     TEXT NOT NULL,
      id             TEXT NOT NULL,
      first_seen_run INTEGER NOT NULL REFERENCES sync_runs(id),
      last_seen_run  INTEGER NOT NULL REFERENCES sync_runs(id),
      last_seen_walk INTEGER NOT NULL,
      current_vid    INTEGER REFERENCES object_versions(vid),
      UNIQUE (collection, id)
    );

    CREATE TABLE object_versions (
      vid        INTEGER PRIMARY KEY,
      oid        INTEGER NOT NULL REFERENCES objects(oid),
      valid_from INTEGER NOT NULL REFERENCES sync_runs(id),
      valid_to   INTEGER REFERENCES sync_runs(id),
      hash       BLOB NOT NULL,
      title      TEXT NOT NULL,
      cols       TEXT NOT NULL,
      raw        TEXT NOT NULL,
      refs       TEXT,
      fetched_at TEXT NOT NULL,
      CHECK (valid_to IS NULL OR valid_to > valid_from)
    );
    CREATE INDEX objects_current ON objects(collection, current_vid);
    CREATE INDEX object_versions_by_object ON object_versions(oid, valid_from);
    CREATE INDEX object_versions_from ON object_versions(valid_from);
    CREATE INDEX object_versions_to ON object_versions(valid_to) WHERE valid_to IS NOT NULL;
  `);
}

export default { version, name, up };
