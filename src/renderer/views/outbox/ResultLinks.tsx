import { COLLECTION_IDS, type CollectionId, type OutboxItemView } from '../../../shared/contract';
import { useApp } from '../../stores/app';

/**
 * Where a sent change's result is to be seen in the store: the revoke task a removal created
 * (`revokeTaskId`, stored when the send read it back), the escalated task and the ticket the
 * tenant opened for the escalation (`ticketActionId`), when it opened one, and the related objects
 * its answer carried (`expanded`): an app opens as stored (a fresh copy of it was stored when whole),
 * the others are named only, kept with the item.
 */
export function ResultLinks({ item }: { item: OutboxItemView }) {
  const navigate = useApp((s) => s.navigate);
  if (item.state !== 'succeeded') return null;
  const revokeTaskId = typeof item.result?.revokeTaskId === 'string' ? item.result.revokeTaskId : '';
  const taskId = item.kind === 'escalate-task' && typeof item.input.taskId === 'string' ? item.input.taskId : '';
  const link = revokeTaskId ? { id: revokeTaskId, label: 'Revoke task' } : taskId ? { id: taskId, label: 'Task' } : null;
  if (!link) return null;
  const ticketActionId = typeof item.result?.ticketActionId === 'string' ? item.result.ticketActionId : '';
  const button = (
    <button
      className="btn link small"
      data-testid="result-link"
      onClick={() => navigate({ view: 'detail', collection: 'tasks', id: link.id })}
      title={`Open task ${link.id}`}
    >
      {link.label} {link.id}
    </button>
  );
  const expanded = expandedOf(item.result);
  if (!ticketActionId && expanded.length === 0) return button;
  return (
    <>
      {button}
      {ticketActionId && (
        <span className="muted small mono" data-testid="ticket-action-id">
          ticket action {ticketActionId}
        </span>
      )}
      {expanded.length > 0 && (
        <span className="muted small" data-testid="expanded-objects">
          expanded:{' '}
          {expanded.map((o, i) => (
            <span key={`${o.type}:${o.id}`}>
              {i > 0 && ', '}
              {o.collection ? (
                <button
                  className="btn link small"
                  onClick={() => navigate({ view: 'detail', collection: o.collection!, id: o.id })}
                  title={`Open ${o.type} ${o.id} as the store holds it`}
                >
                  {o.type} {o.name || o.id}
                </button>
              ) : (
                <span title={`${o.type} ${o.id}: kept with this change (not stored)`}>
                  {o.type} {o.name || o.id}
                </span>
              )}
            </span>
          ))}
        </span>
      )}
    </>
  );
}

interface ExpandedSummary {
  type: string;
  id: string;
  name: string;
  collection: CollectionId | null;
}

/** The related objects of an escalation's result, as the outbox kept them. */
function expandedOf(result: Record<string, unknown> | null | undefined): ExpandedSummary[] {
  const list = result?.expanded;
  if (!Array.isArray(list)) return [];
  return list.flatMap((o: unknown) => {
    if (typeof o !== 'object' || o === null) return [];
    const { type, id, name, collection } = o as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === 'string' ? v : '');
    const known = typeof collection === 'string' && (COLLECTION_IDS as readonly string[]).includes(collection);
    return [{ type: str(type), id: str(id), name: str(name), collection: known ? (collection as CollectionId) : null }];
  });
}
