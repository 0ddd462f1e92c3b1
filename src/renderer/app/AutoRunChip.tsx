import { useApp } from '../stores/app';
import { clockTime } from '../components/format';

/** The header's word on what the open connection runs on its own: its queued changes waiting to send, the next sync due. */
export function AutoRunChip() {
  const autoRun = useApp((s) => s.autoRun);
  const online = useApp((s) => s.connection.online);
  const queued = useApp((s) => s.outboxCounts.queued ?? 0);
  if (!autoRun?.connection) return null;
  const waiting = autoRun.sendWhenOnline && !online && queued > 0;
  const parts: string[] = [];
  if (waiting) parts.push(`${queued} ${queued === 1 ? 'change sends' : 'changes send'} when online`);
  if (autoRun.nextSyncAt) parts.push(`next sync ${clockTime(autoRun.nextSyncAt)}`);
  if (parts.length === 0) return null;
  const text = parts.join(' · ');
  return (
    <span
      className="muted small auto-run-chip"
      data-testid="auto-run-status"
      title={autoRun.nextSyncAt ? `Next sync due at ${autoRun.nextSyncAt}` : undefined}
    >
      {text.charAt(0).toUpperCase() + text.slice(1)}
    </span>
  );
}
