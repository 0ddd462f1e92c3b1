import type { Database } from 'better-sqlite3';

/**
 * Imports as batches: one row per CSV import (its name, the file; the full source; its kind; when;
 * how many rows it queued), and each imported item points at its batch (`outbox_items.batch_id`),
 * so a batch can be listed with its counts per state and its items selected for bulk actions.
 *
 * Items imported before this migration carry their origin in `source` as `<source>:<line>`, all
 * rows of one import with the same `created_at`: each such group becomes a batch, named after the
 * last part of its source.
 */
export const version = 101;
export const name = 'outbox-batches';

interface ImportedGroup {
  source: string;
  created_at: string;
  kind: string;
  n: number;
}

function batchName(source: string): string {
  const path = source.replace(/^csv:/, '');
  return path.split(/[\\/]/).pop() || path || 'csv';
}

export function up(db: Database): void {
  db.exec(`
    CREATE TABLE outbox_batches (
      id         INTEGER PRIMARY KEY AUTOINCREMENT,
      name       TEXT NOT NULL,
      source     TEXT NOT NULL,
      kind       TEXT NOT NULL,
      rows       INTEGER NOT NULL,
      created_at TEXT NOT NULL
    );
    ALTER TABLE outbox_items ADD COLUMN batch_id INTEGER REFERENCES outbox_batches(id);
    CREATE INDEX outbox_items_batch ON outbox_items(batch_id, seq);
  `);
  // An import wrote every row as `<source>:<line>` at one time; the CLI's and the app's single
  // changes ('cli', 'app') have no line number.
  const groups = db
    .prepare(
      `SELECT rtrim(source, '0123456789') AS source, created_at, min(kind) AS kind, count(*) AS n
       FROM outbox_items
       WHERE source GLOB '*:[0-9]*' AND rtrim(source, '0123456789') GLOB '*:'
       GROUP BY rtrim(source, '0123456789'), created_at
       ORDER BY min(seq)`,
    )
    .all() as ImportedGroup[];
  const insert = db.prepare('INSERT INTO outbox_batches (name, source, kind, rows, created_at) VALUES (?, ?, ?, ?, ?)');
  const link = db.prepare(
    `UPDATE outbox_items SET batch_id = ? WHERE rtrim(source, '0123456789') = ? AND created_at = ? AND source GLOB '*:[0-9]*'`,
  );
  for (const g of groups) {
    const source = g.source.slice(0, -1);
    const id = insert.run(batchName(source), source, g.kind, g.n, g.created_at).lastInsertRowid;
    link.run(id, g.source, g.created_at);
  }
}

export default { version, name, up };
