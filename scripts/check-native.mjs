#!/usr/bin/env node
// After `npm install` (the postinstall script, under scripts/with-node.mjs): checks that the native
// modules load under the Node that runs the project. npm builds keytar with the Node npm runs under,
// which may be older than the project's; keytar is a Node-API module, so a build made under an older
// Node loads under a newer one. Where it does not load (a build made for another Node), keytar is
// built again here, under this Node and against its own headers.
// keytar (the OS keychain) is an optional dependency: it builds from source, and where the compiler
// or the libsecret headers are missing npm leaves it out without a word. This says so in one line,
// with the command that adds it; everything but keeping secrets in the keychain works without it.
// Under CI=true it must be there (CI installs those packages, and the keychain tests never skip).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { envFor, root } from './node-runtime.mjs';

const probes = {
  'better-sqlite3': "new (require('better-sqlite3'))(':memory:').prepare('select 1 as one').get()",
  keytar: "require('keytar')",
  // The store's codec (raw-codec.ts): a Node-API module whose build for this platform npm fetches.
  'lz4-napi': "require('lz4-napi').uncompressSync(require('lz4-napi').compressSync('{}'))",
};
const KEYCHAIN_PACKAGES = 'sudo apt-get install libsecret-1-dev g++ make';

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

const succeeds = (command, args) => spawnSync(command, args, { stdio: 'ignore' }).status === 0;

/** The packages keytar's build needs that this machine lacks (Linux), as far as can be told. */
function missingBuildPackages() {
  if (process.platform !== 'linux') return [];
  return [
    ['libsecret-1-dev', () => succeeds('pkg-config', ['--exists', 'libsecret-1'])],
    ['g++', () => succeeds('g++', ['--version'])],
    ['make', () => succeeds('make', ['--version'])],
  ]
    .filter(([, present]) => !present())
    .map(([name]) => name);
}

/** The one line said where keytar is not there: why, what still works, and the command that adds it. */
function keychainModuleLine(loadFailure) {
  const missing = missingBuildPackages();
  const why = loadFailure
    ? `does not load: ${loadFailure}`
    : `was not built${missing.length > 0 ? `: it needs ${missing.join(', ')}` : ''}`;
  const add = process.platform === 'linux' ? `${KEYCHAIN_PACKAGES}, then npm install` : 'a C++ compiler, then npm install';
  return (
    `attest: the OS keychain module (keytar) ${why}. Everything works without it but keeping secrets ` +
    `(set ATTEST_CLIENT_SECRET instead). To add it: ${add}\n`
  );
}

const node = `Node ${process.versions.node}${process.execPath.startsWith(root) ? ' (.tools/node)' : ''}`;
const ci = process.env.CI === 'true' || process.env.CI === '1';

const broken = [];
const betterSqlite = loadProblem('better-sqlite3');
if (betterSqlite) broken.push(`better-sqlite3 (${betterSqlite})`);
const lz4 = loadProblem('lz4-napi');
if (lz4) broken.push(`lz4-napi (${lz4})`);

// Null where keytar loads, else why not. Not there at all: npm could not build it (nothing to rebuild).
let keytarProblem = loadProblem('keytar');
const keytarInstalled = !keytarProblem?.includes("Cannot find module 'keytar'");
if (keytarInstalled && keytarProblem && rebuildKeytar()) keytarProblem = loadProblem('keytar');
if (keytarProblem && ci) broken.push(`keytar (${keytarProblem}; CI needs it: ${KEYCHAIN_PACKAGES}, then npm ci)`);

if (broken.length > 0) {
  process.stderr.write(`attest: native modules that do not load under ${node}: ${broken.join('; ')}\n`);
  process.exit(1);
}
if (keytarProblem) process.stderr.write(keychainModuleLine(keytarInstalled ? keytarProblem : null));
else process.stderr.write(`attest: native modules load under ${node}\n`);
// npm's EBADENGINE warnings above are about the Node npm itself ran under, when that one is older.
const npmNode = /\bnode\/v(\d+\.\d+\.\d+)/.exec(process.env.npm_config_user_agent ?? '')?.[1];
if (npmNode && npmNode !== process.versions.node) {
  process.stderr.write(`attest: npm ran under Node ${npmNode} (its engine warnings are about that one); the project runs under ${node}\n`);
}
