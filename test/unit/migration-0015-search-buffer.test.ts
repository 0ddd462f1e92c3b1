import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/store/db';
import { SEARCH_BUFFER_BYTES } from '../../src/main/store/migrations/0015-search-buffer';
import { storeAt } from '../helpers/store-fixtures';

let cleanup = () => {};
afterEach(() => cleanup());

describe('migration 0015 search-buffer', () => {
  it("sizes the search index's write buffer of a store made before, in the index's own config, and the index still works", () => {
    const s = storeAt(14);
    cleanup = s.cleanup;
    const hashsize = (db: typeof s.db) => db.prepare("SELECT v FROM search_index_config WHERE k = 'hashsize'").pluck().get();
    expect(hashsize(s.db)).toBeUndefined();
    s.db.close();
    const store = openStore(s.file);
    try {
      expect(hashsize(store.db)).toBe(SEARCH_BUFFER_BYTES);
      store.db.prepare("INSERT INTO search_index (rowid, title, body, facets) VALUES (1, 'Quartz ledger', '', '')").run();
      expect(store.db.prepare("SELECT rowid FROM search_index WHERE search_index MATCH 'quartz'").pluck().all()).toEqual([1]);
      expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      store.close();
    }
  });
});
