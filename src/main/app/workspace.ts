import { existsSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { ConnectionInfo } from '../../shared/contract';
import { createApiClient, RateLimiter, type ApiClient, type ApiClientOptions } from '../api/client';
import type { AuthMethod } from '../api/token';
import { CoreError } from '../errors';
import { osKeychain, type SecretStore } from '../keychain';
import { openOutbox, type Outbox, type OutboxStore } from '../outbox/queue';
import { openStore, type Store } from '../store/db';
import { storeFreshCopies } from '../store/fresh-copies';
import { isCollectionId } from '../collections';
import { ConnectionError, connectionInfo, getConnection, markUsed, type Connection } from './saved-connections';

export type { ApiClient, RateLimiter };

/**
 * Opening a workspace: a data folder + a saved connection -> its store, its outbox and its API
 * client. Both fronts open workspaces only here (the app's session, every CLI command), so the
 * outbox is opened one way, crash recovery happens where the front asks for it, and the secret
 * is looked for in one order: the OS keychain, then (CLI only) ATTEST_CLIENT_SECRET for one run.
 */

/** The environment variable read when the keychain holds no secret or is not available. */
export const SECRET_ENV = 'ATTEST_CLIENT_SECRET';

/** A connection's credentials, in this process's memory only (the sync worker needs them); never sent to the renderer. */
export interface Credentials {
  clientId: string;
  clientSecret: string;
  serverUrl?: string | undefined;
  auth: AuthMethod;
}

export interface SecretOptions {
  /** Where client secrets live (default: the OS keychain). */
  secrets?: SecretStore | undefined;
  /** Given (the CLI), `ATTEST_CLIENT_SECRET` stands in for one run when the keychain holds no secret or is not available. */
  env?: NodeJS.ProcessEnv | undefined;
  /** Told when the secret comes from the environment instead of the keychain. */
  onNotice?: ((message: string) => void) | undefined;
  /** More options for the API client (limiter, events, timeouts...). */
  client?: Omit<Partial<ApiClientOptions>, 'clientId' | 'clientSecret' | 'serverUrl' | 'auth'> | undefined;
}

export interface OpenOptions extends SecretOptions {
  /** Credentials given on the command line: used instead of the connection's secret. */
  credentials?: Credentials | undefined;
  /**
   * When the secret is looked for: `required` before anything opens (an error when there is none),
   * `if-available` at open (none: `api` is null and the store can still be browsed offline), or
   * `when-used` (default) on the first `requireApi()`.
   */
  secret?: 'required' | 'if-available' | 'when-used';
  /** Marks what was in flight when the last process stopped as uncertain (never lost, never resent blindly). */
  recover?: boolean;
  /** Refuses a store that was never created (offline reads) with a StoreMissingError; nothing is created. */
  existing?: boolean;
  /** Where the reason is told when `if-available` finds the keychain unreachable. */
  log?: (line: string) => void;
}

export interface Workspace {
  readonly connection: ConnectionInfo;
  readonly store: Store;
  readonly outbox: Outbox;
  /** Null while no secret is known (not available, or not asked for yet). */
  readonly api: ApiClient | null;
  readonly credentials: Credentials | null;
  /** How many outbox items were found in flight at open and are uncertain now (with `recover`). */
  readonly recovered: number;
  /** The API client, looking for the secret now if that was not done yet; or the clear error saying why there is none. */
  requireApi(): Promise<ApiClient>;
  close(): void;
}

/** The store file a read needs does not exist: nothing was synced there yet. */
export class StoreMissingError extends CoreError {
  override name = 'StoreMissingError';
  constructor(
    readonly file: string,
    readonly connectionName: string,
  ) {
    super('not_found', `No local data yet at ${file}: sync first.`);
  }
}

interface ApiAccess {
  api: ApiClient | null;
  credentials: Credentials | null;
  /** Why there is no client. */
  problem: Error | null;
}

/** The secret of a connection: the keychain, else (when `env` is given) ATTEST_CLIENT_SECRET, with a notice. */
async function readSecret(connection: Connection, opts: SecretOptions): Promise<string> {
  let unavailable: string | undefined;
  try {
    const secret = await (opts.secrets ?? osKeychain()).get(connection.clientId);
    if (secret) return secret;
  } catch (error) {
    unavailable = error instanceof Error ? error.message : String(error);
  }
  const fromEnv = opts.env?.[SECRET_ENV]?.trim();
  if (!fromEnv) {
    if (unavailable) {
      throw new ConnectionError(
        'keychain_unavailable',
        `${unavailable}. Set ${SECRET_ENV} to the client secret of '${connection.name}' for this run`,
      );
    }
    const reconnect = `run \`attest connect --client-id ${connection.clientId}\` again, or set ${SECRET_ENV} for this run`;
    throw new ConnectionError('no_secret', `The OS keychain holds no secret for '${connection.name}': ${reconnect}`);
  }
  opts.onNotice?.(
    unavailable
      ? `The OS keychain is not available; using ${SECRET_ENV} for this run only (it is not stored anywhere).`
      : `The OS keychain holds no secret for '${connection.name}'; using ${SECRET_ENV} for this run only (it is not stored anywhere).`,
  );
  return fromEnv;
}

function clientOf(credentials: Credentials, opts: SecretOptions): ApiAccess {
  const { serverUrl, ...rest } = credentials;
  const api = createApiClient({ ...opts.client, ...rest, ...(serverUrl ? { serverUrl } : {}) });
  return { api, credentials, problem: null };
}

function clientFor(connection: Connection, clientSecret: string, opts: SecretOptions): ApiAccess {
  return clientOf({ clientId: connection.clientId, clientSecret, serverUrl: connection.serverUrl, auth: connection.auth }, opts);
}

/** The API client of a connection, or why there is none (a missing secret is not thrown; a malformed record is). */
async function apiAccess(connection: Connection, opts: SecretOptions): Promise<ApiAccess> {
  let secret: string;
  try {
    secret = await readSecret(connection, opts);
  } catch (error) {
    if (error instanceof ConnectionError) return { api: null, credentials: null, problem: error };
    throw error;
  }
  return clientFor(connection, secret, opts);
}

/**
 * An API client for a saved connection, without its store (default: the last used one). The
 * secret comes from the keychain; when the keychain is not available (or holds none), from
 * `ATTEST_CLIENT_SECRET` for this run only, with a notice.
 */
export async function openApiForConnection(
  dataDir: string,
  name: string | undefined,
  opts: SecretOptions = {},
): Promise<{ connection: Connection; api: ApiClient }> {
  const connection = getConnection(dataDir, name);
  const access = clientFor(connection, await readSecret(connection, { ...opts, env: opts.env ?? process.env }), opts);
  markUsed(dataDir, connection.name);
  return { connection, api: access.api! };
}

/** The outbox's view of a store: its database, the synced objects, and where fresh copies go. */
export function outboxStoreOf(store: Store): OutboxStore {
  return {
    db: store.db,
    getObject: (collection, id) => (isCollectionId(collection) ? store.getObject(collection, id) : null),
    syncedAsOf: (collection) => (isCollectionId(collection) ? store.dataAsOf(collection) : null),
    completeRun: (collection) => (isCollectionId(collection) ? store.completeRun(collection) : null),
    findObject(collection, columns) {
      if (!isCollectionId(collection)) return null;
      const [row] = store.listObjects(collection, { filters: columns, limit: 1 }).rows;
      return row ? { id: row.id, json: row.json } : null;
    },
    refreshObjects: (copies) => storeFreshCopies(store, copies),
  };
}

function assemble(
  file: string,
  connection: ConnectionInfo,
  access: ApiAccess,
  opts: { recover?: boolean | undefined; later?: () => Promise<ApiAccess> },
): Workspace {
  const store = openStore(file);
  let outbox: Outbox;
  let recovered = 0;
  try {
    outbox = openOutbox(outboxStoreOf(store));
    if (opts.recover) recovered = outbox.recoverAfterCrash();
  } catch (error) {
    store.close();
    throw error;
  }
  let closed = false;
  const workspace = {
    connection,
    store,
    outbox,
    api: access.api,
    credentials: access.credentials,
    recovered,
    async requireApi(): Promise<ApiClient> {
      if (!access.api && !access.problem && opts.later) access = await opts.later();
      Object.assign(workspace, { api: access.api, credentials: access.credentials });
      if (access.api) return access.api;
      throw access.problem ?? new CoreError('auth', 'This store was opened without a tenant: there is no API client.');
    },
    close() {
      if (closed) return;
      closed = true;
      store.close();
    },
  };
  return workspace;
}

/**
 * One limiter for every request of a batch, given as `client.limiter`: a Retry-After pauses every
 * sender, and `requestsPerSecond` (when given) paces them.
 */
export function batchLimiter(requestsPerSecond?: number): RateLimiter {
  return new RateLimiter(requestsPerSecond ? { requestsPerSecond } : {});
}

/** A saved connection found and its secret looked for as asked: opening it is all that is left. */
export interface WorkspaceToOpen {
  readonly connection: ConnectionInfo;
  open(): Workspace;
}

/**
 * The first half of `openWorkspace`: everything that can fail on the connection's record or its
 * secret, before any store opens (the app keeps its current workspace open until this succeeds).
 */
export async function prepareWorkspace(dataDir: string, name: string | undefined, opts: OpenOptions = {}): Promise<WorkspaceToOpen> {
  const connection = getConnection(dataDir, name);
  if (opts.existing && !existsSync(connection.storeFile)) throw new StoreMissingError(connection.storeFile, connection.name);
  const mode = opts.secret ?? 'when-used';
  let access: ApiAccess = { api: null, credentials: null, problem: null };
  if (opts.credentials) {
    access = clientOf(opts.credentials, opts);
  } else if (mode === 'required') {
    access = clientFor(connection, await readSecret(connection, opts), opts);
    markUsed(dataDir, connection.name);
  } else if (mode === 'if-available') {
    access = await apiAccess(connection, opts);
    if (access.problem instanceof ConnectionError && access.problem.code === 'keychain_unavailable')
      opts.log?.(`open ${connection.name}: ${access.problem.message}`);
    markUsed(dataDir, connection.name);
  }
  const later = async () => {
    const found = clientFor(connection, await readSecret(connection, opts), opts);
    markUsed(dataDir, connection.name);
    return found;
  };
  const info = connectionInfo(connection);
  return { connection: info, open: () => assemble(connection.storeFile, info, access, { recover: opts.recover, later }) };
}

/**
 * Opens a saved connection's workspace (default: the last used connection): its store always (the
 * local copy can be browsed offline), its API client as `opts.secret` says. A connection becomes
 * the last used when its secret is asked for.
 */
export async function openWorkspace(dataDir: string, name: string | undefined, opts: OpenOptions = {}): Promise<Workspace> {
  return (await prepareWorkspace(dataDir, name, opts)).open();
}

/**
 * Opens a bare store file, outside any saved connection (`attest … --store FILE`, `ui-host
 * --store`): offline, unless credentials are given (on the command line).
 */
export function openStoreFile(
  file: string,
  opts: Pick<OpenOptions, 'credentials' | 'client' | 'recover' | 'existing'> & { name?: string } = {},
): Workspace {
  const full = resolve(file);
  const name = opts.name ?? basename(full).replace(/\.sqlite$/, '');
  if (opts.existing && !existsSync(full)) throw new StoreMissingError(full, name);
  const access: ApiAccess = opts.credentials ? clientOf(opts.credentials, opts) : { api: null, credentials: null, problem: null };
  const connection: ConnectionInfo = {
    name,
    clientId: access.api?.clientId ?? '',
    hostname: 'offline',
    tokenUrl: '',
    apiRoot: access.api?.apiRoot ?? '',
    authMethod: 'assertion',
    serverUrl: null,
    demo: false,
    createdAt: null,
    autoRun: { sendWhenOnline: false, syncEveryMinutes: null },
  };
  return assemble(full, connection, access, { recover: opts.recover });
}
