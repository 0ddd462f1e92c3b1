import { appVersion } from '../../main/app/app-version';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBrowserHost } from '../../main/browser-host/server';
import { EXIT } from '../exit-codes';
import { parseCommandArgs, UsageError, type CommandModule } from '../io';
import { defaultDataDir } from '../../main/app/data-dir';

const usage = `Usage: attest ui-host [--port N] [--data-dir DIR] [--renderer DIR] [--store FILE] [--dialog-dir DIR] [--online-check-seconds N]

Serves the built renderer (run \`npm run build\` first) to a browser on 127.0.0.1, with the
app's contract over HTTP: for tests and development only, never part of the packaged app.
--store FILE opens that store file offline at start (no tenant), for benches and demos of big stores.
--dialog-dir DIR stands in for the native dialogs (tests): saves go to DIR, opens take DIR's newest file.
  Without it, an export is a browser download, and opening a file cancels.
--online-check-seconds N: how often an offline tenant is checked while its connection sends or syncs on its own (default 30).
Prints one JSON line {"url": …} (the URL carries the per-run token) and runs until interrupted.`;

const command: CommandModule = {
  summary: 'serve the renderer to a browser on loopback (tests and development)',
  usage,
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, {
      port: { type: 'string', default: '0' },
      'data-dir': { type: 'string' },
      renderer: { type: 'string' },
      store: { type: 'string' },
      'dialog-dir': { type: 'string' },
      'online-check-seconds': { type: 'string', default: '30' },
    });
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be 0 to 65535, not '${values.port}'`);
    const check = Number(values['online-check-seconds']);
    if (!Number.isInteger(check) || check < 1 || check > 3600)
      throw new UsageError(`--online-check-seconds must be a whole number from 1 to 3600, not '${values['online-check-seconds']}'`);
    const rendererRoot = resolve(values.renderer ?? fileURLToPath(new URL('../../../out/renderer', import.meta.url)));
    if (!existsSync(resolve(rendererRoot, 'index.html'))) {
      io.err(`attest ui-host: no built renderer at ${rendererRoot}; run \`npm run build\` first.`);
      return EXIT.other;
    }
    const dataDir = resolve(values['data-dir'] ?? defaultDataDir(io.env));
    const host = await startBrowserHost({
      rendererRoot,
      dataDir,
      port,
      version: appVersion(),
      storeFile: values.store ? resolve(values.store) : undefined,
      dialogDir: values['dialog-dir'] ? resolve(values['dialog-dir']) : undefined,
      onlineCheckMs: check * 1000,
      // "Open demo tenant" runs `attest tenant` with this same Node.
      demoTenant: { execPath: process.execPath, cliPath: fileURLToPath(new URL('../../../bin/attest.mjs', import.meta.url)) },
      log: (line) => io.err(line),
    });
    io.out(JSON.stringify({ url: host.url }));
    io.err(`attest ui-host: open ${host.url} in a browser (data: ${dataDir}); Ctrl+C stops it`);
    await new Promise<void>((done) => {
      const stop = () => done();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await host.close();
    return EXIT.ok;
  },
};

export default command;
