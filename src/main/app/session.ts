import { resolve as resolvePath } from 'node:path';
import type {
  AutoRunStatus,
  ChannelArgs,
  CollectionId,
  ConnectionInfo,
  ConnectionState,
  Notice,
  SyncProgress,
} from '../../shared/contract';
import { AUTO_RUN_OFF, type AutoRunChoice } from '../../shared/auto-run';
import { startDemoTenant, type DemoTenant, type DemoTenantLaunch } from '../demo-tenant';
import { CoreError, firstLineOf } from '../errors';
import type { EventBus } from '../events';
import { heldThenKeychain, KeychainError, memorySecretStore, osKeychain, secretStoreAnswers, type SecretStore } from '../keychain';
import { signingKey, type ExportResult, type VerifyResult } from '../reports';
import { READ_LIMITS, verifyWithStore } from './tasks/verify';
import { checkInputFile } from './input-files';
import { exportReviewWorksheet, importReviewWorksheet, type ReviewExportResult, type ReviewImportResult } from './reviews';
import type { ReviewScope } from '../reports/review-worksheet';
import { AutoRunner, sendNotice, syncNotice, type Notifier } from './auto-run';
import {
  checkCredentials,
  DEMO_CONNECTION,
  forgetConnection,
  lastUsedConnection,
  listConnections,
  replaceCredential,
  recordDemoConnection,
  saveAutoRun,
  savedConnections,
  saveConnection,
  testConnection,
  type CredentialsInput,
} from './saved-connections';
import { runExport, type ExportTaskOptions } from './tasks/export';
import { runSend } from './tasks/send';
import { NO_SECRET_MESSAGE, runSync } from './tasks/sync';
import { watchStore } from './store-watch';
import { openStoreFile, prepareWorkspace, type Workspace, type WorkspaceToOpen } from './workspace';

/**
 * What only the app holds, over the workspaces both fronts open: the current workspace, the
 * connection state and its probe, the files a dialog granted, the sync, send and export running
 * in the background (their progress as events), and the demo tenant this app started.
 */

export interface Dialogs {
  open(options: ChannelArgs<'showOpenDialog'>): Promise<string | null>;
  save(options: ChannelArgs<'showSaveDialog'>): Promise<string | null>;
}

export interface SessionOptions {
  dataDir: string;
  /** Stated on every Evidence sheet this app exports. */
  appVersion: string;
  events: EventBus;
  dialogs: Dialogs;
  /** Shows a file in the OS file manager; false where the host cannot. */
  showInFolder?(path: string): Promise<boolean>;
  /** Where client secrets live (default: the OS keychain). */
  secrets?: SecretStore;
  /** How to start the reference tenant for "Open demo tenant"; absent where it cannot run. */
  demoTenant?: DemoTenantLaunch;
  /**
   * Tells of runs on its own that ended with failures, and the count of failed and uncertain
   * changes (default: a `notice` event, which the browser host's page shows as a toast).
   */
  notifier?: Notifier;
  /** How often an offline tenant is checked while its connection runs something on its own (default 30 s). */
  onlineCheckMs?: number;
  /** How often the open store and the saved connections are looked at for changes another process made (default 500 ms). */
  storeWatchMs?: number;
  log?: (line: string) => void;
}

/** Who started a send or a sync: the user, or the connection's runs on its own. */
type Origin = 'user' | 'auto';

const OFFLINE: ConnectionState = { connection: null, online: false, status: 'offline', checkedAt: null, reason: null, needsSecret: false };

/** Where a pasted secret is kept: the OS keychain, or this process's memory until the app quits (asked again at the next start). */
export type SecretKeeping = 'keychain' | 'this-run';
const now = () => new Date().toISOString();

/** What the fronts are told when the open connection's credential was refused. */
function refusedReason(reason: string | null): string {
  return `${reason ?? "The tenant refused this connection's credentials"}. Replace the credential in Settings.`;
}

/** The state of the open connection (online, credentials refused, offline), told to the fronts when it changes. */
class ConnectionMonitor {
  state: ConnectionState = OFFLINE;
  /** Why the open connection has no secret, when it has none and one can be given (a saved connection). */
  missingSecret: string | null = null;
  /** Told after every change of the state. */
  onChange: ((previous: ConnectionState, next: ConnectionState) => void) | null = null;

  constructor(private readonly events: EventBus) {}

  set(next: ConnectionState): ConnectionState {
    const previous = this.state;
    const changed =
      next.status !== this.state.status ||
      next.online !== this.state.online ||
      next.connection !== this.state.connection ||
      next.reason !== this.state.reason ||
      next.needsSecret !== this.state.needsSecret;
    this.state = next;
    if (changed) {
      this.events.emit('connectionState', this.state);
      this.onChange?.(previous, next);
    }
    return this.state;
  }

  online(workspace: Workspace): void {
    this.set({ connection: workspace.connection.name, online: true, status: 'online', checkedAt: now(), reason: null, needsSecret: false });
  }

  /** The tenant refused the credential (a send stopped on 401): said at once, without another request. */
  refused(workspace: Workspace): void {
    const state = {
      online: false,
      status: 'credentials-refused',
      checkedAt: now(),
      reason: refusedReason(null),
      needsSecret: false,
    } as const;
    this.set({ connection: workspace.connection.name, ...state });
  }

  /** Checks the open connection by getting a fresh token with its credential: online, credentials refused, or offline. */
  async probe(workspace: Workspace): Promise<ConnectionState> {
    const name = workspace.connection.name;
    const credentials = workspace.credentials;
    if (!workspace.api || !credentials) {
      const reason = this.missingSecret ?? 'The secret of this connection is not available.';
      const needsSecret = this.missingSecret !== null;
      return this.set({ connection: name, online: false, status: 'offline', checkedAt: now(), reason, needsSecret });
    }
    const { status, reason } = await checkCredentials({
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
      serverUrl: credentials.serverUrl ?? null,
      authMethod: credentials.auth,
    });
    const said = status === 'credentials-refused' ? refusedReason(reason) : reason;
    return this.set({ connection: name, online: status === 'online', status, checkedAt: now(), reason: said, needsSecret: false });
  }
}

export interface ExportArgs {
  /** A report kind of the catalog (an unknown one is refused by the export). */
  kind: string;
  path: string;
  asOfRun: number | null;
  filters: string[];
  fromRun: number | null;
  toRun: number | null;
  /** Sign with this machine's evidence signing key (from the keychain, created on first use). */
  sign?: boolean;
  /** Who prepared the workbook, as its cover names them (null or absent: the OS account's full name). */
  preparedBy?: string | null;
  /** `[collection.]column[:asc|desc]`: the order of the rows (null or absent: by id). */
  sort?: string | null;
  /** Words every object's text must hold (a list's filter box, a search's query). */
  text?: string | null;
  /** The view of the app the parameters came from, as the cover names it. */
  view?: string | null;
  /** The certification report: the one campaign reported (null or absent: every campaign). */
  campaign?: string | null;
}

export class Session {
  readonly dataDir: string;
  private current: Workspace | null = null;
  private readonly monitor: ConnectionMonitor;
  private readonly secrets: SecretStore;
  /** Secrets the user chose to give for this run only (or that no keychain could keep): in memory, never on disk. */
  private readonly heldSecrets = memorySecretStore();
  /** Where opening a connection looks for its secret: held for this run, then the keychain. */
  private readonly openingSecrets: SecretStore;
  private readonly demoSecrets = memorySecretStore();
  private demo: DemoTenant | null = null;
  private keychain: Promise<boolean> | null = null;
  /** Files chosen in a dialog of this session: the only ones exports may write and verification may read. */
  private readonly granted = new Set<string>();
  private readonly running: { sync: AbortController | null; send: AbortController | null; export: AbortController | null } = {
    sync: null,
    send: null,
    export: null,
  };
  private readonly log: (line: string) => void;
  private readonly notifier: Notifier;
  /** What the open connection runs on its own. */
  readonly autoRun: AutoRunner;
  /** Stops watching the open store for changes another process made. */
  private stopWatch: (() => void) | null = null;
  /** The store changed elsewhere while this app's sync wrote to it too: told once the sync ends. */
  private changedDuringSync = false;
  /**
   * The open connection is being opened again (its credential replaced here, or its record changed
   * elsewhere): the watch leaves it be.
   */
  private reopening = false;
  /** The saved connections changed while a send or a sync ran: looked at again when it ends. */
  private connectionsChangedDuringTask = false;

  constructor(private readonly options: SessionOptions) {
    this.dataDir = options.dataDir;
    this.monitor = new ConnectionMonitor(options.events);
    this.secrets = options.secrets ?? osKeychain();
    this.openingSecrets = heldThenKeychain(this.heldSecrets, this.secrets);
    this.log = options.log ?? (() => {});
    this.notifier = options.notifier ?? { notify: (notice) => options.events.emit('notice', notice), badge: () => {} };
    this.autoRun = new AutoRunner(
      {
        current: () =>
          this.current ? { name: this.current.connection.name, choice: this.autoRunChoice(this.current.connection.name) } : null,
        state: () => this.monitor.state,
        probe: () => (this.current ? this.monitor.probe(this.current) : Promise.resolve()),
        queued: () => this.current?.outbox.counts().queued ?? 0,
        busy: () => (this.running.sync ? 'sync' : this.running.send ? 'send' : null),
        startSend: () => this.startSend(null, 'auto'),
        startSync: () => this.startSync(null, 'auto'),
      },
      { onlineCheckMs: options.onlineCheckMs, onStatus: (status) => options.events.emit('autoRun', status), log: this.log },
    );
    this.monitor.onChange = (previous, next) => this.autoRun.connectionChanged(previous, next);
  }

  /** A saved connection's choice of runs on its own (a bare store file, or an unreadable connections file: none). */
  private autoRunChoice(name: string): AutoRunChoice {
    try {
      return listConnections(this.dataDir).find((c) => c.name === name)?.autoRun ?? AUTO_RUN_OFF;
    } catch {
      return AUTO_RUN_OFF;
    }
  }

  /** Saves what a connection runs on its own (checked first); the open one follows it at once. */
  setAutoRun(name: string, choice: AutoRunChoice): { connection: ConnectionInfo; status: AutoRunStatus } {
    const connection = saveAutoRun(this.dataDir, name, choice);
    if (this.current?.connection.name === name) this.autoRun.refresh();
    return { connection, status: this.autoRun.status() };
  }

  autoRunStatus(): AutoRunStatus {
    return this.autoRun.status();
  }

  /** The changes failed or uncertain in the open outbox, as the badge shows them. */
  private updateBadge(): void {
    try {
      const counts = this.current?.outbox.counts();
      this.notifier.badge(counts ? counts.failed + counts.uncertain : 0);
    } catch (error) {
      this.log(`badge: ${firstLineOf(error, 'the outbox could not be counted')}`);
    }
  }

  /** Whether the keychain answers (asked once per run: a missing Secret Service stays missing). */
  keychainAvailable(): Promise<boolean> {
    this.keychain ??= secretStoreAnswers(this.secrets, 3000);
    return this.keychain;
  }

  /** The saved connections, the open one (a bare store file is listed too) and the last used. */
  connections(): { connections: ConnectionInfo[]; active: string | null; lastUsed: string | null } {
    const active = this.current?.connection ?? null;
    const saved = savedConnections(this.dataDir);
    const connections = active && !saved.some((c) => c.name === active.name) ? [...saved, active] : saved;
    let lastUsed: string | null = null;
    try {
      lastUsed = lastUsedConnection(this.dataDir) ?? null;
    } catch {
      // An unreadable connections file was reported by the listing above.
    }
    return { connections, active: active?.name ?? null, lastUsed };
  }

  /** Saves a connection after a token check; its secret to the keychain, or held in memory for this run only. */
  saveConnection({ keep, ...args }: CredentialsInput & { name: string | null; keep: SecretKeeping }): Promise<ConnectionInfo> {
    return saveConnection(this.dataDir, keep === 'this-run' ? this.heldSecrets : this.secrets, args);
  }

  /**
   * Replaces a saved connection's credential in place (a rotated one): checked by getting a token,
   * kept as asked, the old keychain entry deleted; the open connection is opened again with it (its
   * store and its outbox are the same). A queued send goes out with the next "Send".
   */
  async replaceCredential({
    keep,
    ...args
  }: Omit<CredentialsInput, 'serverUrl' | 'authMethod'> & {
    name: string;
    serverUrl: string | null;
    authMethod: CredentialsInput['authMethod'] | null;
    keep: SecretKeeping;
  }): Promise<ConnectionInfo> {
    const keeper = keep === 'this-run' ? this.heldSecrets : this.secrets;
    const other = keep === 'this-run' ? this.secrets : this.heldSecrets;
    this.reopening = true;
    try {
      const replaced = await replaceCredential(this.dataDir, keeper, args, [other]);
      if (replaced.keychainNote) this.log(`replace credential of ${args.name}: ${replaced.keychainNote}`);
      if (this.current?.connection.name === args.name) return (await this.openConnection(args.name)).connection;
      return replaced.connection;
    } finally {
      this.reopening = false;
    }
  }

  async removeConnection(name: string): Promise<void> {
    const removed = forgetConnection(this.dataDir, name);
    if (this.current?.connection.name === name) await this.close();
    if (name === DEMO_CONNECTION) {
      await this.demoSecrets.delete(removed.clientId);
      return;
    }
    await this.heldSecrets.delete(removed.clientId);
    try {
      await this.secrets.delete(removed.clientId);
    } catch (error) {
      // Without a keychain there is no entry to remove: the connection is forgotten all the same.
      if (!(error instanceof KeychainError)) throw error;
      this.log(`remove ${name}: ${error.message}`);
    }
  }

  /**
   * The secret of the open connection, pasted again (its keychain entry is gone, or there is no
   * keychain and it was held for an earlier run only): checked by getting a token, then kept as
   * asked, and the connection opened again with it.
   */
  async provideSecret(clientSecret: string, keep: SecretKeeping): Promise<Workspace> {
    const { connection } = this.workspace();
    if (connection.demo || !connection.tokenUrl) throw new CoreError('bad_request', 'This connection takes no secret.');
    await testConnection({
      clientId: connection.clientId,
      clientSecret,
      serverUrl: connection.serverUrl,
      authMethod: connection.authMethod,
    });
    await (keep === 'this-run' ? this.heldSecrets : this.secrets).set(connection.clientId, clientSecret);
    return this.openConnection(connection.name);
  }

  /** Opens a saved connection: its store always; its API client when its secret is available. */
  async openConnection(name: string): Promise<Workspace> {
    if (name === DEMO_CONNECTION) return this.openDemoTenant();
    return this.openSaved(name, true);
  }

  /** `recover`: what was in flight is uncertain now (not when another process may be sending from the same store). */
  private async openSaved(name: string, recover: boolean): Promise<Workspace> {
    const prepared = await prepareWorkspace(this.dataDir, name, {
      secrets: this.openingSecrets,
      secret: 'if-available',
      recover,
      log: this.log,
    });
    return this.adopt(prepared, await this.missingSecretReason());
  }

  /** Starts noticing what another process (the CLI) changes in this workspace's store and in the saved connections. */
  private watch(workspace: Workspace): void {
    this.stopWatch?.();
    this.stopWatch = watchStore(workspace.store.db, this.dataDir, {
      intervalMs: this.options.storeWatchMs,
      log: this.log,
      onStore: () => {
        // This app's sync writes from a thread of its own: its end refreshes the views anyway.
        if (this.running.sync) this.changedDuringSync = true;
        else this.changedElsewhere(workspace, { store: true, connections: false });
      },
      onConnections: () => void this.followSavedConnection(workspace),
    });
  }

  /** Tells the fronts to refetch; the badge and what runs on its own follow the outbox as it is now. */
  private changedElsewhere(workspace: Workspace, what: { store: boolean; connections: boolean }): void {
    if (this.current !== workspace) return;
    this.options.events.emit('storeChanged', { connection: workspace.connection.name, ...what, at: now() });
    if (what.store) this.updateBadge();
    this.autoRun.refresh();
  }

  /**
   * The saved connections changed on disk (a credential replaced by the CLI, say): when the open
   * connection's record names another credential, or its credential was refused or missing, it is
   * opened again (a secret is looked for, the tenant probed) so its state and pauses follow. Never
   * while this app sends or syncs: then once that task ends.
   */
  private async followSavedConnection(workspace: Workspace): Promise<void> {
    if (this.current !== workspace) return;
    const { connection } = workspace;
    const state = this.monitor.state;
    let reopen = false;
    try {
      const record = listConnections(this.dataDir).find((c) => c.name === connection.name);
      const otherCredential =
        record !== undefined &&
        (record.clientId !== connection.clientId ||
          (record.serverUrl ?? null) !== connection.serverUrl ||
          record.auth !== connection.authMethod);
      const stuck = state.status === 'credentials-refused' || state.needsSecret;
      reopen = record !== undefined && !connection.demo && (otherCredential || stuck);
    } catch (error) {
      this.log(`connections changed: ${firstLineOf(error, 'the connections file could not be read')}`);
    }
    if (this.running.send || this.running.sync) this.connectionsChangedDuringTask = true;
    else if (reopen && !this.reopening) {
      this.reopening = true;
      try {
        // Not `recover`: the CLI may be sending from this store right now.
        workspace = await this.openSaved(connection.name, false);
      } catch (error) {
        this.log(`reopen ${connection.name}: ${firstLineOf(error, 'the connection could not be opened again')}`);
      } finally {
        this.reopening = false;
      }
    }
    this.changedElsewhere(workspace, { store: false, connections: true });
  }

  /** A change of the saved connections seen while a task ran is followed once it ended. */
  private followAfterTask(workspace: Workspace): void {
    if (!this.connectionsChangedDuringTask || this.current !== workspace) return;
    this.connectionsChangedDuringTask = false;
    void this.followSavedConnection(workspace);
  }

  /** What the app says of a saved connection opened without its secret: why, and that pasting it connects. */
  private async missingSecretReason(): Promise<string> {
    return (await this.keychainAvailable())
      ? 'The keychain holds no secret for this connection: paste it to connect.'
      : 'This computer has no keychain Attest can use, so the secret could not be kept: paste it to connect for this run.';
  }

  async openDemoTenant(): Promise<Workspace> {
    if (!this.options.demoTenant) throw new CoreError('unsupported', 'The demo tenant cannot be started from this build.');
    if (!this.demo) this.demo = await startDemoTenant(this.options.demoTenant);
    const { info } = this.demo;
    const connection = recordDemoConnection(this.dataDir, info);
    await this.demoSecrets.set(connection.clientId, info.clientSecret);
    const prepared = await prepareWorkspace(this.dataDir, DEMO_CONNECTION, {
      secrets: this.demoSecrets,
      secret: 'if-available',
      recover: true,
    });
    return this.adopt(prepared);
  }

  /** Opens a bare store file, offline (the browser host's --store). */
  openStoreFile(file: string): Promise<Workspace> {
    return this.adopt({ open: () => openStoreFile(file, { recover: true }) });
  }

  /** Makes a workspace the current one: what ran in the previous one stops, and its store closes. */
  private async adopt(next: Pick<WorkspaceToOpen, 'open'>, missingSecret: string | null = null): Promise<Workspace> {
    this.stopTasks();
    this.autoRun.stop();
    this.stopWatch?.();
    this.stopWatch = null;
    this.connectionsChangedDuringTask = false;
    this.current?.close();
    this.current = null;
    // Anything that was in flight when the app last stopped is uncertain now (`recover`): never lost, never resent blindly.
    const workspace = next.open();
    this.current = workspace;
    this.watch(workspace);
    // Search is ready before the first keystroke: warmed right after this turn, off any request's path.
    setImmediate(() => {
      try {
        if (this.current === workspace) workspace.store.warmSearch();
      } catch {
        // Only a head start: a search that needs the store says what is wrong with it.
      }
    });
    this.monitor.missingSecret = missingSecret;
    // The first probe answers quickly; the app is usable offline either way.
    await this.monitor.probe(workspace);
    this.autoRun.refresh();
    this.updateBadge();
    return workspace;
  }

  workspace(): Workspace {
    if (!this.current) throw new CoreError('no_workspace', 'No tenant is open. Connect one or open the demo tenant.');
    return this.current;
  }

  activeConnection(): ConnectionInfo | null {
    return this.current?.connection ?? null;
  }

  async connectionState(recheck = false): Promise<ConnectionState> {
    if (!this.current) return this.monitor.state;
    return recheck ? this.monitor.probe(this.current) : this.monitor.state;
  }

  /** Starts a sync off the main thread; progress comes as syncProgress events. False when one is running. */
  startSync(only: CollectionId[] | null, origin: Origin = 'user'): boolean {
    const workspace = this.workspace();
    if (this.running.sync) return false;
    if (!workspace.credentials) throw new CoreError('auth', NO_SECRET_MESSAGE);
    const controller = new AbortController();
    this.running.sync = controller;
    const emit = (event: SyncProgress) => this.options.events.emit('syncProgress', event);
    let finished: SyncProgress | null = null;
    void runSync(workspace, {
      only,
      worker: true,
      signal: controller.signal,
      // The last event waits until the state is known and a new sync may start.
      onProgress: (event) => (event.phase === 'finished' ? (finished = event) : emit(event)),
    })
      .then(() => this.monitor.online(workspace))
      .catch((error: unknown) => {
        this.log(`sync: ${firstLineOf(error, 'The sync failed.')}`);
        if (!controller.signal.aborted) void this.monitor.probe(workspace);
      })
      .finally(() => {
        if (this.running.sync === controller) this.running.sync = null;
        if (finished) emit(finished);
        const ended = finished as SyncProgress | null;
        if (origin === 'auto' && ended?.state === 'failed')
          this.notifier.notify(syncNotice(workspace.connection.name, ended.error ?? 'no explanation'));
        if (this.changedDuringSync) {
          this.changedDuringSync = false;
          this.changedElsewhere(workspace, { store: true, connections: false });
        }
        this.followAfterTask(workspace);
        if (this.current === workspace) this.autoRun.taskEnded();
      });
    return true;
  }

  cancelSync(): boolean {
    return this.cancel('sync');
  }

  syncing(): boolean {
    return this.running.sync !== null;
  }

  /** Sends queued outbox items off the request path; progress comes as sendProgress events. */
  startSend(ids: string[] | null, origin: Origin = 'user'): boolean {
    const workspace = this.workspace();
    if (this.running.send) return false;
    const api = workspace.api;
    if (!api) throw new CoreError('auth', NO_SECRET_MESSAGE);
    const controller = new AbortController();
    this.running.send = controller;
    let notice: Notice | null = null;
    void runSend(workspace, api, {
      ids: ids ?? undefined,
      signal: controller.signal,
      // Transient faults are read and retried within the send: nothing is left uncertain that a read can settle.
      settle: true,
      onProgress: (event) => this.options.events.emit('sendProgress', event),
    })
      .then(({ last, totals }) => {
        if (last?.paused?.reason === 'auth') this.monitor.refused(workspace);
        else if (last?.paused?.reason === 'network') void this.monitor.probe(workspace);
        if (origin === 'auto') notice = sendNotice(workspace.connection.name, totals.failed, totals.unsettled);
      })
      .catch((error: unknown) => this.log(`send: ${firstLineOf(error, 'The send failed.')}`))
      .finally(() => {
        if (this.running.send === controller) this.running.send = null;
        if (this.current === workspace) this.updateBadge();
        // Told once the send has ended, with the badge already counting its failures.
        if (notice) this.notifier.notify(notice);
        this.followAfterTask(workspace);
        if (this.current === workspace) this.autoRun.taskEnded();
      });
    return true;
  }

  cancelSend(): boolean {
    return this.cancel('send');
  }

  sending(): boolean {
    return this.running.send !== null;
  }

  /** Open/save dialogs; the paths they return are the only ones exports may write or verification may read. */
  async chooseFile(mode: 'open' | 'save', options: ChannelArgs<'showOpenDialog'> & ChannelArgs<'showSaveDialog'>): Promise<string | null> {
    const path = mode === 'open' ? await this.options.dialogs.open(options) : await this.options.dialogs.save(options);
    if (path) this.granted.add(resolvePath(path));
    return path;
  }

  private mustBeGranted(path: string): string {
    const full = resolvePath(path);
    if (!this.granted.has(full))
      throw new CoreError('forbidden', 'Choose the file in the dialog first: the app only writes and reads files you picked.');
    return full;
  }

  /** Writes a report where a save dialog said; progress comes as exportProgress events. */
  async exportReport({
    kind,
    path,
    asOfRun,
    filters,
    fromRun,
    toRun,
    sign,
    preparedBy,
    sort,
    text,
    view,
    campaign,
  }: ExportArgs): Promise<ExportResult> {
    const out = this.mustBeGranted(path);
    const workspace = this.workspace();
    if (this.running.export) throw new CoreError('busy', 'An export is already running.');
    const controller = new AbortController();
    this.running.export = controller;
    try {
      // Fetched once the export holds the running state: a keychain failure releases it too.
      const signer = sign ? await signingKey(this.secrets) : undefined;
      const result = await runExport(workspace, {
        kind: kind as ExportTaskOptions['kind'],
        signer,
        out,
        appVersion: this.options.appVersion,
        asOfRun: asOfRun ?? undefined,
        filters,
        sort: sort ?? undefined,
        text: text ?? undefined,
        view: view ?? undefined,
        fromRun: fromRun ?? undefined,
        toRun: toRun ?? undefined,
        campaign: campaign ?? undefined,
        preparedBy: preparedBy ?? undefined,
        signal: controller.signal,
        onProgress: (event) => this.options.events.emit('exportProgress', event),
      });
      // The written file may be verified or shown without another dialog.
      this.granted.add(resolvePath(result.file));
      return result;
    } finally {
      if (this.running.export === controller) this.running.export = null;
    }
  }

  cancelExport(): boolean {
    return this.cancel('export');
  }

  /** `key`: the fingerprint of the key the workbook must be signed with. */
  verifyWorkbook(path: string, key?: string | null): Promise<VerifyResult> {
    return verifyWithStore(this.mustBeGranted(path), this.dataDir, { key });
  }

  /** Writes a review worksheet where a save dialog said (offline: from the store). */
  async exportReviewWorksheet(path: string, scope: ReviewScope, reviewer: string | null): Promise<ReviewExportResult> {
    const out = this.mustBeGranted(path);
    const result = await exportReviewWorksheet(this.workspace(), {
      out,
      scope,
      reviewer: reviewer ?? undefined,
      appVersion: this.options.appVersion,
    });
    // The written file may be shown without another dialog.
    this.granted.add(resolvePath(result.file));
    return result;
  }

  /** Reads a returned review worksheet an open dialog gave; unless refused or a dry run, queues its Revokes. */
  importReviewDecisions(path: string, dryRun: boolean): Promise<ReviewImportResult> {
    const file = this.mustBeGranted(path);
    // Refused before reading, as the CLI does: a regular file within verify's limit.
    checkInputFile(file, 'the worksheet', READ_LIMITS.fileBytes);
    return importReviewWorksheet(this.workspace(), file, { dryRun });
  }

  async showInFolder(path: string): Promise<boolean> {
    const full = this.mustBeGranted(path);
    return this.options.showInFolder ? this.options.showInFolder(full) : false;
  }

  private cancel(task: 'sync' | 'send' | 'export'): boolean {
    const controller = this.running[task];
    if (!controller) return false;
    controller.abort();
    return true;
  }

  private stopTasks(): void {
    this.cancel('sync');
    this.cancel('send');
    this.running.sync = null;
    this.running.send = null;
  }

  /** Closes the open workspace. */
  async close(): Promise<void> {
    this.stopTasks();
    this.autoRun.stop();
    this.stopWatch?.();
    this.stopWatch = null;
    this.current?.close();
    this.current = null;
    this.monitor.state = OFFLINE;
    this.monitor.missingSecret = null;
  }

  /** Closes everything, and stops the demo tenant if this app started it. */
  async shutdown(): Promise<void> {
    await this.close();
    const running = this.demo;
    this.demo = null;
    await running?.stop();
  }
}

export function createSession(options: SessionOptions): Session {
  return new Session(options);
}
