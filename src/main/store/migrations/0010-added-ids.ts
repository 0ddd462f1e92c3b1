import type { Database } from 'better-sqlite3';

/**
 * `added_ids`: the objects of a collection the API has no list of (access review templates) that
 * an admin added by id. Every sync reads them with the ones other collections name, so a template
 * that no campaign or automation names is kept up to date and can be acted on. An id stays until
 * it is removed, even while the tenant answers 404 for it (the sync reports it as gone).
 */
export const version = 10;
export const name = 'added-ids';

export function up(db: Database): void {
  db.exec(`
    CREATE TABLE added_ids (
      collection TEXT NOT NULL,
      id TEXT NOT NULL CHECK (id != ''),
      added_at TEXT NOT NULL,
      PRIMARY KEY (collection, id)
    ) WITHOUT ROWID;
  `);
}

export default { version, name, up };
