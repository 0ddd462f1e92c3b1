import { defaultDataDir } from '../../main/app/data-dir';
import {
  checkToken,
  dropSecret,
  keepSecret,
  parseClientId,
  parseClientSecret,
  planConnection,
  recordConnection,
  type Connection,
} from '../../main/app/saved-connections';
import { osKeychain, type SecretStore } from '../../main/app/secrets';
import { SECRET_ENV } from '../../main/app/workspace';
import { EXIT } from '../exit-codes';
import { asInput, parseCommandArgs, UsageError, type CommandModule } from '../io';

const usage = `Usage: attest connect --client-id ID [--server-url URL] [--auth assertion|secret] [--name NAME] [--data-dir DIR] [--json] < secret

Connects to a tenant: reads the client secret from standard input (never from an argument),
checks it by getting an access token, stores it in the OS keychain (service "attest", account =
client id) and records the connection, without the secret, under the data dir.

With --name of an existing connection and another client id of the same tenant (a rotated
credential), it replaces that connection's credential in place after the token check: the new
secret goes to the keychain, the old entry is deleted, and the local data and the outbox stay.

  --client-id ID     <random-id>@<hostname>/<use-case>, as shown when the credential was created
  --server-url URL   talk to this base URL instead of https://<hostname> (http only for loopback)
  --auth METHOD      assertion (default: a signed Ed25519 assertion; a replaced credential keeps its
                     connection's) or secret (the basic form)
  --name NAME        the connection's name (default: from the hostname); an existing one: replace its credential
  --data-dir DIR     default: ATTEST_DATA_DIR, else the OS app-data folder
  --json             print the connection as JSON on stdout

Where no keychain exists (a headless server, or the keychain module was not built: it needs
libsecret-1-dev, g++ and make at \`npm install\`), the connection is recorded and the secret is not
stored: set ${SECRET_ENV} for each run instead. Stdin empty: ${SECRET_ENV} is read.`;

export interface ConnectDeps {
  secrets?: () => SecretStore;
}

export function connectCommand(deps: ConnectDeps = {}): CommandModule {
  return {
    summary: 'connect to a tenant (secret on stdin, stored in the OS keychain)',
    usage,
    async run(argv, io) {
      // Never echo a secret given by mistake as an argument (parseArgs would quote it).
      if (argv.some((arg) => arg.includes('secret-token:'))) {
        throw new UsageError('the client secret is never taken as an argument: pipe it on stdin (and remove it from your shell history)');
      }
      const { values } = parseCommandArgs(argv, {
        'client-id': { type: 'string' },
        'server-url': { type: 'string' },
        auth: { type: 'string' },
        name: { type: 'string' },
        'data-dir': { type: 'string' },
        json: { type: 'boolean', default: false },
      });
      const clientId = values['client-id']?.trim();
      if (!clientId) throw new UsageError('--client-id is required');
      const authGiven = values.auth;
      if (authGiven !== undefined && authGiven !== 'assertion' && authGiven !== 'secret')
        throw new UsageError(`--auth must be 'assertion' or 'secret', not '${String(authGiven).slice(0, 40)}'`);
      const dataDir = values['data-dir'] ?? defaultDataDir(io.env);
      // The client id and server URL are checked before the secret is read: a malformed one is bad input (exit 2).
      await asInput(() => parseClientId(clientId, values['server-url']));

      let secret = (await io.readStdin()).trim();
      if (!secret) {
        secret = io.env[SECRET_ENV]?.trim() ?? '';
        if (!secret)
          throw new UsageError(
            `no client secret: pipe it on stdin (e.g. \`attest connect --client-id ID < secret.txt\`) or set ${SECRET_ENV}; it is never taken as an argument`,
          );
        io.err(`Reading the client secret from ${SECRET_ENV}.`);
      }

      // Both parts are checked locally first: each malformed part has its own message.
      const { connection, replaces } = planConnection(dataDir, {
        clientId,
        serverUrl: values['server-url'],
        auth: authGiven,
        name: values.name,
      });
      const auth = connection.auth;
      await asInput(() => parseClientSecret(secret));

      const { tokenUrl, apiRoot } = await checkToken(connection, secret);
      // Only the token endpoint was asked: say so, rather than claim the API accepted them.
      const form = auth === 'assertion' ? 'signed assertion' : 'client secret';
      io.err(
        `Token check passed: the token endpoint ${tokenUrl} accepted the credentials (${form}) and issued an access token; ` +
          `no API endpoint under ${apiRoot} was called yet.`,
      );

      const { kept: stored, problem } = await keepSecret((deps.secrets ?? (() => osKeychain()))(), connection.clientId, secret);
      if (problem) {
        io.err(`${problem}.`);
        io.err(`The secret was NOT stored (it is never written to disk): set ${SECRET_ENV} for each run that uses '${connection.name}'.`);
      }
      recordConnection(dataDir, connection);
      const previousRemoved = replaces ? await forgetOldSecret(replaces, connection, deps, io.err) : false;
      if (values.json) {
        const replaced = replaces ? { replaced: { previousClientId: replaces.clientId, previousSecretRemoved: previousRemoved } } : {};
        io.out(JSON.stringify({ ...connection, apiRoot, secretStored: stored, ...replaced }));
      }
      if (replaces) {
        io.err(
          `Replaced the credential of '${connection.name}' (${connection.tenantHost}): client id ${replaces.clientId} -> ${connection.clientId}` +
            `${stored ? '; the new secret is in the OS keychain' : ''}. Its local data and its outbox are kept: \`attest queue send\` sends what is queued.`,
        );
      } else {
        io.err(`Connected '${connection.name}' (${connection.tenantHost})${stored ? '; the secret is in the OS keychain' : ''}.`);
      }
      return EXIT.ok;
    },
  };
}

/** A replaced credential's old keychain entry, deleted (true when one was there). */
async function forgetOldSecret(
  previous: Connection,
  connection: Connection,
  deps: ConnectDeps,
  err: (line: string) => void,
): Promise<boolean> {
  if (previous.clientId === connection.clientId) return false;
  const { removed, problem } = await dropSecret((deps.secrets ?? (() => osKeychain()))(), previous.clientId);
  if (problem) err(`The old secret's keychain entry (${previous.clientId}) could not be deleted: ${problem}.`);
  return removed;
}

export default connectCommand();
