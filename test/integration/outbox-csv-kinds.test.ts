/**
 * CSV imports of escalations and template updates, end to end against the reference tenant
 * (127.0.0.1, random port) through `attest queue import` on a synced store: rows the store is sure
 * the tenant refuses, unknown tasks and templates, and cells of the wrong type stop the whole file
 * (exit 2) naming line, column and reason; a task that did not offer escalation at the last sync is
 * queued with a warning; the good rows are queued, sent, and the tenant holds the
 * escalations (with the synced task's current step) and the template values (masks naming only the
 * fields the rows set).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareConnection, recordConnection } from '../../src/main/app/saved-connections';
import type { OutboxItem } from '../../src/main/outbox/queue';
import { startTestTenant, type TestTenant } from '../helpers/tenant';
import { escalatableTasks, tempDir } from './outbox.helpers';
import { runCli } from './sync.helpers';

let tenant: TestTenant;
let tmp: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;
/** A grant task whose escalation the tenant stopped offering before the sync (the store may be stale about it). */
let notOffered: TaskLike;
const cli = (...argv: string[]) => runCli([...argv, '--connection', 'kinds'], env);

interface TaskLike {
  id: string;
  state?: string;
  type?: Record<string, unknown>;
  policy?: { current?: { id?: string } | null };
  actions?: string[];
  emergencyAccess?: boolean;
}

const tasks = () => [...tenant.data.tasks.values()] as unknown as TaskLike[];

function writeCsv(name: string, lines: string[]): string {
  const file = join(tmp.dir, name);
  writeFileSync(file, `${lines.join('\r\n')}\r\n`);
  return file;
}

beforeAll(async () => {
  tenant = await startTestTenant({ seed: 43 });
  tmp = tempDir('attest-csv-kinds-');
  const dataDir = join(tmp.dir, 'data');
  recordConnection(dataDir, prepareConnection(dataDir, { clientId: tenant.clientId, serverUrl: tenant.url, name: 'kinds' }));
  env = { ATTEST_CLIENT_SECRET: tenant.clientSecret, ATTEST_DATA_DIR: dataDir };
  const grants = tasks().filter((t) => t.type?.grant && t.state === 'TASK_STATE_OPEN' && !t.emergencyAccess && t.policy?.current?.id);
  notOffered = grants[grants.length - 1]!;
  notOffered.actions = (notOffered.actions ?? []).filter((a) => a !== 'TASK_ACTION_TYPE_ESCALATE_TO_EMERGENCY_ACCESS');
  const synced = await runCli(['sync', '--connection', 'kinds'], env);
  expect(synced.code, synced.err).toBe(0);
});
afterAll(async () => {
  await tenant?.close();
  tmp?.remove();
});

describe('escalations from a CSV', () => {
  it('refuses the file naming the tasks that cannot be escalated and the one not in the tenant, then queues and sends the good rows', async () => {
    const good = escalatableTasks(tenant.data, 3);
    expect(good).toHaveLength(3);
    expect(good.map((g) => g.taskId)).not.toContain(notOffered.id);
    const revoke = tasks().find((t) => t.type?.revoke && t.state === 'TASK_STATE_OPEN')!;
    const closed = tasks().find((t) => t.type?.grant && t.state === 'TASK_STATE_CLOSED')!;
    expect(revoke && closed).toBeTruthy();
    const bad = writeCsv('escalations-bad.csv', [
      'taskId,comment',
      `${good[0]!.taskId},"on call, needs it tonight"`,
      'no-such-task,',
      `${good[1]!.taskId},`,
      `${revoke.id},please`,
      `${closed.id},`,
    ]);
    const refused = await cli('queue', 'import', bad, '--kind', 'escalate');
    expect(refused.code).toBe(2);
    // The tasks were walked whole: a task the walk did not see is not in the tenant.
    expect(refused.err).toContain(`${bad}:3:1: task_id: unknown task no-such-task: not in the tenant as of run 1 (`);
    expect(refused.err).toMatch(new RegExp(`${bad}:5:1: task_id: task ${revoke.id} \\(.+\\) is a revoke task: only grant`));
    expect(refused.err).toMatch(new RegExp(`${bad}:6:1: task_id: task ${closed.id} \\(.+\\) is closed`));
    expect(refused.err).toContain('nothing imported: 3 row(s) with errors out of 5');
    expect(JSON.parse((await cli('queue', 'list', '--json')).out)).toEqual([]);

    const file = writeCsv('escalations.csv', [
      'task_id,comment',
      `${good[0]!.taskId},"on call, needs it tonight"`,
      `${good[1]!.taskId},`,
      `${good[2]!.taskId},second shift`,
    ]);
    const dry = await cli('queue', 'import', file, '--kind', 'escalate-task', '--dry-run');
    expect(dry.code, dry.err).toBe(0);
    // The preview names the task beside its id, and shows the step taken from the synced task.
    expect(dry.out).toMatch(new RegExp(`line 2: escalate task .+ \\(${good[0]!.taskId}\\) \\(policy step ${good[0]!.policyStepId}\\)`));
    const run = await cli('queue', 'import', file, '--kind', 'escalate-task');
    expect(run.code, run.err).toBe(0);
    expect(run.err).toContain('queued 3 of 3 rows as batch');

    const sent = await cli('queue', 'send');
    expect(sent.code, sent.err).toBe(0);
    const items = JSON.parse((await cli('queue', 'list', '--json')).out) as OutboxItem[];
    expect(items.map((i) => i.state)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    const applied = tenant.journal().filter((j) => j.operation === 'escalateTask');
    expect(applied.map((j) => j.request)).toEqual([
      { policyStepId: good[0]!.policyStepId, comment: 'on call, needs it tonight' },
      { policyStepId: good[1]!.policyStepId },
      { policyStepId: good[2]!.policyStepId, comment: 'second shift' },
    ]);
    for (const g of good) expect((tenant.data.tasks.get(g.taskId) as unknown as { emergencyAccess: boolean }).emergencyAccess).toBe(true);
  });

  it('queues with a warning a task that did not offer escalation at the last sync (the store may be stale)', async () => {
    const file = writeCsv('escalation-stale.csv', ['task_id', notOffered.id]);
    const dry = await cli('queue', 'import', file, '--kind', 'escalate', '--dry-run');
    expect(dry.code, dry.err).toBe(0);
    expect(dry.err).toMatch(
      new RegExp(`${file}:2:1: warning: task_id: task ${notOffered.id} \\(.+\\) did not offer escalation at the last sync \\(`),
    );
    expect(dry.out).toContain(`(policy step ${notOffered.policy!.current!.id})`);
    expect(dry.err).toContain('dry run: 1 of 1 rows would be queued, 1 with warnings');
  });
});

describe('one escalation without a policy step', () => {
  it("takes the synced task's current step, says so, and sends it", async () => {
    const task = escalatableTasks(tenant.data, 5).find((t) => t.taskId !== notOffered.id)!;
    const added = await cli('queue', 'add', 'escalate', '--task', task.taskId);
    expect(added.code, added.err).toBe(0);
    expect(added.err).toContain(`policy step ${task.policyStepId}: the current step of task ${task.taskId} as of the last sync`);
    expect(added.err).toMatch(new RegExp(`queued .+: escalate task .+ \\(${task.taskId}\\) \\(policy step ${task.policyStepId}\\)`));
    const sent = await cli('queue', 'send');
    expect(sent.code, sent.err).toBe(0);
    const applied = tenant.journal().filter((j) => j.operation === 'escalateTask' && j.objectId === task.taskId);
    expect(applied.map((j) => j.request)).toEqual([{ policyStepId: task.policyStepId }]);
  });
});

describe('template updates from a CSV', () => {
  it('refuses unknown and server-set columns by name', async () => {
    const [t] = [...tenant.data.templates.keys()];
    const unknown = writeCsv('templates-unknown.csv', ['templateId,displayName,colour', `${t},New name,blue`]);
    const run = await cli('queue', 'import', unknown, '--kind', 'update-template');
    expect(run.code).toBe(2);
    expect(run.err).toContain(
      `${unknown}:1:3: colour: column 3 'colour': it is not a column of update-template (known: templateId, displayName,`,
    );
    const readOnly = writeCsv('templates-read-only.csv', ['template_id,recurrence_rule.frequency,created_at', `${t},FREQUENCY_DAILY,`]);
    const ro = await cli('queue', 'import', readOnly, '--kind', 'update-template');
    expect(ro.code).toBe(2);
    expect(ro.err).toContain(`column 2 'recurrence_rule.frequency': recurrenceRule.frequency is set by the server and cannot be imported`);
    expect(ro.err).toContain(`column 3 'created_at': createdAt is set by the server and cannot be imported`);
  });

  it('refuses cells of the wrong type and unknown templates by line and column, then sends masks naming only the fields set', async () => {
    const recurring = ([...tenant.data.templates.values()] as unknown as Record<string, unknown>[]).filter((t) => t.recurrenceRule);
    const [a, b] = recurring;
    expect(b).toBeDefined();
    const before = structuredClone(a!);
    const header =
      'templateId,displayName,autoStartCampaign,recurrenceRule.endDate,notificationConfig.sendReminders,inclusionScope.appUserTypes';
    const bad = writeCsv('templates-bad.csv', [
      header,
      `${String(a!.id)},Renamed,maybe,,,`,
      `no-such-template,Renamed,,,,`,
      `${String(b!.id)},,,30/06/2027,,`,
      `${String(b!.id)},,,,,user;robot`,
    ]);
    const refused = await cli('queue', 'import', bad, '--kind', 'update-template');
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(`${bad}:2:3: autoStartCampaign: autoStartCampaign: 'maybe' is not true or false`);
    expect(refused.err).toContain(`${bad}:3:1: templateId: template no-such-template is not in the local store`);
    expect(refused.err).toContain(`${bad}:4:4: recurrenceRule.endDate: recurrenceRule.endDate: '30/06/2027' is not a date`);
    expect(refused.err).toContain(`${bad}:5:6: inclusionScope.appUserTypes: inclusionScope.appUserTypes: 'robot' is not one of`);
    expect(refused.err).toContain('nothing imported: 4 row(s) with errors out of 4');

    const sendReminders = (a!.notificationConfig as { sendReminders: boolean }).sendReminders;
    const autoStart = a!.autoStartCampaign as boolean;
    const interval = (b!.recurrenceRule as { interval: number }).interval;
    expect((b!.inclusionScope as { appUserTypes: string[] }).appUserTypes).not.toContain('APP_USER_TYPE_SYSTEM_ACCOUNT');
    const file = writeCsv('templates.csv', [
      `${header},recurrenceRule.interval,description`,
      // The display name given is the one it has: not part of the change.
      `${String(a!.id)},${String(a!.displayName)},${autoStart ? 'no' : 'yes'},2027-06-30,${sendReminders ? 'false' : 'true'},,,`,
      `${String(b!.id)},,,,,user; system account,${interval + 1},Reviewed every quarter`,
    ]);
    const dry = await cli('queue', 'import', file, '--kind', 'update-template', '--dry-run');
    expect(dry.code, dry.err).toBe(0);
    expect(dry.out).toContain(`line 2: update template ${String(a!.displayName)} (${String(a!.id)}): `);
    const run = await cli('queue', 'import', file, '--kind', 'update-template');
    expect(run.code, run.err).toBe(0);
    expect(run.err).toContain('queued 2 of 2 rows');

    const sent = await cli('queue', 'send');
    expect(sent.code, sent.err).toBe(0);
    const applied = tenant.journal().filter((j) => j.operation === 'updateTemplate');
    expect(applied).toHaveLength(2);
    const [first, second] = applied.map((j) => j.request as { accessReviewTemplate: Record<string, unknown>; updateMask: string });
    expect(first!.updateMask.split(',').sort()).toEqual([
      'autoStartCampaign',
      'notificationConfig.sendReminders',
      'recurrenceRule.endDate',
    ]);
    expect(first!.accessReviewTemplate).toEqual({
      id: a!.id,
      autoStartCampaign: !autoStart,
      recurrenceRule: { endDate: '2027-06-30T00:00:00Z' },
      notificationConfig: { sendReminders: !sendReminders },
    });
    expect(second!.updateMask.split(',').sort()).toEqual(['description', 'inclusionScope.appUserTypes', 'recurrenceRule.interval']);
    expect(second!.accessReviewTemplate).toEqual({
      id: b!.id,
      description: 'Reviewed every quarter',
      recurrenceRule: { interval: interval + 1 },
      inclusionScope: { appUserTypes: ['APP_USER_TYPE_USER', 'APP_USER_TYPE_SYSTEM_ACCOUNT'] },
    });

    // The tenant's templates hold the new values, and the members not named are as they were.
    const afterA = tenant.data.templates.get(String(a!.id)) as unknown as Record<string, Record<string, unknown>>;
    expect(afterA.autoStartCampaign).toBe(!autoStart);
    expect(afterA.recurrenceRule!.endDate).toMatch(/^2027-06-30T00:00:00(\.000)?Z$/);
    expect(afterA.recurrenceRule!.frequency).toBe((before.recurrenceRule as Record<string, unknown>).frequency);
    expect(afterA.recurrenceRule!.interval).toBe((before.recurrenceRule as Record<string, unknown>).interval);
    expect(afterA.notificationConfig).toEqual({ ...(before.notificationConfig as object), sendReminders: !sendReminders });
    expect(afterA.displayName).toBe(before.displayName);
    const afterB = tenant.data.templates.get(String(b!.id)) as unknown as Record<string, Record<string, unknown>>;
    expect(afterB.description).toBe('Reviewed every quarter');
    expect(afterB.recurrenceRule!.interval).toBe(interval + 1);
    expect(afterB.inclusionScope!.appUserTypes).toEqual(['APP_USER_TYPE_USER', 'APP_USER_TYPE_SYSTEM_ACCOUNT']);
    expect(afterB.inclusionScope!.userStatuses).toEqual((b!.inclusionScope as Record<string, unknown>).userStatuses);
  });
});
