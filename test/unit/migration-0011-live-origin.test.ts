import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/store/db';
import { insertStoredScope, storeAt } from '../helpers/store-fixtures';

let cleanup = () => {};
afterEach(() => cleanup());

describe('migration 0011 live-origin', () => {
  it('keeps every run with its origin, and its objects, and now takes live runs too', () => {
    const s = storeAt(10);
    cleanup = s.cleanup;
    const raw = JSON.stringify({ id: 'a', displayName: 'Ledger export', scopeValue: 'ledger:export' });
    s.db
      .prepare(
        "INSERT INTO sync_runs (id, started_at, finished_at, status, collections) VALUES (1, 't0', 't1', 'completed', '[\"scopes\"]')",
      )
      .run();
    s.db
      .prepare(
        "INSERT INTO sync_runs (id, started_at, finished_at, status, collections, origin) VALUES (2, 't2', 't2', 'completed', '[\"scopes\"]', 'outbox')",
      )
      .run();
    s.db
      .prepare("INSERT INTO sync_run_collections (run_id, collection, status, walk, checkpoint) VALUES (1, 'scopes', 'completed', 1, '')")
      .run();
    insertStoredScope(s.db, raw, 'Ledger export');
    expect(() =>
      s.db.prepare("INSERT INTO sync_runs (started_at, status, collections, origin) VALUES ('t', 'completed', '[]', 'live')").run(),
    ).toThrow(/CHECK/);
    s.db.close();
    const store = openStore(s.file);
    try {
      expect(store.runs().map((r) => [r.id, r.origin])).toEqual([
        [2, 'outbox'],
        [1, 'sync'],
      ]);
      expect(store.getObject('scopes', 'a')!.raw).toBe(raw);
      expect(store.db.prepare('SELECT count(*) FROM sync_run_collections').pluck().get()).toBe(1);
      store.db.prepare("INSERT INTO sync_runs (started_at, status, collections, origin) VALUES ('t3', 'completed', '[]', 'live')").run();
      expect(store.db.prepare('SELECT origin FROM sync_runs WHERE id = 3').pluck().get()).toBe('live');
      expect(() =>
        store.db.prepare("INSERT INTO sync_runs (started_at, status, collections, origin) VALUES ('t', 'completed', '[]', 'import')").run(),
      ).toThrow(/CHECK/);
      expect(store.db.prepare('SELECT origin FROM sync_runs WHERE id = 1').pluck().get()).toBe('sync');
    } finally {
      store.close();
    }
  });
});
