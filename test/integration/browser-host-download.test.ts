/**
 * The browser host without a dialog folder: a save answers a path of the host's own, and the call
 * that writes it tells the page to download it (X-Attest-Download), from GET /download/<id> with the
 * per-run token, as an attachment named as the file.
 */
import ExcelJS from 'exceljs';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserHost, type BrowserHost } from '../../src/main/browser-host/server';
import { seedFixtureStore } from '../e2e/seed-store';

let host: BrowserHost;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'attest-host-download-'));
  const renderer = join(dir, 'renderer');
  mkdirSync(renderer, { recursive: true });
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>Attest</title>');
  const storeFile = join(dir, 'fixtures.sqlite');
  seedFixtureStore(storeFile, 3);
  host = await startBrowserHost({ rendererRoot: renderer, dataDir: join(dir, 'data'), storeFile });
});

afterAll(async () => {
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call(channel: string, args: unknown): Promise<{ value: unknown; download: string | null }> {
  const response = await fetch(`${host.origin}/rpc/${channel}`, {
    method: 'POST',
    headers: { origin: host.origin, 'content-type': 'application/json', 'x-attest-token': host.token },
    body: JSON.stringify(args),
  });
  const reply = (await response.json()) as { ok: boolean; value?: unknown; error?: { message: string } };
  if (!reply.ok) throw new Error(`${channel}: ${reply.error?.message}`);
  return { value: reply.value, download: response.headers.get('x-attest-download') };
}

describe('an export in the browser host without a dialog folder', () => {
  it('is offered as a download once written, to the page of this run only, and the workbook reads back', async () => {
    const saved = await call('showSaveDialog', { defaultName: 'Scopes — Q4.xlsx' });
    const path = (saved.value as { path: string }).path;
    expect(path).toMatch(/Scopes — Q4\.xlsx$/);
    // Nothing written yet: nothing to download.
    expect(saved.download).toBeNull();

    const exported = await call('exportReport', { kind: 'scopes', path });
    expect(exported.download).toMatch(/^[A-Za-z0-9_-]+$/);
    const url = `${host.origin}/download/${exported.download}`;

    expect((await fetch(url)).status).toBe(403);
    expect((await fetch(`${url}?token=wrong`)).status).toBe(403);
    expect((await fetch(`${url}?token=${host.token}`, { headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(403);
    expect((await fetch(`${host.origin}/download/unknown?token=${host.token}`)).status).toBe(404);

    const response = await fetch(`${url}?token=${host.token}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="Scopes _ Q4.xlsx"; filename*=UTF-8''${encodeURIComponent('Scopes — Q4.xlsx')}`,
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    expect(workbook.getWorksheet('Scopes')!.rowCount).toBe(1 + 5);

    // Offered once: the next call says nothing of it.
    expect((await call('collections', {})).download).toBeNull();
    expect(existsSync(dirname(path))).toBe(true);
  });
});
