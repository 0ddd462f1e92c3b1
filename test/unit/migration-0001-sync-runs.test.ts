import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/store/db';
import { storeAt, tableNames } from '../helpers/store-fixtures';

let cleanup = () => {};
afterEach(() => cleanup());

describe('migration 0001 sync-runs', () => {
  it('creates the run tables on an empty database', () => {
    const s = storeAt(1);
    cleanup = s.cleanup;
    expect(tableNames(s.db)).toEqual(expect.arrayContaining(['sync_runs', 'sync_run_collections']));
    expect(tableNames(s.db)).not.toContain('objects');
    expect(s.db.pragma('user_version', { simple: true })).toBe(1);
    expect(() => s.db.prepare("INSERT INTO sync_runs (started_at, status, collections) VALUES ('t', 'bogus', '[]')").run()).toThrow(
      /CHECK/,
    );
  });

  it('keeps runs and checkpoints through every later migration', () => {
    const s = storeAt(1);
    cleanup = s.cleanup;
    s.db
      .prepare("INSERT INTO sync_runs (id, started_at, status, collections) VALUES (1, '2026-01-01T00:00:00Z', 'running', '[\"scopes\"]')")
      .run();
    s.db
      .prepare(
        "INSERT INTO sync_run_collections (run_id, collection, status, checkpoint, pages, fetched) VALUES (1, 'scopes', 'running', 'tok-7', 7, 700)",
      )
      .run();
    s.db.close();
    const store = openStore(s.file);
    try {
      expect(store.runs()).toEqual([
        { id: 1, startedAt: '2026-01-01T00:00:00Z', finishedAt: null, status: 'running', collections: ['scopes'], origin: 'sync' },
      ]);
      const resumed = store.sync.beginRun(['scopes']);
      expect(resumed).toMatchObject({
        runId: 1,
        resumed: true,
        walks: [{ collection: 'scopes', checkpoint: 'tok-7', pages: 7, fetched: 700 }],
      });
    } finally {
      store.close();
    }
  });
});
