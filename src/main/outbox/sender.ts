/**
 * Sends queued items: per-object order kept (items with the same target go one after another, in
 * queue order), independent items concurrently up to a bound, 429s handled by the API client's one
 * shared limiter (a Retry-After pauses the whole batch), auth failure and network loss pause the
 * queue with a clear message, progress events, and cancel.
 *
 * Durability without a disk flush per request: claims ("sending") and outcomes are committed in
 * small group transactions. A claim always commits before its request leaves; an outcome may wait
 * a few milliseconds for the next group. If the process dies in between, the item is still
 * `sending` in the store and becomes `uncertain` at the next start: never lost, never resent
 * blindly.
 */
import { readApiError, type OutboxApi, type ReadError } from './api-shape';
import { descriptorOf, type RefreshedObject } from './kinds';
import { rowToItem, type OutboxDb } from './items';
import type { MutationKind, OutboxItem, OutboxState, PauseInfo, SendProgress, SendSummary } from './types';

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

interface Outcome {
  item: OutboxItem;
  attempt: number;
  state: OutboxState;
  httpStatus: number | null;
  answer: unknown;
  error: string | null;
  result: Record<string, unknown> | null;
  refresh: RefreshedObject[];
}

type Done = { type: 'settled'; outcome: Outcome } | { type: 'not-sent'; item: OutboxItem; attempt: number; error: ReadError };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Decides what an attempt's failure means for the item. */
export function stateForError(e: ReadError): OutboxState | 'not-sent' {
  switch (e.kind) {
    case 'invalid_input':
    case 'not_found':
    case 'conflict':
      return 'failed'; // the server said no: its reason is shown
    case 'auth':
    case 'rate_limited':
    case 'cancelled':
      return 'not-sent'; // refused before it was handled, or never sent
    case 'network':
      return 'not-sent'; // the client says: it certainly never reached the server
    default:
      return 'uncertain'; // 5xx, dropped connection, timeout, unreadable 2xx: it may have been applied
  }
}

export async function runSend(o: OutboxDb, api: OutboxApi, opts: SendOptions = {}): Promise<SendSummary> {
  const started = performance.now();
  const concurrency = Math.max(1, Math.min(256, Math.floor(opts.concurrency ?? 8)));
  const touched = new Set<string>();
  /** What the successes returned: stored once at the end, as one run (see OutboxDb.refresh). */
  const freshCopies: RefreshedObject[] = [];
  let commits = 0;
  let commitMs = 0;
  /**
   * How long to gather work before the next group commit (each is a disk flush that blocks the
   * thread). When many slots are free, claims are urgent: wait about one flush. Otherwise (the
   * pipeline is full, only outcomes wait) gather for up to 20 flushes, at most 100 ms: flushing
   * then takes under a tenth of the time.
   */
  const groupMs = (urgent: boolean) => {
    if (opts.groupCommitMs !== undefined) return opts.groupCommitMs;
    const flush = commits > 0 ? commitMs / commits : 1;
    return urgent ? Math.min(20, Math.max(2, flush)) : Math.min(100, Math.max(4, 20 * flush));
  };

  // Candidates: queued items in queue order (optionally only some).
  const idFilter = opts.ids && opts.ids.length > 0 ? new Set(opts.ids) : null;
  const candidates: OutboxItem[] = [];
  const earliestOutside = new Map<string, number>(); // target -> lowest seq of a queued item not in this run
  for (const r of o.rowsInState('queued')) {
    if (!idFilter || idFilter.has(r.id)) candidates.push(rowToItem(r));
    else if (!earliestOutside.has(r.target)) earliestOutside.set(r.target, r.seq);
  }
  // Targets held by an unsettled item (in flight elsewhere, or uncertain): later items wait.
  const unsettled = o.unsettledTargets();

  const total = candidates.length;
  const summary: SendSummary = {
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
  const progress = (e: Partial<SendProgress> & { phase: SendProgress['phase'] }) => {
    if (!opts.onProgress) return;
    const elapsed = (performance.now() - started) / 1000;
    const done = summary.succeeded + summary.failed + summary.uncertain;
    try {
      opts.onProgress({
        done,
        total,
        succeeded: summary.succeeded,
        failed: summary.failed,
        uncertain: summary.uncertain,
        ratePerSecond: elapsed > 0 ? done / elapsed : null,
        ...e,
      });
    } catch {
      // A listener's failure never stops the send: the outcomes are already recorded.
    }
  };
  progress({ phase: 'started' });

  // Scheduling state.
  const ready: OutboxItem[] = []; // items whose predecessors on the same target are settled (front = next)
  const waiting = new Map<string, OutboxItem[]>(); // target -> items behind one in flight
  const inFlightTargets = new Set<string>();
  const blockedTargets = new Set<string>();
  const blockedIds: string[] = [];
  let cursor = 0;
  let inFlight = 0;
  let stop: PauseInfo | null = null;
  let networkSince = 0;
  let holdUntil = 0;
  const rateRetries = new Map<string, number>();
  const outcomes: Outcome[] = [];
  const notSent: { item: OutboxItem; attempt: number; error: ReadError }[] = [];
  let wake: (() => void) | null = null;
  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  let lastCommit = 0;

  const isBlocked = (item: OutboxItem): boolean => {
    if (blockedTargets.has(item.target)) return true;
    const outside = earliestOutside.get(item.target);
    if (outside !== undefined && outside < item.seq) return true;
    const held = unsettled.get(item.target);
    return held !== undefined && held < item.seq;
  };

  function nextItem(): OutboxItem | null {
    while (ready.length > 0) {
      const item = ready.shift() as OutboxItem;
      if (!isBlocked(item)) return item;
      block(item);
    }
    while (cursor < candidates.length) {
      const item = candidates[cursor++] as OutboxItem;
      if (isBlocked(item)) {
        block(item);
        continue;
      }
      if (inFlightTargets.has(item.target) || waiting.has(item.target)) {
        const list = waiting.get(item.target) ?? [];
        list.push(item);
        waiting.set(item.target, list);
        continue;
      }
      return item;
    }
    return null;
  }

  function block(item: OutboxItem): void {
    blockedTargets.add(item.target);
    blockedIds.push(item.id);
  }

  function releaseTarget(target: string, settledOk: boolean): void {
    inFlightTargets.delete(target);
    const list = waiting.get(target);
    if (!list) return;
    if (!settledOk) {
      waiting.delete(target);
      blockedTargets.add(target);
      for (const it of list) blockedIds.push(it.id);
      return;
    }
    const next = list.shift() as OutboxItem;
    if (list.length === 0) waiting.delete(target);
    ready.unshift(next);
  }

  /** One group transaction: record finished attempts, then claim the next items. */
  function commit(claimCount: number): { claimed: { item: OutboxItem; attempt: number }[] } {
    const settledNow = outcomes.splice(0);
    const returned = notSent.splice(0);
    const claimed: { item: OutboxItem; attempt: number }[] = [];
    const picked: OutboxItem[] = [];
    for (let i = 0; i < claimCount; i += 1) {
      const item = nextItem();
      if (!item) break;
      picked.push(item);
      inFlightTargets.add(item.target);
    }
    if (settledNow.length === 0 && returned.length === 0 && picked.length === 0) return { claimed };
    const commitStarted = performance.now();
    const now = new Date().toISOString();
    o.durable(() => {
      for (const out of settledNow) {
        o.settle({
          id: out.item.id,
          attempt: out.attempt,
          state: out.state,
          now,
          status: out.httpStatus,
          lastError: out.error,
          result: out.result ? JSON.stringify(out.result) : null,
        });
        if (out.state === 'succeeded') o.deleteOverlays(out.item.id);
        o.journal.append({
          itemId: out.item.id,
          kind: out.item.kind,
          target: out.item.target,
          attempt: out.attempt,
          event: 'send',
          requestDigest: out.item.requestDigest,
          method: out.item.request.method,
          path: out.item.request.path,
          httpStatus: out.httpStatus,
          outcome: out.state,
          answer: out.answer,
          at: now,
        });
      }
      for (const r of returned) {
        // Never handled by the server: back to queued, the attempt recorded.
        o.returnToQueue(r.item.id, r.attempt, now, r.error.status, r.error.message);
        o.journal.append({
          itemId: r.item.id,
          kind: r.item.kind,
          target: r.item.target,
          attempt: r.attempt,
          event: 'send',
          requestDigest: r.item.requestDigest,
          method: r.item.request.method,
          path: r.item.request.path,
          httpStatus: r.error.status,
          outcome: 'not-sent',
          answer: `${r.error.kind}: ${r.error.message}`,
          at: now,
        });
      }
      for (const item of picked) {
        if (o.claim(item.id, now)) claimed.push({ item, attempt: o.attempts(item.id) });
        else inFlightTargets.delete(item.target); // someone else took it (another sender): skip
      }
    });
    lastCommit = performance.now();
    commits += 1;
    commitMs += lastCommit - commitStarted;
    for (const out of settledNow) {
      if (out.state === 'succeeded') {
        freshCopies.push(...out.refresh);
        for (const r of out.refresh) touched.add(r.collection);
      }
      progress({
        phase: 'item',
        itemId: out.item.id,
        kind: out.item.kind as MutationKind,
        state: out.state,
        message: out.error ?? undefined,
      });
    }
    return { claimed };
  }

  function launch(item: OutboxItem, attempt: number): void {
    inFlight += 1;
    summary.requests += 1;
    const d = descriptorOf(item.kind);
    api
      .request({ method: item.request.method, path: item.request.path, body: item.request.body, mutation: true })
      .then(
        (res): Done => ({
          type: 'settled',
          outcome: {
            item,
            attempt,
            state: 'succeeded',
            httpStatus: res.status,
            answer: res.body,
            error: null,
            result: safe(() => d.result(res.body, item.input), {}),
            refresh: safe(() => d.refresh?.(res.body, item.input) ?? [], []),
          },
        }),
        (error: unknown): Done => {
          const e = readApiError(error);
          let state = stateForError(e);
          if (state === 'not-sent') return { type: 'not-sent', item, attempt, error: e };
          // "Already exists" on a later attempt of a creation is most likely our own earlier
          // attempt, applied: leave it to reconciliation to find it rather than call it failed.
          if (state === 'failed' && e.kind === 'conflict' && attempt > 1 && item.kind === 'create-scope') state = 'uncertain';
          return {
            type: 'settled',
            outcome: {
              item,
              attempt,
              state,
              httpStatus: e.status,
              answer: { kind: e.kind, grpcCode: e.grpcCode, message: e.message },
              error: e.message,
              result: null,
              refresh: [],
            },
          };
        },
      )
      .then((done) => {
        inFlight -= 1;
        if (done.type === 'settled') {
          const s = done.outcome.state;
          if (s === 'succeeded') summary.succeeded += 1;
          else if (s === 'failed') summary.failed += 1;
          else summary.uncertain += 1;
          if (s === 'succeeded' || s === 'failed') networkSince = 0;
          releaseTarget(item.target, s === 'succeeded' || s === 'failed');
          outcomes.push(done.outcome);
        } else {
          notSent.push({ item, attempt, error: done.error });
          inFlightTargets.delete(item.target);
          onNotSent(item, done.error);
        }
        notify();
      });
  }

  function onNotSent(item: OutboxItem, e: ReadError): void {
    if (e.kind === 'auth') {
      stop ??= {
        reason: 'auth',
        message: `the tenant refused the credentials (${e.message}); sending is paused: fix the connection's credentials, then send again`,
      };
      return;
    }
    if (e.kind === 'cancelled') {
      stop ??= { reason: 'cancelled', message: 'sending was cancelled' };
      return;
    }
    if (e.kind === 'rate_limited') {
      const n = (rateRetries.get(item.id) ?? 0) + 1;
      rateRetries.set(item.id, n);
      if (n > 5) {
        stop ??= { reason: 'rate_limited', message: `the tenant keeps answering 429 (${e.message}); sending is paused: send again later` };
        return;
      }
      holdUntil = Math.max(holdUntil, performance.now() + (e.retryAfterMs ?? 1000));
      requeueInRun(item);
      return;
    }
    // Network: certainly not sent.
    const resume = opts.resumeOnNetwork;
    const now = performance.now();
    if (networkSince === 0) networkSince = now;
    if (resume && now - networkSince < resume.maxWaitMs) {
      holdUntil = Math.max(holdUntil, now + resume.probeEveryMs);
      requeueInRun(item);
      progress({
        phase: 'paused',
        itemId: item.id,
        message: `the tenant cannot be reached (${e.message}); retrying in ${resume.probeEveryMs} ms`,
      });
      return;
    }
    stop ??= {
      reason: 'network',
      message: `the tenant cannot be reached (${e.message}); sending is paused: the remaining items stay queued, send again when online`,
    };
  }

  /** The item was not handled: it goes out again in this run, first (its state was set back to queued). */
  function requeueInRun(item: OutboxItem): void {
    ready.unshift(item);
  }

  const onAbort = () => {
    stop ??= { reason: 'cancelled', message: 'sending was cancelled: items in flight were finished and recorded, the rest stay queued' };
    notify();
  };
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  if (opts.signal?.aborted) onAbort();

  try {
    for (;;) {
      const now = performance.now();
      const holding = holdUntil > now;
      const free = !stop && !holding ? concurrency - inFlight : 0;
      const pendingWrites = outcomes.length + notSent.length;
      const canClaim = free > 0 && (ready.length > 0 || cursor < candidates.length);
      if (pendingWrites > 0 || canClaim) {
        // Group commits: wait a little so several outcomes and claims share one disk flush.
        const urgent = canClaim && free >= Math.max(1, Math.ceil(concurrency / 2));
        const wait = groupMs(urgent) - (now - lastCommit);
        if (wait > 0 && inFlight > 0) {
          await sleep(wait);
          continue;
        }
        const { claimed } = commit(free);
        for (const c of claimed) launch(c.item, c.attempt);
        if (claimed.length > 0 || pendingWrites > 0) continue;
      }
      if (inFlight === 0) {
        const more = ready.length > 0 || cursor < candidates.length;
        if (stop || !more) break;
        if (holding) {
          await sleep(Math.max(1, holdUntil - now));
          continue;
        }
        break; // nothing in flight and nothing claimable: the rest is blocked
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
        if (holding && free === 0 && !stop) setTimeout(notify, Math.max(1, holdUntil - now));
      });
    }
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
  }

  // Everything not reached stays queued.
  const leftover = new Set<string>();
  for (const it of ready) leftover.add(it.id);
  for (let i = cursor; i < candidates.length; i += 1) leftover.add((candidates[i] as OutboxItem).id);
  for (const list of waiting.values()) for (const it of list) leftover.add(it.id);
  for (const id of blockedIds) leftover.add(id);
  summary.blocked = [...new Set(blockedIds)];
  summary.notSent = leftover.size;
  const finalStop = stop as PauseInfo | null;
  summary.paused = finalStop && finalStop.reason !== 'cancelled' ? finalStop : null;
  summary.cancelled = finalStop?.reason === 'cancelled';
  summary.elapsedMs = Math.round(performance.now() - started);
  summary.touched = [...touched].sort();
  summary.refreshed = o.refresh(freshCopies);
  summary.commits = commits;
  summary.commitMs = Math.round(commitMs);
  progress({ phase: summary.paused ? 'paused' : 'finished', message: summary.paused?.message });
  return summary;
}

function safe<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}
