/**
 * Settles uncertain items by asking the server (each kind's descriptor knows how): applied ->
 * succeeded with what the server holds (and what the read found is stored, as a send's fresh
 * copies are); not applied -> queued again in its original queue position; no way to tell -> stays
 * uncertain for the user to decide. Every check is journaled.
 *
 * Retrying uncertain items goes through here too (`retryAfterReading`): an uncertain change may
 * have been applied, so it is queued again only once a read shows it was not; nothing a read could
 * have found applied is sent twice.
 */
import { readApiError, type OutboxApi } from './api-shape';
import { descriptorOf, type ReconcileVerdict, type RefreshedObject } from './kinds';
import { rowToItem, type OutboxDb } from './items';
import { bulkTransition, refuseUnknownIds } from './actions';
import type { BulkResult, OutboxFilter, OutboxItem, PauseInfo, ReconcileSummary } from './types';

export async function reconcileItems(
  o: OutboxDb,
  api: OutboxApi,
  opts: { concurrency?: number; signal?: AbortSignal; ids?: readonly string[] } = {},
): Promise<ReconcileSummary> {
  const only = opts.ids ? new Set(opts.ids) : null;
  const items = o
    .rowsInState('uncertain')
    .filter((r) => !only || only.has(r.id))
    .map(rowToItem);
  const summary: ReconcileSummary = {
    examined: 0,
    applied: 0,
    requeued: 0,
    unknown: 0,
    details: [],
    paused: null,
    refreshed: { runId: null, stored: 0 },
  };
  // What the reads found (a membership gone, a task as it is now): stored once at the end, as one run.
  const found: RefreshedObject[] = [];
  const concurrency = Math.max(1, Math.min(32, opts.concurrency ?? 8));
  // Only the earliest uncertain item of each object is checked now; later ones wait for it.
  const firstPerTarget = new Map<string, OutboxItem>();
  for (const it of items) if (!firstPerTarget.has(it.target)) firstPerTarget.set(it.target, it);
  const queue = [...firstPerTarget.values()];
  let stop: PauseInfo | null = null;

  async function check(item: OutboxItem): Promise<void> {
    const d = descriptorOf(item.kind);
    let verdict: ReconcileVerdict;
    try {
      verdict = await d.reconcile({ api, item, input: item.input, signal: opts.signal });
    } catch (error) {
      const e = readApiError(error);
      if (e.kind === 'auth')
        stop ??= { reason: 'auth', message: `the tenant refused the credentials (${e.message}); reconciling is paused` };
      else if (e.kind === 'network')
        stop ??= { reason: 'network', message: `the tenant cannot be reached (${e.message}); reconciling is paused` };
      else if (e.kind === 'cancelled') stop ??= { reason: 'cancelled', message: 'reconciling was cancelled' };
      verdict = { outcome: 'unknown', note: `could not check (${e.kind}: ${e.message}); try again`, httpStatus: e.status ?? undefined };
    }
    const now = new Date().toISOString();
    const resent = verdict.resent === true;
    o.durable(() => {
      const current = o.row(item.id);
      if (!current || current.state !== 'uncertain') return; // changed meanwhile (the user decided)
      const attempt = resent ? current.attempts + 1 : current.attempts;
      if (verdict.outcome === 'applied') {
        o.reconciledApplied(item.id, attempt, now, verdict.result, verdict.note);
        o.deleteOverlays(item.id);
      } else if (verdict.outcome === 'not-applied') o.reconciledRequeued(item.id, attempt, now, verdict.note);
      else o.reconciledUnknown(item.id, attempt, now, verdict.note);
      o.journal.append({
        itemId: item.id,
        kind: item.kind,
        target: item.target,
        attempt,
        event: 'reconcile',
        requestDigest: resent ? item.requestDigest : null,
        method: resent ? item.request.method : null,
        path: resent ? item.request.path : null,
        httpStatus: verdict.httpStatus ?? null,
        outcome: verdict.outcome === 'applied' ? 'succeeded' : verdict.outcome === 'not-applied' ? 'queued' : 'uncertain',
        answer: verdict.note,
        at: now,
      });
    });
    summary.examined += 1;
    if (verdict.outcome === 'applied' && o.row(item.id)?.state === 'succeeded') found.push(...(verdict.refresh ?? []));
    if (verdict.outcome === 'applied') summary.applied += 1;
    else if (verdict.outcome === 'not-applied') summary.requeued += 1;
    else summary.unknown += 1;
    summary.details.push({ itemId: item.id, outcome: verdict.outcome, note: verdict.note });
  }

  let next = 0;
  async function worker(): Promise<void> {
    while (!stop && !opts.signal?.aborted && next < queue.length) {
      const item = queue[next++] as OutboxItem;
      await check(item);
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker));
  summary.unknown += items.length - firstPerTarget.size + (queue.length - next);
  summary.paused = stop && (stop as PauseInfo).reason !== 'cancelled' ? stop : null;
  summary.refreshed = o.refresh(found);
  return summary;
}

/** A retry of the items a selection names: the uncertain ones read from the tenant first, the failed ones queued again. */
export interface CheckedRetry {
  /** The failed items queued again, and the items whose state allows no retry (counted by state and reason). */
  bulk: BulkResult;
  /** What reading the uncertain items found (null: none was selected). */
  reconciled: ReconcileSummary | null;
}

/** Why an uncertain item was not queued again without a read. */
export const READ_FIRST =
  'uncertain: the tenant must be read first to know whether it was applied (connect, then retry; or resolve or discard it)';

/**
 * Retries the items `filter` selects: each uncertain one is read from the tenant (applied: it
 * succeeded; not applied: queued again; no read can tell: it stays uncertain, for the user);
 * failed ones (the tenant said no, nothing was applied) are queued again at once. Without `api`
 * (offline) the uncertain ones are refused and counted, never queued blind.
 */
export async function retryAfterReading(
  o: OutboxDb,
  api: OutboxApi | null,
  filter: OutboxFilter,
  opts: { signal?: AbortSignal } = {},
): Promise<CheckedRetry> {
  const selected = o.rows(filter);
  // Unknown ids are refused as a plain retry refuses them: nothing is read or changed.
  refuseUnknownIds(o, filter.ids, new Set(selected.map((r) => r.id)));
  const uncertain = selected.filter((r) => r.state === 'uncertain').map((r) => r.id);
  const rest = selected.filter((r) => r.state !== 'uncertain').map((r) => r.id);
  const reconciled = api && uncertain.length > 0 ? await reconcileItems(o, api, { ids: uncertain, signal: opts.signal }) : null;
  const bulk = rest.length > 0 ? bulkTransition(o, 'retry', { ids: rest }) : emptyRetry();
  bulk.matched = selected.length;
  if (!api && uncertain.length > 0)
    bulk.refused.push({ state: 'uncertain', reason: READ_FIRST, count: uncertain.length, itemIds: uncertain });
  return { bulk, reconciled };
}

function emptyRetry(): BulkResult {
  return { action: 'retry', outcome: 'queued', matched: 0, changed: 0, itemIds: [], refused: [] };
}
