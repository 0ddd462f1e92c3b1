/**
 * Migrations 0012 and 0013 on a store as 0011 left it (raw JSON as text, columns as named objects,
 * a search index holding its own copy of the text), filled with every object of a synced demo
 * tenant: opened by this build, the store is upgraded in place (0012 deflates the raws, 0013 moves
 * them to LZ4) and reads back the same.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/main/api/client';
import { COLLECTIONS, collection as descriptorOf, extractColumns, type CollectionId } from '../../src/main/collections';
import { openStore } from '../../src/main/store/db';
import { searchEntryOf } from '../../src/main/store/search';
import { syncTenant } from '../../src/main/sync/engine';
import { storeAt, tableNames } from '../helpers/store-fixtures';
import { useTenant } from '../helpers/tenant';

const tenant = useTenant({ seed: 12 });

interface Kept {
  collection: CollectionId;
  id: string;
  title: string;
  raw: string;
}

let dir = '';
let kept: Kept[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'attest-0012-'));
  const t = tenant();
  const store = openStore(join(dir, 'synced.sqlite'));
  try {
    const api = createApiClient({ clientId: t.clientId, clientSecret: t.clientSecret, serverUrl: t.url });
    const summary = await syncTenant({ store, api });
    expect(summary.status).toBe('completed');
    kept = COLLECTIONS.flatMap((d) =>
      [...store.iterateObjects(d.id)].map((o) => ({ collection: d.id, id: o.id, title: o.title, raw: o.raw })),
    );
  } finally {
    store.close();
  }
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The objects written as 0011 kept them, each with its search entry in the index of the time. */
function storeAsOf0011(): { file: string; cleanup(): void } {
  const s = storeAt(11);
  const db = s.db;
  db.prepare("INSERT INTO sync_runs (id, started_at, finished_at, status, collections) VALUES (1, 't', 't', 'completed', '[]')").run();
  const object = db.prepare(
    'INSERT INTO objects (oid, collection, id, first_seen_run, last_seen_run, last_seen_walk, current_vid, current_hash) VALUES (?, ?, ?, 1, 1, 1, NULL, ?)',
  );
  const version = db.prepare(
    "INSERT INTO object_versions (vid, oid, valid_from, hash, title, cols, raw, fetched_at) VALUES (?, ?, 1, ?, ?, ?, ?, 't')",
  );
  const current = db.prepare('UPDATE objects SET current_vid = ? WHERE oid = ?');
  const index = db.prepare('INSERT INTO search_index (rowid, title, body, facets) VALUES (?, ?, ?, ?)');
  db.transaction(() => {
    kept.forEach((k, i) => {
      const oid = i + 1;
      const json = JSON.parse(k.raw) as unknown;
      const hash = Buffer.from(`hash ${oid}`);
      object.run(oid, k.collection, k.id, hash);
      version.run(oid, oid, hash, k.title, JSON.stringify(extractColumns(descriptorOf(k.collection), json)), k.raw);
      current.run(oid, oid);
      const entry = searchEntryOf(k.collection, json);
      index.run(oid, entry.title, entry.body, entry.facets);
    });
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return s;
}

describe('migration 0012 compact-store', () => {
  it('compresses every raw JSON with its collection dictionary, stores columns by position, indexes without a copy, and shrinks the file', () => {
    const s = storeAsOf0011();
    try {
      const before = statSync(s.file).size;
      const store = openStore(s.file);
      try {
        const db = store.db;
        // Every object reads back exactly as received, through the store and through SQL.
        for (const k of kept) {
          const o = store.getObject(k.collection, k.id)!;
          expect(o.raw).toBe(k.raw);
          expect(o.columns).toEqual(extractColumns(descriptorOf(k.collection), JSON.parse(k.raw) as unknown));
        }
        const stored = db
          .prepare('SELECT count(*) AS n, sum(raw_dict IS NULL) AS text, sum(length(raw)) AS bytes FROM object_versions')
          .get() as { n: number; text: number; bytes: number };
        const received = kept.reduce((n, k) => n + Buffer.byteLength(k.raw), 0);
        expect(stored.n).toBe(kept.length);
        // Only the collections too small to make a dictionary (a few objects) stay text.
        expect(stored.text).toBeLessThan(kept.length / 20);
        expect(stored.bytes).toBeLessThan(received * 0.4);
        const dictionaries = db.prepare('SELECT collection FROM raw_dictionaries ORDER BY collection').pluck().all();
        expect(dictionaries).toEqual(expect.arrayContaining(['app-users', 'entitlements', 'memberships']));
        expect(db.prepare('SELECT cols FROM object_versions LIMIT 1').pluck().get()).toMatch(/^\[/);

        // The index holds no copy of the text, and search still finds and quotes it.
        expect(tableNames(db)).not.toContain('search_index_content');
        const user = kept.find((k) => k.collection === 'app-users')!;
        const hits = store.search(user.title, { collection: 'app-users', limit: 5 });
        expect(hits.hits.map((h) => h.id)).toContain(user.id);
        const task = kept.find((k) => k.collection === 'tasks')!;
        const word = JSON.stringify(JSON.parse(task.raw)).match(/[A-Z][a-z]{5,}/)?.[0] ?? task.title.split(' ')[0]!;
        const found = store.search(word, { limit: 50 });
        expect(found.hits.length).toBeGreaterThan(0);
        expect(found.hits.some((h) => h.snippet.includes('«'))).toBe(true);

        expect(db.prepare("SELECT 1 FROM store_meta WHERE key = 'vacuum_pending'").get()).toBeUndefined();
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      } finally {
        store.close();
      }
      expect(statSync(s.file).size).toBeLessThan(before * 0.6);
    } finally {
      s.cleanup();
    }
  });

  it('keeps raws any LZ4 reads (0013 moved them from deflate): Python decompresses them with the dictionary the store names', () => {
    const s = storeAsOf0011();
    try {
      openStore(s.file).close();
      const script = `
import sqlite3, sys, json, lz4.block
db = sqlite3.connect(sys.argv[1])
dicts = dict(db.execute('SELECT did, dict FROM raw_dictionaries'))
out = []
for collection, oid, raw, did in db.execute('SELECT o.collection, o.id, v.raw, v.raw_dict FROM object_versions v JOIN objects o ON o.oid = v.oid ORDER BY v.vid'):
    if did is None:
        out.append(raw)
    else:
        out.append(lz4.block.decompress(raw, dict=dicts[did]).decode('utf-8'))
json.dump(out, sys.stdout)
`;
      const texts = JSON.parse(
        execFileSync('/usr/bin/python3', ['-c', script, s.file], { maxBuffer: 256 * 1024 * 1024 }).toString(),
      ) as string[];
      expect(texts).toEqual(kept.map((k) => k.raw));
    } finally {
      s.cleanup();
    }
  });
});
