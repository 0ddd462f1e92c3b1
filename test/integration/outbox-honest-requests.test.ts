/**
 * Requests carry exactly what the user changed or chose. Each kind's body, built from realistic
 * inputs (copies of synced objects, with the members the server sets in them), holds no member the
 * vendor's OpenAPI document flags read-only, none the spec calls response-only, and none the
 * request schema lacks; the reference tenant refuses a body that does (400, INVALID_ARGUMENT), and
 * takes these.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/main/api/client';
import { outboxStoreOf } from '../../src/main/app/workspace';
import { descriptorOf } from '../../src/main/outbox/kinds';
import { openOutbox, OutboxValidationError, type MutationKind, type Outbox, type OutboxItem } from '../../src/main/outbox/queue';
import { openStore, type Store } from '../../src/main/store/db';
import { syncTenant } from '../../src/main/sync/engine';
import { readOnlyMembersIn } from '../../src/shared/read-only-members';
import { bodyProblems } from '../helpers/openapi-members';
import { startTestTenant, type TestTenant } from '../helpers/tenant';
import { escalatableTasks, removableMemberships, resourceServers, tempDir } from './outbox.helpers';

type Json = Record<string, unknown>;

let tenant: TestTenant;
let store: Store;
let outbox: Outbox;
let api: ApiClient;
let tmp: ReturnType<typeof tempDir>;

beforeAll(async () => {
  tenant = await startTestTenant({ port: 0, seed: 14, scale: 2 });
  tmp = tempDir('attest-honest-it-');
  store = openStore(`${tmp.dir}/store.sqlite`);
  api = createApiClient({ clientId: tenant.clientId, clientSecret: tenant.clientSecret, serverUrl: tenant.url });
  outbox = openOutbox(outboxStoreOf(store));
  expect((await syncTenant({ store, api })).status).toBe('completed');
});

afterAll(async () => {
  store?.close();
  await tenant?.close();
  tmp?.remove();
});

/** The synced objects of a collection, as stored (the raw JSON the tenant answered). */
function synced(collection: 'templates' | 'campaigns'): Json[] {
  return store.listObjects(collection, { limit: 1000 }).rows.map((row) => store.getObject(collection, row.id)!.json as Json);
}

/** A template's scope, or a synced campaign's (`accessReview.scopeV2` in the stored view). */
const scopeOf = (o: Json) => (o.scope ?? o.scopeV2 ?? (o.accessReview as Json | undefined)?.scopeV2) as Json | undefined;

/** The first synced object that `keep` accepts (the dataset has each shape; a missing one fails the test). */
function first(objects: Json[], keep: (o: Json) => boolean, what: string): Json {
  const found = objects.find(keep);
  if (!found) throw new Error(`the synced tenant has no ${what}`);
  return found;
}

/** What is wrong with an item's body: read-only members (the app's list, the document) and members the schema lacks. */
function problems(item: { kind: MutationKind; request: { body: unknown } }): string[] {
  const endpoint = descriptorOf(item.kind).endpoint;
  return [
    ...readOnlyMembersIn(endpoint, item.request.body).map((p) => `${p}: read-only (app's list)`),
    ...bodyProblems(endpoint, item.request.body),
  ];
}

describe('request bodies built from synced objects', () => {
  const items: OutboxItem[] = [];

  it('update-template: a recurrence rule edited whole names only the member that changed', () => {
    const template = first(synced('templates'), (t) => !!(t.recurrenceRule as Json | null)?.frequency, 'template with a recurrence rule');
    const rule = template.recurrenceRule as Json;
    // The editor shows the synced rule (frequency, null endDate and occurrences included); the user sets endDate.
    const item = outbox.enqueue('update-template', {
      templateId: template.id,
      changes: { recurrenceRule: { ...rule, endDate: '2031-06-30T17:00:00Z' } },
    });
    expect(item.input.updateMask).toBe('recurrenceRule.endDate');
    expect(item.request.body).toEqual({
      accessReviewTemplate: { id: template.id, recurrenceRule: { endDate: '2031-06-30T17:00:00Z' } },
      updateMask: 'recurrenceRule.endDate',
    });
    expect(item.input.before).toEqual({ 'recurrenceRule.endDate': null });
    items.push(item);
  });

  it('update-template: a whole copy of the synced template, two values changed, sends those two', () => {
    const template = first(
      synced('templates'),
      (t) => !!t.createdAt && !!scopeOf(t)?.principalTypeFilter && typeof t.scopeType === 'string',
      'template with server-set members',
    );
    const copy = structuredClone(template);
    const notifications = (copy.notificationConfig ?? {}) as Json;
    copy.description = 'Reviewed quarterly by the finance team';
    copy.notificationConfig = { ...notifications, sendReminders: !notifications.sendReminders };
    const item = outbox.enqueue('update-template', { templateId: template.id, changes: copy });
    expect(item.input.updateMask).toBe('description,notificationConfig.sendReminders');
    expect(item.request.body).toEqual({
      accessReviewTemplate: {
        id: template.id,
        description: 'Reviewed quarterly by the finance team',
        notificationConfig: { sendReminders: !notifications.sendReminders },
      },
      updateMask: 'description,notificationConfig.sendReminders',
    });
    items.push(item);
  });

  it('update-template: a scope copied and changed is sent whole, without the members the server sets', () => {
    const template = first(
      synced('templates'),
      (t) => !!(scopeOf(t)?.grantsByCriteria as Json | undefined)?.typeFilter && !items.some((i) => i.input.templateId === t.id),
      'template scoped by grant criteria',
    );
    const scope = structuredClone(scopeOf(template)!);
    (scope.grantsByCriteria as Json).daysSinceAdded = '2592000s';
    const item = outbox.enqueue('update-template', { templateId: template.id, changes: { scope } });
    expect(item.input.updateMask).toBe('scope');
    const sent = (item.request.body.accessReviewTemplate as Json).scope as Json;
    expect(sent.principalTypeFilter).toBeUndefined();
    expect(sent.grantsByCriteria).toMatchObject({ daysSinceAdded: '2592000s' });
    expect(Object.keys(sent.grantsByCriteria as Json).sort()).toEqual(
      Object.keys(scope.grantsByCriteria as Json)
        .filter((k) => !['typeFilter', 'sourceFilter'].includes(k))
        .sort(),
    );
    expect((sent.grantsByCriteria as Json).accessProfileFilter).not.toHaveProperty('filterType');
    items.push(item);
  });

  it('update-template: a member the server sets, given another value, is refused naming it', () => {
    const template = first(synced('templates'), (t) => !!(t.recurrenceRule as Json | null)?.frequency, 'template with a recurrence rule');
    const other = (template.recurrenceRule as Json).frequency === 'FREQUENCY_DAILY' ? 'FREQUENCY_WEEKLY' : 'FREQUENCY_DAILY';
    const change = { templateId: template.id, changes: { recurrenceRule: { frequency: other, interval: 2 } } };
    expect(() => outbox.enqueue('update-template', change)).toThrow(OutboxValidationError);
    expect(() => outbox.enqueue('update-template', change)).toThrow(/recurrenceRule\.frequency is set by the server/);
  });

  it('create-campaign: a scope copied from a synced campaign is queued without typeFilter and the other server-set members', () => {
    const campaign = first(
      synced('campaigns'),
      (c) => !!(scopeOf(c)?.grantsByCriteria as Json | undefined)?.typeFilter,
      'campaign scoped by grant criteria',
    );
    const scopeV2 = structuredClone(scopeOf(campaign)!);
    const item = outbox.enqueue('create-campaign', {
      displayName: 'Q3 finance access review',
      description: 'Scope copied from an earlier campaign',
      ownerIds: [tenant.data.identityUserIds[0]!],
      completionDate: '2031-03-31T17:00:00Z',
      notificationConfig: { sendKickoff: true, sendReminders: true },
      scopeV2,
    });
    const sent = item.request.body.scopeV2 as Json;
    expect(sent).not.toHaveProperty('principalTypeFilter');
    expect(sent.grantsByCriteria).not.toHaveProperty('typeFilter');
    expect(sent.grantsByCriteria).not.toHaveProperty('sourceFilter');
    expect(sent.selectedUsers).toEqual(scopeV2.selectedUsers);
    items.push(item);
  });

  it('create-scope, remove-membership and escalate-task send their chosen members', () => {
    const [server] = resourceServers(tenant.data, 1);
    items.push(
      outbox.enqueue('create-scope', {
        ...server!,
        scopeValue: 'ledger:export',
        displayName: 'Export the ledger',
        description: 'Read and export ledger entries',
        classification: 'XAA_SCOPE_CLASSIFICATION_READ',
        state: 'XAA_SCOPE_STATE_ENABLED',
      }),
    );
    items.push(outbox.enqueue('remove-membership', removableMemberships(tenant.data, 1)[0]!));
    const [task] = escalatableTasks(tenant.data, 1);
    items.push(outbox.enqueue('escalate-task', { ...task!, comment: 'Production incident INC-4411' }));
  });

  it('every body: no read-only member, no member the request schema lacks; the tenant takes each', async () => {
    expect(new Set(items.map((i) => i.kind))).toEqual(
      new Set(['update-template', 'create-campaign', 'create-scope', 'remove-membership', 'escalate-task']),
    );
    for (const item of items) expect(problems(item), `${item.kind}: ${item.summary}`).toEqual([]);
    const summary = await outbox.send(api);
    expect(summary).toMatchObject({ succeeded: items.length, failed: 0, uncertain: 0 });
    // What arrived is what was queued: the tenant's journal holds each body as received.
    const received = tenant.journal().slice(-items.length);
    for (const entry of received) {
      const item = items.find((i) => i.request.path === entry.path.replace(/^\/api\/v1/, ''))!;
      expect(entry.request).toEqual(item.request.body);
    }
  });

  it('the update reconciles against the template the tenant now serves (server-set members aside)', async () => {
    const [update] = items;
    const verdict = await descriptorOf('update-template').reconcile({ api, item: outbox.get(update!.id)!, input: update!.input });
    expect(verdict.outcome).toBe('applied');
  });
});

describe('the reference tenant refuses read-only members, as the service does', () => {
  const refusal = (body: unknown) => ({
    status: 400,
    body: expect.objectContaining({ code: 3, details: [expect.objectContaining(body)] }),
  });

  it('a template update carrying recurrenceRule.frequency or createdAt', async () => {
    const template = synced('templates')[0]!;
    const before = JSON.stringify(tenant.data.templates.get(template.id as string));
    const res = await tenant.call('POST', `/api/v1/access_review_template/${template.id as string}`, {
      accessReviewTemplate: { recurrenceRule: { endDate: '2031-01-01T00:00:00Z', frequency: 'FREQUENCY_MONTHLY' }, createdAt: null },
      updateMask: 'recurrenceRule.endDate',
    });
    expect(res).toMatchObject(
      refusal({
        fieldViolations: [
          { field: 'accessReviewTemplate.createdAt', description: expect.stringMatching(/output only/) },
          { field: 'accessReviewTemplate.recurrenceRule.frequency', description: expect.stringMatching(/output only/) },
        ],
      }),
    );
    expect((res.body as { message: string }).message).toMatch(/accessReviewTemplate\.recurrenceRule\.frequency/);
    expect(JSON.stringify(tenant.data.templates.get(template.id as string))).toBe(before);
  });

  it('a new campaign carrying scopeV2.grantsByCriteria.typeFilter', async () => {
    const count = tenant.data.campaigns.size;
    const res = await tenant.call('POST', '/api/v1/access_review', {
      displayName: 'Refused',
      ownerIds: [tenant.data.identityUserIds[0]],
      scopeV2: { allUsers: {}, grantsByCriteria: { daysSinceAdded: '86400s', typeFilter: 'GRANT_FILTER_TYPE_PERMANENT' } },
    });
    expect(res).toMatchObject(
      refusal({ fieldViolations: [{ field: 'scopeV2.grantsByCriteria.typeFilter', description: expect.any(String) }] }),
    );
    expect(tenant.data.campaigns.size).toBe(count);
  });
});
