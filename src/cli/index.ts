import { EXIT, exitCodeFor } from './exit-codes';
import { processIO, UsageError, type CliIO, type CommandModule } from './io';
import { stdoutText, terminalText } from './terminal-text';

/**
 * The attest CLI: a thin front (argument parsing and printing) over the same application layer the
 * desktop app uses over IPC. Each command lives in commands/<name>.ts and is loaded on demand.
 */
const commands: Record<string, () => Promise<{ default: CommandModule }>> = {
  tenant: () => import('./commands/tenant'),
  'ui-host': () => import('./commands/ui-host'),
  queue: () => import('./commands/queue'),
  journal: () => import('./commands/journal'),
  connect: () => import('./commands/connect'),
  connections: () => import('./commands/connections'),
  disconnect: () => import('./commands/disconnect'),
  sync: () => import('./commands/sync'),
  list: () => import('./commands/list'),
  search: () => import('./commands/search'),
  show: () => import('./commands/show'),
  diff: () => import('./commands/diff'),
  runs: () => import('./commands/runs'),
  toolset: () => import('./commands/toolset'),
  template: () => import('./commands/template'),
  export: () => import('./commands/export'),
  verify: () => import('./commands/verify'),
  review: () => import('./commands/review'),
  key: () => import('./commands/key'),
  demo: () => import('./commands/demo'),
};

function help(io: CliIO, loaded: Record<string, CommandModule>): void {
  const lines = ['Usage: attest <command> [options]', '', 'Commands:'];
  for (const [name, mod] of Object.entries(loaded)) lines.push(`  ${name.padEnd(14)} ${mod.summary}`);
  lines.push('', 'Run `attest <command> --help` for the options of one command.');
  io.err(lines.join('\n'));
}

/** `--json`, `-o json` or `--output json`, in any spelling the commands' parser takes, before a `--`. */
function asksForJson(args: readonly string[]): boolean {
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--') return false;
    if (arg === '--json' || arg === '-ojson' || arg === '--output=json') return true;
    if ((arg === '-o' || arg === '--output') && args[i + 1] === 'json') return true;
  }
  return false;
}

/** The names of the exit codes (`usage`, `network`, …): the `code` of a JSON error. */
const EXIT_NAMES = new Map<number, string>(Object.entries(EXIT).map(([name, code]) => [code, name]));

/**
 * The IO a command gets: what it writes to stderr escaped for a terminal but our own line breaks
 * (its redrawn lines as given: their caller escapes them), what it writes to stdout with the
 * controls JSON allows raw written as `\u` escapes. With `--json`, stdout is held until the
 * command ends, so that a failure adds `{"error":{"code","message"}}` to it (see `finish`).
 */
function guardedIO(io: CliIO, json: boolean) {
  let held = '';
  let lastMessage = '';
  const guarded: CliIO = {
    ...io,
    get columns() {
      return io.columns;
    },
    out: (text) => {
      if (!json) io.out(stdoutText(text));
      else held += text.endsWith('\n') ? text : `${text}\n`;
    },
    err: (text) => {
      lastMessage = text;
      io.err(terminalText(text));
    },
  };
  /**
   * Ends a command with exit `code`. With `--json`, a failure's error (`thrown`, else the last
   * message on stderr) joins the result the command printed, when that is one JSON object, or
   * follows it on a line of its own.
   */
  const finish = (code: number, thrown?: string): number => {
    if (!json) return code;
    let text = held;
    if (code !== EXIT.ok) {
      const error = { code: EXIT_NAMES.get(code) ?? String(code), message: thrown ?? (lastMessage.trim() || `exit code ${code}`) };
      const result = parsedObject(held);
      text =
        result && !('error' in result) ? `${JSON.stringify({ ...result, error }, null, 2)}\n` : `${held}${JSON.stringify({ error })}\n`;
    }
    if (text !== '') io.out(stdoutText(text));
    return code;
  };
  return { io: guarded, finish };
}

/** `text` as one JSON object, or null when it is not one. */
function parsedObject(text: string): Record<string, unknown> | null {
  if (text.trim() === '') return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export async function main(argv: string[], rawIO: CliIO = processIO): Promise<number> {
  const [name, ...rest] = argv;
  const { io, finish } = guardedIO(rawIO, asksForJson(rest));
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    const loaded: Record<string, CommandModule> = {};
    for (const [key, load] of Object.entries(commands)) loaded[key] = (await load()).default;
    help(io, loaded);
    return name ? EXIT.ok : EXIT.usage;
  }
  const load = commands[name];
  if (!load) {
    const message = `unknown command '${name}'. Run 'attest --help' for the list.`;
    io.err(`attest: ${message}`);
    return finish(EXIT.usage, message);
  }
  const command = (await load()).default;
  if (rest.includes('--help') || rest.includes('-h')) {
    io.err(command.usage);
    return EXIT.ok;
  }
  try {
    return finish(await command.run(rest, io));
  } catch (error) {
    const message = (error as Error)?.message ?? String(error);
    if (error instanceof UsageError) {
      io.err(`attest ${name}: ${message}\n\n${command.usage}`);
      return finish(EXIT.usage, message);
    }
    io.err(`attest ${name}: ${message}`);
    return finish(exitCodeFor(error), message);
  }
}
