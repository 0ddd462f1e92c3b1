import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/store/db';
import { storeAt, tableNames, insertStoredScope } from '../helpers/store-fixtures';

let cleanup = () => {};
afterEach(() => cleanup());

describe('migration 0005 search-queue', () => {
  it('adds the queue of search entries to write', () => {
    const s = storeAt(5);
    cleanup = s.cleanup;
    expect(tableNames(s.db)).toContain('search_queue');
  });

  it('keeps the objects and the index of 0004', () => {
    const s = storeAt(4);
    cleanup = s.cleanup;
    const raw = JSON.stringify({ id: 'a', displayName: 'Ledger export', scopeValue: 'ledger:export' });
    s.db.prepare("INSERT INTO sync_runs (id, started_at, status, collections) VALUES (1, 't', 'completed', '[\"scopes\"]')").run();
    insertStoredScope(s.db, raw, 'Ledger export');
    s.db.close();
    const store = openStore(s.file);
    try {
      expect(store.getObject('scopes', 'a')!.raw).toBe(raw);
      expect(store.search('ledger').hits.map((h) => h.id)).toEqual(['a']);
      expect(store.db.prepare('SELECT count(*) FROM search_queue').pluck().get()).toBe(0);
    } finally {
      store.close();
    }
  });
});
