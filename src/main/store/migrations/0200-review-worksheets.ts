import type { Database } from 'better-sqlite3';

/**
 * Spreadsheet access reviews: each review worksheet exported (its scope, reviewer, as-of run, the
 * hash of what it was exported with, and the canonical rows of its Review sheet, so an import can
 * name every cell changed since), and each decision imported from one (Keep or Revoke, the
 * comment, who decided, the worksheet's hash, the outbox item a Revoke queued, or why none was).
 */
export const version = 200;
export const name = 'review-worksheets';

export function up(db: Database): void {
  db.exec(`
    CREATE TABLE review_worksheets (
      id             TEXT PRIMARY KEY,
      name           TEXT NOT NULL,
      scope          TEXT NOT NULL,
      reviewer       TEXT,
      as_of_run      INTEGER,
      sha256         TEXT NOT NULL,
      canonical_json TEXT NOT NULL,
      exported_at    TEXT NOT NULL
    );
    CREATE TABLE review_decisions (
      seq             INTEGER PRIMARY KEY AUTOINCREMENT,
      worksheet_id    TEXT NOT NULL REFERENCES review_worksheets(id),
      worksheet_name  TEXT NOT NULL,
      worksheet_sha256 TEXT NOT NULL,
      file_sha256     TEXT NOT NULL,
      row_number      INTEGER NOT NULL,
      app_id          TEXT NOT NULL,
      entitlement_id  TEXT NOT NULL,
      app_user_id     TEXT NOT NULL,
      subject         TEXT,
      decision        TEXT NOT NULL CHECK (decision IN ('Keep', 'Revoke')),
      comment         TEXT,
      reviewer        TEXT,
      item_id         TEXT,
      batch_id        INTEGER,
      skipped         TEXT,
      imported_at     TEXT NOT NULL
    );
    CREATE INDEX review_decisions_worksheet ON review_decisions(worksheet_id, row_number);
  `);
}

export default { version, name, up };
