import { defaultDataDir } from '../../main/app/data-dir';
import { deleteStoreFiles, dropSecret, getConnection, removeConnection } from '../../main/app/saved-connections';
import { osKeychain, type SecretStore } from '../../main/app/secrets';
import { EXIT } from '../exit-codes';
import { parseCommandArgs, UsageError, type CommandModule } from '../io';

const usage = `Usage: attest disconnect NAME [--delete-data] [--data-dir DIR] [--json]

Forgets a connection: removes its secret from the OS keychain and its record from the data dir.
Its local store (synced data, outbox) stays unless --delete-data is given.`;

export interface DisconnectDeps {
  secrets?: () => SecretStore;
}

export function disconnectCommand(deps: DisconnectDeps = {}): CommandModule {
  return {
    summary: 'forget a connection and remove its secret from the OS keychain',
    usage,
    async run(argv, io) {
      const { values, positionals } = parseCommandArgs(
        argv,
        { 'data-dir': { type: 'string' }, 'delete-data': { type: 'boolean', default: false }, json: { type: 'boolean', default: false } },
        true,
      );
      if (positionals.length !== 1)
        throw new UsageError(positionals.length === 0 ? 'name the connection to disconnect' : 'name exactly one connection');
      const dataDir = values['data-dir'] ?? defaultDataDir(io.env);
      const connection = getConnection(dataDir, positionals[0]!);
      const { removed: secretRemoved, problem } = await dropSecret((deps.secrets ?? (() => osKeychain()))(), connection.clientId);
      const keychainReached = problem === null;
      if (problem) io.err(`${problem}: no keychain entry was removed (none can have been stored on this machine without one).`);
      removeConnection(dataDir, connection.name);
      const dataDeleted = values['delete-data'] ? deleteStoreFiles(connection) : false;
      if (values.json)
        io.out(JSON.stringify({ name: connection.name, clientId: connection.clientId, secretRemoved, keychainReached, dataDeleted }));
      const parts = [`Disconnected '${connection.name}'`];
      if (secretRemoved) parts.push('its secret was removed from the OS keychain');
      else if (keychainReached) parts.push('the OS keychain held no secret for it');
      if (dataDeleted) parts.push('its local data was deleted');
      else if (!values['delete-data']) parts.push(`its local data stays in ${connection.storeFile}`);
      io.err(`${parts.join('; ')}.`);
      return EXIT.ok;
    },
  };
}

export default disconnectCommand();
