import { create } from 'zustand';
import type {
  AutoRunStatus,
  ChannelResult,
  CollectionId,
  CollectionInfo,
  CollectionStatus,
  ConnectionInfo,
  ConnectionState,
  Notice,
  SendProgress,
  SyncProgress,
} from '../../shared/contract';
import { call, errorMessage, subscribe } from '../api';
import { paceSendEvents } from './send-events';
import type { ReportDraft } from '../components/report-draft';

export type Route =
  | { view: 'overview' }
  | { view: 'search'; query?: string }
  /** What changed between two completed runs (default: the last two). */
  | { view: 'changes'; fromRun?: number; toRun?: number }
  | { view: 'list'; collection: CollectionId }
  | { view: 'detail'; collection: CollectionId; id: string }
  /** `editTemplate`: open the template editor on this synced template. */
  | { view: 'outbox'; editTemplate?: string }
  /** `draft`: the parameters of a view of the app ("Export this view"), to export. */
  | { view: 'reports'; draft?: ReportDraft }
  | { view: 'settings' }
  /** The documentation that ships with the app: a page (README first) and a heading in it. */
  | { view: 'help'; doc?: string | undefined; anchor?: string | undefined };

export interface CollectionProgress {
  state: SyncProgress['state'];
  pages: number;
  items: number;
  ratePerSecond: number | null;
  error: string | null;
  /** What the walk is expected to fetch (the last completed sync of the collection, or the ids to read); null: unknown. */
  expectedPages: number | null;
  expectedItems: number | null;
  etaSeconds: number | null;
}

export interface AppState {
  boot: 'loading' | 'ready' | 'error';
  bootError: string | null;
  info: ChannelResult<'appInfo'> | null;
  connections: ConnectionInfo[];
  active: string | null;
  connection: ConnectionState;
  route: Route;
  backStack: Route[];
  /** The routes Back left, for Forward (cleared when the user goes somewhere new). */
  forwardStack: Route[];
  /** How the current route was reached: somewhere new, or Back and Forward (a list then gives the focus back to the row it left from). */
  arrival: 'new' | 'back' | 'forward';
  /** What each screen showed when it was left (a search's query, collection and filters), by screen: kept across Back and Forward. */
  views: Record<string, unknown>;
  collections: CollectionInfo[];
  status: CollectionStatus[];
  statusError: string | null;
  syncing: boolean;
  syncRunId: number | null;
  progress: Partial<Record<CollectionId, CollectionProgress>>;
  syncError: string | null;
  /**
   * Syncs this window saw end, however they ended: by then their objects are stored and searchable.
   * Shown on the "data as of" button, so a test waits on it rather than on time.
   */
  syncsFinished: number;
  /** Bumped whenever stored data may have changed (a sync finished, a workspace opened): views refetch. */
  dataVersion: number;
  paletteOpen: boolean;
  /** The About dialog is open. */
  aboutOpen: boolean;
  addingConnection: boolean;
  /** Outbox items not settled yet (queued, sending, failed, uncertain): the sidebar badge. */
  outboxPending: number;
  /** Outbox items per state (the whole outbox). */
  outboxCounts: Record<string, number>;
  sending: boolean;
  sendProgress: SendProgress | null;
  /** Bumped when the outbox changed: its views refetch. */
  outboxVersion: number;
  /** What the open connection runs on its own, and when the next run is due. */
  autoRun: AutoRunStatus | null;
  /** Runs on their own that ended with failures, shown as toasts until dismissed. */
  notices: Notice[];

  start(): Promise<void>;
  refreshConnections(): Promise<void>;
  openWorkspace(name: string): Promise<void>;
  workspaceOpened(connection: ConnectionInfo, state: ConnectionState): Promise<void>;
  refreshStatus(): Promise<void>;
  recheckConnection(): Promise<void>;
  navigate(route: Route): void;
  back(): void;
  forward(): void;
  /** Keeps what a screen shows (see `views`). */
  setView(key: string, state: unknown): void;
  startSync(): Promise<void>;
  cancelSync(): Promise<void>;
  setPalette(open: boolean): void;
  setAbout(open: boolean): void;
  setAddingConnection(open: boolean): void;
  refreshOutbox(): Promise<void>;
  outboxChanged(): void;
  /** Stored data changed outside a sync (an object read from the tenant): views refetch, the status too. */
  dataChanged(): void;
  refreshAutoRun(): Promise<void>;
  dismissNotice(notice: Notice): void;
}

const offline: ConnectionState = { connection: null, online: false, status: 'offline', checkedAt: null, reason: null, needsSecret: false };

export const useApp = create<AppState>()((set, get) => ({
  boot: 'loading',
  bootError: null,
  info: null,
  connections: [],
  active: null,
  connection: offline,
  route: { view: 'overview' },
  backStack: [],
  forwardStack: [],
  arrival: 'new',
  views: {},
  collections: [],
  status: [],
  statusError: null,
  syncing: false,
  syncRunId: null,
  progress: {},
  syncError: null,
  syncsFinished: 0,
  dataVersion: 0,
  paletteOpen: false,
  aboutOpen: false,
  addingConnection: false,
  outboxPending: 0,
  outboxCounts: {},
  sending: false,
  sendProgress: null,
  outboxVersion: 0,
  autoRun: null,
  notices: [],

  async start() {
    try {
      const [info, list, state] = await Promise.all([call('appInfo'), call('listConnections'), call('connectionState')]);
      set({ info, connections: list.connections, active: list.active, connection: state });
      if (list.active) {
        await get().refreshStatus();
        await get().refreshOutbox();
        await get().refreshAutoRun();
      } else if (list.lastUsed) {
        // Reopen the tenant used last; if that fails, the first-run screen lists the saved ones.
        await get()
          .openWorkspace(list.lastUsed)
          .catch(() => undefined);
      }
      set({ boot: 'ready' });
    } catch (error) {
      set({ boot: 'error', bootError: errorMessage(error) });
    }
  },

  async refreshConnections() {
    const list = await call('listConnections');
    set({ connections: list.connections, active: list.active });
  },

  async openWorkspace(name) {
    const { connection, state } = await call('openWorkspace', { name });
    await get().workspaceOpened(connection, state);
  },

  async workspaceOpened(connection, state) {
    set({
      active: connection.name,
      connection: state,
      route: { view: 'overview' },
      backStack: [],
      forwardStack: [],
      arrival: 'new',
      views: {},
      progress: {},
      syncError: null,
      addingConnection: false,
    });
    await get().refreshConnections();
    await get().refreshStatus();
    await get().refreshOutbox();
    await get().refreshAutoRun();
    set((s) => ({ dataVersion: s.dataVersion + 1 }));
    // The demo tenant is a local server with sample data: opening it syncs it at once.
    if (connection.demo && state.online && !get().syncing) await get().startSync();
  },

  async refreshStatus() {
    try {
      const result = await call('collections');
      set({ collections: result.collections, status: result.status, syncing: result.syncing, statusError: null });
    } catch (error) {
      set({ statusError: errorMessage(error) });
    }
  },

  async recheckConnection() {
    try {
      set({ connection: await call('connectionState', { recheck: true }) });
    } catch (error) {
      set((s) => ({ connection: { ...s.connection, online: false, status: 'offline', reason: errorMessage(error) } }));
    }
  },

  navigate(route) {
    set((s) => ({ route, backStack: [...s.backStack.slice(-30), s.route], forwardStack: [], arrival: 'new', paletteOpen: false }));
  },

  back() {
    const stack = get().backStack;
    const previous = stack.at(-1);
    if (previous)
      set((s) => ({ route: previous, backStack: stack.slice(0, -1), forwardStack: [...s.forwardStack, s.route], arrival: 'back' }));
  },

  forward() {
    const ahead = get().forwardStack;
    const next = ahead.at(-1);
    if (next)
      set((s) => ({ route: next, forwardStack: ahead.slice(0, -1), backStack: [...s.backStack.slice(-30), s.route], arrival: 'forward' }));
  },

  setView(key, state) {
    set((s) => ({ views: { ...s.views, [key]: state } }));
  },

  async startSync() {
    set({ syncError: null, progress: {} });
    try {
      await call('startSync', { only: null });
      set({ syncing: true });
    } catch (error) {
      set({ syncError: errorMessage(error), syncing: false });
    }
  },

  async cancelSync() {
    await call('cancelSync');
  },

  setPalette(open) {
    set({ paletteOpen: open });
  },

  setAbout(open) {
    set({ aboutOpen: open });
  },

  setAddingConnection(open) {
    set({ addingConnection: open });
  },

  async refreshOutbox() {
    try {
      const result = await call('outboxList', { state: null, limit: 1 });
      set({ outboxPending: result.pending, outboxCounts: result.counts, sending: result.sending });
    } catch {
      // No workspace yet: nothing pending.
    }
  },

  dataChanged() {
    set((s) => ({ dataVersion: s.dataVersion + 1 }));
    void get().refreshStatus();
  },

  outboxChanged() {
    set((s) => ({ outboxVersion: s.outboxVersion + 1 }));
    void get().refreshOutbox();
  },

  async refreshAutoRun() {
    try {
      set({ autoRun: await call('autoRunStatus') });
    } catch {
      // Only a status line: the next event brings it.
    }
  },

  dismissNotice(notice) {
    set((s) => ({ notices: s.notices.filter((n) => n !== notice) }));
  },
}));

/** Wires core events into the store; returns the unsubscribe. */
export function listenToCore(): () => void {
  const stopProgress = subscribe('syncProgress', (event) => {
    const { getState, setState } = useApp;
    if (event.phase === 'started') {
      setState({ syncing: true, syncRunId: event.runId, progress: {}, syncError: null });
      return;
    }
    if (event.phase === 'collection' && event.collection) {
      const collection = event.collection;
      setState((s) => ({
        progress: {
          ...s.progress,
          [collection]: {
            state: event.state,
            pages: event.pages,
            items: event.items,
            ratePerSecond: event.ratePerSecond,
            error: event.error,
            expectedPages: event.expectedPages,
            expectedItems: event.expectedItems,
            etaSeconds: event.etaSeconds,
          },
        },
      }));
      return;
    }
    if (event.phase === 'finished') {
      setState((s) => ({
        syncing: false,
        syncError: event.state === 'failed' ? (event.error ?? 'The sync failed.') : null,
        syncsFinished: s.syncsFinished + 1,
        dataVersion: s.dataVersion + 1,
      }));
      void getState().refreshStatus();
    }
  });
  const stopConnection = subscribe('connectionState', (state) => useApp.setState({ connection: state }));
  const stopAutoRun = subscribe('autoRun', (status) => useApp.setState({ autoRun: status }));
  const stopNotice = subscribe('notice', (notice) => {
    // The last few only: a toast per run, not a pile.
    useApp.setState((s) => ({ notices: [...s.notices.slice(-2), notice] }));
    useApp.getState().outboxChanged();
  });
  // The desktop app's Help menu.
  const stopMenu = subscribe('menuCommand', ({ command }) => {
    if (command === 'about') useApp.getState().setAbout(true);
    else useApp.getState().navigate({ view: 'help' });
  });
  const sendEvents = paceSendEvents({
    progress: (event) => useApp.setState({ sendProgress: event, sending: event.phase !== 'finished' }),
    outboxChanged: () => useApp.getState().outboxChanged(),
    // A success may change objects: lists and details refetch (and show the pending marks gone).
    finished: () => useApp.setState((s) => ({ dataVersion: s.dataVersion + 1 })),
  });
  const stopSend = subscribe('sendProgress', (event) => sendEvents.push(event));
  // Another process (the CLI) changed the store or the saved connections: everything shown refetches.
  const stopStoreChanged = subscribe('storeChanged', (change) => {
    const { getState, setState } = useApp;
    if (change.store) {
      // A pause this window saw no longer holds once the queue was sent elsewhere: the outbox shows what is true now.
      if (!getState().sending && getState().sendProgress?.phase === 'paused') setState({ sendProgress: null });
      getState().outboxChanged();
      getState().dataChanged();
    }
    if (change.connections) {
      void getState().refreshConnections();
      void call('connectionState')
        .then((state) => setState({ connection: state }))
        .catch(() => undefined);
    }
    void getState().refreshAutoRun();
  });
  return () => {
    stopProgress();
    stopConnection();
    stopAutoRun();
    stopNotice();
    stopMenu();
    stopSend();
    stopStoreChanged();
    sendEvents.stop();
  };
}
