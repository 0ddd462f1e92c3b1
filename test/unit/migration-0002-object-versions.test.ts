import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/store/db';
import { storeAt, tableNames, insertStoredScope } from '../helpers/store-fixtures';

let cleanup = () => {};
afterEach(() => cleanup());

describe('migration 0002 object-versions', () => {
  it('adds objects and versions after 0001, keeping its runs', () => {
    const s = storeAt(1);
    cleanup = s.cleanup;
    s.db.prepare("INSERT INTO sync_runs (id, started_at, status, collections) VALUES (1, 't0', 'completed', '[]')").run();
    s.db.close();
    const store = openStore(s.file);
    try {
      expect(tableNames(store.db)).toEqual(expect.arrayContaining(['objects', 'object_versions']));
      expect(store.runs().map((r) => r.id)).toEqual([1]);
    } finally {
      store.close();
    }
  });

  it('enforces one object per (collection, id), version references and ordered validity', () => {
    const s = storeAt(2);
    cleanup = s.cleanup;
    s.db
      .prepare(
        "INSERT INTO sync_runs (id, started_at, status, collections) VALUES (1, 't', 'completed', '[]'), (2, 't', 'completed', '[]')",
      )
      .run();
    s.db
      .prepare(
        "INSERT INTO objects (oid, collection, id, first_seen_run, last_seen_run, last_seen_walk) VALUES (1, 'scopes', 'a', 1, 1, 1)",
      )
      .run();
    expect(() =>
      s.db
        .prepare("INSERT INTO objects (collection, id, first_seen_run, last_seen_run, last_seen_walk) VALUES ('scopes', 'a', 1, 1, 1)")
        .run(),
    ).toThrow(/UNIQUE/);
    expect(() =>
      s.db
        .prepare(
          "INSERT INTO object_versions (oid, valid_from, hash, title, cols, raw, fetched_at) VALUES (99, 1, x'00', '', '{}', '{}', 't')",
        )
        .run(),
    ).toThrow(/FOREIGN KEY/);
    expect(() =>
      s.db
        .prepare(
          "INSERT INTO object_versions (oid, valid_from, valid_to, hash, title, cols, raw, fetched_at) VALUES (1, 2, 2, x'00', '', '{}', '{}', 't')",
        )
        .run(),
    ).toThrow(/CHECK/);
  });

  it('keeps objects and their versions through the later migrations', () => {
    const s = storeAt(2);
    cleanup = s.cleanup;
    const raw = '{"id":"a","displayName":"Keep me","scopeValue":"x:y"}';
    s.db.prepare("INSERT INTO sync_runs (id, started_at, status, collections) VALUES (1, 't', 'completed', '[\"scopes\"]')").run();
    s.db
      .prepare("INSERT INTO sync_run_collections (run_id, collection, status, finished_at) VALUES (1, 'scopes', 'completed', 't1')")
      .run();
    insertStoredScope(s.db, raw, 'Keep me', '{"scopeValue":"x:y"}');
    s.db.close();
    const store = openStore(s.file);
    try {
      expect(store.getObject('scopes', 'a')).toMatchObject({ raw, title: 'Keep me', runId: 1, deleted: false });
      expect(store.collectionStatus().find((c) => c.collection === 'scopes')).toMatchObject({
        objectCount: 1,
        lastCompletedRunId: 1,
        complete: true,
      });
    } finally {
      store.close();
    }
  });
});
