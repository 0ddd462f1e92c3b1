#!/usr/bin/env node
// `npm start`: builds and opens the desktop app. Electron's binary is fetched on first start
// (its install script is not run by `npm install`, see package.json allowScripts); where it cannot
// be fetched, says so in one line and points at the headless demo and at the same app in a browser
// (on the same data folder) instead of a stack trace. Runs under the project's Node (scripts/node-runtime.mjs).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { envFor, reexecUnderProjectNode } from './node-runtime.mjs';

await reexecUnderProjectNode();

const require = createRequire(import.meta.url);
const root = new URL('..', import.meta.url).pathname;
const electronDir = dirname(require.resolve('electron/package.json'));

function electronBinary() {
  try {
    const relative = readFileSync(join(electronDir, 'path.txt'), 'utf8');
    const binary = join(electronDir, 'dist', relative);
    return existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

if (!electronBinary()) {
  const install = spawnSync(process.execPath, [join(electronDir, 'install.js')], { encoding: 'utf8' });
  if (install.status !== 0 || !electronBinary()) {
    const reason =
      `${install.stderr ?? ''}`
        .split('\n')
        .find((line) => /Error|error/.test(line))
        ?.trim() ?? 'download failed';
    process.stderr.write(
      `attest: the Electron binary is not installed and could not be downloaded (${reason.slice(0, 160)}); the desktop app cannot start on this machine. Run \`npm run demo\` for the headless job on the demo tenant, or \`npm run build && npx attest ui-host\` to use the app in a browser on the same data (open the URL it prints).\n`,
    );
    process.exit(1);
  }
}

const mode = process.argv.includes('--dev') ? 'dev' : 'preview';
const result = spawnSync(join(root, 'node_modules', '.bin', 'electron-vite'), [mode], {
  cwd: root,
  stdio: 'inherit',
  env: envFor(process.execPath),
});
process.exit(result.status ?? 1);
