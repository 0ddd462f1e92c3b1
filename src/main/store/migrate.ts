import type { Database } from 'better-sqlite3';

/** One schema step: a numbered file in ./migrations exporting these three. */
export interface Migration {
  version: number;
  name: string;
  up(db: Database): void;
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

function checkOrder(migrations: readonly Migration[]): void {
  let previous = 0;
  for (const m of migrations) {
    if (!Number.isInteger(m.version) || m.version <= previous) {
      throw new MigrationError(`migrations out of order: ${m.version} (${m.name}) after ${previous}`);
    }
    previous = m.version;
  }
}

/** The versions already applied to `db` (from the `schema_migrations` ledger). */
export function appliedVersions(db: Database): Set<number> {
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
  if (!exists) return new Set();
  return new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]);
}

/**
 * Applies, in version order, every migration not yet applied (up to `target` when given), each in
 * its own transaction together with its ledger row. A ledger rather than one counter, so a
 * migration added later with a lower number than one already applied (migrations of different
 * areas are numbered in their own ranges) still runs. `PRAGMA user_version` mirrors the highest
 * applied version for outside tools. Refuses a database that holds a version this build does not
 * know: it was written by a newer Attest.
 */
export function migrate(db: Database, migrations: readonly Migration[], target?: number): number[] {
  checkOrder(migrations);
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at TEXT NOT NULL
  )`);
  const applied = appliedVersions(db);
  const known = new Set(migrations.map((m) => m.version));
  const unknown = [...applied].filter((v) => !known.has(v));
  if (unknown.length > 0) {
    throw new MigrationError(
      `this store was written by a newer version of Attest (schema ${Math.max(...unknown)}); update Attest to open it`,
    );
  }
  const ran: number[] = [];
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  for (const m of migrations) {
    if (applied.has(m.version) || (target !== undefined && m.version > target)) continue;
    db.transaction(() => {
      m.up(db);
      record.run(m.version, m.name, new Date().toISOString());
    })();
    ran.push(m.version);
  }
  const highest = db.prepare('SELECT max(version) FROM schema_migrations').pluck().get() as number | null;
  db.pragma(`user_version = ${highest ?? 0}`);
  return ran;
}

/** Versions this build knows that `db` has not applied yet. */
export function pendingMigrations(db: Database, migrations: readonly Migration[]): Migration[] {
  const applied = appliedVersions(db);
  return migrations.filter((m) => !applied.has(m.version));
}
