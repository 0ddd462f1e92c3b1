/**
 * Review worksheets through the app's contract, over the browser host and a store synced from the
 * reference tenant: a worksheet written only where a save dialog said, for an entitlement, an app
 * or a campaign; a returned one read only from a file an open dialog gave, its dry run queuing
 * nothing.
 */
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserHost, type BrowserHost } from '../../src/main/browser-host/server';
import { prepareConnection, recordConnection } from '../../src/main/app/saved-connections';
import type { ChannelResult } from '../../src/shared/contract';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { editWorksheet } from '../helpers/review-edit';
import { runCli, tempDir } from './sync.helpers';

let tenant: ReferenceTenant;
let tmp: ReturnType<typeof tempDir>;
let host: BrowserHost;
let dialogDir: string;

beforeAll(async () => {
  tenant = await startTenant({ port: 0, seed: 77 });
  tmp = tempDir('attest-review-rpc-');
  const dataDir = join(tmp.dir, 'data');
  const connection = prepareConnection(dataDir, { clientId: tenant.clientId, serverUrl: tenant.url, name: 'reviews' });
  recordConnection(dataDir, connection);
  const synced = await runCli(['sync', '--connection', 'reviews', '--only', 'apps,entitlements,app-users,memberships,campaigns'], {
    ATTEST_CLIENT_SECRET: tenant.clientSecret,
    ATTEST_DATA_DIR: dataDir,
  });
  expect(synced.code, synced.err).toBe(0);
  const renderer = join(tmp.dir, 'renderer');
  mkdirSync(renderer, { recursive: true });
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>Attest</title>');
  dialogDir = join(tmp.dir, 'dialogs');
  mkdirSync(dialogDir, { recursive: true });
  host = await startBrowserHost({
    rendererRoot: renderer,
    dataDir: join(tmp.dir, 'host-data'),
    storeFile: connection.storeFile,
    dialogDir,
  });
}, 120_000);
afterAll(async () => {
  await host?.close();
  await tenant?.close();
  tmp?.remove();
});

async function call<T>(channel: string, args: unknown = {}): Promise<T> {
  const response = await fetch(`${host.origin}/rpc/${channel}`, {
    method: 'POST',
    headers: { origin: host.origin, 'content-type': 'application/json', 'x-attest-token': host.token },
    body: JSON.stringify(args),
  });
  const reply = (await response.json()) as { ok: boolean; value?: T; error?: { code: string; message: string } };
  if (!reply.ok) throw new Error(`${channel}: ${reply.error?.code} ${reply.error?.message}`);
  return reply.value as T;
}

const saveAs = async (name: string): Promise<string> =>
  (await call<ChannelResult<'showSaveDialog'>>('showSaveDialog', { defaultName: name })).path!;
const exportReview = (args: { path: string; scope: string; id: string; reviewer?: string | null }) =>
  call<ChannelResult<'exportReviewWorksheet'>>('exportReviewWorksheet', args);
const importReview = (path: string, dryRun: boolean) =>
  call<ChannelResult<'importReviewDecisions'>>('importReviewDecisions', { path, dryRun });

describe('review worksheets over the contract', () => {
  it('writes one only where a save dialog said, for an entitlement, an app or a campaign', async () => {
    const [membership] = [...tenant.data.memberships.values()];
    const entitlementId = membership!.appEntitlementId;
    const unchosen = join(tmp.dir, 'unchosen.xlsx');
    await expect(exportReview({ path: unchosen, scope: 'entitlement', id: entitlementId })).rejects.toThrow(/forbidden/);
    expect(existsSync(unchosen)).toBe(false);

    const members = (keep: (m: { appId: string; appEntitlementId: string }) => boolean) =>
      [...tenant.data.memberships.values()].filter(keep).length;
    const byEntitlement = await exportReview({
      path: await saveAs('entitlement.xlsx'),
      scope: 'entitlement',
      id: entitlementId,
      reviewer: 'Rita',
    });
    expect(byEntitlement.rows).toBe(members((m) => m.appEntitlementId === entitlementId));
    expect(byEntitlement.file).toBe(join(dialogDir, 'entitlement.xlsx'));
    expect(byEntitlement.scope).toContain(entitlementId);
    expect(byEntitlement.sha256).toMatch(/^[0-9a-f]{64}$/);
    const byApp = await exportReview({ path: await saveAs('app.xlsx'), scope: 'app', id: membership!.appId });
    expect(byApp.rows).toBe(members((m) => m.appId === membership!.appId));
    const single = ([...tenant.data.campaigns.values()] as unknown as { id: string; singleApp: { appId: string } | null }[]).find(
      (c) => c.singleApp && members((m) => m.appId === c.singleApp!.appId) > 0,
    )!;
    const byCampaign = await exportReview({ path: await saveAs('campaign.xlsx'), scope: 'campaign', id: single.id });
    expect(byCampaign.rows).toBe(members((m) => m.appId === single.singleApp!.appId));

    await expect(exportReview({ path: await saveAs('none.xlsx'), scope: 'entitlement', id: 'no-such-entitlement' })).rejects.toThrow(
      /bad_request .*no-such-entitlement/,
    );
    expect(existsSync(join(dialogDir, 'none.xlsx'))).toBe(false);
    await expect(
      exportReview({ path: await saveAs('bad.xlsx'), scope: 'app', id: membership!.appId, reviewer: 'Rita\u0007' }),
    ).rejects.toThrow(/bad_request .*control characters/);
  });

  it('reads a returned one only from a file an open dialog gave: a dry run queues nothing, a changed cell is named', async () => {
    const [membership] = [...tenant.data.memberships.values()];
    const exported = await exportReview({ path: await saveAs('returned.xlsx'), scope: 'app', id: membership!.appId, reviewer: 'Rita' });
    // The file the app wrote is the reviewer's to fill; what comes back is another file, read once an open dialog gives it.
    const returned = join(dialogDir, 'returned-filled.xlsx');
    copyFileSync(exported.file, returned);
    editWorksheet(returned, [[2, 'Keep', 'fine']]);
    await expect(importReview(returned, true)).rejects.toThrow(/forbidden/);
    const { path } = await call<ChannelResult<'showOpenDialog'>>('showOpenDialog', { filters: [{ name: 'Excel', extensions: ['xlsx'] }] });
    expect(path).toBe(returned);
    const dry = await importReview(path!, true);
    expect(dry).toMatchObject({ dryRun: true, refused: [], batch: null, worksheet: { name: 'returned.xlsx', reviewer: 'Rita' } });
    expect(dry.decisions.map((d) => [d.row, d.decision, d.comment, d.itemId])).toEqual([[2, 'Keep', 'fine', null]]);

    editWorksheet(returned, [['set', 'B3', 'Someone Else']]);
    const refused = await importReview(path!, false);
    expect(refused.refused.join('\n')).toMatch(/'Review'!B3: ".*" → "Someone Else"/);
    expect(refused.batch).toBeNull();
    expect((await call<ChannelResult<'outboxList'>>('outboxList', {})).items).toHaveLength(0);
  });
});
