import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate } from '../../src/main/store/migrate';
import { MIGRATIONS } from '../../src/main/store/migrations';

/** A temp folder with a real SQLite file, migrated up to `version` (inclusive) only. */
export function storeAt(version: number): { file: string; db: Database.Database; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'attest-migration-'));
  const file = join(dir, 'store.sqlite');
  const db = new Database(file);
  db.pragma('foreign_keys = ON');
  migrate(db, MIGRATIONS, version);
  return {
    file,
    db,
    cleanup() {
      if (db.open) db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function tableNames(db: Database.Database): string[] {
  return db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[];
}

/**
 * Writes scope `id` as stored by run 1 in the object tables as they stand from migration 0002 on
 * (the tables migration tests fill before opening the store at the latest version).
 */
export function insertStoredScope(db: Database.Database, raw: string, title: string, cols = '{}', id = 'a'): void {
  db.prepare(
    "INSERT INTO objects (oid, collection, id, first_seen_run, last_seen_run, last_seen_walk) VALUES (1, 'scopes', ?, 1, 1, 1)",
  ).run(id);
  db.prepare(
    "INSERT INTO object_versions (vid, oid, valid_from, hash, title, cols, raw, fetched_at) VALUES (1, 1, 1, x'00', ?, ?, ?, 't')",
  ).run(title, cols, raw);
  db.prepare('UPDATE objects SET current_vid = 1 WHERE oid = 1').run();
}
