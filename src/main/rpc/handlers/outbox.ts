import type { Session } from '../../app/session';
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

/** The open workspace's outbox: queue, check, edit, import, send, reconcile, and the journal. */
export function outboxHandlers(session: Session): Pick<Handlers, OutboxChannel> {
  const outbox = () => session.workspace().outbox;
  return {
    outboxList: ({ limit, offset, ...filter }) => {
      const open = outbox();
      const matching = filterOf(filter);
      const items = open.list({ ...matching, limit, offset }).map(itemOf);
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
    outboxBulk: ({ action, ids, filter, note }) => {
      const result = outbox().bulk(action, { ...(filter ? filterOf(filter) : {}), ids: ids ?? undefined }, note ?? undefined);
      return { ...result, refused: result.refused.map(({ state, reason, count }) => ({ state, reason, count })) };
    },
    outboxEnqueue: ({ kind, input }) => {
      const item = outbox().enqueue(kind, input, { source: 'app' });
      return { item: itemOf(item), warnings: item.warnings };
    },
    outboxCheck: ({ kind, input, editing }) => outbox().check(kind, input, { editing: editing ?? undefined }),
    outboxEdit: ({ id, input }) => {
      const item = outbox().edit(id, input);
      return { item: itemOf(item), warnings: item.warnings };
    },
    outboxDiscard: ({ id }) => {
      outbox().discard(id);
      return {};
    },
    outboxRetry: ({ id }) => {
      outbox().retry(id);
      return {};
    },
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
