import { mkdtempSync, rmSync } from 'node:fs';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserHost, type BrowserHost } from '../../src/main/browser-host/server';
import type { ChannelResult } from '../../src/shared/contract';
import { COLLECTION_IDS } from '../../src/shared/contract';
import { seedFixtureStore } from '../e2e/seed-store';

let host: BrowserHost;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'attest-host-data-'));
  const renderer = join(dir, 'renderer');
  mkdirSync(renderer, { recursive: true });
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>Attest</title>');
  const storeFile = join(dir, 'fixtures.sqlite');
  seedFixtureStore(storeFile, 30);
  host = await startBrowserHost({ rendererRoot: renderer, dataDir: join(dir, 'data'), storeFile });
});

afterAll(async () => {
  await host.close();
  rmSync(dir, { recursive: true, force: true });
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

describe('the contract over a stored workspace', () => {
  it('describes every collection with its columns, filter values and "as of" status', async () => {
    const result = await call<ChannelResult<'collections'>>('collections');
    expect(result.collections.map((c) => c.id).sort()).toEqual([...COLLECTION_IDS].sort());
    const scopes = result.collections.find((c) => c.id === 'scopes')!;
    expect(scopes.columns.find((c) => c.key === 'state')).toMatchObject({ kind: 'enum', filterable: true });
    expect(scopes.filterValues.state?.length).toBeGreaterThan(0);
    // Ids a user filters by: a scope's resource server, a campaign's template (offered by its name) and creator.
    expect(scopes.filterValues.xaaResourceServerId).toEqual(['rs_payroll_api']);
    const campaigns = result.collections.find((c) => c.id === 'campaigns')!;
    expect(campaigns.filterValues.accessReviewTemplateId).toEqual(['art_quarterly_finance']);
    expect(campaigns.filterLabels.accessReviewTemplateId).toEqual({ art_quarterly_finance: 'Quarterly finance access review' });
    expect(campaigns.columns.find((c) => c.key === 'createdById')).toMatchObject({ filterable: true });
    expect(campaigns.filterValues.createdById?.length).toBe(1);
    // An id the store holds no object for is offered as the id itself.
    expect(scopes.filterLabels.appId ?? {}).toEqual({});
    const status = result.status.find((s) => s.id === 'scopes')!;
    expect(status).toMatchObject({ count: 32, complete: true });
    expect(status.asOf).not.toBeNull();
  });

  it('lists a window of rows, sorted and filtered, with the total', async () => {
    const page = await call<ChannelResult<'listObjects'>>('listObjects', {
      collection: 'scopes',
      offset: 5,
      limit: 10,
      sort: { key: 'scopeValue', dir: 'desc' },
    });
    expect(page.total).toBe(32);
    expect(page.rows).toHaveLength(10);
    const all = await call<ChannelResult<'listObjects'>>('listObjects', {
      collection: 'scopes',
      limit: 100,
      filters: { state: ['XAA_SCOPE_STATE_ENABLED'] },
    });
    expect(all.rows.every((r) => r.cells.state === 'XAA_SCOPE_STATE_ENABLED')).toBe(true);
    const byTemplate = async (id: string) =>
      call<ChannelResult<'listObjects'>>('listObjects', { collection: 'campaigns', limit: 10, filters: { accessReviewTemplateId: [id] } });
    expect((await byTemplate('art_quarterly_finance')).total).toBe(1);
    expect((await byTemplate('art_other')).total).toBe(0);
    const byServer = async (id: string) =>
      call<ChannelResult<'listObjects'>>('listObjects', { collection: 'scopes', limit: 10, filters: { xaaResourceServerId: [id] } });
    expect((await byServer('rs_payroll_api')).total).toBe(32);
    expect((await byServer('rs_other')).total).toBe(0);
  });

  it('filters a list by typed words over the store (as search matches them), with filters and a sort, in id order or sorted', async () => {
    const words = async (text: string, extra: Record<string, unknown> = {}) =>
      call<ChannelResult<'listObjects'>>('listObjects', { collection: 'scopes', limit: 100, text, ...extra });
    // Prefixes of words, anywhere in the indexed text; the total counts the matches only.
    const extra = await words('extra scop');
    expect(extra.total).toBe(30);
    expect(extra.rows.every((r) => r.id.startsWith('xs_extra_'))).toBe(true);
    const one = await words('scope-17');
    expect(one.rows.map((r) => r.id)).toEqual(['xs_extra_17']);
    expect(one.total).toBe(1);
    // With a sort (the general listing) and with a filter: the same matches.
    const sorted = await words('extra', { sort: { key: 'scopeValue', dir: 'desc' }, offset: 0 });
    expect(sorted.total).toBe(30);
    expect(sorted.rows[0]?.cells.scopeValue).toBe('extra:scope-9');
    const payroll = await words('payroll');
    expect(payroll.rows.map((r) => r.id).sort()).toEqual(['xs_2f8d1c', 'xs_future']);
    expect(
      (await words('payroll', { filters: { state: ['XAA_SCOPE_STATE_ENABLED'] } })).rows.every(
        (r) => r.cells.state === 'XAA_SCOPE_STATE_ENABLED',
      ),
    ).toBe(true);
    // Another collection's words match nothing here; words no object holds, and no word at all, match nothing.
    expect((await words('leaver')).total).toBe(0);
    expect((await words('zzzqqq')).total).toBe(0);
    expect((await words('***')).total).toBe(0);
    expect((await words('   ')).total).toBe(32);
  });

  it('returns an object with its raw JSON exactly as stored, and its history', async () => {
    const { object } = await call<ChannelResult<'getObject'>>('getObject', { collection: 'automations', id: 'auto_leaver' });
    expect(object?.title).toBe('Leaver offboarding');
    expect(JSON.parse(object!.raw).id).toBe('auto_leaver');
    const history = await call<ChannelResult<'objectHistory'>>('objectHistory', { collection: 'automations', id: 'auto_leaver' });
    expect(history.entries[0]).toMatchObject({ change: 'added' });
    expect((await call<ChannelResult<'getObject'>>('getObject', { collection: 'scopes', id: 'missing' })).object).toBeNull();
  });

  it('searches with prefixes, marks matches, and counts facets per collection', async () => {
    const result = await call<ChannelResult<'search'>>('search', { query: 'payr', facets: true });
    expect(result.total).toBeGreaterThan(0);
    expect(result.hits[0]?.snippet).toContain('[[');
    expect(result.facets?.scopes).toBeGreaterThan(0);
    expect((await call<ChannelResult<'search'>>('search', { query: 'payr' })).facets).toBeNull();
    const extra = await call<ChannelResult<'search'>>('search', { query: 'extra', collection: 'scopes', limit: 5 });
    expect(extra.total).toBe(30);
    expect(extra.hits).toHaveLength(5);
  });

  it('checks a template change against the synced template: the derived updateMask, nothing queued', async () => {
    const preview = await call<ChannelResult<'outboxCheck'>>('outboxCheck', {
      kind: 'update-template',
      input: {
        templateId: 'art_quarterly_finance',
        changes: {
          displayName: 'Quarterly finance review (H2)',
          description: 'Every quarter, managers certify finance application access.',
          notificationConfig: { sendReminders: true },
        },
      },
    });
    // The description already has that value: only what really changes is in the mask, down to the member of a message.
    expect(preview.input.updateMask).toBe('displayName,notificationConfig.sendReminders');
    expect(preview.input.before).toEqual({
      displayName: 'Quarterly finance access review',
      'notificationConfig.sendReminders': false,
    });
    expect(preview.request).toMatchObject({
      method: 'POST',
      path: '/access_review_template/art_quarterly_finance',
      body: { updateMask: 'displayName,notificationConfig.sendReminders' },
    });
    expect(preview.summary).toBe('update template art_quarterly_finance: displayName,notificationConfig.sendReminders');
    await expect(
      call('outboxCheck', { kind: 'update-template', input: { templateId: 'art_quarterly_finance', changes: { scopeType: 'X' } } }),
    ).rejects.toThrow(/bad_request scopeType is set by the server/);
    await expect(
      call('outboxCheck', { kind: 'update-template', input: { templateId: 'art_quarterly_finance', changes: { colour: 'red' } } }),
    ).rejects.toThrow(/'colour' is not a template field/);
    expect((await call<ChannelResult<'outboxList'>>('outboxList')).items).toEqual([]);
  });

  it('summarizes the workspace for the overview', async () => {
    const overview = await call<ChannelResult<'overview'>>('overview');
    expect(overview.counts).toMatchObject({ scopes: 32, automations: 2, campaigns: 1, templates: 1, 'routing-rules': 1, toolsets: 1 });
    expect(overview.charts.scopesByState.reduce((a, d) => a + d.count, 0)).toBe(32);
    expect(overview.runs).toHaveLength(1);
  });

  it('writes and reads only files the user chose in a dialog', async () => {
    await expect(call('exportReport', { kind: 'scopes', path: join(dir, 'sneaky.xlsx') })).rejects.toThrow(/forbidden/);
    await expect(call('verifyWorkbook', { path: '/etc/passwd' })).rejects.toThrow(/forbidden/);
    await expect(call('showInFolder', { path: '/etc' })).rejects.toThrow(/forbidden/);
  });

  it('keeps working with no tenant: offline state, and sync refused with a clear reason', async () => {
    const state = await call<ChannelResult<'connectionState'>>('connectionState');
    expect(state.online).toBe(false);
    await expect(call('startSync')).rejects.toThrow(/auth/);
  });
});
