import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/store/db';
import { storeAt, tableNames } from '../helpers/store-fixtures';

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
    s.db.prepare("INSERT INTO objects (oid, collection, id, first_seen_run, last_seen_run, last_seen_walk) VALUES (1, 'scopes', 'a', 1, 1, 1)").run();
    s.db.prepare("INSERT INTO object_versions (vid, oid, valid_from, hash, title, cols, raw, fetched_at) VALUES (1, 1, 1, x'00', 'Quarterly payroll', '{}', ?, 't')").run(raw);
    s.db.prepare('UPDATE objects SET current_vid = 1 WHERE oid = 1').run();
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
