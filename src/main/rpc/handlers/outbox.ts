import type { Session } from '../../app/session';
import type { BulkResult, CheckedRetry } from '../../outbox/queue';
import type { BulkResultView } from '../../../shared/contract';
import type { Handlers } from '../dispatch';
import { batchOf, filterOf, itemOf, journalOf, previewOf } from '../read-models';

type OutboxChannel =
  | 'outboxList'
  | 'outboxBatches'
  | 'outboxBulk'
  | 'outboxEnqueue'
  | 'outboxCheck'
  | 'outboxEdit'
  | 'outboxDiscard'
  | 'outboxRetry'
  | 'outboxResolve'
  | 'outboxPreviewImport'
  | 'outboxImport'
  | 'outboxSend'
  | 'outboxCancelSend'
  | 'outboxReconcile'
  | 'outboxJournal';

function bulkView(result: BulkResult): Omit<BulkResultView, 'reconciled'> {
  return { ...result, refused: result.refused.map(({ state, reason, count }) => ({ state, reason, count })) };
}

/** A checked retry as the app shows it: the failed items queued again, and what reading the uncertain ones found. */
function retryView({ bulk, reconciled }: CheckedRetry): BulkResultView {
  const read = reconciled && {
    examined: reconciled.examined,
    applied: reconciled.applied,
    requeued: reconciled.requeued,
    unknown: reconciled.unknown,
    paused: reconciled.paused?.message ?? null,
  };
  return { ...bulkView(bulk), reconciled: read };
}

/** The open workspace's outbox: queue, check, edit, import, send, reconcile, and the journal. */
export function outboxHandlers(session: Session): Pick<Handlers, OutboxChannel> {
  const outbox = () => session.workspace().outbox;
  return {
    outboxList: ({ limit, offset, ...filter }) => {
      const open = outbox();
      const matching = filterOf(filter);
      const page = open.list({ ...matching, limit, offset });
      const words = open.summariesInWords(page);
      const items = page.map((item) => itemOf(item, words.get(item.id)));
      return {
        items,
        matching: open.count(matching),
        matchingCounts: open.counts(matching),
        counts: open.counts(),
        pending: open.pendingCount(),
        sending: session.sending(),
      };
    },
    outboxBatches: () => ({ batches: outbox().batches().map(batchOf) }),
    outboxBulk: async ({ action, ids, filter, note }) => {
      const selection = { ...(filter ? filterOf(filter) : {}), ids: ids ?? undefined };
      if (action === 'retry') return retryView(await outbox().retryChecked(session.workspace().api ?? null, selection));
      return { ...bulkView(outbox().bulk(action, selection, note ?? undefined)), reconciled: null };
    },
    outboxEnqueue: ({ kind, input }) => {
      const item = outbox().enqueue(kind, input, { source: 'app' });
      return { item: itemOf(item, outbox().summariesInWords([item]).get(item.id)), warnings: item.warnings };
    },
    outboxCheck: ({ kind, input, editing }) => outbox().check(kind, input, { editing: editing ?? undefined }),
    outboxEdit: ({ id, input }) => {
      const item = outbox().edit(id, input);
      return { item: itemOf(item, outbox().summariesInWords([item]).get(item.id)), warnings: item.warnings };
    },
    outboxDiscard: ({ id }) => {
      outbox().discard(id);
      return {};
    },
    outboxRetry: async ({ id }) => retryView(await outbox().retryChecked(session.workspace().api ?? null, { ids: [id] })),
    outboxResolve: ({ id, note }) => {
      outbox().resolve(id, note ?? undefined);
      return {};
    },
    outboxPreviewImport: ({ kind, csv }) => previewOf(outbox().previewImport(csv, kind)),
    outboxImport: ({ kind, csv, source, partial }) => {
      const result = outbox().importCsv(csv, kind, { source: source ?? 'csv import', partial });
      return { ...previewOf(result), queued: result.queued, itemIds: result.itemIds };
    },
    outboxSend: ({ ids }) => ({ started: session.startSend(ids) }),
    outboxCancelSend: () => ({ cancelled: session.cancelSend() }),
    outboxReconcile: async () => {
      const workspace = session.workspace();
      if (!workspace.api) return { examined: 0, applied: 0, requeued: 0, unknown: 0 };
      const summary = await workspace.outbox.reconcile(workspace.api);
      return { examined: summary.examined, applied: summary.applied, requeued: summary.requeued, unknown: summary.unknown };
    },
    outboxJournal: ({ itemId, kind, outcome, batch, since, until, limit, offset }) => {
      const page = outbox().journalInWords({
        itemId: itemId ?? undefined,
        kind: kind ?? undefined,
        outcome: outcome ?? undefined,
        batch: batch ?? undefined,
        since: since ?? undefined,
        until: until ?? undefined,
        limit,
        offset,
        newestFirst: true,
      });
      return { entries: page.entries.map(journalOf), total: page.total };
    },
  };
}
