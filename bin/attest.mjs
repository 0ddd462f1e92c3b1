#!/usr/bin/env node
// The `attest` command. Runs the TypeScript CLI from source through tsx, so a fresh clone needs
// only `npm install`. The native modules need Node >= 22.12: under an older Node this runs again
// under the project's Node (.tools/node, fetched once; see scripts/node-runtime.mjs).
import { reexecUnderProjectNode } from '../scripts/node-runtime.mjs';

await reexecUnderProjectNode();
const { register } = await import('tsx/esm/api');
register();
const { main } = await import('../src/cli/index.ts');
process.exitCode = await main(process.argv.slice(2));
