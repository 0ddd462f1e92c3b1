/**
 * A new campaign queued against the reference tenant on 127.0.0.1 after a full sync, by the CLI:
 * its owners, policy and template named from the store, the template kept with the change and
 * never sent, a completion date written as a duration counted from now; an owner the complete
 * users do not hold is refused before anything is queued.
 */
import { expect, it } from 'vitest';
import type { OutboxItem } from '../../src/main/outbox/queue';
import { useSyncedTenant } from './synced-tenant';

const synced = useSyncedTenant({ seed: 67, name: 'campaign-checks' });

it('names the owners and the template, keeps the template id without sending it, and reads --completion-date 21d', async () => {
  const tenant = synced.tenant();
  const [ada, bob] = [...tenant.data.users.values()];
  const templateId = [...tenant.data.campaigns.values()].map((c) => c.accessReviewTemplateId).find((id) => id)!;
  const template = tenant.data.templates.get(templateId)!;
  const before = Date.now();
  const queued = await synced.cli(
    'queue',
    'add',
    'create-campaign',
    '--name',
    'Checked campaign',
    '--owner',
    ada!.id!,
    '--owner',
    bob!.id!,
    '--template',
    templateId,
    '--completion-date',
    '21d',
    '--json',
  );
  expect(queued.code, queued.err).toBe(0);
  expect(queued.err).toContain(`owned by ${ada!.displayName} <${ada!.email}> (${ada!.id})`);
  expect(queued.err).toContain(`from template ${template.displayName} (${templateId})`);
  expect(queued.err).not.toMatch(/warning/);
  const item = JSON.parse(queued.out) as OutboxItem;
  expect(item.input).toMatchObject({ ownerIds: [ada!.id, bob!.id], templateId });
  expect(item.request.body).not.toHaveProperty('templateId');
  const ends = Date.parse(String(item.input.completionDate));
  expect(ends - before).toBeGreaterThanOrEqual(21 * 86_400_000 - 2_000);
  expect(ends - before).toBeLessThan(21 * 86_400_000 + 60_000);

  // Sent, the tenant creates the campaign from what the request carries.
  const sent = await synced.cli('queue', 'send');
  expect(sent.code, sent.err).toBe(0);
  const created = [...tenant.data.campaigns.values()].find((c) => c.displayName === 'Checked campaign');
  expect(created?.bindings).toEqual({ ownerIds: [ada!.id, bob!.id] });
});

it('refuses an owner the complete users do not hold, and a completion date that is neither a date nor a duration', async () => {
  const add = (...extra: string[]) => synced.cli('queue', 'add', 'create-campaign', '--name', 'Refused campaign', ...extra);
  const ghost = await add('--owner', 'no-such-user');
  expect(ghost.code).toBe(2);
  expect(ghost.err).toMatch(/ownerIds\[0\]: unknown user no-such-user: not in the tenant as of run \d+/);
  const [ada] = [...synced.tenant().data.users.values()];
  const badDate = await add('--owner', ada!.id!, '--completion-date', 'three weeks');
  expect(badDate.code).toBe(2);
  expect(badDate.err).toContain("--completion-date 'three weeks' is neither a date");
  const list = await synced.cli('queue', 'list', '--state', 'queued', '-o', 'json');
  expect(JSON.parse(list.out)).toEqual([]);
});
