/** `attest queue` and `attest journal` end to end (in process) against the reference tenant. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/index';
import { startTenant } from '../../src/tenant/server';
import { captureIO } from '../helpers/cli';
import { escalatableTasks, removableMemberships, removalsCsv, resourceServers, tempDir } from './outbox.helpers';

type Tenant = Awaited<ReturnType<typeof startTenant>>;
let tenant: Tenant;
let tmp: ReturnType<typeof tempDir>;
let store: string;

const io = captureIO;

beforeAll(async () => {
  tenant = await startTenant({ port: 0, seed: 77 });
  tmp = tempDir('attest-outbox-cli-');
  store = join(tmp.dir, 'store.sqlite');
});
afterAll(async () => {
  await tenant?.close();
  tmp?.remove();
});

describe('attest queue', () => {
  it('refuses an invalid change with exit 2, naming the field', async () => {
    const out = io();
    const code = await main(
      ['queue', 'add', 'create-scope', '--store', store, '--app', 'a', '--resource-server', 'r', '--scope-value', 'x'.repeat(257)],
      out,
    );
    expect(code).toBe(2);
    expect(out.stderr).toMatch(/scopeValue: scopeValue is 257 bytes long.*nothing was queued/);
    const campaign = io();
    expect(await main(['queue', 'add', 'create-campaign', '--store', store, '--name', 'No owner'], campaign)).toBe(2);
    expect(campaign.stderr).toMatch(/ownerIds/);
  });

  it('imports a CSV (dry run first), lists, sends, and exits 5 while an item failed', async () => {
    const rows = removableMemberships(tenant.data, 5);
    const csv = join(tmp.dir, 'removals.csv');
    writeFileSync(csv, `\uFEFF${removalsCsv(rows)}\r\napp-x,ent-x,user-x\r\n`);
    const dry = io();
    expect(await main(['queue', 'import', csv, '--kind', 'remove-membership', '--store', store, '--dry-run'], dry)).toBe(0);
    expect(dry.stderr).toMatch(/dry run: 6 of 6 rows would be queued/);
    expect(await main(['queue', 'import', csv, '--kind', 'remove-membership', '--store', store], io())).toBe(0);
    const listed = io();
    expect(await main(['queue', 'list', '--store', store, '--json'], listed)).toBe(0);
    expect(JSON.parse(listed.stdout)).toHaveLength(6);

    const sent = io(tenant.clientSecret);
    const code = await main(
      ['queue', 'send', '--store', store, '--client-id', tenant.clientId, '--server-url', tenant.url, '--json'],
      sent,
    );
    expect(code).toBe(5);
    const result = JSON.parse(sent.stdout) as { counts: Record<string, number> };
    expect(result.counts).toMatchObject({ succeeded: 5, failed: 1 });

    const failed = io();
    await main(['queue', 'list', '--store', store, '--state', 'failed', '--json'], failed);
    const [item] = JSON.parse(failed.stdout) as { id: string; lastError: string }[];
    expect(item?.lastError).toMatch(/app-x|not found/);
    expect(await main(['queue', 'discard', item!.id.slice(0, 8), '--store', store], io())).toBe(0);

    const again = io(tenant.clientSecret);
    expect(await main(['queue', 'send', '--store', store, '--client-id', tenant.clientId, '--server-url', tenant.url], again)).toBe(0);

    const journal = io();
    expect(await main(['journal', '--store', store, '--json'], journal)).toBe(0);
    const entries = JSON.parse(journal.stdout) as { event: string; httpStatus: number | null; requestDigest: string | null }[];
    expect(entries.filter((e) => e.event === 'send' && e.httpStatus === 200)).toHaveLength(5);
    expect(entries.filter((e) => e.event === 'send' && e.httpStatus === 404)).toHaveLength(1);
    expect(entries.some((e) => e.event === 'discard')).toBe(true);
    expect(tenant.journal()).toHaveLength(5);
  });

  it('edits a queued item: the flags given replace those values, a bad value changes nothing, a sent item is refused', async () => {
    const file = join(tmp.dir, 'edit.sqlite');
    const [server] = resourceServers(tenant.data, 1);
    const added = io();
    expect(
      await main(
        [
          'queue',
          'add',
          'create-scope',
          '--store',
          file,
          '--app',
          server!.appId,
          '--resource-server',
          server!.xaaResourceServerId,
          '--scope-value',
          'ledger:read',
          '--display-name',
          'Ledger',
          '--json',
        ],
        added,
      ),
    ).toBe(0);
    const id = (JSON.parse(added.stdout) as { id: string }).id;

    const edited = io();
    expect(await main(['queue', 'edit', id.slice(0, 8), '--store', file, '--scope-value', 'ledger:export', '--json'], edited)).toBe(0);
    const item = JSON.parse(edited.stdout) as { input: Record<string, unknown>; request: { body: Record<string, unknown> } };
    expect(item.input).toMatchObject({ scopeValue: 'ledger:export', displayName: 'Ledger', appId: server!.appId });
    expect(item.request.body).toMatchObject({ scopeValue: 'ledger:export' });

    const bad = io();
    expect(await main(['queue', 'edit', id, '--store', file, '--scope-value', 'ledger"export'], bad)).toBe(2);
    expect(bad.stderr).toMatch(/scopeValue: scopeValue has .*U\+0022.* at position 7/);
    const none = io();
    expect(await main(['queue', 'edit', id, '--store', file], none)).toBe(2);
    expect(none.stderr).toMatch(/at least one flag of a create-scope change/);
    const shown = io();
    await main(['queue', 'show', id, '--store', file], shown);
    expect((JSON.parse(shown.stdout) as { item: { input: { scopeValue: string } } }).item.input.scopeValue).toBe('ledger:export');

    expect(
      await main(['queue', 'send', '--store', file, '--client-id', tenant.clientId, '--server-url', tenant.url], io(tenant.clientSecret)),
    ).toBe(0);
    expect(tenant.journal().some((j) => JSON.stringify(j).includes('ledger:export'))).toBe(true);
    const late = io();
    expect(await main(['queue', 'edit', id, '--store', file, '--display-name', 'Too late'], late)).toBe(1);
    expect(late.stderr).toMatch(/is succeeded: only queued items can be edited/);
  });

  it('queues an escalation without a policy step the store does not know, says so, and the tenant accepts the body without it', async () => {
    const file = join(tmp.dir, 'escalate.sqlite');
    const [task] = escalatableTasks(tenant.data, 1);
    const added = io();
    expect(await main(['queue', 'add', 'escalate', '--store', file, '--task', task!.taskId, '--comment', 'on call'], added)).toBe(0);
    expect(added.stderr).toContain(`no policy step: the store knows no current step of task ${task!.taskId}`);
    expect(added.stderr).toContain(`escalate task ${task!.taskId} (its current policy step) to emergency access`);
    const sent = io(tenant.clientSecret);
    expect(await main(['queue', 'send', '--store', file, '--client-id', tenant.clientId, '--server-url', tenant.url], sent)).toBe(0);
    const applied = tenant.journal().filter((j) => j.operation === 'escalateTask' && j.objectId === task!.taskId);
    expect(applied.map((j) => j.request)).toEqual([{ comment: 'on call' }]);
    expect((tenant.data.tasks.get(task!.taskId) as unknown as { emergencyAccess: boolean }).emergencyAccess).toBe(true);
  });

  it('asks for the related objects with --expand, and keeps the ticket action id the tenant answers', async () => {
    const file = join(tmp.dir, 'escalate-expand.sqlite');
    const [, task] = escalatableTasks(tenant.data, 2);
    const bad = io();
    expect(await main(['queue', 'add', 'escalate', '--store', file, '--task', task!.taskId, '--expand', 'app id'], bad)).toBe(2);
    expect(bad.stderr).toContain("expandMask[0] 'app id' is not a path such as app_id");
    const added = io();
    const argv = ['queue', 'add', 'escalate', '--store', file, '--task', task!.taskId, '--expand', 'app_id, app_user_id', '--json'];
    expect(await main(argv, added)).toBe(0);
    const id = (JSON.parse(added.stdout) as { id: string }).id;
    const sent = io(tenant.clientSecret);
    expect(await main(['queue', 'send', '--store', file, '--client-id', tenant.clientId, '--server-url', tenant.url], sent)).toBe(0);
    const applied = tenant.journal().filter((j) => j.operation === 'escalateTask' && j.objectId === task!.taskId);
    expect(applied.map((j) => j.request)).toEqual([{ expandMask: { paths: ['app_id', 'app_user_id'] } }]);
    const shown = io();
    await main(['queue', 'show', id, '--store', file], shown);
    const { item } = JSON.parse(shown.stdout) as { item: { state: string; result: Record<string, unknown> } };
    expect(item.state).toBe('succeeded');
    expect(item.result).toEqual({
      taskId: task!.taskId,
      emergencyAccess: true,
      ticketActionId: expect.stringMatching(/\S/),
      expanded: [
        expect.objectContaining({ type: 'App', collection: 'apps' }),
        expect.objectContaining({ type: 'AppUser', collection: null }),
      ],
    });
  });

  it('exits 3 when the tenant refuses the credentials, and nothing is lost', async () => {
    const rows = removableMemberships(tenant.data, 1);
    const file = join(tmp.dir, 'auth.sqlite');
    expect(
      await main(
        [
          'queue',
          'add',
          'remove-membership',
          '--store',
          file,
          '--app',
          rows[0]!.appId,
          '--entitlement',
          rows[0]!.appEntitlementId,
          '--user',
          rows[0]!.appUserId,
        ],
        io(),
      ),
    ).toBe(0);
    const other = await startTenant({ port: 0, seed: 78 });
    try {
      const out = io(other.clientSecret);
      const code = await main(['queue', 'send', '--store', file, '--client-id', tenant.clientId, '--server-url', tenant.url], out);
      expect(code).toBe(3);
      const listed = io();
      await main(['queue', 'list', '--store', file, '--json'], listed);
      expect((JSON.parse(listed.stdout) as { state: string }[]).map((i) => i.state)).toEqual(['queued']);
    } finally {
      await other.close();
    }
  });
});
