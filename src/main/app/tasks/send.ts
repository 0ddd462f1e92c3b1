import type { SendProgress as SendProgressEvent } from '../../../shared/contract';
import { firstLineOf } from '../../errors';
import type { OutboxApi } from '../../outbox/api-shape';
import type { PauseInfo, ReconcileSummary, SendProgress, SendSummary } from '../../outbox/queue';
import type { Workspace } from '../workspace';

/**
 * Sending a workspace's outbox, for both fronts: one send, or settling too (the app's and the CLI's
 * sends): uncertain items (a 5xx, a timeout, an answer lost) are reconciled by reading the tenant,
 * and what did not apply is sent again, with a growing pause between rounds for a transient fault
 * to pass, until none is left uncertain or the rounds run out. A read comes before every repeat,
 * so no change is applied twice. Aborting `signal` starts no new request; those in flight finish
 * and are recorded.
 */
export interface SendTaskOptions {
  /** Only these items (ids); default: every queued item. */
  ids?: string[] | undefined;
  /** Requests in flight at once (default 8). */
  concurrency?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Progress in the contract's shape; the last event is one 'finished' with the totals (or why the send failed). */
  onProgress?: ((event: SendProgressEvent) => void) | undefined;
  /** Reconcile uncertain items (of `ids`, when given) before sending, and send again while some stay uncertain. */
  settle?: boolean | undefined;
  /** The pause before settle round n (n ≥ 1), in milliseconds (default: 250 ms doubling, at most 4 s). */
  backoffMs?: ((round: number) => number) | undefined;
  /** After each reconcile that examined items (settle). */
  onReconciled?: ((summary: ReconcileSummary) => void) | undefined;
  /** After each send round. */
  onSent?: ((summary: SendSummary) => void) | undefined;
}

export interface SendTaskResult {
  /** The last send round (null: none ran, nothing was queued). */
  last: SendSummary | null;
  /**
   * Over all rounds: answers that succeeded or failed, attempts left uncertain (each then read),
   * items a read found applied or not applied (sent again); `unsettled`: items still uncertain at the end.
   */
  totals: { succeeded: number; failed: number; uncertain: number; reconciled: number; requeued: number; unsettled: number };
  /** Items the first round set out to send. */
  total: number;
  /** A reconcile that stopped (credentials refused, tenant unreachable): nothing was sent after it. */
  reconcilePaused: PauseInfo | null;
}

const SETTLE_ROUNDS = 10;

/** 250 ms, doubling each round, at most 4 s: about 20 s of waiting over all rounds for a fault to pass. */
const defaultBackoff = (round: number): number => Math.min(4000, 250 * 2 ** (round - 1));

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted || ms <= 0) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

function progressEvent(p: SendProgress): SendProgressEvent {
  return {
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
  };
}

/** The whole task's outcome: each item counted once, as it ended (found applied by a read counts as succeeded). */
function finishedEvent(result: SendTaskResult | null, message: string | null = null): SendProgressEvent {
  const t = result?.totals;
  const succeeded = t ? t.succeeded + t.reconciled : 0;
  const failed = t?.failed ?? 0;
  const uncertain = t?.unsettled ?? 0;
  return {
    phase: 'finished',
    itemId: null,
    state: null,
    message: message ?? (result?.last?.paused ? result.last.paused.message : null),
    done: succeeded + failed + uncertain,
    total: result?.total ?? 0,
    succeeded,
    failed,
    uncertain,
    ratePerSecond: null,
  };
}

async function sendRounds(workspace: Workspace, api: OutboxApi, opts: SendTaskOptions, result: SendTaskResult): Promise<void> {
  const { outbox } = workspace;
  const { signal } = opts;
  const rounds = opts.settle ? SETTLE_ROUNDS : 1;
  const backoff = opts.backoffMs ?? defaultBackoff;
  const scope = opts.ids ? { ids: opts.ids } : {};
  for (let round = 0; round < rounds && !signal?.aborted; round += 1) {
    if (round > 0) await pause(backoff(round), signal);
    if (opts.settle && outbox.counts(scope).uncertain > 0) {
      const reconciled = await outbox.reconcile(api, { signal, ...scope });
      result.totals.reconciled += reconciled.applied;
      result.totals.requeued += reconciled.requeued;
      result.totals.unsettled = reconciled.unknown;
      if (reconciled.examined) opts.onReconciled?.(reconciled);
      if (reconciled.paused) {
        result.reconcilePaused = reconciled.paused;
        return;
      }
    }
    if (opts.settle && outbox.counts(scope).queued === 0) return;
    const last = await outbox.send(api, {
      ids: opts.ids,
      ...(opts.concurrency === undefined ? {} : { concurrency: opts.concurrency }),
      signal,
      // The outbox's own 'finished' is replaced by the one of the whole task.
      onProgress: (p) => p.phase !== 'finished' && opts.onProgress?.(progressEvent(p)),
    });
    result.last = last;
    if (round === 0) result.total = last.total;
    result.totals.succeeded += last.succeeded;
    result.totals.failed += last.failed;
    result.totals.uncertain += last.uncertain;
    result.totals.unsettled = last.uncertain;
    opts.onSent?.(last);
    if (last.paused || last.cancelled || last.uncertain === 0) return;
  }
}

/** Sends the workspace's queued changes with `api`; rejects when the send could not run at all. */
export async function runSend(workspace: Workspace, api: OutboxApi, opts: SendTaskOptions = {}): Promise<SendTaskResult> {
  const result: SendTaskResult = {
    last: null,
    totals: { succeeded: 0, failed: 0, uncertain: 0, reconciled: 0, requeued: 0, unsettled: 0 },
    total: 0,
    reconcilePaused: null,
  };
  try {
    await sendRounds(workspace, api, opts, result);
  } catch (error) {
    opts.onProgress?.(finishedEvent(null, firstLineOf(error, 'The send failed.')));
    throw error;
  }
  opts.onProgress?.(finishedEvent(result));
  return result;
}
