import type { SendProgress as SendProgressEvent } from '../../../shared/contract';
import { firstLineOf } from '../../errors';
import type { OutboxApi } from '../../outbox/api-shape';
import type { PauseInfo, ReconcileSummary, SendProgress, SendSummary } from '../../outbox/queue';
import type { Workspace } from '../workspace';

/**
 * Sending a workspace's outbox, for both fronts: one send (the app), or settling too (the CLI's
 * `queue send`): uncertain items are reconciled by reading the tenant first, and the queue is sent
 * again while some stay uncertain, up to four rounds. Aborting `signal` starts no new request;
 * those in flight finish and are recorded.
 */
export interface SendTaskOptions {
  /** Only these items (ids); default: every queued item. */
  ids?: string[] | undefined;
  /** Requests in flight at once (default 8). */
  concurrency?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Progress in the contract's shape; the last event is one 'finished' with the totals (or why the send failed). */
  onProgress?: ((event: SendProgressEvent) => void) | undefined;
  /** Reconcile uncertain items before sending, and send again while some stay uncertain. */
  settle?: boolean | undefined;
  /** After each reconcile that examined items (settle). */
  onReconciled?: ((summary: ReconcileSummary) => void) | undefined;
  /** After each send round. */
  onSent?: ((summary: SendSummary) => void) | undefined;
}

export interface SendTaskResult {
  /** The last send round (null: none ran, nothing was queued). */
  last: SendSummary | null;
  totals: { succeeded: number; failed: number; uncertain: number; reconciled: number; requeued: number };
  /** A reconcile that stopped (credentials refused, tenant unreachable): nothing was sent after it. */
  reconcilePaused: PauseInfo | null;
}

const SETTLE_ROUNDS = 4;

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

function finishedEvent(last: SendSummary | null): SendProgressEvent {
  return {
    phase: 'finished',
    itemId: null,
    state: null,
    message: last?.paused ? last.paused.message : null,
    done: last ? last.succeeded + last.failed + last.uncertain : 0,
    total: last?.total ?? 0,
    succeeded: last?.succeeded ?? 0,
    failed: last?.failed ?? 0,
    uncertain: last?.uncertain ?? 0,
    ratePerSecond: null,
  };
}

async function sendRounds(workspace: Workspace, api: OutboxApi, opts: SendTaskOptions, result: SendTaskResult): Promise<void> {
  const { outbox } = workspace;
  const { signal } = opts;
  const rounds = opts.settle ? SETTLE_ROUNDS : 1;
  for (let round = 0; round < rounds && !signal?.aborted; round += 1) {
    if (opts.settle && outbox.counts().uncertain > 0) {
      const reconciled = await outbox.reconcile(api, { signal });
      result.totals.reconciled += reconciled.applied;
      result.totals.requeued += reconciled.requeued;
      if (reconciled.examined) opts.onReconciled?.(reconciled);
      if (reconciled.paused) {
        result.reconcilePaused = reconciled.paused;
        return;
      }
    }
    if (opts.settle && outbox.counts().queued === 0) return;
    const last = await outbox.send(api, {
      ids: opts.ids,
      ...(opts.concurrency === undefined ? {} : { concurrency: opts.concurrency }),
      signal,
      // The outbox's own 'finished' is replaced by the one of the whole task.
      onProgress: (p) => p.phase !== 'finished' && opts.onProgress?.(progressEvent(p)),
    });
    result.last = last;
    result.totals.succeeded += last.succeeded;
    result.totals.failed += last.failed;
    result.totals.uncertain += last.uncertain;
    opts.onSent?.(last);
    if (last.paused || last.cancelled || last.uncertain === 0) return;
  }
}

/** Sends the workspace's queued changes with `api`; rejects when the send could not run at all. */
export async function runSend(workspace: Workspace, api: OutboxApi, opts: SendTaskOptions = {}): Promise<SendTaskResult> {
  const result: SendTaskResult = {
    last: null,
    totals: { succeeded: 0, failed: 0, uncertain: 0, reconciled: 0, requeued: 0 },
    reconcilePaused: null,
  };
  try {
    await sendRounds(workspace, api, opts, result);
  } catch (error) {
    const message = firstLineOf(error, 'The send failed.');
    opts.onProgress?.({ ...finishedEvent(null), message });
    throw error;
  }
  opts.onProgress?.(finishedEvent(result.last));
  return result;
}
