import { useApp } from '../stores/app';
import { COLLECTION_ORDER } from '../components/collections';

/** What a sync is doing, in one sentence that changes only when something worth hearing happens. */
function syncSentence(syncing: boolean, progress: ReturnType<typeof useApp.getState>['progress'], syncError: string | null): string {
  const states = Object.values(progress).map((p) => p?.state);
  const done = states.filter((s) => s === 'done').length;
  const failed = states.filter((s) => s === 'failed').length;
  if (syncing) return `Syncing: ${done} of ${COLLECTION_ORDER.length} collections done${failed ? `, ${failed} failed` : ''}.`;
  if (syncError) return `The sync failed: ${syncError}`;
  if (states.length > 0) return `Sync finished: ${done} collections done${failed ? `, ${failed} failed` : ''}.`;
  return '';
}

/**
 * Live regions for the work that runs in the background (sync, send), always in the page so that
 * screen readers announce their changes politely wherever the focus is.
 */
export function Announcer() {
  const sync = useApp((s) => syncSentence(s.syncing, s.progress, s.syncError));
  const send = useApp((s) => {
    const p = s.sendProgress;
    if (!p) return '';
    if (p.phase === 'finished') return `Send finished: ${p.succeeded} succeeded, ${p.failed} failed, ${p.uncertain} uncertain.`;
    if (p.phase === 'paused') return `Sending paused${p.message ? `: ${p.message}` : '.'}`;
    return `Sending changes: ${p.done} of ${p.total} done.`;
  });
  return (
    <>
      <div className="sr-only" role="status" aria-live="polite" data-testid="sync-announcement">
        {sync}
      </div>
      <div className="sr-only" role="status" aria-live="polite" data-testid="send-announcement">
        {send}
      </div>
    </>
  );
}
