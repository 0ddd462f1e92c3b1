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
