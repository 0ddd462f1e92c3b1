/** Recovering a faulty send of 300 removals with `attest queue retry|resolve|discard` over selections, against the reference tenant. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BulkResult, OutboxBatch, OutboxItem, OutboxState } from '../../src/main/outbox/queue';
import { startTenant } from '../../src/tenant/server';
import { runAttest } from '../helpers/cli';
import { appliedCounts, removableMemberships, removalsCsv, tempDir } from './outbox.helpers';

type Tenant = Awaited<ReturnType<typeof startTenant>>;
let tenant: Tenant;
let tmp: ReturnType<typeof tempDir>;

const run = runAttest;

beforeAll(async () => {
  // Twice the demo tenant: enough removable memberships for 300 removals.
  tenant = await startTenant({ port: 0, seed: 14, scale: 2 });
  tmp = tempDir('attest-outbox-bulk-');
});
afterAll(async () => {
  await tenant?.close();
  tmp?.remove();
});

describe('attest queue: bulk recovery of a faulty send', () => {
  it('after a faulty send of 300 removals, retry --state failed, a second send and resolve --state uncertain settle every item, each applied at most once', async () => {
    const store = join(tmp.dir, 'recovery.sqlite');
    const csv = join(tmp.dir, 'removals-q3.csv');
    writeFileSync(csv, removalsCsv(removableMemberships(tenant.data, 300)));
    const imported = await run(['queue', 'import', csv, '--kind', 'remove-membership', '--store', store]);
    expect(imported.code).toBe(0);
    expect(imported.stderr).toMatch(/queued 300 of 300 rows as batch 1 \(removals-q3\.csv\)/);
    const send = ['queue', 'send', '--store', store, '--client-id', tenant.clientId, '--server-url', tenant.url, '--json'];

    // The tenant has a bad day: 5xx, 429, changes applied but unanswered, cut answers, and changes refused as concurrent.
    tenant.faults.set('error5xx=0.1,rate429=0.1,dropAfterApply=0.05,truncate=0.03,aborted=0.1');
    const first = await run(send, tenant.clientSecret);
    expect(first.code).toBe(5);
    const afterFirst = (JSON.parse(first.stdout) as { counts: Record<OutboxState, number> }).counts;
    expect(afterFirst.failed).toBeGreaterThan(0);
    expect(afterFirst.succeeded + afterFirst.failed + afterFirst.uncertain).toBe(300);

    const retried = await run(['queue', 'retry', '--state', 'failed', '--store', store, '--json']);
    expect(retried.code).toBe(0);
    const retry = JSON.parse(retried.stdout) as BulkResult;
    expect(retry).toMatchObject({
      action: 'retry',
      outcome: 'queued',
      matched: afterFirst.failed,
      changed: afterFirst.failed,
      refused: [],
    });
    expect(retried.stderr).toContain(`retried ${afterFirst.failed} of ${afterFirst.failed} item(s): now queued`);

    // The second send: the tenant still fails half of its requests with 5xx.
    tenant.faults.set('error5xx=0.5');
    const second = await run(send, tenant.clientSecret);
    const afterSecond = (JSON.parse(second.stdout) as { counts: Record<OutboxState, number> }).counts;
    expect(afterSecond.failed).toBe(0);
    expect(afterSecond.queued).toBe(0);

    const note = 'checked in the tenant console: these users no longer hold the entitlement';
    const resolved = await run(['queue', 'resolve', '--state', 'uncertain', '--note', note, '--store', store, '--json']);
    expect(resolved.code).toBe(0);
    const resolve = JSON.parse(resolved.stdout) as BulkResult;
    expect(resolve).toMatchObject({ action: 'resolve', outcome: 'resolved', changed: afterSecond.uncertain, refused: [] });

    const listed = await run(['queue', 'list', '--store', store, '--json']);
    const items = JSON.parse(listed.stdout) as OutboxItem[];
    expect(items).toHaveLength(300);
    expect(items.filter((i) => i.state === 'failed' || i.state === 'uncertain')).toEqual([]);
    expect(items.every((i) => i.state === 'succeeded' || i.state === 'resolved')).toBe(true);
    for (const item of items.filter((i) => i.state === 'resolved')) expect(item.note).toBe(note);
    // Each removal reached the tenant at most once, however often it was sent.
    const applied = appliedCounts(items, tenant.journal());
    expect(Math.max(...applied.values())).toBeLessThanOrEqual(1);
    for (const item of items.filter((i) => i.state === 'succeeded')) expect(applied.get(item.id)).toBe(1);

    const batches = JSON.parse((await run(['queue', 'batches', '--store', store, '--json'])).stdout) as OutboxBatch[];
    expect(batches).toEqual([expect.objectContaining({ id: 1, name: 'removals-q3.csv', kind: 'remove-membership', rows: 300 })]);
    expect(batches[0]!.counts.succeeded + batches[0]!.counts.resolved).toBe(300);
    tenant.faults.clear();
  }, 240_000);

  it('reports the items a selection holds in a state the action does not apply to, and changes the others', async () => {
    const store = join(tmp.dir, 'refusals.sqlite');
    const rows = removableMemberships(tenant.data, 20);
    const csv = join(tmp.dir, 'more.csv');
    writeFileSync(csv, `${removalsCsv(rows)}\r\nno-app,no-entitlement,nobody\r\n`);
    expect((await run(['queue', 'import', csv, '--kind', 'remove-membership', '--store', store])).code).toBe(0);
    const sent = await run(
      ['queue', 'send', '--store', store, '--client-id', tenant.clientId, '--server-url', tenant.url],
      tenant.clientSecret,
    );
    expect(sent.code).toBe(5);

    // Retrying the whole batch by its name: the succeeded ones are refused, counted by state.
    const retried = await run(['queue', 'retry', '--batch', 'more.csv', '--store', store]);
    expect(retried.code).toBe(1);
    expect(retried.stderr).toContain('retried 1 of 21 item(s): now queued');
    expect(retried.stderr).toContain('refused 20 succeeded: only failed items can be retried');

    // By ids: an unknown one changes nothing.
    const [failed] = JSON.parse((await run(['queue', 'list', '--state', 'queued', '--store', store, '--json'])).stdout) as OutboxItem[];
    const unknown = await run(['queue', 'discard', '--ids', `${failed!.id},zzzzzzzz`, '--store', store]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no outbox item zzzzzzzz/);
    expect((await run(['queue', 'show', failed!.id, '--store', store])).stdout).toContain('"state": "queued"');

    // By the reason's text (any case), after the next send fails it again.
    await run(['queue', 'send', '--store', store, '--client-id', tenant.clientId, '--server-url', tenant.url], tenant.clientSecret);
    const discarded = await run(['queue', 'discard', '--error', 'NOT FOUND', '--kind', 'remove-membership', '--store', store, '--json']);
    expect(discarded.code).toBe(0);
    expect(JSON.parse(discarded.stdout)).toMatchObject({ changed: 1, itemIds: [failed!.id] });

    const nothing = await run(['queue', 'resolve', '--state', 'uncertain', '--store', store]);
    expect(nothing).toMatchObject({ code: 0 });
    expect(nothing.stderr).toContain('nothing to resolve: no item matches');
    const usage = await run(['queue', 'retry', '--store', store]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/retry needs an item ID, --ids ID,ID…, or a filter/);
    const noBatch = await run(['queue', 'list', '--batch', '7', '--store', store]);
    expect(noBatch.code).toBe(2);
    expect(noBatch.stderr).toMatch(/no import batch 7/);
  });
});
