/**
 * Items queued by an older version of their kind, against the reference tenant (127.0.0.1, random
 * port) and a real store file: an update-template queued by version 1 (message fields set whole,
 * the response-only `recurrenceRule.frequency` and null members merged in from the synced template)
 * is refused by the tenant as stored; opening the outbox upgrades it (leaf mask, no server-set
 * member, a journal entry), and the send applies exactly the change the user made.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/main/api/client';
import { outboxStoreOf } from '../../src/main/app/workspace';
import { requestDigest } from '../../src/main/outbox/canonical';
import { openOutbox } from '../../src/main/outbox/queue';
import { openStore, type Store } from '../../src/main/store/db';
import { syncTenant } from '../../src/main/sync/engine';
import { startTestTenant, type TestTenant } from '../helpers/tenant';
import { tempDir } from './outbox.helpers';

type Json = Record<string, unknown>;

let tenant: TestTenant;
let store: Store;
let api: ApiClient;
let tmp: ReturnType<typeof tempDir>;

beforeAll(async () => {
  tenant = await startTestTenant({ port: 0, seed: 14 });
  tmp = tempDir('attest-upgrade-it-');
  store = openStore(`${tmp.dir}/store.sqlite`);
  api = createApiClient({ clientId: tenant.clientId, clientSecret: tenant.clientSecret, serverUrl: tenant.url });
  expect((await syncTenant({ store, api })).status).toBe('completed');
});

afterAll(async () => {
  store?.close();
  await tenant?.close();
  tmp?.remove();
});

/** An update-template item as version 1 stored it: the whole rule merged over the synced one, the synced rule as `before`. */
function insertVersion1Item(template: Json, endDate: string): { id: string; body: Json } {
  const rule = template.recurrenceRule as Json;
  const input = {
    templateId: template.id,
    changes: { recurrenceRule: { ...rule, endDate } },
    updateMask: 'recurrenceRule',
    before: { recurrenceRule: rule },
  };
  const request = {
    method: 'POST' as const,
    path: `/access_review_template/${String(template.id)}`,
    body: { accessReviewTemplate: { id: template.id, ...input.changes }, updateMask: input.updateMask },
  };
  const id = randomUUID();
  const now = new Date().toISOString();
  store.db
    .prepare(
      `INSERT INTO outbox_items (id, kind, kind_version, state, input_json, request_json, request_digest, target, dedupe_key, summary, source,
         batch_id, created_at, updated_at)
       VALUES (?, 'update-template', 1, 'queued', ?, ?, ?, ?, ?, ?, 'app', NULL, ?, ?)`,
    )
    .run(
      id,
      JSON.stringify(input),
      JSON.stringify(request),
      requestDigest(request),
      `template:${String(template.id)}`,
      `${String(template.id)}\u0000recurrenceRule`,
      `update template ${String(template.id)}: recurrenceRule`,
      now,
      now,
    );
  return { id, body: request.body };
}

describe('items queued by an older version of their kind', () => {
  it('an update-template of version 1 is upgraded when the outbox opens, and its send applies only the change made', async () => {
    const rows = store.listObjects('templates', { limit: 1000 }).rows.map((r) => store.getObject('templates', r.id)!.json as Json);
    const template = rows.find((t) => (t.recurrenceRule as Json | null)?.frequency !== undefined)!;
    expect(template).toBeDefined();
    const rule = template.recurrenceRule as Json;
    const { id, body } = insertVersion1Item(template, '2031-06-30T17:00:00Z');

    // As stored, the request carries the response-only frequency: the tenant refuses it, as the service does.
    const refused = await tenant.call('POST', `/api/v1/access_review_template/${String(template.id)}`, body);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('recurrenceRule.frequency');

    const outbox = openOutbox(outboxStoreOf(store));
    const item = outbox.get(id)!;
    expect(item.kindVersion).toBe(2);
    expect(item.state).toBe('queued');
    expect(item.input.updateMask).toBe('recurrenceRule.endDate');
    expect(item.request.body).toEqual({
      accessReviewTemplate: { id: template.id, recurrenceRule: { endDate: '2031-06-30T17:00:00Z' } },
      updateMask: 'recurrenceRule.endDate',
    });
    expect(item.requestDigest).toBe(requestDigest(item.request));
    expect(item.summary).toBe(`update template ${String(template.id)}: recurrenceRule.endDate`);
    expect(outbox.journal({ itemId: id }).map((e) => e.event)).toContain('upgrade');
    // Opening again finds nothing older: no second entry.
    openOutbox(outboxStoreOf(store));
    expect(outbox.journal({ itemId: id }).filter((e) => e.event === 'upgrade')).toHaveLength(1);

    const sent = await outbox.send(api);
    expect(sent.succeeded).toBe(1);
    expect(outbox.get(id)!.state).toBe('succeeded');
    const received = tenant.journal().filter((j) => j.operation === 'updateTemplate');
    expect(received.map((j) => j.request)).toEqual([item.request.body]);
    const after = tenant.data.templates.get(String(template.id)) as unknown as { recurrenceRule: Json };
    expect(after.recurrenceRule.endDate).toMatch(/^2031-06-30T17:00:00(\.000)?Z$/);
    expect(after.recurrenceRule.frequency).toBe(rule.frequency);
    expect(after.recurrenceRule.interval).toBe(rule.interval);
  });
});
