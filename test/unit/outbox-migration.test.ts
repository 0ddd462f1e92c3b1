import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/main/store/migrate';
import { MIGRATIONS } from '../../src/main/store/migrations';
import m0100 from '../../src/main/store/migrations/0100-outbox';

describe('migration 0100-outbox', () => {
  it('creates the outbox tables, and the journal refuses updates and deletes', () => {
    const db = new Database(':memory:');
    migrate(db, [m0100]);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'outbox_%' ORDER BY name").pluck().all();
    expect(tables).toEqual(['outbox_items', 'outbox_journal', 'outbox_overlays']);
    db.prepare(
      `INSERT INTO outbox_journal (item_id, kind, target, attempt, event, outcome, at) VALUES ('i', 'create-scope', 't', 0, 'queued', 'queued', 'now')`,
    ).run();
    expect(() => db.prepare(`UPDATE outbox_journal SET outcome = 'x'`).run()).toThrow(/append-only/);
    expect(() => db.prepare(`DELETE FROM outbox_journal`).run()).toThrow(/append-only/);
    expect(db.prepare('SELECT count(*) FROM outbox_journal').pluck().get()).toBe(1);
  });

  it('refuses an item in an unknown state', () => {
    const db = new Database(':memory:');
    migrate(db, [m0100]);
    expect(() =>
      db
        .prepare(
          `INSERT INTO outbox_items (id, kind, kind_version, state, input_json, request_json, request_digest, target, dedupe_key, summary, created_at, updated_at)
           VALUES ('a', 'create-scope', 1, 'lost', '{}', '{}', 'd', 't', 'k', 's', 'now', 'now')`,
        )
        .run(),
    ).toThrow(/CHECK/);
  });

  it('is listed with the store migrations and applies after them', () => {
    expect(MIGRATIONS.map((m) => m.version)).toContain(100);
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS);
    expect(db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'outbox_items'").get()).toBeTruthy();
  });
});
