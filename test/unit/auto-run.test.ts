import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AutoRunStatus, ConnectionState } from '../../src/shared/contract';
import { AUTO_RUN_OFF, syncEveryProblem, type AutoRunChoice } from '../../src/shared/auto-run';
import { AutoRunner, sendNotice, type AutoRunHost } from '../../src/main/app/auto-run';

/** The scheduler's decisions against a fake clock; the real sends and syncs are in test/integration/auto-run.test.ts. */

const OFFLINE: ConnectionState = { connection: 't', online: false, status: 'offline', checkedAt: null, reason: 'down', needsSecret: false };
const ONLINE: ConnectionState = { connection: 't', online: true, status: 'online', checkedAt: null, reason: null, needsSecret: false };

function fakeHost(choice: AutoRunChoice, queued = 2) {
  const calls = { send: 0, sync: 0, probe: 0 };
  const host = {
    choice,
    state: OFFLINE,
    queued,
    busy: null as 'send' | 'sync' | null,
    reachable: false,
    calls,
    runner: null as unknown as AutoRunner,
  };
  const api: AutoRunHost = {
    current: () => ({ name: 't', choice: host.choice }),
    state: () => host.state,
    probe: async () => {
      calls.probe += 1;
      const previous = host.state;
      host.state = host.reachable ? ONLINE : OFFLINE;
      if (previous.online !== host.state.online) host.runner.connectionChanged(previous, host.state);
    },
    queued: () => host.queued,
    busy: () => host.busy,
    startSend: () => {
      if (host.busy) return false;
      calls.send += 1;
      host.busy = 'send';
      return true;
    },
    startSync: () => {
      if (host.busy) return false;
      calls.sync += 1;
      host.busy = 'sync';
      return true;
    },
  };
  const statuses: AutoRunStatus[] = [];
  host.runner = new AutoRunner(api, { onlineCheckMs: 1000, onStatus: (s) => statuses.push(s) });
  const goOnline = () => {
    const previous = host.state;
    host.state = ONLINE;
    host.runner.connectionChanged(previous, ONLINE);
  };
  const end = () => {
    host.busy = null;
    host.runner.taskEnded();
  };
  return { host, runner: host.runner, statuses, goOnline, end };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-03-01T10:00:00Z'));
});
afterEach(() => vi.useRealTimers());

describe('sending when back online', () => {
  it('off by default: going online sends nothing and no timer runs', async () => {
    const { host, runner, goOnline } = fakeHost(AUTO_RUN_OFF);
    runner.refresh();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    goOnline();
    await vi.advanceTimersByTimeAsync(24 * 60 * 60_000);
    expect(host.calls).toEqual({ send: 0, sync: 0, probe: 0 });
    expect(runner.status()).toMatchObject({ sendWhenOnline: false, syncEveryMinutes: null, nextSyncAt: null, waitingToSend: false });
  });

  it('turned on while online: the queued changes send at once, and saving the same choice again sends nothing more', () => {
    const { host, runner, goOnline, end } = fakeHost(AUTO_RUN_OFF);
    runner.refresh();
    goOnline();
    expect(host.calls.send).toBe(0);
    host.choice = { sendWhenOnline: true, syncEveryMinutes: null };
    runner.refresh();
    expect(host.calls.send).toBe(1);
    end();
    runner.refresh();
    expect(host.calls.send).toBe(1);
    // Off, then on again with nothing queued: nothing to send.
    host.choice = AUTO_RUN_OFF;
    runner.refresh();
    host.queued = 0;
    host.choice = { sendWhenOnline: true, syncEveryMinutes: null };
    runner.refresh();
    expect(host.calls.send).toBe(1);
  });

  it('checks an offline tenant until it answers, then sends the queued changes once', async () => {
    const { host, runner } = fakeHost({ sendWhenOnline: true, syncEveryMinutes: null });
    runner.refresh();
    expect(runner.status().waitingToSend).toBe(true);
    await vi.advanceTimersByTimeAsync(3000);
    expect(host.calls.probe).toBe(3);
    expect(host.calls.send).toBe(0);
    host.reachable = true;
    await vi.advanceTimersByTimeAsync(1000);
    expect(host.calls.send).toBe(1);
    expect(runner.status().last).toMatchObject({ kind: 'send', outcome: 'started' });
    // Online now: no more checks, and staying online sends nothing more.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(host.calls).toMatchObject({ send: 1, probe: 4 });
  });

  it('does not check a tenant that refused the credential or a connection without its secret: the user must act', async () => {
    const { host, runner } = fakeHost({ sendWhenOnline: true, syncEveryMinutes: 30 });
    host.state = { ...OFFLINE, status: 'credentials-refused' };
    runner.refresh();
    await vi.advanceTimersByTimeAsync(10_000);
    host.state = { ...OFFLINE, needsSecret: true };
    runner.refresh();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(host.calls).toEqual({ send: 0, sync: 0, probe: 0 });
    host.state = OFFLINE;
    runner.refresh();
    await vi.advanceTimersByTimeAsync(1000);
    expect(host.calls.probe).toBe(1);
    runner.stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(host.calls.probe).toBe(1);
  });

  it('sends nothing when nothing is queued, and waits for a running sync to end before sending', async () => {
    const empty = fakeHost({ sendWhenOnline: true, syncEveryMinutes: null }, 0);
    empty.runner.refresh();
    empty.goOnline();
    expect(empty.host.calls.send).toBe(0);

    const { host, runner, goOnline, end } = fakeHost({ sendWhenOnline: true, syncEveryMinutes: null });
    runner.refresh();
    host.busy = 'sync';
    goOnline();
    expect(host.calls.send).toBe(0);
    end();
    expect(host.calls.send).toBe(1);
    end();
    expect(host.calls.send).toBe(1);
  });
});

describe('syncing every N minutes while online', () => {
  it('runs on its interval while online, shows when the next run is due, and stops when offline', async () => {
    const { host, runner, goOnline, end } = fakeHost({ sendWhenOnline: false, syncEveryMinutes: 15 });
    runner.refresh();
    expect(runner.status().nextSyncAt).toBeNull();
    goOnline();
    expect(runner.status().nextSyncAt).toBe('2026-03-01T10:15:00.000Z');
    await vi.advanceTimersByTimeAsync(15 * 60_000);
    expect(host.calls.sync).toBe(1);
    expect(runner.status().nextSyncAt).toBe('2026-03-01T10:30:00.000Z');
    end();
    const previous = host.state;
    host.state = OFFLINE;
    runner.connectionChanged(previous, OFFLINE);
    expect(runner.status().nextSyncAt).toBeNull();
    await vi.advanceTimersByTimeAsync(60 * 60_000);
    expect(host.calls.sync).toBe(1);
  });

  it('skips a tick while a send or a sync runs, without piling ticks up', async () => {
    const { host, runner, goOnline, end } = fakeHost({ sendWhenOnline: false, syncEveryMinutes: 5 });
    runner.refresh();
    goOnline();
    host.busy = 'send';
    await vi.advanceTimersByTimeAsync(3 * 5 * 60_000);
    expect(host.calls.sync).toBe(0);
    expect(runner.status().last).toMatchObject({ kind: 'sync', outcome: 'skipped', reason: 'a send was running' });
    end();
    // The send's end starts no sync: the next tick does, once.
    expect(host.calls.sync).toBe(0);
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(host.calls.sync).toBe(1);
    expect(runner.status().last).toMatchObject({ kind: 'sync', outcome: 'started' });
  });

  it('a shorter interval saved brings the next run nearer; turning it off clears it', () => {
    const { host, runner, goOnline } = fakeHost({ sendWhenOnline: false, syncEveryMinutes: 60 });
    runner.refresh();
    goOnline();
    expect(runner.status().nextSyncAt).toBe('2026-03-01T11:00:00.000Z');
    host.choice = { sendWhenOnline: false, syncEveryMinutes: 10 };
    runner.refresh();
    expect(runner.status().nextSyncAt).toBe('2026-03-01T10:10:00.000Z');
    host.choice = AUTO_RUN_OFF;
    runner.refresh();
    expect(runner.status().nextSyncAt).toBeNull();
  });
});

describe('the choice and the notice', () => {
  it('takes whole minutes from 5 to 1440 and names anything else', () => {
    expect(syncEveryProblem(null)).toBeNull();
    expect(syncEveryProblem(5)).toBeNull();
    expect(syncEveryProblem(1440)).toBeNull();
    for (const bad of [4, 1441, 7.5, 0, -10, Number.NaN]) expect(syncEveryProblem(bad)).toMatch(/whole number from 5 to 1440/);
    expect(syncEveryProblem(2)).toContain("not '2'");
  });

  it('a send with failures is told with the count; one without is not told', () => {
    expect(sendNotice('t', 0, 0)).toBeNull();
    expect(sendNotice('t', 2, 1)).toMatchObject({ kind: 'send', failures: 3, title: '3 changes not sent' });
    expect(sendNotice('t', 2, 1)?.body).toContain('2 failed, 1 uncertain');
  });
});
