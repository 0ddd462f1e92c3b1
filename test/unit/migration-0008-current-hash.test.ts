import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/store/db';
import { storeAt } from '../helpers/store-fixtures';

let cleanup = () => {};
afterEach(() => cleanup());

describe('migration 0008 current-hash', () => {
  it('gives each object the hash of its current version (none once deleted), and marks the words list for a refresh', () => {
    const s = storeAt(7);
    cleanup = s.cleanup;
    const db = s.db;
    db.prepare("INSERT INTO sync_runs (id, started_at, status, collections) VALUES (1, 't', 'completed', '[\"scopes\"]')").run();
    db.prepare(
      "INSERT INTO objects (oid, collection, id, first_seen_run, last_seen_run, last_seen_walk) VALUES (1, 'scopes', 'a', 1, 1, 1), (2, 'scopes', 'b', 1, 1, 1)",
    ).run();
    const version = db.prepare(
      "INSERT INTO object_versions (vid, oid, valid_from, hash, title, cols, raw, fetched_at) VALUES (?, ?, 1, ?, 't', '{}', '{}', 't')",
    );
    version.run(1, 1, Buffer.from('hash of a'));
    version.run(2, 2, Buffer.from('hash of b'));
    db.prepare("UPDATE objects SET current_vid = 1 WHERE id = 'a'").run();
    db.close();
    const store = openStore(s.file);
    try {
      const rows = store.db.prepare('SELECT id, current_hash FROM objects ORDER BY id').all();
      expect(rows).toEqual([
        { id: 'a', current_hash: Buffer.from('hash of a') },
        { id: 'b', current_hash: null },
      ]);
      expect(store.db.prepare("SELECT value FROM store_meta WHERE key = 'search_terms_stale'").pluck().get()).toBe('1');
    } finally {
      store.close();
    }
  });
});
