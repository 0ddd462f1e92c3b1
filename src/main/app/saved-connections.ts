/**
 * The saved connections and their life: which tenants this machine talks to, recorded in
 * `<dataDir>/connections.json` without any secret (the secret is in the OS keychain, account =
 * client id), each with its own SQLite store file under `<dataDir>/stores/`. Here a connection is
 * planned (new, the same again, or a rotated credential), checked with the tenant, saved with its
 * secret, found, marked last used, given what it runs on its own, and forgotten; and shown as the
 * renderer sees it.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { AUTO_RUN_OFF, autoRunOf, syncEveryProblem, type AutoRunChoice } from '../../shared/auto-run';
import type { ChannelArgs, ChannelResult, ConnectionInfo, ConnectionStatus } from '../../shared/contract';
import { createApiClient } from '../api/client';
import { CredentialError, parseClientId, parseClientSecret } from '../api/credentials';
import { isApiError } from '../api/errors';
import type { AuthMethod } from '../api/token';
import { CoreError, firstLineOf } from '../errors';
import { KeychainError, type SecretStore } from '../keychain';
import { ensureDataDir } from './data-dir';

// The checks of a client id and a client secret, each problem in its own words, for a front that reads them.
export { parseClientId, parseClientSecret };

export type { AuthMethod };

export interface Connection {
  name: string;
  clientId: string;
  serverUrl?: string;
  auth: AuthMethod;
  /** The hostname of the client id (with its port, if any): who this connection talks to. */
  tenantHost: string;
  createdAt: string;
  /** Absolute path of this connection's SQLite file (under the data dir). */
  storeFile: string;
  /** What it runs on its own (absent: nothing, the default). */
  autoRun?: AutoRunChoice;
}

export type ConnectionErrorCode =
  'not_found' | 'none' | 'ambiguous' | 'exists' | 'invalid_name' | 'corrupt' | 'no_secret' | 'keychain_unavailable' | 'other_tenant';

export class ConnectionError extends Error {
  override name = 'ConnectionError';
  constructor(
    readonly code: ConnectionErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export const CONNECTIONS_FILE = 'connections.json';
export const STORES_DIR = 'stores';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

interface FileShape {
  version: 1;
  lastUsed?: string;
  connections: Array<Omit<Connection, 'storeFile'> & { storeFile: string }>;
}

export function checkConnectionName(name: string): string {
  if (!NAME.test(name)) {
    throw new ConnectionError(
      'invalid_name',
      `Connection name '${name.slice(0, 80)}' is not valid: use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit`,
    );
  }
  return name;
}

function filePath(dataDir: string): string {
  return join(dataDir, CONNECTIONS_FILE);
}

function readFile(dataDir: string): FileShape {
  const file = filePath(dataDir);
  if (!existsSync(file)) return { version: 1, connections: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new ConnectionError('corrupt', `${file} is not valid JSON; fix or remove it`);
  }
  const shape = parsed as Partial<FileShape> | null;
  if (!shape || typeof shape !== 'object' || !Array.isArray(shape.connections)) {
    throw new ConnectionError('corrupt', `${file} does not hold a list of connections; fix or remove it`);
  }
  return { version: 1, connections: shape.connections, ...(typeof shape.lastUsed === 'string' ? { lastUsed: shape.lastUsed } : {}) };
}

function writeFile(dataDir: string, shape: FileShape): void {
  ensureDataDir(dataDir);
  const file = filePath(dataDir);
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temp, `${JSON.stringify(shape, null, 2)}\n`, { mode: 0o600 });
  renameSync(temp, file);
}

function toConnection(dataDir: string, stored: FileShape['connections'][number]): Connection {
  const storeFile = isAbsolute(stored.storeFile) ? stored.storeFile : resolve(dataDir, stored.storeFile);
  const connection: Connection = {
    name: stored.name,
    clientId: stored.clientId,
    auth: stored.auth === 'secret' ? 'secret' : 'assertion',
    tenantHost: stored.tenantHost,
    createdAt: stored.createdAt,
    storeFile,
  };
  if (stored.serverUrl) connection.serverUrl = stored.serverUrl;
  if (stored.autoRun) connection.autoRun = autoRunOf(stored.autoRun);
  return connection;
}

function toStored(dataDir: string, connection: Connection): FileShape['connections'][number] {
  // Stored relative to the data dir, so the folder can move.
  const rel = relative(resolve(dataDir), connection.storeFile);
  const storeFile = rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split('\\').join('/') : connection.storeFile;
  const stored: FileShape['connections'][number] = {
    name: connection.name,
    clientId: connection.clientId,
    auth: connection.auth,
    tenantHost: connection.tenantHost,
    createdAt: connection.createdAt,
    storeFile,
  };
  if (connection.serverUrl) stored.serverUrl = connection.serverUrl;
  if (connection.autoRun && (connection.autoRun.sendWhenOnline || connection.autoRun.syncEveryMinutes !== null))
    stored.autoRun = { sendWhenOnline: connection.autoRun.sendWhenOnline, syncEveryMinutes: connection.autoRun.syncEveryMinutes };
  return stored;
}

export function listConnections(dataDir: string): Connection[] {
  return readFile(dataDir).connections.map((c) => toConnection(dataDir, c));
}

/** The name of the connection used last (the default), if any. */
export function lastUsedConnection(dataDir: string): string | undefined {
  const shape = readFile(dataDir);
  return shape.lastUsed && shape.connections.some((c) => c.name === shape.lastUsed) ? shape.lastUsed : undefined;
}

/** Writes a connection's record, adding or replacing it by name, and makes it the last used (no check with the tenant). */
export function recordConnection(dataDir: string, connection: Connection): void {
  checkConnectionName(connection.name);
  const shape = readFile(dataDir);
  const other = shape.connections.find((c) => c.clientId === connection.clientId && c.name !== connection.name);
  if (other) throw new ConnectionError('exists', `Client ID ${connection.clientId} is already connected as '${other.name}'`);
  const stored = toStored(dataDir, connection);
  const index = shape.connections.findIndex((c) => c.name === connection.name);
  if (index >= 0) shape.connections[index] = stored;
  else shape.connections.push(stored);
  shape.lastUsed = connection.name;
  writeFile(dataDir, shape);
}

/** Removes a connection by name; returns it, or undefined when there was none. Its store file stays. */
export function removeConnection(dataDir: string, name: string): Connection | undefined {
  const shape = readFile(dataDir);
  const index = shape.connections.findIndex((c) => c.name === name);
  if (index < 0) return undefined;
  const [removed] = shape.connections.splice(index, 1);
  if (shape.lastUsed === name) delete shape.lastUsed;
  writeFile(dataDir, shape);
  return toConnection(dataDir, removed!);
}

/**
 * Records what a connection runs on its own (its other fields and the last used stay); returns it.
 * The caller checks the choice first (syncEveryProblem).
 */
export function setConnectionAutoRun(dataDir: string, name: string, choice: AutoRunChoice): Connection {
  const shape = readFile(dataDir);
  const index = shape.connections.findIndex((c) => c.name === name);
  if (index < 0) throw new ConnectionError('not_found', `No connection named '${name.slice(0, 80)}'`);
  const connection = { ...toConnection(dataDir, shape.connections[index]!), autoRun: { ...choice } };
  shape.connections[index] = toStored(dataDir, connection);
  writeFile(dataDir, shape);
  return connection;
}

/** Marks a connection as the last used (the default when no name is given). */
export function markUsed(dataDir: string, name: string): void {
  const shape = readFile(dataDir);
  if (shape.lastUsed === name || !shape.connections.some((c) => c.name === name)) return;
  shape.lastUsed = name;
  writeFile(dataDir, shape);
}

/** A connection by name; without a name, the only one, else the last used. */
export function getConnection(dataDir: string, name?: string): Connection {
  const shape = readFile(dataDir);
  const all = shape.connections;
  if (name !== undefined && name !== '') {
    const found = all.find((c) => c.name === name);
    if (!found) {
      const known = all.map((c) => c.name).join(', ');
      throw new ConnectionError('not_found', `No connection named '${name.slice(0, 80)}'${known ? ` (known: ${known})` : ''}`);
    }
    return toConnection(dataDir, found);
  }
  if (all.length === 0)
    throw new ConnectionError('none', 'No connection yet: run `attest connect --client-id ID` with the client secret on stdin');
  if (all.length === 1) return toConnection(dataDir, all[0]!);
  const last = all.find((c) => c.name === shape.lastUsed);
  if (last) return toConnection(dataDir, last);
  throw new ConnectionError('ambiguous', `Several connections exist (${all.map((c) => c.name).join(', ')}): name one`);
}

function defaultName(tenantHost: string): string {
  const base = tenantHost
    .replace(/[[\]]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 56);
  return base || 'tenant';
}

export interface NewConnectionInput {
  clientId: string;
  serverUrl?: string | undefined;
  auth?: AuthMethod | undefined;
  name?: string | undefined;
}

/**
 * The connection record for a client id, not yet saved: the existing record when this client id
 * is already connected (its name and store file kept), else a new one with a free name and its
 * own store file. Throws a CredentialError for a malformed client id or server URL.
 */
export function prepareConnection(dataDir: string, input: NewConnectionInput, now: Date = new Date()): Connection {
  const id = parseClientId(input.clientId, input.serverUrl);
  const all = listConnections(dataDir);
  const existing = all.find((c) => c.clientId === id.clientId);
  if (input.name !== undefined) checkConnectionName(input.name);
  if (existing && input.name !== undefined && input.name !== existing.name) {
    throw new ConnectionError(
      'exists',
      `Client ID ${id.clientId} is already connected as '${existing.name}': disconnect it first, or connect it again under that name`,
    );
  }
  if (!existing && input.name !== undefined && all.some((c) => c.name === input.name)) {
    throw new ConnectionError('exists', `A connection named '${input.name}' already exists for another client ID: choose another name`);
  }
  let name = existing?.name ?? input.name;
  if (!name) {
    const base = defaultName(id.hostname);
    name = base;
    for (let n = 2; all.some((c) => c.name === name); n += 1) name = `${base}-${n}`;
  }
  const serverUrl = input.serverUrl?.trim() ? input.serverUrl.trim() : undefined;
  const connection: Connection = {
    name,
    clientId: id.clientId,
    auth: input.auth ?? 'assertion',
    tenantHost: id.hostname,
    createdAt: existing?.createdAt ?? now.toISOString(),
    storeFile: existing?.storeFile ?? join(resolve(dataDir), STORES_DIR, `${name}-${randomBytes(4).toString('hex')}.sqlite`),
  };
  if (serverUrl) connection.serverUrl = serverUrl;
  if (existing?.autoRun) connection.autoRun = existing.autoRun;
  return connection;
}

export interface CredentialReplacement {
  /** The connection as it is recorded now. */
  previous: Connection;
  /** The same connection (name, store file, creation time) with the new credential, not yet saved. */
  connection: Connection;
}

/**
 * A connection's credential replaced in place (a rotated credential): the same name, store file
 * and creation time, so its local data and its outbox stay; the new client id must be of the same
 * tenant (its store holds that tenant's objects) and not already another connection's. The server
 * URL and the auth method are kept unless given. Not saved: the caller checks the credential first.
 */
export function prepareCredentialReplacement(
  dataDir: string,
  name: string,
  input: Omit<NewConnectionInput, 'name'>,
): CredentialReplacement {
  const all = listConnections(dataDir);
  const previous = all.find((c) => c.name === name);
  if (!previous) throw new ConnectionError('not_found', `No connection named '${name.slice(0, 80)}'`);
  const serverUrl = input.serverUrl?.trim() ? input.serverUrl.trim() : previous.serverUrl;
  const id = parseClientId(input.clientId, serverUrl);
  if (id.hostname.toLowerCase() !== previous.tenantHost.toLowerCase()) {
    throw new ConnectionError(
      'other_tenant',
      `Client ID ${id.clientId} is for ${id.hostname}, but '${previous.name}' talks to ${previous.tenantHost}: ` +
        "a credential of another tenant cannot replace it (its local data is that tenant's); connect it as a new connection",
    );
  }
  const other = all.find((c) => c.clientId === id.clientId && c.name !== previous.name);
  if (other) throw new ConnectionError('exists', `Client ID ${id.clientId} is already connected as '${other.name}'`);
  const connection: Connection = { ...previous, clientId: id.clientId, auth: input.auth ?? previous.auth };
  if (serverUrl) connection.serverUrl = serverUrl;
  return { previous, connection };
}

/** Deletes a connection's SQLite file and its WAL/SHM/journal companions; true when one existed. */
export function deleteStoreFiles(connection: Connection): boolean {
  let any = false;
  for (const suffix of ['', '-wal', '-shm', '-journal']) {
    const file = `${connection.storeFile}${suffix}`;
    if (existsSync(file)) {
      rmSync(file, { force: true });
      any = true;
    }
  }
  return any;
}

/** Creates the folder of a connection's store file. */
export function ensureStoreDir(connection: Connection): void {
  mkdirSync(resolve(connection.storeFile, '..'), { recursive: true, mode: 0o700 });
}

/** The saved connection that stands for the demo tenant (its secret stays in memory). */
export const DEMO_CONNECTION = 'demo';

/** A saved connection as the renderer sees it (never its secret). */
export function connectionInfo(connection: Connection): ConnectionInfo {
  let tokenUrl = '';
  let apiRoot = '';
  try {
    const parsed = parseClientId(connection.clientId, connection.serverUrl);
    tokenUrl = parsed.tokenUrl;
    apiRoot = parsed.apiRoot;
  } catch {
    // A record edited by hand: shown with what it has.
  }
  return {
    name: connection.name,
    clientId: connection.clientId,
    hostname: connection.tenantHost,
    tokenUrl,
    apiRoot,
    authMethod: connection.auth,
    serverUrl: connection.serverUrl ?? null,
    demo: connection.name === DEMO_CONNECTION,
    createdAt: connection.createdAt,
    autoRun: connection.autoRun ? { ...connection.autoRun } : { ...AUTO_RUN_OFF },
  };
}

/** Saves what a saved connection runs on its own, after checking it (a bad interval is refused, naming it; nothing is written). */
export function saveAutoRun(
  dataDir: string,
  name: string,
  choice: { sendWhenOnline: boolean; syncEveryMinutes: number | null },
): ConnectionInfo {
  const problem = syncEveryProblem(choice.syncEveryMinutes);
  if (problem) throw Object.assign(new CoreError('bad_request', problem), { field: 'syncEveryMinutes' });
  if (!listConnections(dataDir).some((c) => c.name === name))
    throw new CoreError('not_found', `No connection named '${name.slice(0, 80)}'.`);
  return connectionInfo(setConnectionAutoRun(dataDir, name, choice));
}

export function savedConnections(dataDir: string): ConnectionInfo[] {
  return listConnections(dataDir).map(connectionInfo);
}

/** What the connect form shows as the user types: each part parsed, each problem in its own words. */
export async function inspectCredentials({
  clientId,
  serverUrl,
  clientSecret,
}: ChannelArgs<'inspectCredentials'>): Promise<ChannelResult<'inspectCredentials'>> {
  const result: ChannelResult<'inspectCredentials'> = {
    hostname: null,
    tokenUrl: null,
    apiRoot: null,
    loopback: false,
    clientIdError: null,
    secretDomain: null,
    clientSecretError: null,
  };
  try {
    const parsed = parseClientId(clientId, serverUrl ?? undefined);
    Object.assign(result, { hostname: parsed.hostname, tokenUrl: parsed.tokenUrl, apiRoot: parsed.apiRoot, loopback: parsed.loopback });
  } catch (error) {
    result.clientIdError = error instanceof CredentialError ? error.message : 'This client id cannot be read.';
  }
  if (clientSecret) {
    try {
      result.secretDomain = (await parseClientSecret(clientSecret)).domain;
    } catch (error) {
      result.clientSecretError = error instanceof CredentialError ? error.message : 'This secret cannot be read.';
    }
  }
  return result;
}

export interface CredentialsInput {
  clientId: string;
  clientSecret: string;
  serverUrl: string | null;
  authMethod: AuthMethod;
}

/** Checks credentials by getting a token (nothing is stored). */
export async function testConnection({
  clientId,
  clientSecret,
  serverUrl,
  authMethod,
}: CredentialsInput): Promise<ChannelResult<'testConnection'>> {
  parseClientId(clientId, serverUrl ?? undefined);
  await parseClientSecret(clientSecret);
  const api = createApiClient({
    clientId,
    clientSecret,
    serverUrl: serverUrl ?? undefined,
    auth: authMethod,
    maxRetries: 1,
    timeoutMs: 10_000,
  });
  const started = performance.now();
  await api.getToken(AbortSignal.timeout(15_000));
  return { ok: true, latencyMs: performance.now() - started, expiresIn: null };
}

/**
 * The CLI's check of a planned connection before it is saved: the token endpoint must issue a
 * token for `secret` (two retries, no time limit). Nothing is stored; says where it asked.
 */
export async function checkToken(connection: Connection, secret: string): Promise<{ tokenUrl: string; apiRoot: string }> {
  const api = createApiClient({
    clientId: connection.clientId,
    clientSecret: secret,
    auth: connection.auth,
    serverUrl: connection.serverUrl,
    maxRetries: 2,
  });
  await api.getToken();
  const { tokenUrl } = parseClientId(connection.clientId, connection.serverUrl);
  return { tokenUrl, apiRoot: api.apiRoot };
}

/**
 * Keeps a connection's secret in `secrets` (the OS keychain: account = client id). Where the
 * keychain cannot be reached, says why instead: the secret is then kept nowhere (never on disk).
 */
export async function keepSecret(
  secrets: SecretStore,
  clientId: string,
  secret: string,
): Promise<{ kept: boolean; problem: string | null }> {
  try {
    await secrets.set(clientId, secret);
    return { kept: true, problem: null };
  } catch (error) {
    if (!(error instanceof KeychainError)) throw error;
    return { kept: false, problem: error.message };
  }
}

/** Deletes a client id's secret from `secrets`: whether one was there, or why the keychain could not be asked. */
export async function dropSecret(secrets: SecretStore, clientId: string): Promise<{ removed: boolean; problem: string | null }> {
  try {
    return { removed: await secrets.delete(clientId), problem: null };
  } catch (error) {
    if (!(error instanceof KeychainError)) throw error;
    return { removed: false, problem: error.message };
  }
}

/** Saves a connection: checked by getting a token first, its secret to `secrets`, then its record. */
export async function saveConnection(
  dataDir: string,
  secrets: SecretStore,
  { name, ...credentials }: CredentialsInput & { name: string | null },
): Promise<ConnectionInfo> {
  if (name === DEMO_CONNECTION) throw new CoreError('bad_request', `The name '${DEMO_CONNECTION}' is kept for the demo tenant.`);
  const connection = prepareConnection(dataDir, {
    clientId: credentials.clientId,
    serverUrl: credentials.serverUrl ?? undefined,
    auth: credentials.authMethod,
    name: name ?? undefined,
  });
  await testConnection(credentials);
  await secrets.set(connection.clientId, credentials.clientSecret);
  recordConnection(dataDir, connection);
  return connectionInfo(connection);
}

/**
 * Whether a credential works now, told apart: the tenant minted a token (`online`), it answered and
 * refused the credential (`credentials-refused`: 401/400 invalid_client, a rotated or revoked one),
 * or it did not answer, or not usefully (`offline`). A fresh token every time: a cached one would
 * prove nothing.
 */
export async function checkCredentials(credentials: CredentialsInput): Promise<{ status: ConnectionStatus; reason: string | null }> {
  try {
    await testConnection(credentials);
    return { status: 'online', reason: null };
  } catch (error) {
    const line = firstLineOf(error, 'no explanation');
    if (isApiError(error, 'auth') || error instanceof CredentialError) return { status: 'credentials-refused', reason: line };
    if (isApiError(error, 'timeout')) return { status: 'offline', reason: 'the tenant did not answer in time' };
    if (isApiError(error, 'network')) return { status: 'offline', reason: `the tenant cannot be reached (${line})` };
    return { status: 'offline', reason: `the tenant did not give a token (${line})` };
  }
}

/**
 * What connecting a credential does: a new connection, the same one again, or, when `name` is an
 * existing connection with another client id, a replacement of its credential (a rotated one: same
 * name, store and outbox; the tenant must be the same). Not saved: the caller checks the credential first.
 */
export function planConnection(
  dataDir: string,
  input: { clientId: string; serverUrl?: string | undefined; auth?: AuthMethod | undefined; name?: string | undefined },
): { connection: Connection; replaces: Connection | null } {
  const named = input.name === undefined ? undefined : listConnections(dataDir).find((c) => c.name === input.name);
  if (named && named.name !== DEMO_CONNECTION) {
    const { clientId } = parseClientId(input.clientId, input.serverUrl?.trim() || named.serverUrl);
    if (clientId !== named.clientId) {
      const { previous, connection } = prepareCredentialReplacement(dataDir, named.name, input);
      return { connection, replaces: previous };
    }
  }
  return { connection: prepareConnection(dataDir, { ...input, auth: input.auth ?? 'assertion' }), replaces: null };
}

/** A saved connection's state, as `attest connections` tells it: ConnectionStatus, or no secret to ask with. */
export type SavedConnectionState = ConnectionStatus | 'no-secret';

/** A saved connection's state now, its secret read from `secrets`: a fresh token tells online from refused from offline. */
export async function savedConnectionState(
  connection: Connection,
  secrets: SecretStore,
  /** The secret given for this run (ATTEST_CLIENT_SECRET), used where the keychain holds none or is not available. */
  forThisRun?: { secret: string; source: string },
): Promise<{ state: SavedConnectionState; reason: string | null }> {
  let secret: string | null = null;
  let missing = 'the keychain holds no secret for it';
  try {
    secret = await secrets.get(connection.clientId);
  } catch (error) {
    if (!(error instanceof KeychainError)) throw error;
    missing = error.message;
  }
  const given = !secret && forThisRun ? forThisRun : null;
  if (given) secret = given.secret;
  if (!secret) return { state: 'no-secret', reason: missing };
  const { status, reason } = await checkCredentials({
    clientId: connection.clientId,
    clientSecret: secret,
    serverUrl: connection.serverUrl ?? null,
    authMethod: connection.auth,
  });
  if (!given) return { state: status, reason };
  return { state: status, reason: [`checked with ${given.source} (${missing})`, reason].filter(Boolean).join('; ') };
}

export interface ReplacedCredential {
  connection: ConnectionInfo;
  /** The client id it had before (its keychain entry is deleted when it differs from the new one). */
  previousClientId: string;
  /** Why the old keychain entry could not be deleted, if it could not (the connection is replaced all the same). */
  keychainNote: string | null;
}

/**
 * Replaces a saved connection's credential in place (a rotated credential): the new one checked by
 * getting a token, its secret kept in `secrets`, the record updated (same name, store file and
 * outbox), then the old client id's keychain entry deleted from `secrets` and `others`.
 */
export async function replaceCredential(
  dataDir: string,
  secrets: SecretStore,
  {
    name,
    ...credentials
  }: Omit<CredentialsInput, 'serverUrl' | 'authMethod'> & {
    name: string;
    serverUrl: string | null;
    authMethod: AuthMethod | null;
  },
  others: SecretStore[] = [],
): Promise<ReplacedCredential> {
  if (name === DEMO_CONNECTION) throw new CoreError('bad_request', 'The demo tenant has no credential to replace.');
  const { previous, connection } = prepareCredentialReplacement(dataDir, name, {
    clientId: credentials.clientId,
    serverUrl: credentials.serverUrl ?? undefined,
    auth: credentials.authMethod ?? undefined,
  });
  await testConnection({
    clientId: connection.clientId,
    clientSecret: credentials.clientSecret,
    serverUrl: connection.serverUrl ?? null,
    authMethod: connection.auth,
  });
  await secrets.set(connection.clientId, credentials.clientSecret);
  recordConnection(dataDir, connection);
  let keychainNote: string | null = null;
  if (previous.clientId !== connection.clientId) {
    for (const store of [secrets, ...others]) {
      const { problem } = await dropSecret(store, previous.clientId);
      if (problem) keychainNote = `the old secret's keychain entry could not be deleted: ${problem}`;
    }
  }
  return { connection: connectionInfo(connection), previousClientId: previous.clientId, keychainNote };
}

/** Forgets a connection's record (its store file stays); the caller removes its secret. */
export function forgetConnection(dataDir: string, name: string): Connection {
  const removed = removeConnection(dataDir, name);
  if (!removed) throw new CoreError('not_found', `No connection named '${name}'.`);
  return removed;
}

/**
 * Records this run's demo tenant as the one 'demo' connection, whatever credentials the tenant
 * printed this time, and makes it the last used: its store file is kept from run to run, so the
 * app's "Open demo tenant" and `attest demo` work on the same local data.
 */
export function recordDemoConnection(dataDir: string, tenant: { clientId: string; url: string }): Connection {
  const all = listConnections(dataDir);
  const existing = all.find((c) => c.name === DEMO_CONNECTION);
  // A 'demo' made with `attest connect --name demo` for a real tenant keeps its store: never sync the demo into it.
  if (existing && !parseClientId(existing.clientId, existing.serverUrl).loopback) {
    throw new ConnectionError(
      'exists',
      `The connection named '${DEMO_CONNECTION}' is for ${existing.tenantHost}, not the demo tenant: disconnect it first (its store file stays)`,
    );
  }
  const prepared = prepareConnection(dataDir, { clientId: tenant.clientId, serverUrl: tenant.url, auth: 'assertion' });
  const connection: Connection = {
    ...prepared,
    name: DEMO_CONNECTION,
    storeFile: existing?.storeFile ?? prepared.storeFile.replace(/[^/\\]+\.sqlite$/, `${DEMO_CONNECTION}.sqlite`),
  };
  const clash = all.find((c) => c.clientId === connection.clientId && c.name !== DEMO_CONNECTION);
  if (clash) removeConnection(dataDir, clash.name);
  recordConnection(dataDir, connection);
  return connection;
}
