#!/usr/bin/env node
// After `npm install` (the postinstall script, under scripts/with-node.mjs): checks that the native
// modules load under the Node that runs the project. npm builds keytar with the Node npm runs under,
// which may be older than the project's; keytar is a Node-API module, so a build made under an older
// Node loads under a newer one. Where it does not load (no build, or one made for another Node),
// keytar is built again here, under this Node and against its own headers.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { envFor, root } from './node-runtime.mjs';

const probes = {
  'better-sqlite3': "new (require('better-sqlite3'))(':memory:').prepare('select 1 as one').get()",
  keytar: "require('keytar')",
};

/** Loads a module in a child (a bad native module can take its process down), returning why it failed. */
function loadProblem(name) {
  const run = spawnSync(process.execPath, ['-e', probes[name]], { cwd: root, encoding: 'utf8' });
  if (run.status === 0) return null;
  const why = run.signal
    ? `crashed with ${run.signal}`
    : (run.stderr.split('\n').find((line) => /Error/.test(line)) ?? `exit ${run.status}`);
  return why.trim().slice(0, 300);
}

function rebuildKeytar() {
  const env = envFor(process.execPath);
  // The headers that came with this Node (node-<platform>-<arch> packages and most installs carry them).
  const prefix = dirname(dirname(process.execPath));
  if (existsSync(join(prefix, 'include', 'node', 'node_api.h'))) env.npm_config_nodedir = prefix;
  process.stderr.write(`attest: building keytar for Node ${process.versions.node}\n`);
  const run = spawnSync('npm', ['rebuild', 'keytar', '--foreground-scripts'], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
  return run.status === 0;
}

const node = `Node ${process.versions.node}${process.execPath.startsWith(root) ? ' (.tools/node)' : ''}`;
const broken = [];
for (const name of Object.keys(probes)) {
  let problem = loadProblem(name);
  if (problem && name === 'keytar' && rebuildKeytar()) problem = loadProblem(name);
  if (problem) broken.push(`${name} (${problem})`);
}
if (broken.length > 0) {
  process.stderr.write(`attest: native modules that do not load under ${node}: ${broken.join('; ')}\n`);
  process.exit(1);
}
process.stderr.write(`attest: native modules load under ${node}\n`);
// npm's EBADENGINE warnings above are about the Node npm itself ran under, when that one is older.
const npmNode = /\bnode\/v(\d+\.\d+\.\d+)/.exec(process.env.npm_config_user_agent ?? '')?.[1];
if (npmNode && npmNode !== process.versions.node) {
  process.stderr.write(`attest: npm ran under Node ${npmNode} (its engine warnings are about that one); the project runs under ${node}\n`);
}
