/**
 * Exports onto a full disk: a 700 kB tmpfs, filled up by the test, for the CLI (a real `attest`
 * process) and for the app (the browser host over its contract). The export ends with a clear
 * error naming the cause and the path, leaves no temp file, releases the app's "running" state,
 * and a later export into the same folder succeeds once there is room again.
 * Mounting needs root; without it these tests fail with that reason (they never skip).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserHost, type BrowserHost } from '../../src/main/browser-host/server';
import { prepareConnection, recordConnection } from '../../src/main/app/saved-connections';
import { verifyWorkbook } from '../../src/main/reports';
import type { EventPayload } from '../../src/shared/contract';
import { seedFixtureStore } from '../e2e/seed-store';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'attest-full-disk-'));
const disk = join(dir, 'disk');
const dataDir = join(dir, 'data');
const filler = join(disk, 'filler.bin');
let mounted = false;
let storeFile = '';
let host: BrowserHost;

/** Fills the disk up to `leave` free bytes. */
function fill(leave: number): void {
  rmSync(filler, { force: true });
  const { bavail, bsize } = statfsSync(disk);
  writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - leave)));
}

function attest(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'bin/attest.mjs'), ...args], {
      env: { ...process.env, ATTEST_DATA_DIR: dataDir },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

async function call<T>(
  channel: string,
  args: unknown = {},
): Promise<{ ok: boolean; value?: T; error?: { code: string; message: string } }> {
  const response = await fetch(`${host.origin}/rpc/${channel}`, {
    method: 'POST',
    headers: { origin: host.origin, 'content-type': 'application/json', 'x-attest-token': host.token },
    body: JSON.stringify(args),
  });
  return (await response.json()) as { ok: boolean; value?: T; error?: { code: string; message: string } };
}

beforeAll(async () => {
  mkdirSync(disk);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=700k,mode=0755', 'tmpfs', disk], { stdio: 'pipe' });
    mounted = true;
  } catch (error) {
    throw new Error(`these tests mount a 700 kB tmpfs and need root: ${(error as { stderr?: Buffer }).stderr?.toString().trim()}`);
  }
  // A store whose evidence workbook is about 220 kB.
  const connection = prepareConnection(dataDir, { clientId: 'abc123@acme.example.test/attest', name: 'acme' });
  mkdirSync(dirname(connection.storeFile), { recursive: true });
  seedFixtureStore(connection.storeFile, 3000);
  recordConnection(dataDir, connection);
  storeFile = connection.storeFile;
  host = await startBrowserHost({ rendererRoot: join(dir, 'renderer'), dataDir: join(dir, 'host-data'), storeFile, dialogDir: disk });
});

afterAll(async () => {
  await host?.close();
  if (mounted) execFileSync('umount', [disk]);
  rmSync(dir, { recursive: true, force: true });
});

describe('export onto a full disk', () => {
  it('CLI: exit 1 naming the cause and the path, no temp file left (a killed export`s too); later export succeeds', async () => {
    const out = join(disk, 't.xlsx');
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(join(disk, `.t.xlsx.${gone}.0badf00d.tmp`), 'left by a killed export');
    fill(60 * 1024);

    const full = await attest(['export', 'evidence', '--out', out]);
    expect(full.stderr).toContain(`attest export: cannot write ${out}: the disk is full (ENOSPC); nothing was written there`);
    expect(full.stderr).not.toMatch(/unsettled|at .*\.ts:\d+/);
    expect(full.code).toBe(1);
    expect(readdirSync(disk)).toEqual(['filler.bin']);

    rmSync(filler);
    const later = await attest(['export', 'evidence', '--out', out]);
    expect(later.code, later.stderr).toBe(0);
    expect((await verifyWorkbook(out)).status).toBe('intact');
    rmSync(out);
  });

  it('app: an error result naming the cause and the path, the export no longer running; later export succeeds', async () => {
    const progress: EventPayload<'exportProgress'>[] = [];
    const stop = host.events.subscribe((event, data) => {
      if (event === 'exportProgress') progress.push(data as EventPayload<'exportProgress'>);
    });
    try {
      fill(60 * 1024);
      const chosen = await call<{ path: string }>('showSaveDialog', { defaultName: 'app.xlsx' });
      const path = chosen.value!.path;
      const args = { kind: 'evidence', path };

      const full = await call('exportReport', args);
      expect(full.ok).toBe(false);
      expect(full.error!.message).toBe(`cannot write ${path}: the disk is full (ENOSPC); nothing was written there`);
      expect(progress.at(-1)).toMatchObject({ phase: 'finished', error: full.error!.message });
      expect(readdirSync(disk)).toEqual(['filler.bin']);
      expect((await call<{ cancelled: boolean }>('cancelExport')).value).toEqual({ cancelled: false });

      // Not "An export is already running": the same error again.
      const again = await call('exportReport', args);
      expect(again.error?.message).toMatch(/ENOSPC/);

      rmSync(filler);
      const later = await call<{ file: string; bytes: number }>('exportReport', args);
      expect(later.ok, later.error?.message).toBe(true);
      expect(later.value!.file).toBe(path);
      const verified = await call<{ status: string }>('verifyWorkbook', { path });
      expect(verified.value!.status).toBe('intact');
      rmSync(path);
    } finally {
      stop();
    }
  });

  it('app: cancel ends a running export and releases it for the next one', async () => {
    const path = (await call<{ path: string }>('showSaveDialog', { defaultName: 'cancelled.xlsx' })).value!.path;
    const started = new Promise<void>((resolve) => {
      const stop = host.events.subscribe((event, data) => {
        if (event === 'exportProgress' && (data as EventPayload<'exportProgress'>).phase === 'sheet') {
          stop();
          resolve();
        }
      });
    });
    const running = call('exportReport', { kind: 'evidence', path });
    await started;
    expect((await call<{ cancelled: boolean }>('cancelExport')).value).toEqual({ cancelled: true });
    const cancelled = await running;
    expect(cancelled.ok).toBe(false);
    expect(cancelled.error!.message).toBe('export cancelled');
    expect(readdirSync(disk)).toEqual([]);
    const next = await call<{ file: string }>('exportReport', { kind: 'evidence', path });
    expect(next.ok, next.error?.message).toBe(true);
    rmSync(path);
  });
});
