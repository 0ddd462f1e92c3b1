import { join } from 'node:path';
import type {
  ChannelArgs,
  ChannelResult,
  CollectionId,
  ConnectionInfo,
  ConnectionState,
  SendProgress as SendProgressEvent,
  SyncProgress,
} from '../shared/contract';
import { createApiClient, type ApiClient } from './api/client';
import { CredentialError, parseClientId, parseClientSecret } from './api/credentials';
import {
  ConnectionError,
  getConnection,
  lastUsedConnection,
  listConnections as readConnections,
  markUsed,
  prepareConnection,
  removeConnection as forgetConnection,
  saveConnection as recordConnection,
  type Connection,
} from './connections';
import { startDemoTenant, type DemoTenant, type DemoTenantLaunch } from './demo-tenant';
import { keychainAvailable, memorySecretStore, osKeychain, type SecretStore } from './keychain';
import { openStore, type Store } from './store/db';
import { openOutbox, type Outbox } from './outbox/queue';
import { outboxStoreOf } from './sync/fresh-copies';
import { exportReport, signingKey, verifyWorkbook, type ExportResult, type VerifyResult } from './reports';
import { resolve as resolvePath } from 'node:path';
import { runSyncJob } from './jobs/sync-job';
import type { EventBus } from './rpc/dispatch';
import { RpcError } from './rpc/errors';

/**
 * The composition root: the one place the fronts (Electron IPC, the browser host) get core
 * services from. Opening a workspace = a data folder + a saved connection -> an API client, a
 * store and the sync job. Handlers (rpc/handlers.ts) only call what is here.
 */

export interface Dialogs {
  open(options: ChannelArgs<'showOpenDialog'>): Promise<string | null>;
  save(options: ChannelArgs<'showSaveDialog'>): Promise<string | null>;
}

export interface ServicesOptions {
  dataDir: string;
  host: 'electron' | 'browser';
  version: string;
  platform: string;
  events: EventBus;
  dialogs: Dialogs;
  /** Opens a validated https URL outside the app; false where the host cannot. */
  openExternal(url: string): Promise<boolean>;
  /** Shows a file in the OS file manager; false where the host cannot. */
  showInFolder?(path: string): Promise<boolean>;
  /** Where client secrets live (default: the OS keychain). */
  secrets?: SecretStore;
  /** How to start the reference tenant for "Open demo tenant"; absent where it cannot run. */
  demoTenant?: DemoTenantLaunch;
  log?: (line: string) => void;
}

/** The saved connection that stands for the demo tenant (its secret stays in memory). */
export const DEMO_CONNECTION = 'demo';

/** An open connection: its store, its API client (null while its secret is unavailable), its sync job. */
export interface Credentials {
  clientId: string;
  clientSecret: string;
  serverUrl?: string;
  auth: 'assertion' | 'secret';
}

export interface Workspace {
  connection: ConnectionInfo;
  store: Store;
  outbox: Outbox;
  api: ApiClient | null;
  /** In the main process's memory only, for the sync worker; never sent to the renderer. */
  credentials: Credentials | null;
  sync: AbortController | null;
  send: AbortController | null;
}

export interface Services {
  readonly options: ServicesOptions;
  keychainAvailable(): Promise<boolean>;
  listConnections(): ConnectionInfo[];
  lastUsedConnection(): string | null;
  saveConnection(args: {
    name: string | null;
    clientId: string;
    clientSecret: string;
    serverUrl: string | null;
    authMethod: 'assertion' | 'secret';
  }): Promise<ConnectionInfo>;
  removeConnection(name: string): Promise<void>;
  /** Opens a saved connection: its store always; its API client when its secret is available. */
  openWorkspace(name: string): Promise<Workspace>;
  openDemoTenant(): Promise<Workspace>;
  inspectCredentials(args: ChannelArgs<'inspectCredentials'>): Promise<ChannelResult<'inspectCredentials'>>;
  testConnection(
    args: Required<Omit<ChannelArgs<'testConnection'>, 'serverUrl'>> & { serverUrl: string | null },
  ): Promise<ChannelResult<'testConnection'>>;
  /**
   * Opens (or re-opens) a workspace for a connection whose API client the caller built; its store
   * is the connection's file in the data folder unless `storeFile` names another.
   */
  openWith(connection: ConnectionInfo, credentials: Credentials | null, storeFile?: string): Promise<Workspace>;
  workspace(): Workspace;
  activeConnection(): ConnectionInfo | null;
  connectionState(recheck?: boolean): Promise<ConnectionState>;
  startSync(only: CollectionId[] | null): boolean;
  cancelSync(): boolean;
  syncing(): boolean;
  /** Sends queued outbox items off the request path; progress comes as sendProgress events. */
  startSend(ids: string[] | null): boolean;
  cancelSend(): boolean;
  sending(): boolean;
  /** Open/save dialogs; the paths they return are the only ones exports may write or verify may read. */
  chooseFile(mode: 'open' | 'save', options: ChannelArgs<'showOpenDialog'> & ChannelArgs<'showSaveDialog'>): Promise<string | null>;
  exportReport(args: {
    kind: string;
    path: string;
    asOfRun: number | null;
    filters: string[];
    fromRun: number | null;
    toRun: number | null;
    sign: boolean;
  }): Promise<ExportResult>;
  cancelExport(): boolean;
  /** `key`: the fingerprint the workbook must be signed with. */
  verifyWorkbook(path: string, key?: string | null): Promise<VerifyResult>;
  showInFolder(path: string): Promise<boolean>;
  /** Closes the open workspace. */
  close(): Promise<void>;
  /** Closes everything, and stops the demo tenant if this app started it. */
  shutdown(): Promise<void>;
}

export function notYet(what: string): never {
  throw new RpcError('unsupported', `${what} is not available in this build yet.`);
}

/** The store file of a connection in the data folder (one SQLite file per connection). */
export function storeFileFor(dataDir: string, name: string): string {
  const safe = name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 100) || 'connection';
  return join(dataDir, 'stores', `${safe}.sqlite`);
}

const now = () => new Date().toISOString();

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

function translate(error: unknown): never {
  if (error instanceof ConnectionError) {
    const code =
      error.code === 'not_found' || error.code === 'none'
        ? 'not_found'
        : error.code === 'exists' || error.code === 'ambiguous'
          ? 'conflict'
          : error.code === 'keychain_unavailable'
            ? 'keychain'
            : error.code === 'invalid_name'
              ? 'bad_request'
              : 'internal';
    throw new RpcError(code, error.message);
  }
  throw error;
}

export function createServices(options: ServicesOptions): Services {
  const log = options.log ?? (() => {});
  const { events } = options;
  let current: Workspace | null = null;
  let state: ConnectionState = { connection: null, online: false, checkedAt: null, reason: null };
  const secrets = options.secrets ?? osKeychain();
  const demoSecrets = memorySecretStore();
  let demo: DemoTenant | null = null;
  let keychain: Promise<boolean> | null = null;
  const granted = new Set<string>();
  let exporting: AbortController | null = null;

  function mustBeGranted(path: string): string {
    const full = resolvePath(path);
    if (!granted.has(full))
      throw new RpcError('forbidden', 'Choose the file in the dialog first: the app only writes and reads files you picked.');
    return full;
  }

  function setState(next: ConnectionState): ConnectionState {
    const changed = next.online !== state.online || next.connection !== state.connection || next.reason !== state.reason;
    state = next;
    if (changed) events.emit('connectionState', state);
    return state;
  }

  async function probe(workspace: Workspace): Promise<ConnectionState> {
    const name = workspace.connection.name;
    if (!workspace.api)
      return setState({ connection: name, online: false, checkedAt: now(), reason: 'The secret of this connection is not available.' });
    try {
      // Reachability, not authorization: any HTTP answer from the token endpoint means the tenant
      // is there (a cached token would prove nothing). Credentials are checked by every sync.
      await fetch(workspace.connection.tokenUrl, { method: 'HEAD', redirect: 'manual', signal: AbortSignal.timeout(6_000) });
      return setState({ connection: name, online: true, checkedAt: now(), reason: null });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      const reason =
        error instanceof Error && error.name === 'TimeoutError'
          ? 'the tenant did not answer in time'
          : cause === 'ECONNREFUSED'
            ? 'the tenant refused the connection'
            : 'the tenant cannot be reached';
      return setState({ connection: name, online: false, checkedAt: now(), reason });
    }
  }

  function emitProgress(progress: SyncProgress): void {
    events.emit('syncProgress', progress);
  }

  const services: Services = {
    options,

    keychainAvailable() {
      keychain ??= options.secrets ? Promise.resolve(true) : keychainAvailable(3000);
      return keychain;
    },

    listConnections() {
      try {
        return readConnections(options.dataDir).map(connectionInfo);
      } catch (error) {
        return translate(error);
      }
    },

    lastUsedConnection() {
      try {
        return lastUsedConnection(options.dataDir) ?? null;
      } catch {
        return null;
      }
    },

    async saveConnection({ name, clientId, clientSecret, serverUrl, authMethod }) {
      if (name === DEMO_CONNECTION) throw new RpcError('bad_request', `The name '${DEMO_CONNECTION}' is kept for the demo tenant.`);
      let connection: Connection;
      try {
        connection = prepareConnection(options.dataDir, {
          clientId,
          serverUrl: serverUrl ?? undefined,
          auth: authMethod,
          name: name ?? undefined,
        });
      } catch (error) {
        return translate(error);
      }
      // Checked by getting a token before anything is stored.
      await services.testConnection({ clientId, clientSecret, serverUrl, authMethod });
      await secrets.set(connection.clientId, clientSecret);
      try {
        recordConnection(options.dataDir, connection);
      } catch (error) {
        return translate(error);
      }
      return connectionInfo(connection);
    },

    async removeConnection(name) {
      let removed: Connection | undefined;
      try {
        removed = forgetConnection(options.dataDir, name);
      } catch (error) {
        return translate(error);
      }
      if (!removed) throw new RpcError('not_found', `No connection named '${name}'.`);
      if (current?.connection.name === name) await services.close();
      if (name === DEMO_CONNECTION) await demoSecrets.delete(removed.clientId);
      else await secrets.delete(removed.clientId);
    },

    async openWorkspace(name) {
      if (name === DEMO_CONNECTION) return services.openDemoTenant();
      let connection: Connection;
      try {
        connection = getConnection(options.dataDir, name);
      } catch (error) {
        return translate(error);
      }
      let secret: string | null = null;
      try {
        secret = await secrets.get(connection.clientId);
      } catch (error) {
        // Without its secret the workspace still opens: the local copy can be browsed offline.
        log(`open ${name}: ${error instanceof Error ? error.message : String(error)}`);
      }
      markUsed(options.dataDir, connection.name);
      const credentials = secret
        ? { clientId: connection.clientId, clientSecret: secret, serverUrl: connection.serverUrl, auth: connection.auth }
        : null;
      return services.openWith(connectionInfo(connection), credentials, connection.storeFile);
    },

    async openDemoTenant() {
      if (!options.demoTenant) throw new RpcError('unsupported', 'The demo tenant cannot be started from this build.');
      if (!demo) demo = await startDemoTenant(options.demoTenant);
      const { info } = demo;
      const all = readConnections(options.dataDir);
      const existing = all.find((c) => c.name === DEMO_CONNECTION);
      let connection: Connection;
      try {
        const prepared = prepareConnection(options.dataDir, { clientId: info.clientId, serverUrl: info.url, auth: 'assertion' });
        // One demo connection, whatever credentials this run of the tenant printed: its store is kept.
        connection = {
          ...prepared,
          name: DEMO_CONNECTION,
          storeFile: existing?.storeFile ?? prepared.storeFile.replace(/[^/\\]+\.sqlite$/, `${DEMO_CONNECTION}.sqlite`),
        };
        const clash = all.find((c) => c.clientId === connection.clientId && c.name !== DEMO_CONNECTION);
        if (clash) forgetConnection(options.dataDir, clash.name);
        recordConnection(options.dataDir, connection);
      } catch (error) {
        return translate(error);
      }
      await demoSecrets.set(connection.clientId, info.clientSecret);
      return services.openWith(
        connectionInfo(connection),
        { clientId: connection.clientId, clientSecret: info.clientSecret, serverUrl: info.url, auth: 'assertion' },
        connection.storeFile,
      );
    },

    async inspectCredentials({ clientId, serverUrl, clientSecret }) {
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
    },

    async testConnection({ clientId, clientSecret, serverUrl, authMethod }) {
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
    },

    async openWith(connection, credentials, storeFile) {
      const api = credentials ? createApiClient({ ...credentials }) : null;
      if (current?.sync) current.sync.abort();
      current?.store.close();
      current = null;
      const store = openStore(storeFile ?? storeFileFor(options.dataDir, connection.name));
      const outbox = openOutbox(outboxStoreOf(store));
      // Anything that was in flight when the app last stopped is uncertain now: never lost, never resent blindly.
      outbox.recoverAfterCrash();
      current = { connection, store, outbox, api, credentials, sync: null, send: null };
      // The first probe answers quickly; the app is usable offline either way.
      await probe(current);
      return current;
    },

    workspace() {
      if (!current) throw new RpcError('no_workspace', 'No tenant is open. Connect one or open the demo tenant.');
      return current;
    },

    activeConnection: () => current?.connection ?? null,

    async connectionState(recheck = false) {
      if (!current) return state;
      return recheck ? probe(current) : state;
    },

    startSync(only) {
      const workspace = services.workspace();
      if (workspace.sync) return false;
      const credentials = workspace.credentials;
      if (!credentials) throw new RpcError('auth', 'The secret of this connection is not available; add the connection again.');
      const controller = new AbortController();
      workspace.sync = controller;
      void (async () => {
        let failed: string | null = null;
        let runId: number | null = null;
        try {
          // In a worker thread with its own store connection: the main process stays responsive.
          // The engine's own 'finished' is replaced by the one below, which carries the reason of a failure.
          const summary = await runSyncJob(
            { storeFile: workspace.store.file, ...credentials, only: only ?? undefined },
            { signal: controller.signal, onProgress: (p) => p.phase !== 'finished' && emitProgress(p) },
          );
          runId = summary.runId;
          if (summary.status !== 'completed')
            failed = summary.collections.find((c) => c.error)?.error ?? `The sync ended ${summary.status}.`;
          setState({ connection: workspace.connection.name, online: true, checkedAt: now(), reason: null });
        } catch (error) {
          failed = error instanceof Error ? (error.message.split('\n')[0] ?? 'The sync failed.') : String(error);
          log(`sync: ${failed}`);
          if (!controller.signal.aborted) void probe(workspace);
        } finally {
          if (workspace.sync === controller) workspace.sync = null;
          const cancelled = controller.signal.aborted;
          emitProgress({
            phase: 'finished',
            runId,
            collection: null,
            state: cancelled ? 'cancelled' : failed ? 'failed' : 'done',
            pages: 0,
            items: 0,
            ratePerSecond: null,
            error: cancelled ? null : failed,
          });
        }
      })();
      return true;
    },

    cancelSync() {
      const sync = current?.sync;
      if (!sync) return false;
      sync.abort();
      return true;
    },

    syncing: () => Boolean(current?.sync),

    startSend(ids) {
      const workspace = services.workspace();
      if (workspace.send) return false;
      if (!workspace.api) throw new RpcError('auth', 'The secret of this connection is not available; add the connection again.');
      const controller = new AbortController();
      workspace.send = controller;
      const api = workspace.api;
      const emit = (p: Omit<SendProgressEvent, 'itemId' | 'state' | 'message'> & Partial<SendProgressEvent>) =>
        events.emit('sendProgress', { itemId: null, state: null, message: null, ...p });
      void (async () => {
        try {
          const summary = await workspace.outbox.send(api, {
            ids: ids ?? undefined,
            signal: controller.signal,
            onProgress: (p) =>
              p.phase !== 'finished' &&
              emit({
                phase: p.phase,
                itemId: p.itemId ?? null,
                state: p.state ?? null,
                message: p.message ?? null,
                done: p.done,
                total: p.total,
                succeeded: p.succeeded,
                failed: p.failed,
                uncertain: p.uncertain,
                ratePerSecond: p.ratePerSecond,
              }),
          });
          emit({
            phase: 'finished',
            message: summary.paused ? summary.paused.message : null,
            done: summary.succeeded + summary.failed + summary.uncertain,
            total: summary.total,
            succeeded: summary.succeeded,
            failed: summary.failed,
            uncertain: summary.uncertain,
            ratePerSecond: null,
          });
          if (summary.paused?.reason === 'network') void probe(workspace);
        } catch (error) {
          const message = error instanceof Error ? (error.message.split('\n')[0] ?? 'The send failed.') : String(error);
          log(`send: ${message}`);
          emit({ phase: 'finished', message, done: 0, total: 0, succeeded: 0, failed: 0, uncertain: 0, ratePerSecond: null });
        } finally {
          if (workspace.send === controller) workspace.send = null;
        }
      })();
      return true;
    },

    cancelSend() {
      const send = current?.send;
      if (!send) return false;
      send.abort();
      return true;
    },

    sending: () => Boolean(current?.send),

    async chooseFile(mode, dialogOptions) {
      const path = mode === 'open' ? await options.dialogs.open(dialogOptions) : await options.dialogs.save(dialogOptions);
      if (path) granted.add(resolvePath(path));
      return path;
    },

    async exportReport({ kind, path, asOfRun, filters, fromRun, toRun, sign }) {
      const out = mustBeGranted(path);
      const workspace = services.workspace();
      if (exporting) throw new RpcError('busy', 'An export is already running.');
      const controller = new AbortController();
      exporting = controller;
      events.emit('exportProgress', { phase: 'started', sheet: null, sheetIndex: 0, sheetCount: 0, rows: 0, total: null, error: null });
      try {
        const signer = sign ? await signingKey(secrets) : undefined;
        const result = await exportReport({
          kind: kind as never,
          out,
          store: workspace.store,
          journal: () => workspace.outbox.journal(),
          connection: {
            name: workspace.connection.name,
            tenantHost: workspace.connection.hostname,
            clientId: workspace.connection.clientId,
            serverUrl: workspace.connection.serverUrl,
          },
          appVersion: options.version,
          asOfRun: asOfRun ?? undefined,
          filters,
          fromRun: fromRun ?? undefined,
          toRun: toRun ?? undefined,
          signer,
          signal: controller.signal,
          onProgress: (p) =>
            events.emit('exportProgress', {
              phase: 'sheet',
              sheet: p.sheet,
              sheetIndex: p.sheetIndex,
              sheetCount: p.sheetCount,
              rows: p.rows,
              total: p.total ?? null,
              error: null,
            }),
        });
        events.emit('exportProgress', {
          phase: 'finished',
          sheet: null,
          sheetIndex: result.sheets.length,
          sheetCount: result.sheets.length,
          rows: result.sheets.reduce((a, sh) => a + sh.rows, 0),
          total: null,
          error: null,
        });
        // The written file may be verified or shown without another dialog.
        granted.add(resolvePath(result.file));
        return result;
      } catch (error) {
        const message = error instanceof Error ? (error.message.split('\n')[0] ?? 'The export failed.') : String(error);
        events.emit('exportProgress', {
          phase: 'finished',
          sheet: null,
          sheetIndex: 0,
          sheetCount: 0,
          rows: 0,
          total: null,
          error: controller.signal.aborted ? 'cancelled' : message,
        });
        throw error;
      } finally {
        if (exporting === controller) exporting = null;
      }
    },

    cancelExport() {
      if (!exporting) return false;
      exporting.abort();
      return true;
    },

    async verifyWorkbook(path, key) {
      return verifyWorkbook(mustBeGranted(path), { key });
    },

    async showInFolder(path) {
      const full = mustBeGranted(path);
      return options.showInFolder ? options.showInFolder(full) : false;
    },

    async close() {
      current?.sync?.abort();
      current?.send?.abort();
      current?.store.close();
      current = null;
      state = { connection: null, online: false, checkedAt: null, reason: null };
    },

    async shutdown() {
      await services.close();
      const running = demo;
      demo = null;
      await running?.stop();
    },
  };
  return services;
}
