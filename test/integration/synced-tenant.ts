/**
 * A reference tenant on 127.0.0.1 with a saved connection to it and a first sync made by the CLI,
 * for the tests of a file (started before them, stopped after): what most CLI tests of the outbox
 * start from.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { prepareConnection, recordConnection } from '../../src/main/app/saved-connections';
import type { Scale } from '../../src/tenant/dataset';
import { startTestTenant, type TestTenant } from '../helpers/tenant';
import { tempDir } from './outbox.helpers';
import { runCli } from './sync.helpers';

export interface SyncedTenant {
  tenant(): TestTenant;
  /** The environment the CLI runs with: the data folder and the client secret. */
  env(): NodeJS.ProcessEnv;
  dataDir(): string;
  /** A folder of the test's own (removed after). */
  dir(): string;
  /** `attest …` with the connection. */
  cli(...argv: string[]): Promise<{ code: number; out: string; err: string }>;
}

export function useSyncedTenant(opts: { seed: number; scale?: Scale; name: string }): SyncedTenant {
  let tenant: TestTenant | undefined;
  let tmp: ReturnType<typeof tempDir> | undefined;
  let env: NodeJS.ProcessEnv = {};
  const dataDir = () => join(tmp!.dir, 'data');
  const cli = (...argv: string[]) => runCli([...argv, '--connection', opts.name], env);
  beforeAll(async () => {
    tenant = await startTestTenant({ seed: opts.seed, ...(opts.scale === undefined ? {} : { scale: opts.scale }) });
    tmp = tempDir(`attest-${opts.name}-`);
    recordConnection(dataDir(), prepareConnection(dataDir(), { clientId: tenant.clientId, serverUrl: tenant.url, name: opts.name }));
    env = { ATTEST_CLIENT_SECRET: tenant.clientSecret, ATTEST_DATA_DIR: dataDir() };
    const synced = await cli('sync');
    expect(synced.code, synced.err).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await tenant?.close();
    tmp?.remove();
  });
  return { tenant: () => tenant!, env: () => env, dataDir, dir: () => tmp!.dir, cli };
}
