/**
 * Connections: which tenants this machine talks to, recorded in `<dataDir>/connections.json`
 * without any secret (the secret is in the OS keychain, account = client id). Each connection
 * has its own SQLite store file under `<dataDir>/stores/`.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { autoRunOf, type AutoRunChoice } from '../shared/auto-run';
import { parseClientId } from './api/credentials';
import { ensureDataDir } from './data-dir';
import type { AuthMethod } from './api/token';

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

/** Adds or replaces (by name) a connection and makes it the last used. */
export function saveConnection(dataDir: string, connection: Connection): void {
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
