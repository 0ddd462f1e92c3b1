import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/store/db';
import { storeAt, tableNames, insertStoredScope } from '../helpers/store-fixtures';

let cleanup = () => {};
afterEach(() => cleanup());

describe('migration 0003 search-index', () => {
  it('creates the FTS5 index and the meta table', () => {
    const s = storeAt(3);
    cleanup = s.cleanup;
    expect(tableNames(s.db)).toEqual(expect.arrayContaining(['search_index', 'store_meta']));
    expect(s.db.prepare("SELECT sql FROM sqlite_master WHERE name = 'search_index'").pluck().get()).toMatch(/fts5/);
  });

  it('indexes the objects stored before it existed on the next open', () => {
    const s = storeAt(2);
    cleanup = s.cleanup;
    const raw = JSON.stringify({ id: 'a', displayName: 'Quarterly payroll', scopeValue: 'payroll:read', description: 'Reads payroll' });
    s.db.prepare("INSERT INTO sync_runs (id, started_at, status, collections) VALUES (1, 't', 'completed', '[\"scopes\"]')").run();
    insertStoredScope(s.db, raw, 'Quarterly payroll');
    s.db.close();
    const store = openStore(s.file);
    try {
      expect(store.search('quarter').hits.map((h) => h.id)).toEqual(['a']);
      expect(store.getObject('scopes', 'a')!.raw).toBe(raw);
      expect(store.db.prepare("SELECT value FROM store_meta WHERE key = 'search_text_revision'").pluck().get()).toBeTruthy();
    } finally {
      store.close();
    }
  });
});
