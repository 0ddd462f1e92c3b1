import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../../src/main/store/migrate';
import { MIGRATIONS } from '../../src/main/store/migrations';
import { storeAt, tableNames } from '../helpers/store-fixtures';

let cleanup = () => {};
afterEach(() => cleanup());

describe('migration 0010 added-ids', () => {
  it('holds each added id once per collection, and refuses an empty id', () => {
    const s = storeAt(10);
    cleanup = s.cleanup;
    expect(tableNames(s.db)).toContain('added_ids');
    const add = s.db.prepare("INSERT INTO added_ids (collection, id, added_at) VALUES ('templates', ?, 't')");
    add.run('VCou9xBF');
    expect(() => add.run('VCou9xBF')).toThrow(/UNIQUE|PRIMARY KEY/);
    expect(() => add.run('')).toThrow(/CHECK/);
    s.db.prepare("INSERT INTO added_ids (collection, id, added_at) VALUES ('campaigns', 'VCou9xBF', 't')").run();
    expect(s.db.prepare('SELECT collection, id FROM added_ids ORDER BY collection').all()).toEqual([
      { collection: 'campaigns', id: 'VCou9xBF' },
      { collection: 'templates', id: 'VCou9xBF' },
    ]);
  });

  it('adds the table to a store of 0009, keeping its runs, with no added ids', () => {
    const s = storeAt(9);
    cleanup = s.cleanup;
    expect(tableNames(s.db)).not.toContain('added_ids');
    s.db.prepare("INSERT INTO sync_runs (id, started_at, status, collections) VALUES (1, 't', 'completed', '[]')").run();
    expect(migrate(s.db, MIGRATIONS, 10)).toEqual([10]);
    expect(s.db.prepare('SELECT count(*) FROM added_ids').pluck().get()).toBe(0);
    expect(s.db.prepare('SELECT id FROM sync_runs').pluck().all()).toEqual([1]);
  });
});
