import { EXIT, exitCodeFor } from './exit-codes';
import { processIO, UsageError, type CliIO, type CommandModule } from './io';

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
  export: () => import('./commands/export'),
  verify: () => import('./commands/verify'),
  key: () => import('./commands/key'),
  demo: () => import('./commands/demo'),
};

function help(io: CliIO, loaded: Record<string, CommandModule>): void {
  const lines = ['Usage: attest <command> [options]', '', 'Commands:'];
  for (const [name, mod] of Object.entries(loaded)) lines.push(`  ${name.padEnd(14)} ${mod.summary}`);
  lines.push('', 'Run `attest <command> --help` for the options of one command.');
  io.err(lines.join('\n'));
}

export async function main(argv: string[], io: CliIO = processIO): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    const loaded: Record<string, CommandModule> = {};
    for (const [key, load] of Object.entries(commands)) loaded[key] = (await load()).default;
    help(io, loaded);
    return name ? EXIT.ok : EXIT.usage;
  }
  const load = commands[name];
  if (!load) {
    io.err(`attest: unknown command '${name}'. Run 'attest --help' for the list.`);
    return EXIT.usage;
  }
  const command = (await load()).default;
  if (rest.includes('--help') || rest.includes('-h')) {
    io.err(command.usage);
    return EXIT.ok;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`attest ${name}: ${error.message}\n\n${command.usage}`);
      return EXIT.usage;
    }
    io.err(`attest ${name}: ${(error as Error).message ?? String(error)}`);
    return exitCodeFor(error);
  }
}
