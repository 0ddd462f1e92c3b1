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
