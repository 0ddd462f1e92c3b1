import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/store/db';
import { insertStoredScope, storeAt } from '../helpers/store-fixtures';

let cleanup = () => {};
afterEach(() => cleanup());

describe('migration 0014 name-keys', () => {
  it("keys each current object's name as search compares names, so an exact name leads a search of a store made before", () => {
    const s = storeAt(13);
    cleanup = s.cleanup;
    s.db
      .prepare(
        "INSERT INTO sync_runs (id, started_at, finished_at, status, collections) VALUES (1, 't0', 't1', 'completed', '[\"scopes\"]')",
      )
      .run();
    const raw = JSON.stringify({ id: 'a', displayName: 'Zürich  Ledger', scopeValue: 'ledger:export' });
    insertStoredScope(s.db, raw, 'Zürich  Ledger');
    s.db.close();
    const store = openStore(s.file);
    try {
      expect(store.db.prepare("SELECT name_key FROM objects WHERE id = 'a'").pluck().get()).toBe('zurich ledger');
      expect(store.db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'objects_by_name_key'").get()).toBeDefined();
      expect(store.search('zurich ledger', { limit: 5 }).hits.map((h) => h.id)).toEqual(['a']);
      expect(store.search('ZURICH', { collection: 'scopes', limit: 5 }).hits[0]?.id).toBe('a');
      expect(store.getObject('scopes', 'a')!.raw).toBe(raw);
    } finally {
      store.close();
    }
  });
});
