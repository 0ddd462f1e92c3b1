import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runExport } from '../../main/app/tasks/export';
import { runSync } from '../../main/app/tasks/sync';
import { openWorkspace, type Workspace } from '../../main/app/workspace';
import { prepareConnection, saveConnection } from '../../main/connections';
import { keychainAvailable, memorySecretStore, osKeychain, type SecretStore } from '../../main/keychain';
import { verifyWorkbook } from '../../main/reports';
import { startTenant } from '../../tenant/server';
import { EXIT } from '../exit-codes';
import { parseCommandArgs, UsageError, type CommandModule } from '../io';
import { appVersion, printExportSummary } from './export';

const usage = `Usage: attest demo [--out FILE.xlsx] [--scale demo|large|N] [--seed N] [--json]

The headless main job on the built-in demo tenant: starts the reference tenant in this process on
a random loopback port, connects with its fresh credentials (held in the OS keychain for the run,
or in memory where there is no keychain), syncs every collection into a store in a temporary
folder, exports the evidence workbook (default ./attest-demo-evidence.xlsx), verifies it, prints
a short summary and stops the tenant.`;

const command: CommandModule = {
  summary: 'sync the built-in demo tenant and export its evidence workbook',
  usage,
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, {
      out: { type: 'string', short: 'o', default: 'attest-demo-evidence.xlsx' },
      scale: { type: 'string', default: 'demo' },
      seed: { type: 'string', default: '1' },
      json: { type: 'boolean', default: false },
    });
    const out = resolve(values.out);
    if (!/\.xlsx$/i.test(out)) throw new UsageError('--out must name an .xlsx file');
    const scale = values.scale === 'demo' || values.scale === 'large' ? values.scale : Number(values.scale);
    if (typeof scale === 'number' && !(Number.isFinite(scale) && scale > 0))
      throw new UsageError(`--scale is demo, large or a number, not '${values.scale}'`);
    const seed = Number(values.seed);
    if (!Number.isInteger(seed)) throw new UsageError(`--seed takes an integer, not '${values.seed}'`);

    const started = performance.now();
    const tenant = await startTenant({ port: 0, seed, scale });
    const work = mkdtempSync(join(tmpdir(), 'attest-demo-'));
    let secrets: SecretStore | null = null;
    let workspace: Workspace | null = null;
    try {
      io.err(`demo tenant on ${tenant.url} (client id ${tenant.clientId})`);
      // The secret goes to the OS keychain for this run and is read back from there; a machine
      // without one keeps it in memory only. It is never written to disk or printed.
      let where: string;
      if (await keychainAvailable(3000)) {
        secrets = osKeychain();
        where = 'the OS keychain (removed again at the end)';
      } else {
        secrets = memorySecretStore();
        where = 'memory only: no OS keychain on this machine';
      }
      await secrets.set(tenant.clientId, tenant.clientSecret);
      io.err(`credentials: ${where}`);
      // A connection of its own, in the temporary folder: the secret is read back from where it was put.
      saveConnection(work, prepareConnection(work, { clientId: tenant.clientId, serverUrl: tenant.url, name: 'demo' }));
      workspace = await openWorkspace(work, 'demo', { secrets, secret: 'required' });
      const sync = await runSync(workspace);
      const synced = sync.collections.map((c) => `${c.collection} ${c.fetched}${c.complete ? '' : ' (INCOMPLETE)'}`).join(', ');
      io.err(`synced run ${sync.runId} (${sync.status}, ${sync.ms} ms): ${synced}`);

      const result = await runExport(workspace, { kind: 'evidence', out, appVersion: appVersion() });
      printExportSummary(io, result);
      const check = await verifyWorkbook(out);
      io.err(`verify: ${check.status}`);
      if (values.json) {
        io.out(
          JSON.stringify(
            {
              tenant: tenant.url,
              sync: { runId: sync.runId, status: sync.status, collections: sync.collections },
              export: result,
              verify: check.status,
            },
            null,
            2,
          ),
        );
      }
      io.err(`done in ${((performance.now() - started) / 1000).toFixed(1)} s: open ${out}`);
      return sync.status === 'completed' && check.status === 'intact' ? EXIT.ok : EXIT.other;
    } finally {
      workspace?.close();
      if (secrets) await secrets.delete(tenant.clientId).catch(() => false);
      await tenant.close();
      rmSync(work, { recursive: true, force: true });
    }
  },
};

export default command;
