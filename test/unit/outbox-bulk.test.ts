/** Bulk decisions (retry, resolve, discard) over a selection, and imports as batches, on a real SQLite file. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OutboxStateError, type OutboxState } from '../../src/main/outbox/queue';
import { namedSummary } from '../../src/shared/named-summary';
import { FakeApi, openTestOutbox, type TestOutbox } from './outbox.fake';

let t: TestOutbox;
let api: FakeApi;
beforeEach(() => {
  t = openTestOutbox();
  api = new FakeApi();
});
afterEach(() => t.close());

const header = 'app_id,app_entitlement_id,app_user_id';
const csvOf = (users: string[]) => [header, ...users.map((u) => `app-1,ent-1,${u}`)].join('\n');

/** Imports removals of `users` (those in `present` exist on the fake tenant) and sends them; `drop` are applied, then their answer is lost. */
async function importAndSend(users: string[], present: string[], drop: string[] = [], source = 'csv:/data/removals.csv') {
  for (const u of present) api.memberships.add(`app-1/ent-1/${u}`);
  const imported = t.outbox.importCsv(csvOf(users), 'remove-membership', { source });
  api.fault = (call) => (drop.includes(String((call.body as { appUserId?: string }).appUserId)) ? 'drop-after-apply' : null);
  await t.outbox.send(api);
  api.fault = () => null;
  return imported;
}

function states(): Record<string, OutboxState> {
  return Object.fromEntries(t.outbox.list().map((i) => [i.input.appUserId as string, i.state]));
}

describe('imports are batches', () => {
  it('records each import with its file name, kind, rows and time, and lists its items per state', async () => {
    const first = await importAndSend(['u1', 'u2', 'u3', 'u4'], ['u1', 'u2', 'u3'], ['u3']);
    expect(first.batch).toEqual({ id: expect.any(Number), name: 'removals.csv' });
    const second = t.outbox.importCsv(csvOf(['u5']), 'remove-membership', { source: 'later.csv' });
    const dry = t.outbox.importCsv(csvOf(['u6']), 'remove-membership', { source: 'dry.csv', dryRun: true });
    expect(dry.batch).toBeNull();
    const batches = t.outbox.batches();
    expect(batches.map((b) => b.name)).toEqual(['later.csv', 'removals.csv']);
    expect(batches[1]).toMatchObject({ id: first.batch!.id, source: 'csv:/data/removals.csv', kind: 'remove-membership', rows: 4 });
    expect(batches[1]!.counts).toMatchObject({ succeeded: 2, failed: 1, uncertain: 1, queued: 0 });
    expect(batches[0]!.counts).toMatchObject({ queued: 1 });
    expect(t.outbox.list({ batch: second.batch!.id }).map((i) => i.input.appUserId)).toEqual(['u5']);
    expect(t.outbox.get(second.itemIds[0]!)?.batchId).toBe(second.batch!.id);
    // Single changes belong to no batch.
    expect(t.outbox.enqueue('remove-membership', { appId: 'app-1', appEntitlementId: 'ent-1', appUserId: 'solo' }).batchId).toBeNull();
  });

  it('filters by state, kind, batch and the reason shown (any case), and counts what a filter matches', async () => {
    const batch = (await importAndSend(['u1', 'u2', 'u3'], ['u1'], ['u1'])).batch!.id;
    expect(t.outbox.count({ batch })).toBe(3);
    expect(t.outbox.count({ batch, state: 'failed' })).toBe(2);
    expect(t.outbox.count({ error: 'MEMBERSHIP OF U2' })).toBe(1);
    expect(t.outbox.count({ error: 'not found', state: 'failed', kind: 'remove-membership' })).toBe(2);
    expect(t.outbox.count({ error: '%' })).toBe(0);
    expect(t.outbox.count({ kind: 'create-scope' })).toBe(0);
    expect(t.outbox.counts({ batch, state: 'failed' })).toMatchObject({ uncertain: 1, failed: 2, succeeded: 0 });
    expect(t.outbox.list({ batch, limit: 2, offset: 1 }).map((i) => i.input.appUserId)).toEqual(['u2', 'u3']);
  });
});

describe('bulk decisions', () => {
  it('retries every failed item of a selection in one go, and journals each', async () => {
    await importAndSend(['u1', 'u2', 'u3', 'u4'], ['u1'], []);
    const result = t.outbox.bulk('retry', { state: 'failed' });
    expect(result).toMatchObject({ action: 'retry', outcome: 'queued', matched: 3, changed: 3, refused: [] });
    expect(states()).toEqual({ u1: 'succeeded', u2: 'queued', u3: 'queued', u4: 'queued' });
    for (const id of result.itemIds) expect(t.outbox.journal({ itemId: id }).at(-1)).toMatchObject({ event: 'retry', outcome: 'queued' });
  });

  it('refuses the items whose state does not allow the action, reporting them by state, and changes the rest', async () => {
    const batch = (await importAndSend(['u1', 'u2', 'u3', 'u4'], ['u1', 'u2', 'u3'], ['u3'])).batch!.id;
    const before = t.outbox.journal().length;
    const result = t.outbox.bulk('resolve', { batch }, 'checked in the tenant console');
    expect(result.matched).toBe(4);
    expect(result.changed).toBe(2);
    expect(result.refused).toEqual([
      { state: 'succeeded', reason: 'only failed or uncertain items can be marked resolved', count: 2, itemIds: expect.any(Array) },
    ]);
    expect(states()).toEqual({ u1: 'succeeded', u2: 'succeeded', u3: 'resolved', u4: 'resolved' });
    const resolved = t.outbox.list({ state: 'resolved' });
    expect(resolved.map((i) => i.note)).toEqual(['checked in the tenant console', 'checked in the tenant console']);
    expect(t.outbox.journal().length).toBe(before + 2);
    // Resolved items no longer show as pending on the memberships.
    expect(t.outbox.overlays('memberships').filter((o) => resolved.some((i) => i.id === o.itemId))).toEqual([]);
  });

  it('discards the ids given; an id that names no item changes nothing', async () => {
    await importAndSend(['u1', 'u2', 'u3'], []);
    const [a, b] = t.outbox.list().map((i) => i.id);
    const journal = t.outbox.journal().length;
    expect(() => t.outbox.bulk('discard', { ids: [a!, 'no-such-item', b!] })).toThrow(OutboxStateError);
    expect(() => t.outbox.bulk('discard', { ids: [a!, 'no-such-item'] })).toThrow(/no outbox item no-such-item: nothing was changed/);
    expect(Object.values(states())).toEqual(['failed', 'failed', 'failed']);
    expect(t.outbox.journal().length).toBe(journal);
    const done = t.outbox.bulk('discard', { ids: [a!, b!] });
    expect(done).toMatchObject({ changed: 2, outcome: 'discarded' });
    expect(Object.values(states())).toEqual(['discarded', 'discarded', 'failed']);
    // Discarded ones are refused by a second discard, as the single action does.
    expect(t.outbox.bulk('discard', { ids: [a!] }).refused).toMatchObject([{ state: 'discarded', count: 1 }]);
  });

  it('does not make a second active copy of a change: a failed item whose change is queued again is refused', async () => {
    await importAndSend(['u1'], []);
    const again = t.outbox.importCsv(csvOf(['u1']), 'remove-membership', { source: 'again.csv' });
    expect(again.queued).toBe(1);
    const result = t.outbox.bulk('retry', { state: 'failed' });
    expect(result.changed).toBe(0);
    expect(result.refused).toEqual([
      { state: 'failed', reason: 'the same change is already in the outbox as another item', count: 1, itemIds: expect.any(Array) },
    ]);
    expect(() => t.outbox.retry(result.refused[0]!.itemIds[0]!)).toThrow(/already in the outbox as item/);
    expect(t.outbox.count({ state: 'queued' })).toBe(1);
  });

  it('is one transaction: a failure part way changes no item', async () => {
    await importAndSend(['u1', 'u2', 'u3', 'u4'], []);
    // The third journal entry of the action fails: nothing of the action may stay.
    t.db.exec(`CREATE TEMP TRIGGER fail_third BEFORE INSERT ON outbox_journal
      WHEN NEW.event = 'discard' AND (SELECT count(*) FROM outbox_journal WHERE event = 'discard') = 2
      BEGIN SELECT RAISE(ABORT, 'disk trouble'); END`);
    expect(() => t.outbox.bulk('discard', { state: 'failed' })).toThrow(/disk trouble/);
    expect(t.outbox.count({ state: 'failed' })).toBe(4);
    expect(t.outbox.journal().filter((e) => e.event === 'discard')).toEqual([]);
  });

  it('retried items send again with the next send', async () => {
    await importAndSend(['u1', 'u2'], []);
    api.memberships.add('app-1/ent-1/u1');
    api.memberships.add('app-1/ent-1/u2');
    t.outbox.bulk('retry', { error: 'not found' });
    const summary = await t.outbox.send(api);
    expect(summary.succeeded).toBe(2);
    expect(api.applied).toHaveLength(2);
  });
});

describe('the journal in words', () => {
  it('gives each id the store has a name for with its name, once', () => {
    expect(
      namedSummary(
        'remove user u1 from entitlement e1 (app a1)',
        { appId: 'a1', appEntitlementId: 'e1', appUserId: 'u1' },
        { appUserId: 'Ada Lovelace', appEntitlementId: 'Admins', appId: 'a1' },
      ),
    ).toBe('remove user Ada Lovelace (u1) from entitlement Admins (e1) (app a1)');
    expect(namedSummary('escalate task t1', { taskId: 't1' }, {})).toBe('escalate task t1');
  });

  it('pages the journal newest first, filtered by outcome and batch, with how many match', async () => {
    const batch = (await importAndSend(['u1', 'u2', 'u3'], ['u1'])).batch!.id;
    const all = t.outbox.journalInWords({ newestFirst: true });
    expect(all.total).toBe(6);
    expect(all.entries.map((e) => e.seq)).toEqual([6, 5, 4, 3, 2, 1]);
    const page = t.outbox.journalInWords({ newestFirst: true, limit: 2, offset: 2, batch });
    expect(page).toMatchObject({ total: 6, entries: [{ seq: 4 }, { seq: 3 }] });
    const failed = t.outbox.journalInWords({ outcome: 'failed', batch });
    expect(failed.total).toBe(2);
    expect(failed.entries.every((e) => e.batchId === batch && e.change.startsWith('remove user'))).toBe(true);
    expect(t.outbox.journalInWords({ batch: batch + 1 }).total).toBe(0);
  });
});
