/**
 * Sends queued items: per-object order kept (items with the same target go one after another, in
 * queue order), independent items concurrently up to a bound, 429s handled by the API client's one
 * shared limiter (a Retry-After pauses the whole batch), auth failure and network loss pause the
 * queue with a clear message, progress events, and cancel.
 *
 * The parts: `SendScheduler` (which item next, per-object order), `GroupCommitter` (claims and
 * outcomes in small group transactions), `SendControl` (stop and hold), `sendAttempt` (one request
 * and what its answer means). This module runs them.
 */
import type { OutboxApi } from './api-shape';
import { GroupCommitter } from './group-commit';
import type { OutboxDb } from './items';
import { descriptorOf, type RefreshedObject } from './kinds';
import { sendAttempt, type AttemptResult } from './send-attempt';
import { SendControl } from './send-control';
import { SendScheduler } from './send-scheduler';
import type { OutboxItem, SendProgress, SendSummary } from './types';
import { upgradeQueued } from './upgrade';

export { stateForError } from './send-attempt';

export interface SendOptions {
  /** Only these items (ids); default: every queued item. */
  ids?: string[];
  /** Requests in flight at once (default 8, at most 256). */
  concurrency?: number;
  /** Cancel: no new request starts; those in flight finish and are recorded. */
  signal?: AbortSignal;
  onProgress?: (e: SendProgress) => void;
  /**
   * On network loss: keep probing every `probeEveryMs` for up to `maxWaitMs`, then resume where it
   * stopped. Default: pause at once and return (send again later).
   */
  resumeOnNetwork?: { probeEveryMs: number; maxWaitMs: number };
  /**
   * Minimum milliseconds between group commits. Default: adaptive, 4 ms or three times the
   * average commit (a disk flush), so flushing takes at most about a quarter of the time.
   */
  groupCommitMs?: number;
}

type ProgressEvent = Partial<SendProgress> & { phase: SendProgress['phase'] };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function emptySummary(total: number): SendSummary {
  return {
    total,
    succeeded: 0,
    failed: 0,
    uncertain: 0,
    notSent: 0,
    blocked: [],
    paused: null,
    cancelled: false,
    elapsedMs: 0,
    requests: 0,
    commits: 0,
    commitMs: 0,
    touched: [],
    refreshed: { runId: null, stored: 0 },
  };
}

/** One send: requests in flight up to `concurrency`, their claims and outcomes committed in groups. */
class SendRun {
  readonly #started = performance.now();
  readonly #concurrency: number;
  readonly #scheduler: SendScheduler;
  readonly #committer: GroupCommitter;
  readonly #control: SendControl;
  readonly summary: SendSummary;
  /** What the successes returned: stored once at the end, as one run (see OutboxDb.refresh). */
  readonly #freshCopies: RefreshedObject[] = [];
  readonly #touched = new Set<string>();
  /** Successes whose kind reads back what they changed (see KindDescriptor.readBack), read once the send has settled. */
  readonly #readBacks: { item: OutboxItem; result: Record<string, unknown> }[] = [];
  #inFlight = 0;
  #wake: (() => void) | null = null;

  constructor(
    private readonly o: OutboxDb,
    private readonly api: OutboxApi,
    private readonly opts: SendOptions,
  ) {
    this.#concurrency = Math.max(1, Math.min(256, Math.floor(opts.concurrency ?? 8)));
    this.#scheduler = SendScheduler.load(o, opts.ids);
    this.#committer = new GroupCommitter(o, opts.groupCommitMs);
    this.#control = new SendControl(opts.resumeOnNetwork);
    this.summary = emptySummary(this.#scheduler.candidates.length);
  }

  readonly cancel = (): void => {
    this.#control.cancel();
    this.#notify();
  };

  /** Runs until every item is settled, blocked, or left queued by a stop. */
  async run(): Promise<void> {
    const control = this.#control;
    for (;;) {
      const now = performance.now();
      const holding = control.holding(now);
      const free = !control.stop && !holding ? this.#concurrency - this.#inFlight : 0;
      const pendingWrites = this.#committer.pending;
      const canClaim = free > 0 && this.#scheduler.hasMore();
      if (pendingWrites > 0 || canClaim) {
        // Group commits: wait a little so several outcomes and claims share one disk flush.
        const urgent = canClaim && free >= Math.max(1, Math.ceil(this.#concurrency / 2));
        const wait = this.#committer.waitMs(urgent, now);
        if (wait > 0 && this.#inFlight > 0) {
          await sleep(wait);
          continue;
        }
        if (this.#commitAndLaunch(free) > 0 || pendingWrites > 0) continue;
      }
      if (this.#inFlight === 0) {
        if (control.stop || !this.#scheduler.hasMore()) break;
        if (holding) {
          await sleep(Math.max(1, control.holdUntil - now));
          continue;
        }
        break; // nothing in flight and nothing claimable: the rest is blocked
      }
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
        if (holding && free === 0 && !control.stop) setTimeout(() => this.#notify(), Math.max(1, control.holdUntil - now));
      });
    }
  }

  /**
   * Reads back what the successes changed and their answers do not carry (an escalated task, the
   * revoke task of a removal), `#concurrency` at a time, to store with the fresh copies. Skipped
   * when the send stopped (cancelled, credentials refused, tenant unreachable); a failed read is
   * skipped too: the next sync brings the object.
   */
  async readBack(): Promise<void> {
    if (this.#control.stop) return;
    const pending = this.#readBacks.splice(0);
    const worker = async (): Promise<void> => {
      for (let next = pending.shift(); next && !this.opts.signal?.aborted; next = pending.shift()) {
        const { item, result } = next;
        try {
          const read = await descriptorOf(item.kind).readBack!({ api: this.api, input: item.input, result, signal: this.opts.signal });
          this.#keep(read);
        } catch {
          // The outcome is recorded; only the fresh copy is missing until the next sync.
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.#concurrency, pending.length) }, worker));
  }

  #keep(objects: RefreshedObject[]): void {
    this.#freshCopies.push(...objects);
    for (const r of objects) this.#touched.add(r.collection);
  }

  /** The summary once the run has ended: everything not reached stays queued. */
  finish(): SendSummary {
    const summary = this.summary;
    const stop = this.#control.stop;
    summary.blocked = this.#scheduler.blocked();
    summary.notSent = this.#scheduler.leftover().size;
    summary.paused = stop && stop.reason !== 'cancelled' ? stop : null;
    summary.cancelled = stop?.reason === 'cancelled';
    summary.elapsedMs = Math.round(performance.now() - this.#started);
    summary.touched = [...this.#touched].sort();
    summary.refreshed = this.o.refresh(this.#freshCopies);
    summary.commits = this.#committer.commits;
    summary.commitMs = Math.round(this.#committer.commitMs);
    this.progress({ phase: summary.paused ? 'paused' : 'finished', message: summary.paused?.message });
    return summary;
  }

  progress(e: ProgressEvent): void {
    if (!this.opts.onProgress) return;
    const s = this.summary;
    const elapsed = (performance.now() - this.#started) / 1000;
    const done = s.succeeded + s.failed + s.uncertain;
    const counts = { done, total: s.total, succeeded: s.succeeded, failed: s.failed, uncertain: s.uncertain };
    try {
      this.opts.onProgress({ ...counts, ratePerSecond: elapsed > 0 ? done / elapsed : null, ...e });
    } catch {
      // A listener's failure never stops the send: the outcomes are already recorded.
    }
  }

  /** Commits what is pending with claims of up to `free` items, then sends those claimed. Returns how many. */
  #commitAndLaunch(free: number): number {
    const { claimed, lost, settled } = this.#committer.commit(this.#scheduler.take(free));
    for (const item of lost) this.#scheduler.drop(item.target);
    for (const out of settled) {
      if (out.state === 'succeeded') {
        this.#keep(out.refresh);
        if (descriptorOf(out.item.kind).readBack) this.#readBacks.push({ item: out.item, result: out.result ?? {} });
      }
      this.progress({ phase: 'item', itemId: out.item.id, kind: out.item.kind, state: out.state, message: out.error ?? undefined });
    }
    for (const c of claimed) this.#launch(c.item, c.attempt);
    return claimed.length;
  }

  #launch(item: OutboxItem, attempt: number): void {
    this.#inFlight += 1;
    this.summary.requests += 1;
    void sendAttempt(this.api, item, attempt).then((done) => {
      this.#inFlight -= 1;
      if (done.type === 'settled') this.#settled(done.outcome);
      else this.#notSent(done);
      this.#notify();
    });
  }

  #settled(outcome: Extract<AttemptResult, { type: 'settled' }>['outcome']): void {
    const s = outcome.state;
    if (s === 'succeeded') this.summary.succeeded += 1;
    else if (s === 'failed') this.summary.failed += 1;
    else this.summary.uncertain += 1;
    if (s === 'succeeded' || s === 'failed') this.#control.reached();
    this.#scheduler.release(outcome.item.target, s === 'succeeded' || s === 'failed');
    this.#committer.addOutcome(outcome);
  }

  #notSent(r: Extract<AttemptResult, { type: 'not-sent' }>): void {
    this.#committer.addNotSent({ item: r.item, attempt: r.attempt, error: r.error });
    this.#scheduler.drop(r.item.target);
    const decision = this.#control.notSent(r.item, r.error);
    if (decision.requeue) this.#scheduler.requeue(r.item);
    if (decision.notice) this.progress({ phase: 'paused', itemId: r.item.id, message: decision.notice });
  }

  #notify(): void {
    const w = this.#wake;
    this.#wake = null;
    w?.();
  }
}

export async function runSend(o: OutboxDb, api: OutboxApi, opts: SendOptions = {}): Promise<SendSummary> {
  // Items an older version of their kind queued send what their kind builds now.
  upgradeQueued(o);
  const send = new SendRun(o, api, opts);
  send.progress({ phase: 'started' });
  opts.signal?.addEventListener('abort', send.cancel, { once: true });
  if (opts.signal?.aborted) send.cancel();
  try {
    await send.run();
    await send.readBack();
  } finally {
    opts.signal?.removeEventListener('abort', send.cancel);
  }
  return send.finish();
}
