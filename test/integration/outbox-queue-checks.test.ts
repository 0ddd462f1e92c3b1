/**
 * Queue-time checks of what the store can tell, against the reference tenant on 127.0.0.1 after a
 * full sync: a scope value already on its resource server is refused (the tenant would answer 409),
 * a resource server no synced scope of the app is on is warned about, and a template duration is
 * taken as people write it (`21d`) and sent in the API's form.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import type { OutboxItem } from '../../src/main/outbox/queue';
import type { Scope } from '../../src/shared/api-types/scope';
import type { TestTenant } from '../helpers/tenant';
import { useSyncedTenant } from './synced-tenant';

const synced = useSyncedTenant({ seed: 61, name: 'checks' });
const cli = synced.cli;
let tenant: TestTenant;
let tmp: { dir: string };
beforeAll(() => {
  tenant = synced.tenant();
  tmp = { dir: synced.dir() };
});

it('refuses a scope value already on its resource server, and warns of a resource server no synced scope is on', async () => {
  const scope = [...tenant.data.scopes.values()][0] as unknown as Required<Scope>;
  const add = (server: string, value: string) =>
    cli('queue', 'add', 'create-scope', '--app', scope.appId, '--resource-server', server, '--scope-value', value);
  const again = await add(scope.xaaResourceServerId, scope.scopeValue);
  expect(again.code).toBe(2);
  expect(again.err).toContain(
    `scopeValue: scope value '${scope.scopeValue}' is already on resource server ${scope.xaaResourceServerId} (scope ${scope.id}, as of run 1)`,
  );
  const unknown = await add('no-such-server', 'files:read');
  expect(unknown.code, unknown.err).toBe(0);
  expect(unknown.err).toMatch(/warning: xaaResourceServerId: no synced scope of app .* is on resource server no-such-server/);
  const fresh = await add(scope.xaaResourceServerId, 'files:checked.read');
  expect(fresh.code, fresh.err).toBe(0);
  expect(fresh.err).not.toMatch(/warning/);
});

it('takes a template duration written as 21d, sends it as seconds, and names a template the store does not hold', async () => {
  const [template] = [...tenant.data.templates.values()] as unknown as { id: string }[];
  const changes = join(tmp.dir, 'duration.json');
  writeFileSync(changes, JSON.stringify({ accessReviewDuration: '21d' }));
  const queued = await cli('queue', 'add', 'update-template', '--template', template!.id, '--file', changes, '--json');
  expect(queued.code, queued.err).toBe(0);
  const item = JSON.parse(queued.out) as OutboxItem;
  expect(item.request.body).toMatchObject({
    accessReviewTemplate: { accessReviewDuration: '1814400s' },
    updateMask: 'accessReviewDuration',
  });
  const missing = await cli('queue', 'add', 'update-template', '--template', 'no-such-template', '--file', changes);
  expect(missing.code).toBe(2);
  expect(missing.err).toContain(
    'template no-such-template is not in the local store: sync, or add it by id (`attest template add no-such-template`',
  );
});

it('keeps a reason with a removal and in its journal entry, never in the request', async () => {
  const [membership] = [...tenant.data.memberships.values()].filter((m) =>
    ['group', 'profile', 'catalog'].includes(tenant.data.entitlements.get(m.appEntitlementId)!.kind),
  );
  const removed = await cli(
    'queue',
    'add',
    'remove-membership',
    '--app',
    membership!.appId,
    '--entitlement',
    membership!.appEntitlementId,
    '--user',
    membership!.appUserId,
    '--reason',
    'left the company (HR-4411)',
    '--json',
  );
  expect(removed.code, removed.err).toBe(0);
  const item = JSON.parse(removed.out) as OutboxItem;
  expect(item.input.reason).toBe('left the company (HR-4411)');
  expect(item.request.body).toEqual({ appUserId: membership!.appUserId });
  const journal = JSON.parse((await cli('journal', '--json')).out) as { event: string; itemId: string; answer: string | null }[];
  expect(journal.find((e) => e.event === 'queued' && e.itemId === item.id)?.answer).toBe('reason: left the company (HR-4411)');
  const tooLong = await cli(
    'queue',
    'add',
    'remove-membership',
    '--app',
    membership!.appId,
    '--entitlement',
    membership!.appEntitlementId,
    '--user',
    membership!.appUserId,
    '--reason',
    'x'.repeat(2001),
  );
  expect(tooLong.code).toBe(2);
  expect(tooLong.err).toContain('reason is 2001 characters: at most 2000');
});
