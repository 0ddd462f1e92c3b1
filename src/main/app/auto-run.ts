import type { AutoRunStatus, ConnectionState, Notice } from '../../shared/contract';
import { AUTO_RUN_OFF, type AutoRunChoice } from '../../shared/auto-run';

/**
 * What the open connection runs on its own, in the main process (both hosts): its queued changes
 * sent when it goes online (or when "send when online" is turned on while it is online), and a sync
 * every N minutes while it is online, each only when the connection opted in (off by default). A
 * run never starts while a send or a sync runs: a sync that falls due then is skipped (the next one
 * is due an interval later, nothing piles up), and a send due on going online waits for the running
 * task to end. While the tenant is offline, it is checked every `onlineCheckMs` so its return is
 * noticed.
 */

/** Tells the user a run on its own ended with failures, and how many changes are failed or uncertain. */
export interface Notifier {
  notify(notice: Notice): void;
  /** The changes failed or uncertain now (0 clears the badge). */
  badge(count: number): void;
}

/** What the runner needs of the app's session. */
export interface AutoRunHost {
  /** The open connection and its choice; null when none is open. */
  current(): { name: string; choice: AutoRunChoice } | null;
  state(): ConnectionState;
  /** Checks the connection again (its state change comes back through `connectionChanged`). */
  probe(): Promise<unknown>;
  /** Changes queued to send. */
  queued(): number;
  /** The task running now, if any. */
  busy(): 'send' | 'sync' | null;
  /** Starts a send of every queued change (false: one was running). */
  startSend(): boolean;
  /** Starts a sync of everything (false: one was running). */
  startSync(): boolean;
}

export interface AutoRunOptions {
  /** How often an offline tenant is checked while the connection runs something on its own (default 30 s). */
  onlineCheckMs?: number;
  /** Told every time the status changes. */
  onStatus?: (status: AutoRunStatus) => void;
  log?: (line: string) => void;
}

export const DEFAULT_ONLINE_CHECK_MS = 30_000;
const MINUTE_MS = 60_000;

type LastRun = NonNullable<AutoRunStatus['last']>;

export class AutoRunner {
  private syncTimer: ReturnType<typeof setTimeout> | null = null;
  private checkTimer: ReturnType<typeof setInterval> | null = null;
  private checking = false;
  private nextSyncAt: number | null = null;
  /** The connection went online: its queued changes are to be sent (once the running task, if any, ends). */
  private sendDue = false;
  private last: LastRun | null = null;
  /** The open connection's "send when online" as last seen: turning it on while online sends at once. */
  private sendChoice: { name: string; on: boolean } | null = null;
  private readonly onlineCheckMs: number;

  constructor(
    private readonly host: AutoRunHost,
    private readonly options: AutoRunOptions = {},
  ) {
    this.onlineCheckMs = options.onlineCheckMs ?? DEFAULT_ONLINE_CHECK_MS;
  }

  private choice(): AutoRunChoice {
    return this.host.current()?.choice ?? AUTO_RUN_OFF;
  }

  status(): AutoRunStatus {
    const current = this.host.current();
    const choice = current?.choice ?? AUTO_RUN_OFF;
    const state = this.host.state();
    return {
      connection: current?.name ?? null,
      sendWhenOnline: choice.sendWhenOnline,
      syncEveryMinutes: choice.syncEveryMinutes,
      nextSyncAt: this.nextSyncAt === null ? null : new Date(this.nextSyncAt).toISOString(),
      waitingToSend: choice.sendWhenOnline && !state.online && current !== null && this.host.queued() > 0,
      last: this.last,
    };
  }

  private told(): void {
    this.options.onStatus?.(this.status());
  }

  /** The connection state changed: going online makes the queued changes due to send; the timers follow the state. */
  connectionChanged(previous: ConnectionState, next: ConnectionState): void {
    if (next.online && (!previous.online || previous.connection !== next.connection)) this.sendDue = true;
    if (!next.online) this.sendDue = false;
    this.refresh();
  }

  /** Re-reads the open connection's choice and state and sets the timers to match (a choice saved, a connection opened). */
  refresh(): void {
    const current = this.host.current();
    const choice = current?.choice ?? AUTO_RUN_OFF;
    const state = this.host.state();
    const online = current !== null && state.online && state.connection === current.name;
    const wasOn = this.sendChoice !== null && this.sendChoice.name === current?.name && this.sendChoice.on;
    if (online && choice.sendWhenOnline && !wasOn) this.sendDue = true;
    this.sendChoice = current ? { name: current.name, on: choice.sendWhenOnline } : null;
    if (online && choice.syncEveryMinutes !== null) {
      const interval = choice.syncEveryMinutes * MINUTE_MS;
      // A shorter interval chosen now brings the next sync nearer; a running timer otherwise keeps its time.
      if (this.nextSyncAt === null || this.nextSyncAt > Date.now() + interval) this.armSync(interval);
    } else this.clearSync();
    const wanted = current !== null && (choice.sendWhenOnline || choice.syncEveryMinutes !== null);
    if (wanted && state.status === 'offline' && !state.needsSecret) this.armCheck();
    else this.clearCheck();
    this.trySend();
    this.told();
  }

  /** A send or a sync ended: a send that fell due while it ran may start now. */
  taskEnded(): void {
    this.trySend();
    this.told();
  }

  private trySend(): void {
    if (!this.sendDue) return;
    const state = this.host.state();
    if (!this.choice().sendWhenOnline || !state.online) {
      this.sendDue = false;
      return;
    }
    if (this.host.queued() === 0) {
      this.sendDue = false;
      return;
    }
    if (this.host.busy()) return;
    this.sendDue = false;
    let started = false;
    try {
      started = this.host.startSend();
    } catch (error) {
      this.options.log?.(`send when online: ${(error as Error).message}`);
    }
    if (started) this.last = { kind: 'send', at: new Date().toISOString(), outcome: 'started', reason: null };
  }

  /** The sync interval came round: a sync starts unless a send or a sync runs (then this one is skipped). */
  tickSync(): void {
    const choice = this.choice();
    const state = this.host.state();
    if (choice.syncEveryMinutes === null || !state.online) {
      this.clearSync();
      this.told();
      return;
    }
    const at = new Date().toISOString();
    const running = this.host.busy();
    if (running) {
      this.last = { kind: 'sync', at, outcome: 'skipped', reason: `a ${running} was running` };
    } else {
      let started = false;
      try {
        started = this.host.startSync();
      } catch (error) {
        this.options.log?.(`sync every ${choice.syncEveryMinutes} minutes: ${(error as Error).message}`);
      }
      this.last = started
        ? { kind: 'sync', at, outcome: 'started', reason: null }
        : { kind: 'sync', at, outcome: 'skipped', reason: 'a sync was running' };
    }
    this.armSync(choice.syncEveryMinutes * MINUTE_MS);
    this.told();
  }

  private armSync(interval: number): void {
    if (this.syncTimer) clearTimeout(this.syncTimer);
    this.nextSyncAt = Date.now() + interval;
    this.syncTimer = setTimeout(() => {
      this.syncTimer = null;
      this.tickSync();
    }, interval);
    this.syncTimer.unref?.();
  }

  private clearSync(): void {
    if (this.syncTimer) clearTimeout(this.syncTimer);
    this.syncTimer = null;
    this.nextSyncAt = null;
  }

  private armCheck(): void {
    if (this.checkTimer) return;
    this.checkTimer = setInterval(() => void this.checkOnline(), this.onlineCheckMs);
    this.checkTimer.unref?.();
  }

  private clearCheck(): void {
    if (this.checkTimer) clearInterval(this.checkTimer);
    this.checkTimer = null;
  }

  /** One check of an offline tenant at a time, none while a task runs (it tells the state when it ends). */
  private async checkOnline(): Promise<void> {
    if (this.checking || this.host.busy()) return;
    this.checking = true;
    try {
      await this.host.probe();
    } catch (error) {
      this.options.log?.(`online check: ${(error as Error).message}`);
    } finally {
      this.checking = false;
    }
  }

  /** Stops every timer (the connection closes); nothing is due any more. */
  stop(): void {
    this.clearSync();
    this.clearCheck();
    this.sendDue = false;
    this.sendChoice = null;
    this.last = null;
  }
}

/** The notice of a send on its own that ended with changes failed or uncertain; null when none did. */
export function sendNotice(connection: string, failed: number, uncertain: number): Notice | null {
  const failures = failed + uncertain;
  if (failures === 0) return null;
  const parts = [failed ? `${failed} failed` : '', uncertain ? `${uncertain} uncertain` : ''].filter(Boolean).join(', ');
  return {
    kind: 'send',
    connection,
    title: `${failures} ${failures === 1 ? 'change' : 'changes'} not sent`,
    body: `The send of ${connection}'s queued changes ended with ${parts}. Open the Outbox to retry, resolve or discard them.`,
    failures,
    at: new Date().toISOString(),
  };
}

/** The notice of a sync on its own that failed. */
export function syncNotice(connection: string, error: string): Notice {
  return {
    kind: 'sync',
    connection,
    title: 'Sync failed',
    body: `The sync of ${connection} failed: ${error}`,
    failures: 0,
    at: new Date().toISOString(),
  };
}
