import type { ChannelArgs, ChannelResult, ConnectionInfo } from '../../shared/contract';
import { createApiClient } from '../api/client';
import { CredentialError, parseClientId, parseClientSecret } from '../api/credentials';
import type { AuthMethod } from '../api/token';
import {
  ConnectionError,
  listConnections,
  prepareConnection,
  removeConnection,
  saveConnection as recordConnection,
  type Connection,
} from '../connections';
import { CoreError } from '../errors';
import type { SecretStore } from '../keychain';

/**
 * The app's side of saved connections: what the connect form checks before anything is saved,
 * saving (after a token check) and forgetting, and a connection as the renderer sees it.
 */

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
  };
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
