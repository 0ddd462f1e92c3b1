import { savedConnectionState, type SavedConnectionState } from '../../main/app/connections';
import { lastUsedConnection, listConnections } from '../../main/connections';
import { defaultDataDir } from '../../main/data-dir';
import { osKeychain, type SecretStore } from '../../main/keychain';
import { SECRET_ENV } from '../../main/app/workspace';
import { EXIT } from '../exit-codes';
import { parseCommandArgs, type CommandModule } from '../io';

const usage = `Usage: attest connections [--data-dir DIR] [--no-check] [--json]

Lists the recorded connections (never their secrets). The default one (used last) is marked *.
Each is checked by getting a token with its secret from the OS keychain, and its state told:
online (a token was minted), credentials-refused (the tenant refused them: a rotated or revoked
credential; \`attest connect --name NAME\` with the new one replaces it), offline (no answer), or
no-secret (the keychain holds none). Where the keychain holds none for the default connection,
ATTEST_CLIENT_SECRET is checked instead, and the reason says so.
  --no-check   list without checking (no network)
  --json       print a JSON array on stdout: name, clientId, serverUrl, auth, tenantHost, createdAt,
               storeFile, default, state and stateReason (null with --no-check)`;

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

export function connectionsCommand(deps: ConnectionsDeps = {}): CommandModule {
  return {
    summary: 'list the recorded connections and their state (online, credentials refused, offline)',
    usage,
    async run(argv, io) {
      const { values } = parseCommandArgs(argv, {
        'data-dir': { type: 'string' },
        'no-check': { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
      });
      const dataDir = values['data-dir'] ?? defaultDataDir(io.env);
      const connections = listConnections(dataDir);
      const last = lastUsedConnection(dataDir);
      const isDefault = (name: string) => name === last || connections.length === 1;
      const states = values['no-check'] ? null : await statesOf(connections, (deps.secrets ?? (() => osKeychain()))(), isDefault, io.env);
      if (values.json) {
        io.out(
          JSON.stringify(
            connections.map((c, i) => ({
              ...c,
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
      const rows = [
        ['', 'NAME', ...(states ? ['STATE'] : []), 'TENANT', 'AUTH', 'CREATED', 'CLIENT ID'],
        ...connections.map((c, i) => [
          isDefault(c.name) ? '*' : '',
          c.name,
          ...(states ? [states[i]!.state] : []),
          c.serverUrl ?? c.tenantHost,
          c.auth,
          c.createdAt.slice(0, 10),
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
