import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/store/db';
import { MIGRATIONS } from '../../src/main/store/migrations';
import { storeAt } from '../helpers/store-fixtures';

let cleanup = () => {};
afterEach(() => cleanup());

describe('migration 0101 outbox-batches', () => {
  it('makes a batch of each earlier import (its rows share a source and a time) and leaves single changes alone', () => {
    const s = storeAt(100);
    cleanup = s.cleanup;
    const insert = s.db.prepare(
      `INSERT INTO outbox_items (id, kind, kind_version, state, input_json, request_json, request_digest, target, dedupe_key, summary, source,
         created_at, updated_at)
       VALUES (?, 'remove-membership', 1, ?, '{}', '{}', 'd', ?, ?, 's', ?, ?, ?)`,
    );
    const rows: [string, string, string | null, string][] = [
      ['a1', 'succeeded', 'csv:/home/me/removals.csv:2', 't1'],
      ['a2', 'failed', 'csv:/home/me/removals.csv:3', 't1'],
      ['one', 'queued', 'cli', 't2'],
      ['b1', 'uncertain', 'later.csv:2', 't3'],
      ['a3', 'queued', 'csv:/home/me/removals.csv:2', 't4'],
      ['app', 'queued', 'app', 't5'],
      ['none', 'queued', null, 't6'],
    ];
    for (const [id, state, source, at] of rows) insert.run(id, state, id, id, source, at, at);
    s.db.close();
    const store = openStore(s.file);
    try {
      const batches = store.db.prepare('SELECT id, name, source, kind, rows, created_at FROM outbox_batches ORDER BY id').all();
      expect(batches).toEqual([
        { id: 1, name: 'removals.csv', source: 'csv:/home/me/removals.csv', kind: 'remove-membership', rows: 2, created_at: 't1' },
        { id: 2, name: 'later.csv', source: 'later.csv', kind: 'remove-membership', rows: 1, created_at: 't3' },
        // The same file imported again later is another batch.
        { id: 3, name: 'removals.csv', source: 'csv:/home/me/removals.csv', kind: 'remove-membership', rows: 1, created_at: 't4' },
      ]);
      const links = store.db.prepare('SELECT id, batch_id FROM outbox_items ORDER BY seq').all();
      expect(links).toEqual([
        { id: 'a1', batch_id: 1 },
        { id: 'a2', batch_id: 1 },
        { id: 'one', batch_id: null },
        { id: 'b1', batch_id: 2 },
        { id: 'a3', batch_id: 3 },
        { id: 'app', batch_id: null },
        { id: 'none', batch_id: null },
      ]);
    } finally {
      store.close();
    }
  });

  it('is listed after the outbox migration', () => {
    const versions = MIGRATIONS.map((m) => m.version);
    expect(versions.indexOf(101)).toBe(versions.indexOf(100) + 1);
  });
});
