#!/usr/bin/env node
// `node scripts/with-node.mjs COMMAND [ARGS...]`: runs COMMAND with a Node >= 22.12 first on PATH (the
// system one where it is recent enough, else .tools/node, fetched once), and the project's
// node_modules/.bin after it. Every npm script goes through it, so `npm test` or `npm run demo` work
// on a machine whose Node is older.
import { join } from 'node:path';
import { envFor, projectNode, root, runAndExit } from './node-runtime.mjs';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write('usage: node scripts/with-node.mjs COMMAND [ARGS...]\n');
  process.exit(2);
}
let node;
try {
  node = projectNode();
} catch (error) {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
await runAndExit(node, command === 'node' ? node : command, args, envFor(node, process.env, [join(root, 'node_modules', '.bin')]));
