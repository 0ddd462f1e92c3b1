import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/store/db';
import { insertStoredScope, storeAt } from '../helpers/store-fixtures';

let cleanup = () => {};
afterEach(() => cleanup());

describe('migration 0006 run-origin', () => {
  it('gives every run an origin, sync by default, and refuses any other', () => {
    const s = storeAt(6);
    cleanup = s.cleanup;
    s.db.prepare("INSERT INTO sync_runs (id, started_at, status, collections) VALUES (1, 't', 'completed', '[]')").run();
    s.db
      .prepare("INSERT INTO sync_runs (id, started_at, status, collections, origin) VALUES (2, 't', 'completed', '[\"scopes\"]', 'outbox')")
      .run();
    expect(s.db.prepare('SELECT origin FROM sync_runs ORDER BY id').pluck().all()).toEqual(['sync', 'outbox']);
    expect(() =>
      s.db.prepare("INSERT INTO sync_runs (started_at, status, collections, origin) VALUES ('t', 'completed', '[]', 'import')").run(),
    ).toThrow(/CHECK/);
  });

  it('keeps the runs and objects of 0005, each run now from a sync', () => {
    const s = storeAt(5);
    cleanup = s.cleanup;
    const raw = JSON.stringify({ id: 'a', displayName: 'Ledger export', scopeValue: 'ledger:export' });
    s.db
      .prepare(
        "INSERT INTO sync_runs (id, started_at, finished_at, status, collections) VALUES (1, 't0', 't1', 'completed', '[\"scopes\"]')",
      )
      .run();
    insertStoredScope(s.db, raw, 'Ledger export');
    s.db.close();
    const store = openStore(s.file);
    try {
      expect(store.runs()).toEqual([
        { id: 1, startedAt: 't0', finishedAt: 't1', status: 'completed', collections: ['scopes'], origin: 'sync' },
      ]);
      expect(store.getObject('scopes', 'a')!.raw).toBe(raw);
    } finally {
      store.close();
    }
  });
});
