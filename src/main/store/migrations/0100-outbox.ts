import type { Database } from 'better-sqlite3';

/**
 * The outbox: queued changes (one row per item), their "pending" overlays shown in views and
 * search, and the append-only journal of every attempt (the change-log evidence).
 *
 * - `outbox_items.seq` is the queue order; per-object order follows it (`target`).
 * - `request_json` / `request_digest` are the exact request the item sends, fixed when it is
 *   queued or edited, so the journal can prove what went out.
 * - The journal refuses UPDATE and DELETE: evidence is only ever appended.
 */
export const version = 100;
export const name = 'outbox';

export function up(db: Database): void {
  db.exec(`
    CREATE TABLE outbox_items (
      seq            INTEGER PRIMARY KEY AUTOINCREMENT,
      id             TEXT NOT NULL UNIQUE,
      kind           TEXT NOT NULL,
      kind_version   INTEGER NOT NULL,
      state          TEXT NOT NULL CHECK (state IN ('queued','sending','succeeded','failed','uncertain','resolved','discarded')),
      input_json     TEXT NOT NULL,
      request_json   TEXT NOT NULL,
      request_digest TEXT NOT NULL,
      target         TEXT NOT NULL,
      dedupe_key     TEXT NOT NULL,
      summary        TEXT NOT NULL,
      source         TEXT,
      attempts       INTEGER NOT NULL DEFAULT 0,
      last_status    INTEGER,
      last_error     TEXT,
      result_json    TEXT,
      note           TEXT,
      created_at     TEXT NOT NULL,
      updated_at     TEXT NOT NULL,
      first_sent_at  TEXT,
      last_sent_at   TEXT
    );
    CREATE INDEX outbox_items_state ON outbox_items(state, seq);
    CREATE INDEX outbox_items_target ON outbox_items(target, seq);
    CREATE INDEX outbox_items_dedupe ON outbox_items(kind, dedupe_key);

    CREATE TABLE outbox_overlays (
      item_id    TEXT NOT NULL REFERENCES outbox_items(id) ON DELETE CASCADE,
      collection TEXT NOT NULL,
      object_id  TEXT NOT NULL,
      effect     TEXT NOT NULL,
      data_json  TEXT NOT NULL,
      PRIMARY KEY (item_id, collection, object_id)
    );
    CREATE INDEX outbox_overlays_object ON outbox_overlays(collection, object_id);

    CREATE TABLE outbox_journal (
      seq            INTEGER PRIMARY KEY AUTOINCREMENT,
      item_id        TEXT NOT NULL,
      kind           TEXT NOT NULL,
      target         TEXT NOT NULL,
      attempt        INTEGER NOT NULL,
      event          TEXT NOT NULL,
      request_digest TEXT,
      method         TEXT,
      path           TEXT,
      http_status    INTEGER,
      outcome        TEXT NOT NULL,
      answer         TEXT,
      at             TEXT NOT NULL
    );
    CREATE INDEX outbox_journal_item ON outbox_journal(item_id, seq);
    CREATE TRIGGER outbox_journal_no_update BEFORE UPDATE ON outbox_journal
      BEGIN SELECT RAISE(ABORT, 'the outbox journal is append-only'); END;
    CREATE TRIGGER outbox_journal_no_delete BEFORE DELETE ON outbox_journal
      BEGIN SELECT RAISE(ABORT, 'the outbox journal is append-only'); END;
  `);
}

export default { version, name, up };
