import type { OutboxItemView } from '../../../shared/contract';
import { useApp } from '../../stores/app';

/**
 * Where a sent change's result is to be seen in the store: the revoke task a removal created
 * (`revokeTaskId`, stored when the send read it back), the escalated task and the ticket the
 * tenant opened for the escalation (`ticketActionId`), when it opened one.
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
  if (!ticketActionId) return button;
  return (
    <>
      {button}
      <span className="muted small mono" data-testid="ticket-action-id">
        ticket action {ticketActionId}
      </span>
    </>
  );
}
