import type { ChannelArgs, ChannelResult, ConnectionInfo, ConnectionStatus } from '../../shared/contract';
import { AUTO_RUN_OFF, syncEveryProblem } from '../../shared/auto-run';
import { createApiClient } from '../api/client';
import { CredentialError, parseClientId, parseClientSecret } from '../api/credentials';
import { isApiError } from '../api/errors';
import type { AuthMethod } from '../api/token';
import {
  ConnectionError,
  listConnections,
  prepareConnection,
  prepareCredentialReplacement,
  removeConnection,
  saveConnection as recordConnection,
  setConnectionAutoRun,
  type Connection,
} from '../connections';
import { CoreError, firstLineOf } from '../errors';
import { KeychainError, type SecretStore } from '../keychain';

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
      try {
        await store.delete(previous.clientId);
      } catch (error) {
        if (!(error instanceof KeychainError)) throw error;
        keychainNote = `the old secret's keychain entry could not be deleted: ${error.message}`;
      }
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
