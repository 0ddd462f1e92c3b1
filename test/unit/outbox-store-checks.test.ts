/**
 * Queue-time checks against the store, the one step every entry runs (a single change, an edit, a
 * CSV row): refused where the store is sure the tenant refuses (an entitlement whose memberships
 * the service does not manage, another app's entitlement, a task that can never be escalated),
 * warned where it may be stale (unknown ids, not a member, a task that did not offer escalation).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OutboxValidationError } from '../../src/main/outbox/queue';
import { openTestOutbox, type TestOutbox } from './outbox.fake';

let t: TestOutbox;
const AS_OF = '2025-06-01T10:00:00.000Z';

function entitlement(id: string, appId: string, name: string, type: string | null): Record<string, unknown> {
  return {
    appEntitlementView: { appEntitlement: { id, appId, displayName: name } },
    appResourceType: type === null ? null : { displayName: type },
  };
}

function task(id: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    task: {
      id,
      displayName: `Access request ${id}`,
      state: 'TASK_STATE_OPEN',
      type: { grant: { appId: 'app-1' } },
      emergencyAccess: false,
      actions: ['TASK_ACTION_TYPE_APPROVE', 'TASK_ACTION_TYPE_ESCALATE_TO_EMERGENCY_ACCESS'],
      policy: { current: { id: 'step-1' } },
      ...over,
    },
  };
}

beforeEach(() => {
  t = openTestOutbox();
  for (const c of ['apps', 'entitlements', 'app-users', 'memberships', 'tasks']) t.asOf.set(c, AS_OF);
  t.synced.set('apps/app-1', { id: 'app-1', displayName: 'Okta' });
  t.synced.set('apps/app-2', { id: 'app-2', displayName: 'GitHub' });
  t.synced.set('entitlements/grp', entitlement('grp', 'app-1', 'Admins', 'Group'));
  t.synced.set('entitlements/cat', entitlement('cat', 'app-1', 'Finance bundle', 'Access Profile'));
  t.synced.set('entitlements/role', entitlement('role', 'app-1', 'Billing Viewer', 'Role'));
  t.synced.set('entitlements/perm', entitlement('perm', 'app-1', 'repo:write', 'Permission'));
  t.synced.set('entitlements/untyped', entitlement('untyped', 'app-1', 'Mystery', null));
  t.synced.set('entitlements/other', entitlement('other', 'app-2', 'Maintainers', 'Group'));
  t.synced.set('app-users/u1', { appUser: { id: 'u1', appId: 'app-1', displayName: 'Ada Lovelace' } });
  t.synced.set('app-users/u2', { appUser: { id: 'u2', appId: 'app-1', displayName: 'Alan Turing' } });
  t.synced.set('memberships/grp:u1', { appEntitlementId: 'grp', appUserId: 'u1', appId: 'app-1' });
  t.synced.set('memberships/role:u1', { appEntitlementId: 'role', appUserId: 'u1', appId: 'app-1' });
});
afterEach(() => t.close());

function refusal(fn: () => unknown): OutboxValidationError {
  try {
    fn();
  } catch (error) {
    if (error instanceof OutboxValidationError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

const removal = (appEntitlementId: string, appUserId = 'u1', appId = 'app-1') => ({ appId, appEntitlementId, appUserId });

describe('removals', () => {
  it('refuses an entitlement whose memberships the service does not manage, naming its type; nothing is queued', () => {
    for (const [id, type] of [
      ['role', 'Role'],
      ['perm', 'Permission'],
    ] as const) {
      const error = refusal(() => t.outbox.enqueue('remove-membership', removal(id)));
      expect(error.field).toBe('appEntitlementId');
      expect(error.message).toMatch(new RegExp(`^entitlement ${id} \\(.+\\) is a ${type} .*does not manage its memberships`));
      expect(error.message).toMatch(/only catalog \(access profile\), group and profile memberships can be removed/);
      // The check answers as the queue would, and the edit of a queued item too.
      expect(refusal(() => t.outbox.check('remove-membership', removal(id))).field).toBe('appEntitlementId');
    }
    expect(t.outbox.list()).toEqual([]);
    const queued = t.outbox.enqueue('remove-membership', removal('grp'));
    expect(refusal(() => t.outbox.edit(queued.id, removal('role'))).field).toBe('appEntitlementId');
    expect(t.outbox.get(queued.id)?.input.appEntitlementId).toBe('grp');
  });

  it('refuses an entitlement of another app', () => {
    const error = refusal(() => t.outbox.enqueue('remove-membership', removal('other')));
    expect(error).toMatchObject({
      field: 'appEntitlementId',
      message: 'entitlement other (Maintainers) belongs to app app-2, not to app app-1',
    });
  });

  it('queues a managed membership with no warning, and names its ids', () => {
    for (const id of ['grp', 'cat']) t.synced.set(`memberships/${id}:u2`, { appEntitlementId: id, appUserId: 'u2', appId: 'app-1' });
    const item = t.outbox.enqueue('remove-membership', removal('grp', 'u2'));
    expect(item.warnings).toEqual([]);
    const preview = t.outbox.check('remove-membership', removal('cat', 'u2'));
    expect(preview.warnings).toEqual([]);
    expect(preview.names).toEqual({ appId: 'Okta', appEntitlementId: 'Finance bundle', appUserId: 'Alan Turing' });
  });

  it('warns, naming it, about what the store does not know or holds otherwise; the change is queued', () => {
    const unknownUser = t.outbox.enqueue('remove-membership', removal('grp', 'ghost'));
    expect(unknownUser.warnings).toEqual([
      {
        field: 'appUserId',
        message: 'unknown app user ghost: not in the store (synced 2025-06-01 10:00); it may be newer than the last sync, or not exist',
      },
    ]);
    const unknownAll = t.outbox.check('remove-membership', removal('ent-x', 'u-x', 'app-x'));
    expect(unknownAll.warnings.map((w) => [w.field, w.message.split(':')[0]])).toEqual([
      ['appId', 'unknown app app-x'],
      ['appEntitlementId', 'unknown entitlement ent-x'],
      ['appUserId', 'unknown app user u-x'],
    ]);
    expect(t.outbox.check('remove-membership', removal('grp', 'u2')).warnings).toEqual([
      {
        field: 'appUserId',
        message: 'app user u2 (Alan Turing) is not a member of entitlement grp (Admins) as of the last sync (2025-06-01 10:00)',
      },
    ]);
    expect(t.outbox.check('remove-membership', removal('untyped')).warnings).toEqual([
      {
        field: 'appEntitlementId',
        message: 'the store does not know the type of entitlement untyped (Mystery): whether its memberships can be removed is not checked',
      },
      expect.objectContaining({ field: 'appUserId', message: expect.stringMatching(/is not a member/) }),
    ]);
    t.gone.add('app-users/u1');
    expect(t.outbox.check('remove-membership', removal('grp')).warnings).toEqual([
      { field: 'appUserId', message: 'app user u1 (Ada Lovelace) was gone from the tenant at the last sync (2025-06-01 10:00)' },
    ]);
    expect(t.outbox.list()).toHaveLength(1);
  });

  it('refuses, as not in the tenant, an id a complete collection does not hold or saw removed; a partial one only warns', () => {
    t.complete.set('app-users', { runId: 4, finishedAt: '2025-06-01T10:00:00.000Z' });
    const unknown = refusal(() => t.outbox.enqueue('remove-membership', removal('grp', 'ghost')));
    expect([unknown.field, unknown.message]).toEqual([
      'appUserId',
      'unknown app user ghost: not in the tenant as of run 4 (2025-06-01 10:00; sync again if it is newer)',
    ]);
    t.gone.add('app-users/u1');
    const removed = refusal(() => t.outbox.enqueue('remove-membership', removal('grp')));
    expect(removed.message).toBe(
      'app user u1 (Ada Lovelace) is not in the tenant as of run 4 (2025-06-01 10:00; sync again if it is newer): it was removed',
    );
    // Entitlements are not complete here (a later walk stopped half-way, say): an unknown one is a warning still.
    const partial = t.outbox.check('remove-membership', removal('ent-x', 'u2'));
    expect(partial.warnings.map((w) => [w.field, w.message.split(':')[0]])).toEqual([['appEntitlementId', 'unknown entitlement ent-x']]);
    expect(t.outbox.list()).toEqual([]);
  });

  it('says once that a collection never synced was not checked', () => {
    t.asOf.delete('app-users');
    const preview = t.outbox.check('remove-membership', removal('grp', 'nobody'));
    expect(preview.warnings).toEqual([
      { field: 'appUserId', message: 'app users have not been synced yet: the app user ids are not checked against the store' },
    ]);
  });
});

describe('escalations', () => {
  beforeEach(() => {
    t.synced.set('tasks/t-open', task('t-open'));
    t.synced.set('tasks/t-revoke', task('t-revoke', { type: { revoke: { appId: 'app-1' } }, actions: [] }));
    t.synced.set('tasks/t-closed', task('t-closed', { state: 'TASK_STATE_CLOSED', actions: [] }));
    t.synced.set('tasks/t-done', task('t-done', { emergencyAccess: true, actions: [] }));
    t.synced.set('tasks/t-busy', task('t-busy', { actions: ['TASK_ACTION_TYPE_COMMENT'] }));
  });

  it('refuses a task that can never be escalated: not a grant task, closed, or escalated already', () => {
    expect(refusal(() => t.outbox.enqueue('escalate-task', { taskId: 't-revoke', policyStepId: 'step-1' })).message).toBe(
      'task t-revoke (Access request t-revoke) is a revoke task: only grant (access request) tasks can be escalated to emergency access',
    );
    expect(refusal(() => t.outbox.enqueue('escalate-task', { taskId: 't-closed', policyStepId: 'step-1' })).message).toMatch(/is closed$/);
    expect(refusal(() => t.outbox.enqueue('escalate-task', { taskId: 't-done', policyStepId: 'step-1' })).message).toMatch(
      /is in emergency access already$/,
    );
    expect(t.outbox.list()).toEqual([]);
  });

  it('warns when the task is unknown, did not offer escalation, or the step is not its current one', () => {
    expect(t.outbox.check('escalate-task', { taskId: 't-open', policyStepId: 'step-1' })).toMatchObject({
      warnings: [],
      names: { taskId: 'Access request t-open' },
    });
    expect(t.outbox.check('escalate-task', { taskId: 't-busy', policyStepId: 'step-1' }).warnings).toEqual([
      { field: 'taskId', message: expect.stringMatching(/did not offer escalation at the last sync \(2025-06-01 10:00\)/) },
    ]);
    expect(t.outbox.check('escalate-task', { taskId: 't-open', policyStepId: 'step-0' }).warnings).toEqual([
      { field: 'policyStepId', message: expect.stringMatching(/policy step step-0 is not the current step .*: that is step-1$/) },
    ]);
    const queued = t.outbox.enqueue('escalate-task', { taskId: 't-new', policyStepId: 'p' });
    expect(queued.warnings).toEqual([{ field: 'taskId', message: expect.stringMatching(/^unknown task t-new: not in the store/) }]);
  });

  it('takes no policy step as the API allows: the body goes without one, and the store knows the current step to fill it', () => {
    const preview = t.outbox.check('escalate-task', { taskId: 't-open', comment: 'on call' });
    expect(preview).toMatchObject({ warnings: [], input: { taskId: 't-open', comment: 'on call' } });
    expect(preview.request.body).toEqual({ comment: 'on call' });
    expect(preview.summary).toBe('escalate task t-open (its current policy step) to emergency access');
    expect(t.outbox.check('escalate-task', { taskId: 't-open', policyStepId: '' }).request.body).toEqual({});
    expect(refusal(() => t.outbox.enqueue('escalate-task', { taskId: 't-closed' })).message).toMatch(/is closed$/);
    expect(t.outbox.currentPolicyStep('t-open')).toBe('step-1');
    expect(t.outbox.currentPolicyStep('t-new')).toBeNull();
  });
});

describe('CSV import', () => {
  it('refuses the rows the store is sure of, with line, column and reason; warns about the rest by line and column; names the ids', () => {
    const csv = [
      'app_user_id,app_id,app_entitlement_id',
      'u1,app-1,grp',
      'u1,app-1,role',
      'u-x,app-1,grp',
      'u1,app-1,perm',
      'u2,app-1,cat',
    ].join('\n');
    const refused = t.outbox.importCsv(csv, 'remove-membership');
    expect(refused.queued).toBe(0);
    expect(t.outbox.list()).toEqual([]);
    expect(refused.errors).toEqual([
      { line: 3, column: 3, field: 'app_entitlement_id', message: expect.stringMatching(/^entitlement role \(Billing Viewer\) is a Role/) },
      {
        line: 5,
        column: 3,
        field: 'app_entitlement_id',
        message: expect.stringMatching(/^entitlement perm \(repo:write\) is a Permission/),
      },
    ]);
    expect(refused.rowWarnings).toEqual([
      { line: 4, column: 1, field: 'app_user_id', message: expect.stringMatching(/^unknown app user u-x/) },
      {
        line: 6,
        column: 1,
        field: 'app_user_id',
        message: expect.stringMatching(/^app user u2 \(Alan Turing\) is not a member of entitlement cat/),
      },
    ]);
    expect(refused.valid.find((r) => r.line === 2)?.names).toEqual({
      appId: 'Okta',
      appEntitlementId: 'Admins',
      appUserId: 'Ada Lovelace',
    });

    const kept = csv
      .split('\n')
      .filter((l) => !/,(role|perm)$/.test(l))
      .join('\n');
    const done = t.outbox.importCsv(kept, 'remove-membership');
    expect(done.errors).toEqual([]);
    expect(done.queued).toBe(3);
    expect(done.rowWarnings.map((w) => w.line)).toEqual([3, 4]);
  });

  it('a partial import queues the valid rows as one batch and gives the refused ones as a CSV that, fixed, imports the rest', () => {
    t.complete.set('app-users', { runId: 4, finishedAt: '2025-06-01T10:00:00.000Z' });
    const csv = [
      'app_user_id,app_id,app_entitlement_id,note',
      'u1,app-1,grp,first',
      'u1,app-1,role,"a role, with a comma"',
      'u-x,app-1,grp,',
      'u2,app-1,cat,',
    ].join('\r\n');
    const whole = t.outbox.importCsv(csv, 'remove-membership');
    expect([whole.queued, whole.refused, whole.partial]).toEqual([0, 2, false]);
    const done = t.outbox.importCsv(csv, 'remove-membership', { partial: true, source: 'csv:/tmp/removals.csv' });
    expect([done.queued, done.refused, done.partial, done.batch?.name]).toEqual([2, 2, true, 'removals.csv']);
    expect(t.outbox.list().map((i) => i.input.appUserId)).toEqual(['u1', 'u2']);
    expect(done.rejectsCsv).toBe(
      [
        'app_user_id,app_id,app_entitlement_id,note,rejected_line,rejected_reason',
        'u1,app-1,role,"a role, with a comma",3,"app_entitlement_id: entitlement role (Billing Viewer) is a Role (synced from its app): ' +
          'the service does not manage its memberships; only catalog (access profile), group and profile memberships can be removed"',
        'u-x,app-1,grp,,4,app_user_id: unknown app user u-x: not in the tenant as of run 4 (2025-06-01 10:00; sync again if it is newer)',
        '',
      ].join('\r\n'),
    );
    // Fixed (the unknown user corrected, the role row dropped) and imported as it is: its reject columns are ignored.
    const fixed = done
      .rejectsCsv!.split('\r\n')
      .filter((l) => !l.includes(',role,'))
      .join('\r\n')
      .replace('u-x,', 'u1,')
      .replace(',grp,', ',cat,');
    const rest = t.outbox.importCsv(fixed, 'remove-membership', { partial: true });
    expect([rest.errors, rest.warnings, rest.queued, rest.rejectsCsv]).toEqual([
      [],
      ["column 4 'note' is not used by remove-membership and is ignored"],
      1,
      null,
    ]);
    // A rejects file of a rejects file does not repeat the earlier reasons.
    const again = t.outbox.importCsv(done.rejectsCsv!, 'remove-membership', { dryRun: true });
    expect(again.rejectsCsv!.split('\r\n')[0]).toBe('app_user_id,app_id,app_entitlement_id,note,rejected_line,rejected_reason');
    expect(again.rejectsCsv!.split('\r\n')[1]).toMatch(/^u1,app-1,role,"a role, with a comma",2,/);
  });

  it('a partial import queues nothing when the file itself is wrong', () => {
    const done = t.outbox.importCsv('user,app\nu1,app-1', 'remove-membership', { partial: true });
    expect([done.queued, done.refused, done.rejectsCsv]).toEqual([0, 0, null]);
    expect(done.errors[0]!.message).toMatch(/header/);
  });
});
