import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/store/db';

/**
 * The bootstrap on a machine whose Node is older than 22.12 (Debian's system Node 20 at
 * /usr/bin/node, or ATTEST_OLD_NODE): the CLI and every npm script run again under the project's
 * Node. A preload records every Node process of the tree, with its version and arguments.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const oldNode = process.env.ATTEST_OLD_NODE || '/usr/bin/node';
const dir = mkdtempSync(join(tmpdir(), 'attest-bootstrap-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const record = join(dir, 'record.cjs');
writeFileSync(
  record,
  "require('node:fs').appendFileSync(process.env.ATTEST_NODE_RECORD, JSON.stringify({ version: process.versions.node, pid: process.pid, argv: process.argv.slice(1) }) + '\\n');\n",
);

interface NodeProcess {
  version: string;
  pid: number;
  argv: string[];
}

let runs = 0;
/** The environment of a machine whose PATH holds only the older Node (and the system tools). */
function oldNodeEnv(): { env: NodeJS.ProcessEnv; processes: () => NodeProcess[] } {
  const file = join(dir, `processes-${(runs += 1)}.jsonl`);
  writeFileSync(file, '');
  const env = {
    ...process.env,
    PATH: [dirname(oldNode), '/usr/bin', '/bin'].join(':'),
    NODE_OPTIONS: `--require ${record}`,
    ATTEST_NODE_RECORD: file,
  };
  const processes = () =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as NodeProcess);
  return { env, processes };
}

const recent = (version: string) => {
  const [major, minor] = version.split('.').map(Number);
  return major! > 22 || (major === 22 && minor! >= 12);
};

describe('the Node bootstrap', () => {
  it('has an older Node to start from', () => {
    const version = spawnSync(oldNode, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
    expect(version, `${oldNode} should be a Node older than 22.12 (set ATTEST_OLD_NODE to one)`).toMatch(/^\d+\.\d+/);
    expect(recent(version)).toBe(false);
  });

  it('bin/attest.mjs under the older Node runs again under Node >= 22.12, native modules included', () => {
    const file = join(dir, 'store.sqlite');
    openStore(file).close();
    const { env, processes } = oldNodeEnv();
    const run = spawnSync(oldNode, [join(root, 'bin', 'attest.mjs'), 'runs', '--store', file, '--json'], {
      cwd: dir,
      env,
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ runs: [] });
    const [first, ...rest] = processes();
    expect(first!.version).not.toSatisfy(recent);
    const rerun = rest.find((p) => p.argv.includes(join(root, 'bin', 'attest.mjs')));
    expect(rerun?.version).toSatisfy(recent);
    expect(rerun?.argv.slice(-4)).toEqual(['runs', '--store', file, '--json']);
  });

  it('passes the exit code through', () => {
    const { env } = oldNodeEnv();
    const run = spawnSync(oldNode, [join(root, 'bin', 'attest.mjs'), 'no-such-command'], { cwd: dir, env, encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("unknown command 'no-such-command'");
  });

  it('scripts/with-node.mjs (every npm script) puts Node >= 22.12 first on PATH for the command and its tools', () => {
    const { env, processes } = oldNodeEnv();
    const run = spawnSync(
      oldNode,
      [join(root, 'scripts', 'with-node.mjs'), 'sh', '-c', 'node -p process.versions.node && vitest --version'],
      {
        cwd: dir,
        env,
        encoding: 'utf8',
      },
    );
    expect(run.status, run.stderr).toBe(0);
    const [nodeVersion, vitest] = run.stdout.trim().split('\n');
    expect(nodeVersion).toSatisfy(recent);
    expect(vitest).toMatch(/vitest\/\S+ .*node-v22/);
    const versions = processes().map((p) => p.version);
    expect(versions.filter((v) => !recent(v))).toHaveLength(1);
  });

  it('passes SIGTERM on to the command and ends as it ends', async () => {
    const { env, processes } = oldNodeEnv();
    const launcher = spawn(oldNode, [join(root, 'bin', 'attest.mjs'), 'tenant', '--port', '0'], {
      cwd: dir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const line = await new Promise<string>((resolve, reject) => {
      launcher.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString()));
      launcher.once('exit', (code) => reject(new Error(`the tenant stopped at start (${code})`)));
    });
    const { url } = JSON.parse(line) as { url: string };
    // Once it answers, the tenant is past setting up its own SIGTERM handler.
    expect((await fetch(`${url}/_tenant/journal`)).status).toBeLessThan(500);
    const tenant = processes().find((p) => p.argv.includes('tenant') && recent(p.version));
    expect(tenant).toBeDefined();
    const exited = new Promise<number | null>((resolve) => launcher.once('exit', (code) => resolve(code)));
    launcher.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(() => process.kill(tenant!.pid, 0)).toThrow();
  });
});
