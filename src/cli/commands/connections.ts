import { AUTO_RUN_OFF, syncEveryProblem, type AutoRunChoice } from '../../shared/auto-run';
import { defaultDataDir } from '../../main/app/data-dir';
import {
  getConnection,
  lastUsedConnection,
  listConnections,
  savedConnectionState,
  setConnectionAutoRun,
  type Connection,
  type SavedConnectionState,
} from '../../main/app/saved-connections';
import { osKeychain, type SecretStore } from '../../main/app/secrets';
import { SECRET_ENV } from '../../main/app/workspace';
import { EXIT } from '../exit-codes';
import { parseCommandArgs, UsageError, type CliIO, type CommandModule } from '../io';

const usage = `Usage: attest connections [--data-dir DIR] [--no-check] [--json]
       attest connections --name NAME [--send-when-online on|off] [--sync-every N|off] [--data-dir DIR] [--json]

Lists the recorded connections (never their secrets). The default one (used last) is marked *.
Each is checked by getting a token with its secret from the OS keychain, and its state told:
online (a token was minted), credentials-refused (the tenant refused them: a rotated or revoked
credential; \`attest connect --name NAME\` with the new one replaces it), offline (no answer), or
no-secret (the keychain holds none). Where the keychain holds none for the default connection,
ATTEST_CLIENT_SECRET is checked instead, and the reason says so.
  --no-check   list without checking (no network)
  --json       print a JSON array on stdout: name, clientId, serverUrl, auth, tenantHost, createdAt,
               storeFile, autoRun, default, state and stateReason (null with --no-check)

What the desktop app runs on its own for a connection while it is open (off by default):
  --send-when-online on|off  send its queued changes when the tenant is reachable again
  --sync-every N|off         sync every N minutes (5 to 1440) while online
With --name, sets them (the others stay) and prints the connection's choice (--json: name and autoRun).`;

export interface ConnectionsDeps {
  secrets?: () => SecretStore;
}

/**
 * Each connection's state, checked in parallel. The secret given for this run stands in only for
 * the default connection (the one a command without --connection uses), so it is never sent to another tenant.
 */
function statesOf(
  connections: ReturnType<typeof listConnections>,
  secrets: SecretStore,
  isDefault: (name: string) => boolean,
  env: NodeJS.ProcessEnv,
): Promise<{ state: SavedConnectionState; reason: string | null }[]> {
  const fromEnv = env[SECRET_ENV]?.trim();
  const forThisRun = fromEnv ? { secret: fromEnv, source: SECRET_ENV } : undefined;
  return Promise.all(connections.map((c) => savedConnectionState(c, secrets, isDefault(c.name) ? forThisRun : undefined)));
}

/** What a connection runs on its own, in a few words ('-': nothing). */
function autoRunWords(choice: AutoRunChoice | undefined): string {
  const parts = [
    choice?.sendWhenOnline ? 'send when online' : '',
    choice?.syncEveryMinutes ? `sync every ${choice.syncEveryMinutes} min` : '',
  ];
  return parts.filter(Boolean).join(', ') || '-';
}

/** `--name N --send-when-online on|off --sync-every N|off`: checked whole, then recorded. */
function setAutoRun(
  dataDir: string,
  name: string,
  values: { send?: string | undefined; every?: string | undefined },
  io: CliIO,
  json: boolean,
) {
  if (values.send === undefined && values.every === undefined)
    throw new UsageError('--name sets what a connection runs on its own: give --send-when-online on|off and/or --sync-every N|off');
  const current: Connection = getConnection(dataDir, name);
  const choice: AutoRunChoice = { ...AUTO_RUN_OFF, ...current.autoRun };
  if (values.send !== undefined) {
    if (values.send !== 'on' && values.send !== 'off')
      throw new UsageError(`--send-when-online takes on or off, not '${values.send.slice(0, 40)}'`);
    choice.sendWhenOnline = values.send === 'on';
  }
  if (values.every !== undefined) {
    const every = values.every === 'off' ? null : /^\d+$/.test(values.every) ? Number(values.every) : values.every;
    const problem = syncEveryProblem(every);
    if (problem) throw new UsageError(`--sync-every: ${problem}`);
    choice.syncEveryMinutes = every as number | null;
  }
  const saved = setConnectionAutoRun(dataDir, current.name, choice);
  if (json) io.out(JSON.stringify({ name: saved.name, autoRun: saved.autoRun }));
  else io.err(`${saved.name}: on its own: ${autoRunWords(saved.autoRun)} (run by the desktop app while it is open)`);
  return EXIT.ok;
}

export function connectionsCommand(deps: ConnectionsDeps = {}): CommandModule {
  return {
    summary: 'list the recorded connections and their state (online, credentials refused, offline)',
    usage,
    async run(argv, io) {
      const { values } = parseCommandArgs(argv, {
        'data-dir': { type: 'string' },
        'no-check': { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        name: { type: 'string' },
        'send-when-online': { type: 'string' },
        'sync-every': { type: 'string' },
      });
      const dataDir = values['data-dir'] ?? defaultDataDir(io.env);
      if (values.name !== undefined)
        return setAutoRun(dataDir, values.name, { send: values['send-when-online'], every: values['sync-every'] }, io, values.json);
      if (values['send-when-online'] !== undefined || values['sync-every'] !== undefined)
        throw new UsageError('--send-when-online and --sync-every set one connection: name it with --name NAME');
      const connections = listConnections(dataDir);
      const last = lastUsedConnection(dataDir);
      const isDefault = (name: string) => name === last || connections.length === 1;
      const states = values['no-check'] ? null : await statesOf(connections, (deps.secrets ?? (() => osKeychain()))(), isDefault, io.env);
      if (values.json) {
        io.out(
          JSON.stringify(
            connections.map((c, i) => ({
              ...c,
              autoRun: c.autoRun ?? AUTO_RUN_OFF,
              default: isDefault(c.name),
              state: states?.[i]?.state ?? null,
              stateReason: states?.[i]?.reason ?? null,
            })),
          ),
        );
        return EXIT.ok;
      }
      if (connections.length === 0) {
        io.err(`No connections in ${dataDir}. Run \`attest connect --client-id ID < secret\` first.`);
        return EXIT.ok;
      }
      const anyAutoRun = connections.some((c) => autoRunWords(c.autoRun) !== '-');
      const rows = [
        ['', 'NAME', ...(states ? ['STATE'] : []), 'TENANT', 'AUTH', 'CREATED', ...(anyAutoRun ? ['ON ITS OWN'] : []), 'CLIENT ID'],
        ...connections.map((c, i) => [
          isDefault(c.name) ? '*' : '',
          c.name,
          ...(states ? [states[i]!.state] : []),
          c.serverUrl ?? c.tenantHost,
          c.auth,
          c.createdAt.slice(0, 10),
          ...(anyAutoRun ? [autoRunWords(c.autoRun)] : []),
          c.clientId,
        ]),
      ];
      const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
      io.out(
        rows
          .map((r) =>
            r
              .map((cell, i) => cell.padEnd(widths[i]!))
              .join('  ')
              .trimEnd(),
          )
          .join('\n'),
      );
      for (const [i, c] of connections.entries()) {
        const s = states?.[i];
        if (s && s.state !== 'online' && s.reason) io.err(`${c.name}: ${s.state}: ${s.reason}`);
      }
      return EXIT.ok;
    },
  };
}

export default connectionsCommand();
