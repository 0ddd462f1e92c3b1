import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/store/db';
import { MIGRATIONS } from '../../src/main/store/migrations';
import { storeAt } from '../helpers/store-fixtures';

let cleanup = () => {};
afterEach(() => cleanup());

describe('migration 0200 review-worksheets', () => {
  it('adds the worksheets and decisions tables to a store of 0101, its outbox items untouched', () => {
    const s = storeAt(101);
    cleanup = s.cleanup;
    s.db
      .prepare(
        `INSERT INTO outbox_items (id, kind, kind_version, state, input_json, request_json, request_digest, target, dedupe_key, summary,
           created_at, updated_at)
         VALUES ('i1', 'remove-membership', 1, 'queued', '{}', '{}', 'd', 't', 'k', 's', 't0', 't0')`,
      )
      .run();
    s.db.close();
    const store = openStore(s.file);
    try {
      expect(store.db.prepare('SELECT id, state FROM outbox_items').all()).toEqual([{ id: 'i1', state: 'queued' }]);
      store.db
        .prepare(
          `INSERT INTO review_worksheets (id, name, scope, reviewer, as_of_run, sha256, canonical_json, exported_at)
           VALUES ('w1', 'admins.xlsx', 'entitlement e1', 'Rita', 1, 'abc', '{}', 't1')`,
        )
        .run();
      const decide = (decision: string, worksheet = 'w1') =>
        store.db
          .prepare(
            `INSERT INTO review_decisions (worksheet_id, worksheet_name, worksheet_sha256, file_sha256, row_number, app_id, entitlement_id,
               app_user_id, decision, item_id, imported_at)
             VALUES (?, 'admins.xlsx', 'abc', 'def', 2, 'a1', 'e1', 'u1', ?, 'i1', 't2')`,
          )
          .run(worksheet, decision);
      decide('Revoke');
      // A decision is Keep or Revoke, of a worksheet the store exported.
      expect(() => decide('Maybe')).toThrow(/CHECK/);
      expect(() => decide('Keep', 'nowhere')).toThrow(/FOREIGN KEY/);
      expect(store.db.prepare('SELECT decision, reviewer, item_id FROM review_decisions').all()).toEqual([
        { decision: 'Revoke', reviewer: null, item_id: 'i1' },
      ]);
    } finally {
      store.close();
    }
  });

  it('is listed last, after the outbox batches', () => {
    const versions = MIGRATIONS.map((m) => m.version);
    expect(versions.at(-1)).toBe(200);
    expect(versions.indexOf(200)).toBe(versions.indexOf(101) + 1);
  });
});
