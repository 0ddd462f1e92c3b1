import { spawn } from 'node:child_process';
import { chmodSync, statSync } from 'node:fs';
import { hostname, uptime } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/main/api/client';
import { openStore } from '../../src/main/store/db';
import { syncTenant } from '../../src/main/sync/engine';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { tempDir } from './sync.helpers';

const modeOf = (path: string) => statSync(path).mode & 0o777;
const clientFor = (tenant: ReferenceTenant) =>
  createApiClient({ clientId: tenant.clientId, clientSecret: tenant.clientSecret, serverUrl: tenant.url });

describe('a store is its owner alone, and filled by one sync at a time', () => {
  let tenant: ReferenceTenant;
  let tmp: ReturnType<typeof tempDir>;

  beforeAll(async () => {
    tenant = await startTenant({ port: 0, seed: 5, scale: 1, faults: 'latency=5' });
    tmp = tempDir('attest-store-guards-');
  });
  afterAll(async () => {
    await tenant?.close();
    tmp?.remove();
  });

  it('creates its folders 0700 and its files 0600 under a parent anyone may write to', () => {
    chmodSync(tmp.dir, 0o777);
    const file = join(tmp.dir, 'shared', 'attest', 'store.sqlite');
    const store = openStore(file);
    try {
      store.db.exec("INSERT OR REPLACE INTO store_meta (key, value) VALUES ('probe', '1')");
      expect(modeOf(join(tmp.dir, 'shared'))).toBe(0o700);
      expect(modeOf(join(tmp.dir, 'shared', 'attest'))).toBe(0o700);
      expect(modeOf(file)).toBe(0o600);
      expect(modeOf(`${file}-wal`)).toBe(0o600);
      expect(modeOf(`${file}-shm`)).toBe(0o600);
    } finally {
      store.close();
    }
  });

  it('refuses a second sync of the same store while one runs, and takes the store again once it ended', async () => {
    const file = join(tmp.dir, 'twice.sqlite');
    const [one, two] = [openStore(file), openStore(file)];
    try {
      const first = syncTenant({ store: one, api: clientFor(tenant) });
      await expect(syncTenant({ store: two, api: clientFor(tenant) })).rejects.toMatchObject({
        name: 'CoreError',
        code: 'busy',
        message: expect.stringMatching(/^A sync of this store is already running \(in this process, since \d{4}-/),
      });
      expect((await first).status).toBe('completed');
      expect((await syncTenant({ store: two, api: clientFor(tenant) })).status).toBe('completed');
      // Nothing of a hold is left once the syncs ended.
      expect(one.db.prepare('SELECT COUNT(*) FROM sync_holder').pluck().get()).toBe(0);
    } finally {
      one.close();
      two.close();
    }
  });

  it('names another live process that holds it, and takes over from one that is gone or from before a reboot', async () => {
    const file = join(tmp.dir, 'held.sqlite');
    const store = openStore(file);
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    const hold = (pid: number, bootedAt = Math.round((Date.now() - uptime() * 1000) / 60_000)) =>
      store.db
        .prepare('INSERT OR REPLACE INTO sync_holder (id, pid, host, booted_at, since) VALUES (1, ?, ?, ?, ?)')
        .run(pid, hostname(), bootedAt, '2026-01-01T00:00:00.000Z');
    try {
      hold(other.pid!);
      await expect(syncTenant({ store, api: clientFor(tenant) })).rejects.toThrow(
        `A sync of this store is already running (by process ${other.pid}, since 2026-01-01T00:00:00.000Z); wait for it to end.`,
      );
      expect(store.runs()).toEqual([]);

      // The same process id recorded before this machine last booted names another process.
      hold(other.pid!, 1000);
      expect((await syncTenant({ store, api: clientFor(tenant), only: ['scopes'] })).status).toBe('completed');

      const exited = new Promise((resolve) => other.once('exit', resolve));
      other.kill('SIGKILL');
      await exited;
      hold(other.pid!);
      expect((await syncTenant({ store, api: clientFor(tenant), only: ['scopes'] })).status).toBe('completed');
    } finally {
      if (other.exitCode === null && other.signalCode === null) other.kill('SIGKILL');
      store.close();
    }
  });

  it("fails the page of a collection that lists an object twice, naming the id, and keeps the store's other collections", async () => {
    const faulty = await startTenant({ port: 0, seed: 5, scale: 1, faults: 'repeatRow=1' });
    const store = openStore(join(tmp.dir, 'repeat.sqlite'));
    try {
      const summary = await syncTenant({ store, api: clientFor(faulty), only: ['scopes', 'toolsets'] });
      expect(summary.status).toBe('failed');
      for (const id of ['scopes', 'toolsets'] as const) {
        const walk = summary.collections.find((c) => c.collection === id)!;
        expect(walk.complete).toBe(false);
        expect(walk.error).toMatch(new RegExp(`^${id}: ${id} page: the id '[^']+' is listed twice$`));
      }
      expect(store.countObjects('scopes')).toBe(0);
    } finally {
      store.close();
      await faulty.close();
    }
  });
});
