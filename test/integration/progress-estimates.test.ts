/**
 * Progress that tells the truth: a sync's walks are measured against the last completed sync of
 * the same collection (or the ids they read), an export's rows against the rows to export, and
 * the duration an export reports is the wall time of the request, measured here around the call
 * to the browser host.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/main/api/client';
import { startBrowserHost, type BrowserHost } from '../../src/main/browser-host/server';
import { openStore } from '../../src/main/store/db';
import { syncTenant, type SyncProgress } from '../../src/main/sync/engine';
import type { ChannelResult, ExportProgress } from '../../src/shared/contract';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { seedFixtureStore } from '../e2e/seed-store';

describe('sync progress against the last sync', () => {
  let tenant: ReferenceTenant;
  let dir: string;

  beforeAll(async () => {
    tenant = await startTenant({ port: 0, seed: 5, scale: 2 });
    dir = mkdtempSync(join(tmpdir(), 'attest-progress-'));
  });
  afterAll(async () => {
    await tenant?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('knows the pages and objects to expect from the last completed walk, or from the ids a walk reads, and estimates the time left', async () => {
    const store = openStore(join(dir, 'store.sqlite'));
    try {
      const api = createApiClient({ clientId: tenant.clientId, clientSecret: tenant.clientSecret, serverUrl: tenant.url });
      const first: SyncProgress[] = [];
      const one = await syncTenant({ store, api, onProgress: (e) => first.push(e) });
      expect(one.status).toBe('completed');
      const automations = one.collections.find((c) => c.collection === 'automations')!;
      expect(automations.pages).toBeGreaterThan(2);
      // A first sync knows nothing of the list walks...
      expect(first.filter((e) => e.collection === 'automations').every((e) => e.expectedPages === null && e.etaSeconds === null)).toBe(
        true,
      );
      // ...but a walk by id knows its ids.
      const templates = one.collections.find((c) => c.collection === 'templates')!;
      const templateRunning = first.filter((e) => e.collection === 'templates' && e.state === 'running');
      expect(templateRunning.length).toBeGreaterThan(0);
      for (const e of templateRunning)
        expect({ pages: e.expectedPages, items: e.expectedItems }).toEqual({ pages: templates.pages, items: templates.fetched });

      const second: SyncProgress[] = [];
      expect((await syncTenant({ store, api, onProgress: (e) => second.push(e) })).status).toBe('completed');
      const running = second.filter((e) => e.collection === 'automations' && e.state === 'running');
      for (const e of running)
        expect({ pages: e.expectedPages, items: e.expectedItems }).toEqual({ pages: automations.pages, items: automations.fetched });
      // Between the first and the last page: the time left at the pace so far.
      const midway = running.filter((e) => e.pages > 0 && e.pages < automations.pages);
      expect(midway.length).toBe(automations.pages - 1);
      for (const e of midway) expect(e.etaSeconds).toBeGreaterThan(0);
      const done = second.find((e) => e.collection === 'automations' && e.state === 'done')!;
      expect(done).toMatchObject({ pages: automations.pages, items: automations.fetched, etaSeconds: null });
    } finally {
      store.close();
    }
  });
});

describe('export progress and duration through the browser host', () => {
  let host: BrowserHost;
  let dir: string;
  const extraScopes = 6000;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'attest-export-duration-'));
    const renderer = join(dir, 'renderer');
    mkdirSync(renderer, { recursive: true });
    writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>Attest</title>');
    const storeFile = join(dir, 'fixtures.sqlite');
    seedFixtureStore(storeFile, extraScopes);
    host = await startBrowserHost({ rendererRoot: renderer, dataDir: join(dir, 'data'), storeFile, dialogDir: dir });
  }, 120_000);
  afterAll(async () => {
    await host?.close();
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

  it('reports rows written against the rows to export, and a duration within 10% of the wall time around the call', async () => {
    const events: ExportProgress[] = [];
    const stop = host.events.subscribe((name, payload) => name === 'exportProgress' && events.push(payload as ExportProgress));
    try {
      const { path } = await call<ChannelResult<'showSaveDialog'>>('showSaveDialog', { title: 'Export', defaultName: 'evidence.xlsx' });
      expect(path).not.toBeNull();
      const before = performance.now();
      const result = await call<ChannelResult<'exportReport'>>('exportReport', { kind: 'evidence', path });
      const wall = performance.now() - before;
      // The file is ready at its path when the answer comes.
      expect(statSync(path!).size).toBe(result.bytes);
      expect(Math.abs(result.ms - wall)).toBeLessThanOrEqual(wall * 0.1);

      const rows = result.sheets.reduce((sum, sheet) => sum + sheet.rows, 0);
      const sheets = events.filter((e) => e.phase === 'sheet');
      expect(sheets.length).toBeGreaterThan(2);
      // Rows written only grow; the rows to export include every scope from the first event on.
      for (let i = 1; i < sheets.length; i += 1) expect(sheets[i]!.rowsWritten).toBeGreaterThanOrEqual(sheets[i - 1]!.rowsWritten);
      for (const e of sheets) expect(e.rowsTotal).toBeGreaterThanOrEqual(extraScopes);
      expect(sheets.some((e) => e.etaSeconds !== null && e.etaSeconds > 0 && e.rowsWritten < e.rowsTotal!)).toBe(true);
      const last = events.at(-1)!;
      expect(last).toMatchObject({ phase: 'finished', error: null, rowsWritten: rows, rowsTotal: rows, etaSeconds: null });
      expect(last.elapsedMs).toBeLessThanOrEqual(wall);
    } finally {
      stop();
    }
  });
});
