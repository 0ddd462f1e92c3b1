import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/store/db';
import { storeAt, insertStoredScope } from '../helpers/store-fixtures';

let cleanup = () => {};
afterEach(() => cleanup());

describe('migration 0004 search-facets', () => {
  it('recreates the index with a facets column', () => {
    const s = storeAt(4);
    cleanup = s.cleanup;
    const columns = s.db.prepare("SELECT name FROM pragma_table_info('search_index')").pluck().all();
    expect(columns).toEqual(['title', 'body', 'facets']);
  });

  it('reindexes what 0003 had indexed, now with facets, keeping every object', () => {
    const s = storeAt(3);
    cleanup = s.cleanup;
    const raw = JSON.stringify({
      id: 'a',
      displayName: 'Payroll export',
      scopeValue: 'payroll:export',
      classification: 'XAA_SCOPE_CLASSIFICATION_SENSITIVE',
    });
    s.db.prepare("INSERT INTO sync_runs (id, started_at, status, collections) VALUES (1, 't', 'completed', '[\"scopes\"]')").run();
    insertStoredScope(s.db, raw, 'Payroll export');
    s.db.prepare("INSERT INTO search_index (rowid, title, body) VALUES (1, 'Payroll export', 'payroll:export')").run();
    s.db.prepare("INSERT INTO store_meta (key, value) VALUES ('search_text_revision', '1')").run();
    s.db.close();
    const store = openStore(s.file);
    try {
      expect(store.getObject('scopes', 'a')!.raw).toBe(raw);
      expect(
        store
          .search('payroll', { collection: 'scopes', filters: { classification: 'XAA_SCOPE_CLASSIFICATION_SENSITIVE' } })
          .hits.map((h) => h.id),
      ).toEqual(['a']);
      expect(store.search('payroll', { collection: 'toolsets' }).total).toBe(0);
    } finally {
      store.close();
    }
  });
});
