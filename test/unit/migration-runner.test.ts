import Database from 'better-sqlite3';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, type Migration } from '../../src/main/store/migrate';
import { MIGRATIONS } from '../../src/main/store/migrations';
import { storeAt } from '../helpers/store-fixtures';

let cleanup = () => {};
afterEach(() => cleanup());

describe('migration runner', () => {
  it('lists every migration file of the folder, in order, with its number', () => {
    const dir = join(import.meta.dirname, '../../src/main/store/migrations');
    const files = readdirSync(dir)
      .filter((f) => /^\d{4}-.+\.ts$/.test(f))
      .sort();
    expect(MIGRATIONS.map((m) => `${String(m.version).padStart(4, '0')}-${m.name}.ts`)).toEqual(files);
  });

  it('applies each migration once, mirrors the highest in user_version, and is idempotent', () => {
    const s = storeAt(Number.MAX_SAFE_INTEGER);
    cleanup = s.cleanup;
    const highest = MIGRATIONS[MIGRATIONS.length - 1]!.version;
    expect(s.db.pragma('user_version', { simple: true })).toBe(highest);
    expect(migrate(s.db, MIGRATIONS)).toEqual([]);
    expect(s.db.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all()).toEqual(MIGRATIONS.map((m) => m.version));
  });

  it('runs a migration numbered below one already applied (areas number in their own ranges)', () => {
    const db = new Database(':memory:');
    const ran: string[] = [];
    const m = (version: number): Migration => ({ version, name: `m${version}`, up: () => void ran.push(`m${version}`) });
    migrate(db, [m(1), m(100)]);
    expect(migrate(db, [m(1), m(2), m(100)])).toEqual([2]);
    expect(ran).toEqual(['m1', 'm100', 'm2']);
    db.close();
  });

  it('rolls a failing migration back whole and refuses a store from a newer version', () => {
    const db = new Database(':memory:');
    const broken: Migration = {
      version: 2,
      name: 'broken',
      up: (d) => {
        d.exec('CREATE TABLE half (x)');
        throw new Error('boom');
      },
    };
    migrate(db, [{ version: 1, name: 'one', up: (d) => d.exec('CREATE TABLE one (x)') }]);
    expect(() => migrate(db, [{ version: 1, name: 'one', up: () => {} }, broken])).toThrow('boom');
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'half'").pluck().get()).toBe(0);
    expect(() => migrate(db, [])).toThrow(/newer version of Attest/);
    expect(() =>
      migrate(db, [
        { version: 2, name: 'b', up: () => {} },
        { version: 1, name: 'a', up: () => {} },
      ]),
    ).toThrow(/out of order/);
    db.close();
  });
});
