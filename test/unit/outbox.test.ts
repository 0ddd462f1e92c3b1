import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OutboxStateError, OutboxValidationError, type MutationKind, type SendProgress } from '../../src/main/outbox/queue';
import { KINDS } from '../../src/main/outbox/kinds';
import { FakeApi, openTestOutbox, type TestOutbox } from './outbox.fake';

let t: TestOutbox;
let api: FakeApi;
beforeEach(() => {
  t = openTestOutbox();
  api = new FakeApi();
});
afterEach(() => t.close());

const removal = (user: string, ent = 'ent-1', app = 'app-1') => ({ appId: app, appEntitlementId: ent, appUserId: user });
const scope = (value: string) => ({
  appId: 'app-1',
  xaaResourceServerId: 'rs-1',
  scopeValue: value,
  displayName: value,
  classification: 'XAA_SCOPE_CLASSIFICATION_READ',
});

function refused(fn: () => unknown): OutboxValidationError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(OutboxValidationError);
    return error as OutboxValidationError;
  }
  throw new Error('expected a validation error');
}

describe('kinds', () => {
  it('has one descriptor per kind, keyed by its kind', () => {
    for (const [key, d] of Object.entries(KINDS)) expect(d.kind).toBe(key);
    expect(Object.keys(KINDS).sort()).toEqual(['create-campaign', 'create-scope', 'escalate-task', 'remove-membership', 'update-template']);
  });
});

describe('enqueue: local validation', () => {
  it('refuses a bad scopeValue naming the field, and queues nothing', () => {
    const e = refused(() => t.outbox.enqueue('create-scope', scope('a'.repeat(257))));
    expect(e.field).toBe('scopeValue');
    expect(e.message).toMatch(/257 bytes/);
    expect(refused(() => t.outbox.enqueue('create-scope', scope('read write'))).message).toMatch(/space/);
    expect(refused(() => t.outbox.enqueue('create-scope', scope('ré'))).field).toBe('scopeValue');
    expect(t.outbox.list()).toHaveLength(0);
    expect(t.outbox.journal()).toHaveLength(0);
    expect(t.outbox.overlays('scopes')).toHaveLength(0);
  });

  it('accepts 256 bytes, refuses 257', () => {
    expect(t.outbox.enqueue('create-scope', scope('s'.repeat(256))).state).toBe('queued');
  });

  it('refuses unknown enum values the user typed, saying so', () => {
    const e = refused(() => t.outbox.enqueue('create-scope', { ...scope('x'), classification: 'XAA_SCOPE_CLASSIFICATION_SPICY' }));
    expect(e.field).toBe('classification');
    expect(e.message).toMatch(/not a known value/);
    expect(refused(() => t.outbox.enqueue('create-scope', { ...scope('x'), state: 'ENABLED' })).field).toBe('state');
  });

  it('requires ids', () => {
    expect(refused(() => t.outbox.enqueue('remove-membership', { appId: 'a', appEntitlementId: 'e' })).field).toBe('appUserId');
    expect(refused(() => t.outbox.enqueue('remove-membership', { appId: ' ', appEntitlementId: 'e', appUserId: 'u' })).field).toBe('appId');
    expect(refused(() => t.outbox.enqueue('remove-membership', { appId: 'a/b', appEntitlementId: 'e', appUserId: 'u' })).message).toMatch(
      /not a valid id/,
    );
    expect(refused(() => t.outbox.enqueue('escalate-task', { policyStepId: 'p1' })).field).toBe('taskId');
    expect(refused(() => t.outbox.enqueue('escalate-task', { taskId: 't1', policyStepId: 'p 1' })).field).toBe('policyStepId');
    expect(refused(() => t.outbox.enqueue('nope' as MutationKind, {})).field).toBe('kind');
  });

  it('create-campaign needs a name and non-empty ownerIds; checks dates; supports duplicateFrom', () => {
    expect(refused(() => t.outbox.enqueue('create-campaign', { displayName: 'Q3', ownerIds: [] })).field).toBe('ownerIds');
    expect(refused(() => t.outbox.enqueue('create-campaign', { displayName: 'Q3' })).field).toBe('ownerIds');
    expect(refused(() => t.outbox.enqueue('create-campaign', { displayName: 'Q3', ownerIds: [''] })).field).toBe('ownerIds[0]');
    expect(refused(() => t.outbox.enqueue('create-campaign', { ownerIds: ['u1'] })).field).toBe('displayName');
    expect(
      refused(() => t.outbox.enqueue('create-campaign', { displayName: 'Q3', ownerIds: ['u1'], completionDate: '2025-02-30T00:00:00Z' }))
        .field,
    ).toBe('completionDate');
    expect(
      refused(() => t.outbox.enqueue('create-campaign', { displayName: 'Q3', ownerIds: ['u1'], completionDate: 'tomorrow' })).field,
    ).toBe('completionDate');
    expect(refused(() => t.outbox.enqueue('create-campaign', { displayName: 'Q3', ownerIds: ['u1'], colour: 'red' })).field).toBe('colour');
    const item = t.outbox.enqueue('create-campaign', {
      displayName: 'Q3',
      ownerIds: ['u1'],
      duplicateFrom: 'ar-9',
      completionDate: '2025-09-30T17:00:00Z',
    });
    expect(item.request).toEqual({
      method: 'POST',
      path: '/access_review',
      body: { displayName: 'Q3', ownerIds: ['u1'], duplicateFrom: 'ar-9', completionDate: '2025-09-30T17:00:00Z' },
    });
  });

  it('refuses the same change twice while the first is active', () => {
    t.outbox.enqueue('remove-membership', removal('u1'));
    expect(refused(() => t.outbox.enqueue('remove-membership', removal('u1'))).message).toMatch(/already in the outbox/);
  });
});

describe('update-template: the mask comes from what really changed', () => {
  beforeEach(() => {
    t.synced.set('templates/tp-1', {
      id: 'tp-1',
      displayName: 'Quarterly',
      description: 'old',
      autoCloseCampaign: false,
      notificationConfig: { sendKickoff: true },
      columnConfig: { columns: ['ACCESS_REVIEW_TASK_COLUMN_FROM_THE_FUTURE'] },
      createdAt: '2024-01-01T00:00:00Z',
    });
  });

  it('derives updateMask from the fields that differ from the synced template', () => {
    const item = t.outbox.enqueue('update-template', {
      templateId: 'tp-1',
      changes: {
        displayName: 'Quarterly',
        description: 'new',
        notificationConfig: { sendReminders: true },
        createdAt: '2024-01-01T00:00:00Z',
      },
    });
    // A message field is named down to the member that changes, and only that member is sent.
    expect(item.input.updateMask).toBe('description,notificationConfig.sendReminders');
    expect(item.request.body).toEqual({
      accessReviewTemplate: { id: 'tp-1', description: 'new', notificationConfig: { sendReminders: true } },
      updateMask: 'description,notificationConfig.sendReminders',
    });
    expect(t.outbox.overlays('templates', ['tp-1'])[0]?.effect).toBe('pending-update');
  });

  it('refuses unknown paths, server-set fields, and no change at all', () => {
    expect(refused(() => t.outbox.enqueue('update-template', { templateId: 'tp-1', changes: { colour: 'red' } })).field).toBe('colour');
    expect(
      refused(() => t.outbox.enqueue('update-template', { templateId: 'tp-1', changes: { notificationConfig: { sendSms: true } } })).field,
    ).toBe('notificationConfig.sendSms');
    expect(
      refused(() => t.outbox.enqueue('update-template', { templateId: 'tp-1', changes: { createdAt: '2020-01-01T00:00:00Z' } })).message,
    ).toMatch(/set by the server/);
    const same = refused(() =>
      t.outbox.enqueue('update-template', { templateId: 'tp-1', changes: { displayName: 'Quarterly', autoCloseCampaign: false } }),
    );
    expect(same.message).toMatch(/nothing to update/);
    expect(refused(() => t.outbox.enqueue('update-template', { templateId: 'tp-404', changes: { displayName: 'x' } })).message).toMatch(
      /not in the local store/,
    );
  });

  it('checks enum values typed by the user, but keeps unknown ones already stored', () => {
    const e = refused(() =>
      t.outbox.enqueue('update-template', {
        templateId: 'tp-1',
        changes: { columnConfig: { columns: ['ACCESS_REVIEW_TASK_COLUMN_MADE_UP'] } },
      }),
    );
    expect(e.field).toBe('columnConfig.columns[0]');
    expect(e.message).toMatch(/not a known value/);
    const item = t.outbox.enqueue('update-template', {
      templateId: 'tp-1',
      changes: { columnConfig: { columns: ['ACCESS_REVIEW_TASK_COLUMN_FROM_THE_FUTURE', 'ACCESS_REVIEW_TASK_COLUMN_ACCOUNT'] } },
    });
    expect(item.input.updateMask).toBe('columnConfig.columns');
  });

  it('takes columnConfig.orderedColumns as a list of column references, as the vendor schema has it', () => {
    const ordered = [{ builtin: 'ACCESS_REVIEW_TASK_COLUMN_ACCOUNT' }, { appUserAttributeKey: 'department' }];
    const item = t.outbox.enqueue('update-template', { templateId: 'tp-1', changes: { columnConfig: { orderedColumns: ordered } } });
    expect(item.input.updateMask).toBe('columnConfig.orderedColumns');
    expect(item.request.body).toEqual({
      accessReviewTemplate: { id: 'tp-1', columnConfig: { orderedColumns: ordered } },
      updateMask: 'columnConfig.orderedColumns',
    });
    const change = (orderedColumns: unknown) => () =>
      t.outbox.enqueue('update-template', { templateId: 'tp-1', changes: { columnConfig: { orderedColumns } } });
    const object = refused(change({ x: 1 }));
    expect(object.field).toBe('columnConfig.orderedColumns');
    expect(object.message).toMatch(/^columnConfig.orderedColumns must be a list of columns such as \[\{ "builtin": /);
    expect(refused(change(['ACCESS_REVIEW_TASK_COLUMN_ACCOUNT'])).message).toBe('columnConfig.orderedColumns[0] must be an object');
    expect(refused(change([{ builtin: 'ACCESS_REVIEW_TASK_COLUMN_MADE_UP' }])).field).toBe('columnConfig.orderedColumns[0].builtin');
    expect(refused(change([{ builtin: 'ACCESS_REVIEW_TASK_COLUMN_ACCOUNT', appUserAttributeKey: 'x' }])).message).toBe(
      'columnConfig.orderedColumns[0] must set exactly one of builtin or appUserAttributeKey',
    );
    expect(refused(change([{ label: 'x' }])).field).toBe('columnConfig.orderedColumns[0].label');
  });
});

describe('queue operations', () => {
  it('writes the item, its overlay and a journal entry together', () => {
    const item = t.outbox.enqueue('remove-membership', removal('u1'));
    expect(item.state).toBe('queued');
    expect(item.requestDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(t.outbox.overlays('memberships')).toEqual([
      expect.objectContaining({ itemId: item.id, objectId: 'ent-1:u1', effect: 'pending-removal', state: 'queued' }),
    ]);
    expect(t.outbox.journal({ itemId: item.id }).map((j) => j.event)).toEqual(['queued']);
    expect(t.outbox.pendingCount()).toBe(1);
  });

  it('edits and discards queued items; refuses edits of others', async () => {
    const item = t.outbox.enqueue('create-scope', scope('read:a'));
    const edited = t.outbox.edit(item.id, scope('read:b'));
    expect(edited.input.scopeValue).toBe('read:b');
    expect(edited.seq).toBe(item.seq);
    expect(t.outbox.overlays('scopes')[0]?.data.scopeValue).toBe('read:b');
    expect(() => t.outbox.edit(item.id, scope('bad value'))).toThrow(OutboxValidationError);
    expect(t.outbox.get(item.id)?.input.scopeValue).toBe('read:b');
    await t.outbox.send(api);
    expect(() => t.outbox.edit(item.id, scope('read:c'))).toThrow(OutboxStateError);
    expect(() => t.outbox.discard(item.id)).toThrow(/only queued, failed or uncertain/);
    const other = t.outbox.enqueue('create-scope', scope('read:d'));
    t.outbox.discard(other.id);
    expect(t.outbox.get(other.id)?.state).toBe('discarded');
    expect(t.outbox.overlays('scopes')).toHaveLength(0);
    expect(() => t.outbox.retry(other.id)).toThrow(OutboxStateError);
  });

  it('resolves ids by unique prefix', () => {
    const item = t.outbox.enqueue('remove-membership', removal('u1'));
    expect(t.outbox.resolveId(item.id.slice(0, 8))).toBe(item.id);
    expect(() => t.outbox.resolveId('zzzzzzzz')).toThrow(/no outbox item/);
  });
});

describe('send', () => {
  it('sends, records results, drops overlays, journals every attempt', async () => {
    api.memberships.add('app-1/ent-1/u1');
    api.tasks.set('t1', { emergencyAccess: false });
    const a = t.outbox.enqueue('remove-membership', removal('u1'));
    const b = t.outbox.enqueue('create-scope', scope('read:x'));
    const c = t.outbox.enqueue('escalate-task', { taskId: 't1', policyStepId: 'ps1', comment: 'urgent' });
    const d = t.outbox.enqueue('create-campaign', { displayName: 'Q3', ownerIds: ['u9'] });
    const events: SendProgress[] = [];
    const summary = await t.outbox.send(api, { onProgress: (e) => events.push(e) });
    expect(summary).toMatchObject({
      total: 4,
      succeeded: 4,
      failed: 0,
      uncertain: 0,
      notSent: 0,
      paused: null,
      touched: ['campaigns', 'memberships', 'scopes', 'tasks'],
    });
    expect(t.outbox.get(a.id)?.result).toEqual({ revokeTaskId: expect.stringMatching(/^rt-/) });
    // The removed membership is gone from the store; the escalated task was read back as it is now.
    expect(t.gone.has('memberships/ent-1:u1')).toBe(true);
    expect(t.synced.get('tasks/t1')).toEqual({ task: { id: 't1', emergencyAccess: true } });
    expect(api.calls.filter((call) => call.method === 'GET' && call.path === '/tasks/t1')).toHaveLength(1);
    expect(t.outbox.get(b.id)?.result).toMatchObject({
      scopeId: expect.stringMatching(/^sc-/),
      appEntitlementId: expect.stringMatching(/^ent-/),
    });
    expect(t.outbox.get(c.id)?.result).toMatchObject({ emergencyAccess: true });
    expect(t.outbox.get(d.id)?.result).toMatchObject({ campaignId: expect.stringMatching(/^ar-/) });
    expect(t.outbox.overlays('scopes')).toHaveLength(0);
    expect(t.synced.has(`scopes/${String(t.outbox.get(b.id)?.result?.scopeId)}`)).toBe(true);
    const sends = t.outbox.journal().filter((j) => j.event === 'send');
    expect(sends).toHaveLength(4);
    expect(sends.every((j) => j.httpStatus === 200 && j.outcome === 'succeeded' && j.requestDigest)).toBe(true);
    expect(events[0]?.phase).toBe('started');
    expect(events.at(-1)).toMatchObject({ phase: 'finished', done: 4, total: 4 });
    expect(events.filter((e) => e.phase === 'item')).toHaveLength(4);
    expect(t.outbox.pendingCount()).toBe(0);
  });

  it('marks refusals failed with the server message; retry sends again', async () => {
    const item = t.outbox.enqueue('remove-membership', removal('ghost'));
    const summary = await t.outbox.send(api);
    expect(summary.failed).toBe(1);
    const failed = t.outbox.get(item.id)!;
    expect(failed.state).toBe('failed');
    expect(failed.lastError).toMatch(/membership of ghost not found/);
    expect(failed.lastStatus).toBe(404);
    expect(t.outbox.overlays('memberships')[0]?.state).toBe('failed');
    api.memberships.add('app-1/ent-1/ghost');
    t.outbox.retry(item.id);
    await t.outbox.send(api);
    expect(t.outbox.get(item.id)?.state).toBe('succeeded');
    expect(t.outbox.journal({ itemId: item.id }).map((j) => `${j.event}:${j.outcome}`)).toEqual([
      'queued:queued',
      'send:failed',
      'retry:queued',
      'send:succeeded',
    ]);
  });

  it('keeps per-object order and bounds concurrency', async () => {
    api.delayMs = 5;
    t.synced.set('templates/tp-1', { id: 'tp-1', displayName: 'A' });
    api.templates.set('tp-1', { id: 'tp-1', displayName: 'A' });
    for (let i = 0; i < 30; i += 1) {
      api.memberships.add(`app-1/ent-1/u${i}`);
      t.outbox.enqueue('remove-membership', removal(`u${i}`));
    }
    t.outbox.enqueue('update-template', { templateId: 'tp-1', changes: { displayName: 'B' } });
    t.synced.set('templates/tp-1', { id: 'tp-1', displayName: 'B' });
    t.outbox.enqueue('update-template', { templateId: 'tp-1', changes: { displayName: 'C' } });
    t.synced.set('templates/tp-1', { id: 'tp-1', displayName: 'C' });
    t.outbox.enqueue('update-template', { templateId: 'tp-1', changes: { displayName: 'D' } });
    const summary = await t.outbox.send(api, { concurrency: 4 });
    expect(summary.succeeded).toBe(33);
    expect(api.maxInFlight).toBeLessThanOrEqual(4);
    expect(api.maxInFlight).toBeGreaterThan(1);
    const templateCalls = api.applied
      .filter((c) => c.path.startsWith('/access_review_template'))
      .map((c) => (c.body as { accessReviewTemplate: { displayName: string } }).accessReviewTemplate.displayName);
    expect(templateCalls).toEqual(['B', 'C', 'D']);
    expect(api.templates.get('tp-1')?.displayName).toBe('D');
  });

  it('an uncertain item holds back later items on the same object', async () => {
    t.synced.set('templates/tp-1', { id: 'tp-1', displayName: 'A' });
    api.templates.set('tp-1', { id: 'tp-1', displayName: 'A' });
    const first = t.outbox.enqueue('update-template', { templateId: 'tp-1', changes: { displayName: 'B' } });
    t.synced.set('templates/tp-1', { id: 'tp-1', displayName: 'B' });
    const second = t.outbox.enqueue('update-template', { templateId: 'tp-1', changes: { displayName: 'C' } });
    api.fault = (_c, i) => (i === 0 ? 'drop-after-apply' : null);
    const summary = await t.outbox.send(api);
    expect(summary).toMatchObject({ uncertain: 1, succeeded: 0, notSent: 1, blocked: [second.id] });
    expect(t.outbox.get(second.id)?.state).toBe('queued');
    // Reconcile reads the template: the first update is there.
    const rec = await t.outbox.reconcile(api);
    expect(rec).toMatchObject({ examined: 1, applied: 1 });
    expect(t.outbox.get(first.id)?.state).toBe('succeeded');
    await t.outbox.send(api);
    expect(t.outbox.get(second.id)?.state).toBe('succeeded');
    expect(api.applied.map((a) => (a.body as { accessReviewTemplate: { displayName: string } }).accessReviewTemplate.displayName)).toEqual([
      'B',
      'C',
    ]);
  });

  it('pauses on an auth failure with a clear message; nothing is lost', async () => {
    for (let i = 0; i < 10; i += 1) {
      api.memberships.add(`app-1/ent-1/u${i}`);
      t.outbox.enqueue('remove-membership', removal(`u${i}`));
    }
    api.fault = (_c, i) => (i >= 3 ? 'auth' : null);
    const summary = await t.outbox.send(api, { concurrency: 1 });
    expect(summary.paused).toMatchObject({ reason: 'auth', message: expect.stringMatching(/refused the credentials.*paused/) });
    expect(summary.succeeded).toBe(3);
    expect(t.outbox.counts()).toMatchObject({ succeeded: 3, queued: 7, sending: 0 });
    api.fault = () => null;
    const again = await t.outbox.send(api, { concurrency: 3 });
    expect(again.succeeded).toBe(7);
    expect(api.applied).toHaveLength(10);
  });

  it('network loss pauses; with resumeOnNetwork it resumes by itself', async () => {
    for (let i = 0; i < 6; i += 1) {
      api.memberships.add(`app-1/ent-1/u${i}`);
      t.outbox.enqueue('remove-membership', removal(`u${i}`));
    }
    let offline = true;
    api.fault = (_c, i) => (i >= 2 && offline ? 'network' : null);
    const paused = await t.outbox.send(api, { concurrency: 1 });
    expect(paused.paused?.reason).toBe('network');
    expect(t.outbox.counts()).toMatchObject({ succeeded: 2, queued: 4 });
    setTimeout(() => (offline = false), 60);
    const events: SendProgress[] = [];
    const resumed = await t.outbox.send(api, {
      concurrency: 2,
      resumeOnNetwork: { probeEveryMs: 10, maxWaitMs: 5000 },
      onProgress: (e) => events.push(e),
    });
    expect(resumed).toMatchObject({ succeeded: 4, paused: null });
    expect(events.some((e) => e.phase === 'paused')).toBe(true);
    expect(api.applied).toHaveLength(6);
  });

  it('cancel stops new requests; in-flight ones finish and are recorded', async () => {
    api.delayMs = 10;
    for (let i = 0; i < 50; i += 1) {
      api.memberships.add(`app-1/ent-1/u${i}`);
      t.outbox.enqueue('remove-membership', removal(`u${i}`));
    }
    const controller = new AbortController();
    const summary = await t.outbox.send(api, {
      concurrency: 2,
      signal: controller.signal,
      onProgress: (e) => {
        if (e.done >= 5) controller.abort();
      },
    });
    expect(summary.cancelled).toBe(true);
    expect(summary.succeeded).toBeGreaterThanOrEqual(5);
    expect(summary.succeeded).toBeLessThan(50);
    const counts = t.outbox.counts();
    expect(counts.sending).toBe(0);
    expect(counts.succeeded + counts.queued).toBe(50);
    expect(api.applied).toHaveLength(counts.succeeded);
  });

  it('a 429 that outlasts the client is tried again later in the run', async () => {
    api.memberships.add('app-1/ent-1/u1');
    t.outbox.enqueue('remove-membership', removal('u1'));
    api.fault = (_c, i) => (i < 2 ? 'rate-limited' : null);
    const summary = await t.outbox.send(api);
    expect(summary.succeeded).toBe(1);
    expect(
      t.outbox
        .journal()
        .filter((j) => j.event === 'send')
        .map((j) => j.outcome),
    ).toEqual(['not-sent', 'not-sent', 'succeeded']);
  });
});

describe('crash recovery and reconciliation', () => {
  it('sending at a crash is uncertain at the next start', () => {
    const item = t.outbox.enqueue('create-scope', scope('read:x'));
    t.db.prepare(`UPDATE outbox_items SET state = 'sending', attempts = 1 WHERE id = ?`).run(item.id);
    expect(t.outbox.recoverAfterCrash()).toBe(1);
    expect(t.outbox.get(item.id)?.state).toBe('uncertain');
    expect(t.outbox.journal({ itemId: item.id }).at(-1)).toMatchObject({ event: 'interrupted', outcome: 'uncertain' });
    expect(t.outbox.recoverAfterCrash()).toBe(0);
  });

  it('reconciles every kind by reading the server; nothing is applied twice', async () => {
    t.synced.set('templates/tp-1', { id: 'tp-1', displayName: 'A' });
    api.templates.set('tp-1', { id: 'tp-1', displayName: 'A' });
    api.tasks.set('t1', { emergencyAccess: false });
    api.tasks.set('t2', { emergencyAccess: false });
    for (const u of ['u1', 'u2', 'u3']) api.memberships.add(`app-1/ent-1/${u}`);
    const items = [
      t.outbox.enqueue('remove-membership', removal('u1')), // dropped after apply
      t.outbox.enqueue('remove-membership', removal('u2')), // 503 before apply
      t.outbox.enqueue('create-scope', scope('read:applied')), // dropped after apply
      t.outbox.enqueue('create-scope', scope('read:notapplied')), // 503 before apply
      t.outbox.enqueue('escalate-task', { taskId: 't1', policyStepId: 'p' }), // dropped after apply
      t.outbox.enqueue('escalate-task', { taskId: 't2', policyStepId: 'p' }), // 503
      t.outbox.enqueue('update-template', { templateId: 'tp-1', changes: { displayName: 'B' } }), // dropped after apply
      t.outbox.enqueue('create-campaign', { displayName: 'Q3', ownerIds: ['u9'] }), // dropped after apply
      t.outbox.enqueue('create-campaign', { displayName: 'Q4', ownerIds: ['u9'] }), // 504 before apply
    ];
    const plan = [
      'drop-after-apply',
      'server-before',
      'drop-after-apply',
      'server-before',
      'drop-after-apply',
      'server-before',
      'drop-after-apply',
      'drop-after-apply',
      'gateway-before',
    ] as const;
    const byPath = new Map(items.map((it, i) => [`${it.request.method} ${it.request.path} ${JSON.stringify(it.request.body)}`, plan[i]!]));
    const seen = new Set<string>();
    api.fault = (c) => {
      const key = `${c.method} ${c.path} ${JSON.stringify(c.body)}`;
      if (!c.mutation || seen.has(key)) return null;
      seen.add(key);
      return byPath.get(key) ?? null;
    };
    const summary = await t.outbox.send(api, { concurrency: 3 });
    expect(summary.uncertain).toBe(9);
    const rec = await t.outbox.reconcile(api);
    expect(rec).toMatchObject({ examined: 9, unknown: 0 });
    // Every kind by a read: removals by the entitlement's members (u1 is gone, u2 is still a member).
    expect(rec.applied).toBe(1 + 1 + 1 + 1 + 1);
    expect(rec.requeued).toBe(4);
    const again = await t.outbox.send(api);
    expect(again.succeeded).toBe(4);
    expect(t.outbox.counts()).toMatchObject({ succeeded: 9, uncertain: 0, queued: 0 });
    const appliedKeys = api.applied.map((a) => `${a.method} ${a.path} ${JSON.stringify(a.body)}`);
    expect(new Set(appliedKeys).size).toBe(appliedKeys.length);
    expect(appliedKeys).toHaveLength(9);
    expect(t.outbox.get(items[2]!.id)?.result).toMatchObject({ scopeId: expect.stringMatching(/^sc-/) });
    expect(t.outbox.get(items[7]!.id)?.result).toMatchObject({ campaignId: expect.stringMatching(/^ar-/) });
    expect(t.outbox.journal().filter((j) => j.event === 'reconcile')).toHaveLength(9);
  });

  it('leaves ambiguous items uncertain for the user: retry, discard or resolve', async () => {
    api.campaigns.push(
      { id: 'ar-a', displayName: 'Dup', createdAt: new Date().toISOString() },
      { id: 'ar-b', displayName: 'Dup', createdAt: new Date().toISOString() },
    );
    const item = t.outbox.enqueue('create-campaign', { displayName: 'Dup', ownerIds: ['u1'] });
    api.fault = (c) => (c.mutation ? 'gateway-before' : null);
    await t.outbox.send(api);
    const rec = await t.outbox.reconcile(api);
    expect(rec.unknown).toBe(1);
    expect(t.outbox.get(item.id)?.state).toBe('uncertain');
    t.outbox.resolve(item.id, 'it is ar-a');
    expect(t.outbox.get(item.id)).toMatchObject({ state: 'resolved', note: 'it is ar-a' });
    expect(t.outbox.overlays('campaigns')).toHaveLength(0);
  });
});

describe('overlays for views and search', () => {
  it('marks synced rows with their pending change, lists pending creations, and searches them', async () => {
    const { withPending, pendingCreations, searchPendingCreations, overlayLabel } = await import('../../src/main/outbox/overlay');
    t.synced.set('templates/tp-1', { id: 'tp-1', displayName: 'A' });
    const update = t.outbox.enqueue('update-template', { templateId: 'tp-1', changes: { displayName: 'B' } });
    t.outbox.enqueue('create-scope', scope('files:read'));
    const rows = withPending<{ id: string; pending?: unknown }>(t.outbox, 'templates', [{ id: 'tp-1' }, { id: 'tp-2' }]);
    expect(rows[0]?.pending).toEqual([
      expect.objectContaining({
        itemId: update.id,
        effect: 'pending-update',
        data: expect.objectContaining({ updateMask: 'displayName' }),
      }),
    ]);
    expect(rows[1]?.pending).toBeUndefined();
    expect(pendingCreations(t.outbox, 'scopes').map((o) => o.data.scopeValue)).toEqual(['files:read']);
    expect(searchPendingCreations(t.outbox, 'scopes', 'FILES')).toHaveLength(1);
    expect(searchPendingCreations(t.outbox, 'scopes', 'mail')).toHaveLength(0);
    expect(overlayLabel({ effect: 'pending-removal', state: 'queued' })).toBe('pending removal');
    expect(overlayLabel({ effect: 'pending-creation', state: 'uncertain' })).toBe('pending creation (uncertain)');
  });
});

describe('details that keep reconciliation honest', () => {
  it('compares values as the server writes them back: zero values dropped, instants normalized', async () => {
    const { sameValue } = await import('../../src/main/outbox/canonical');
    expect(sameValue({ sendClose: false, sendKickoff: true }, { sendKickoff: true })).toBe(true);
    expect(sameValue({ startDate: '2025-01-01T00:00:00Z' }, { startDate: '2025-01-01T00:00:00.000Z' })).toBe(true);
    expect(sameValue({ startDate: '2025-01-01T00:00:00Z' }, { startDate: '2025-01-02T00:00:00Z' })).toBe(false);
    expect(sameValue([], undefined)).toBe(true);
  });

  it('a scope selector is replaced whole, not merged into the synced one', () => {
    t.synced.set('templates/tp-1', {
      id: 'tp-1',
      scope: { selectedUsers: { userIds: ['u1'] } },
      notificationConfig: { sendKickoff: true },
    });
    const item = t.outbox.enqueue('update-template', { templateId: 'tp-1', changes: { scope: { allUsers: {} } } });
    expect(item.request.body).toEqual({ accessReviewTemplate: { id: 'tp-1', scope: { allUsers: {} } }, updateMask: 'scope' });
  });

  it('a scope that existed before the first attempt is not claimed as created: the user decides', async () => {
    api.scopes.push({
      id: 'sc-old',
      appId: 'app-1',
      xaaResourceServerId: 'rs-1',
      scopeValue: 'read:old',
      createdAt: '2020-01-01T00:00:00Z',
    });
    const item = t.outbox.enqueue('create-scope', scope('read:old'));
    api.fault = (c) => (c.mutation ? 'gateway-before' : null);
    await t.outbox.send(api);
    const rec = await t.outbox.reconcile(api);
    expect(rec.unknown).toBe(1);
    expect(t.outbox.get(item.id)?.note).toMatch(/already existed before the first attempt/);
  });

  it('the journal keeps every attempt, and an edit changes the recorded digest', () => {
    const item = t.outbox.enqueue('escalate-task', { taskId: 't1', policyStepId: 'p1' });
    const edited = t.outbox.edit(item.id, { taskId: 't1', policyStepId: 'p1', comment: 'now with a reason' });
    expect(edited.requestDigest).not.toBe(item.requestDigest);
    expect(t.outbox.journal({ itemId: item.id }).map((j) => [j.event, j.requestDigest])).toEqual([
      ['queued', item.requestDigest],
      ['edit', edited.requestDigest],
    ]);
  });
});

describe('a creation answered "already exists" on a later attempt', () => {
  it('is never sent again blind: a retry of the uncertain creation reads the tenant first and finds it applied', async () => {
    const item = t.outbox.enqueue('create-scope', scope('read:again'));
    api.fault = (c, i) => (c.mutation && i === 0 ? 'drop-after-apply' : null);
    await t.outbox.send(api);
    expect(t.outbox.get(item.id)?.state).toBe('uncertain');
    // A plain retry would queue it blind: refused, naming the read it needs.
    expect(() => t.outbox.retry(item.id)).toThrow(/only failed items can be retried: an uncertain one is read from the tenant first/);
    // Offline the checked retry refuses it too, and changes nothing.
    const offline = await t.outbox.retryChecked(null, { ids: [item.id] });
    expect(offline.bulk.refused).toEqual([expect.objectContaining({ state: 'uncertain', count: 1, itemIds: [item.id] })]);
    expect(t.outbox.get(item.id)?.state).toBe('uncertain');
    const checked = await t.outbox.retryChecked(api, { ids: [item.id] });
    expect(checked.reconciled).toMatchObject({ examined: 1, applied: 1, requeued: 0, unknown: 0 });
    expect(checked.bulk).toMatchObject({ matched: 1, changed: 0, refused: [] });
    expect(await t.outbox.send(api)).toMatchObject({ total: 0 });
    expect(t.outbox.get(item.id)).toMatchObject({
      state: 'succeeded',
      result: expect.objectContaining({ scopeId: expect.stringMatching(/^sc-/) }),
    });
    expect(api.applied).toHaveLength(1);
  });
});
