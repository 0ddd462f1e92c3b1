import { resolve } from 'node:path';
import { defaultDataDir } from '../../main/app/data-dir';
import { refuseExisting } from '../../main/app/output-file';
import { DEMO_CONNECTION, recordDemoConnection } from '../../main/app/saved-connections';
import {
  KEYCHAIN_MODULE_MISSING,
  keychainAvailable,
  keychainModuleMissing,
  memorySecretStore,
  osKeychain,
  type SecretStore,
} from '../../main/app/secrets';
import { runExport } from '../../main/app/tasks/export';
import { runSync } from '../../main/app/tasks/sync';
import { verifyWorkbook } from '../../main/app/tasks/verify';
import { openWorkspace, type Workspace } from '../../main/app/workspace';
import { startTenant } from '../../tenant/server';
import { EXIT } from '../exit-codes';
import { parseCommandArgs, UsageError, type CommandModule } from '../io';
import { appVersion, printExportSummary } from './export';

const usage = `Usage: attest demo [--out FILE.xlsx [--force]] [--data-dir DIR] [--scale demo|large|N] [--seed N] [--json]

The headless main job on the built-in demo tenant: starts the reference tenant in this process on
a random loopback port, connects with its fresh credentials (held in the OS keychain for the run,
or in memory where there is no keychain), syncs every collection into the store of the 'demo'
connection of the data folder (the one the app's "Open demo tenant" uses), exports the evidence
workbook (default ./attest-demo-evidence.xlsx), verifies it, prints where the workbook went and
how to open the app on the same data, and stops the tenant.
  --out FILE.xlsx     write the workbook there instead: a file already there is refused (exit 2)
                      unless --force (the default workbook is the demo's own, written again each run)
  --force             overwrite a file already at --out
  --data-dir DIR      where connections are recorded (default: the OS app-data folder; ATTEST_DATA_DIR)`;

const command: CommandModule = {
  summary: 'sync the built-in demo tenant and export its evidence workbook',
  usage,
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, {
      out: { type: 'string', short: 'o' },
      force: { type: 'boolean', default: false },
      'data-dir': { type: 'string' },
      scale: { type: 'string', default: 'demo' },
      seed: { type: 'string', default: '1' },
      json: { type: 'boolean', default: false },
    });
    const out = resolve(values.out ?? 'attest-demo-evidence.xlsx');
    if (!/\.xlsx$/i.test(out)) throw new UsageError('--out must name an .xlsx file');
    if (values.out !== undefined && !values.force) refuseExisting(out);
    const scale = values.scale === 'demo' || values.scale === 'large' ? values.scale : Number(values.scale);
    if (typeof scale === 'number' && !(Number.isFinite(scale) && scale > 0))
      throw new UsageError(`--scale is demo, large or a number, not '${values.scale}'`);
    const seed = Number(values.seed);
    if (!Number.isInteger(seed)) throw new UsageError(`--seed takes an integer, not '${values.seed}'`);

    const dataDir = resolve(values['data-dir'] ?? defaultDataDir(io.env));

    const started = performance.now();
    const tenant = await startTenant({ port: 0, seed, scale });
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
      } else if (keychainModuleMissing()) {
        secrets = memorySecretStore();
        where = `memory only. ${KEYCHAIN_MODULE_MISSING}.`;
      } else {
        secrets = memorySecretStore();
        where = 'memory only: no OS keychain on this machine';
      }
      await secrets.set(tenant.clientId, tenant.clientSecret);
      io.err(`credentials: ${where}`);
      // The app's demo connection: its store is kept, so the app opens on what this run synced.
      // The secret is read back from where it was put.
      recordDemoConnection(dataDir, tenant);
      workspace = await openWorkspace(dataDir, DEMO_CONNECTION, { secrets, secret: 'required' });
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
      io.err(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      io.err(`workbook: ${out} (verify: ${check.status}; \`npx attest verify ${shellWord(out)}\` checks it again)`);
      for (const line of appOnSameData(dataDir, io.env)) io.err(line);
      return sync.status === 'completed' && check.status === 'intact' ? EXIT.ok : EXIT.other;
    } finally {
      workspace?.close();
      if (secrets) await secrets.delete(tenant.clientId).catch(() => false);
      await tenant.close();
    }
  },
};

/** How to open the app on a data folder: the same renderer in a browser, or the desktop app. */
function appOnSameData(dataDir: string, env: NodeJS.ProcessEnv): string[] {
  const dir = shellWord(dataDir);
  const isDefault = dataDir === defaultDataDir({ ...env, ATTEST_DATA_DIR: '' });
  return [
    `the app on the same data (${dataDir}):`,
    `  in a browser:  npm run build && npx attest ui-host --data-dir ${dir}   (then open the URL it prints)`,
    `  desktop app:   ${isDefault ? '' : `ATTEST_DATA_DIR=${dir} `}npm start`,
  ];
}

/** A path as one shell word. */
function shellWord(text: string): string {
  return /^[\w./:@%+=,-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}

export default command;
