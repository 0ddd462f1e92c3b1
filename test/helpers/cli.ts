import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/index';
import type { CliIO } from '../../src/cli/io';

export type CapturedIO = CliIO & { stdout: string; stderr: string };

/**
 * The CLI's IO for a test: what it prints, each line ended once (redrawn lines as written); stdin as
 * given; not a terminal, unless `terminal` (then stderr and stdout are, `columns` wide).
 */
export function captureIO(stdin = '', env: NodeJS.ProcessEnv = {}, terminal = false): CapturedIO {
  const io: CapturedIO = {
    stdout: '',
    stderr: '',
    out: (text) => void (io.stdout += text.endsWith('\n') ? text : `${text}\n`),
    err: (text) => void (io.stderr += text.endsWith('\n') ? text : `${text}\n`),
    redraw: (text) => void (io.stderr += text),
    readStdin: async () => stdin,
    env,
    isTTY: terminal,
    stdoutIsTTY: terminal,
    ...(terminal ? { columns: 200 } : {}),
  };
  return io;
}

/** Runs `attest ARGS` in this process (what bin/attest.mjs runs) and returns its exit code and output. */
export async function runAttest(
  args: string[],
  stdin = '',
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = captureIO(stdin, env);
  const code = await main(args, io);
  return { code, stdout: io.stdout, stderr: io.stderr };
}

export interface SpawnedRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real `bin/attest.mjs` in a process of its own (what a user's shell runs), with stdin as given. */
export function spawnAttest(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; stdin?: string }): Promise<SpawnedRun> {
  const bin = fileURLToPath(new URL('../../bin/attest.mjs', import.meta.url));
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}
