import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Where a command writes: machine-readable results to stdout, human messages to stderr. */
export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  /**
   * Writes to stderr as given: the live lines a terminal redraws in place, whose cursor moves are
   * ours (their caller escapes any other text in them). Without it a command draws no live lines.
   */
  redraw?(text: string): void;
  /** Reads all of standard input (used for secrets, which never come as arguments). */
  readStdin(): Promise<string>;
  env: NodeJS.ProcessEnv;
  /** stderr is a terminal (progress, highlights in messages). */
  isTTY: boolean;
  /** stdout is a terminal: tables are cut to its width (`columns`) by default. */
  stdoutIsTTY?: boolean;
  columns?: number | undefined;
}

export const processIO: CliIO = {
  out: (text) => void process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => void process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
  redraw: (text) => void process.stderr.write(text),
  readStdin: async () => {
    if (process.stdin.isTTY) return '';
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
  env: process.env,
  isTTY: Boolean(process.stderr.isTTY),
  stdoutIsTTY: Boolean(process.stdout.isTTY),
  get columns() {
    return process.stdout.columns;
  },
};

/** A bad command line: printed with the command's usage, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Input given on the command line or stdin that cannot be right (a malformed client id or secret): exit 2, without the usage. */
export class InvalidArgumentError extends Error {
  override name = 'InvalidArgumentError';
}

/** Runs local checks of command-line input: their typed errors (a malformed credential, say) become exit 2, not an auth failure. */
export async function asInput<T>(check: () => T | Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    if ((error as Error)?.name === 'CredentialError') throw new InvalidArgumentError((error as Error).message, { cause: error });
    throw error;
  }
}

/** node:util parseArgs with strict checking, turning its errors into UsageError. */
export function parseCommandArgs<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T, allowPositionals = false) {
  try {
    return parseArgs({ args: argv, options, allowPositionals, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export interface CommandModule {
  summary: string;
  usage: string;
  run(argv: string[], io: CliIO): Promise<number>;
}
