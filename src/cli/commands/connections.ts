import { lastUsedConnection, listConnections } from '../../main/connections';
import { defaultDataDir } from '../../main/data-dir';
import { EXIT } from '../exit-codes';
import { parseCommandArgs, type CommandModule } from '../io';

const usage = `Usage: attest connections [--data-dir DIR] [--json]

Lists the recorded connections (never their secrets). The default one (used last) is marked *.
  --json   print a JSON array on stdout: name, clientId, serverUrl, auth, tenantHost, createdAt,
           storeFile, default`;

const command: CommandModule = {
  summary: 'list the recorded connections',
  usage,
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, { 'data-dir': { type: 'string' }, json: { type: 'boolean', default: false } });
    const dataDir = values['data-dir'] ?? defaultDataDir(io.env);
    const connections = listConnections(dataDir);
    const last = lastUsedConnection(dataDir);
    const isDefault = (name: string) => name === last || connections.length === 1;
    if (values.json) {
      io.out(JSON.stringify(connections.map((c) => ({ ...c, default: isDefault(c.name) }))));
      return EXIT.ok;
    }
    if (connections.length === 0) {
      io.err(`No connections in ${dataDir}. Run \`attest connect --client-id ID < secret\` first.`);
      return EXIT.ok;
    }
    const rows = [
      ['', 'NAME', 'TENANT', 'AUTH', 'CREATED', 'CLIENT ID'],
      ...connections.map((c) => [
        isDefault(c.name) ? '*' : '',
        c.name,
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
    return EXIT.ok;
  },
};

export default command;
