import type { Database } from 'better-sqlite3';

/**
 * `sync_holder`: the one sync that fills this store now (at most one row). A second sync, from this
 * process or another (the app and `attest sync` on the same store), is refused while the holder is
 * alive; a holder whose process is gone (a crash, a reboot) is taken over.
 */
export const version = 9;
export const name = 'sync-holder';

export function up(db: Database): void {
  db.exec(`
    CREATE TABLE sync_holder (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      pid INTEGER NOT NULL,
      host TEXT NOT NULL,
      booted_at INTEGER NOT NULL,
      since TEXT NOT NULL
    );
  `);
}

export default { version, name, up };
