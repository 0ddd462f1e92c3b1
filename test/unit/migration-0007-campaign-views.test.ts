import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/store/db';
import { storeAt } from '../helpers/store-fixtures';

let cleanup = () => {};
afterEach(() => cleanup());

const sha1 = (text: string) => createHash('sha1').update(text).digest();

describe('migration 0007 campaign-views', () => {
  it('keeps each stored campaign as the view inside its GET answer, byte for byte, with its hash; other texts stay', () => {
    const s = storeAt(6);
    cleanup = s.cleanup;
    const view = '{"accessReview": {"id":"c1","displayName":"Q1 \\"review\\" 🔐","state":"ACCESS_REVIEW_STATE_STARTED"},"policyPath":"/p"}';
    const later = '{"accessReview":{"id":"c1","displayName":"Q1","state":"ACCESS_REVIEW_STATE_CLOSED"},"policyPath":"/p"}';
    const texts = [`{"accessReview": ${view} ,"expanded":[]}`, `{"expanded":[],"accessReview":${later}}`];
    const odd = '{"id":"c2","note":"not a wrapper"}';
    const db = s.db;
    db.prepare(
      "INSERT INTO sync_runs (id, started_at, status, collections) VALUES (1, 't', 'completed', '[]'), (2, 't', 'completed', '[]')",
    ).run();
    db.prepare(
      "INSERT INTO objects (oid, collection, id, first_seen_run, last_seen_run, last_seen_walk) VALUES (1, 'campaigns', 'c1', 1, 2, 1), (2, 'campaigns', 'c2', 1, 2, 1), (3, 'scopes', 's1', 1, 2, 1)",
    ).run();
    const version = db.prepare(
      "INSERT INTO object_versions (vid, oid, valid_from, valid_to, hash, title, cols, raw, fetched_at) VALUES (?, ?, ?, ?, ?, 'Q1', '{}', ?, 't')",
    );
    version.run(1, 1, 1, 2, sha1(texts[0]!), texts[0]);
    version.run(2, 1, 2, null, sha1(texts[1]!), texts[1]);
    version.run(3, 2, 1, null, sha1(odd), odd);
    const scope = JSON.stringify({ id: 's1', accessReview: { accessReview: {} } });
    version.run(4, 3, 1, null, sha1(scope), scope);
    db.exec('UPDATE objects SET current_vid = CASE oid WHEN 1 THEN 2 WHEN 2 THEN 3 ELSE 4 END');
    db.close();

    const store = openStore(s.file);
    try {
      const rows = store.db.prepare('SELECT vid, raw, hash FROM object_versions ORDER BY vid').all() as {
        vid: number;
        raw: string;
        hash: Buffer;
      }[];
      expect(rows.map((r) => r.raw)).toEqual([view, later, odd, scope]);
      for (const r of rows) expect(r.hash.equals(sha1(r.raw)), `version ${r.vid}`).toBe(true);
      expect(store.getObject('campaigns', 'c1')!.raw).toBe(later);
      expect(store.getObject('campaigns', 'c1', { asOfRun: 1 })!.raw).toBe(view);
      expect(store.history('campaigns', 'c1').map((h) => [h.change, h.changedFields])).toEqual([
        ['added', []],
        ['modified', ['displayName', 'state']],
      ]);
    } finally {
      store.close();
    }
  });
});
