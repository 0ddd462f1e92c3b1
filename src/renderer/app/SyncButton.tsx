import { useEffect, useRef, useState } from 'react';
import { useApp, type CollectionProgress } from '../stores/app';
import { ProgressBar } from '../components/States';
import { agoAt, count, timeLeft } from '../components/format';
import { COLLECTION_LABELS, COLLECTION_ORDER } from '../components/collections';

/** "Sync" with a popover: per-collection progress bars while running, "data as of" stamps after. */
export function SyncButton() {
  const syncing = useApp((s) => s.syncing);
  const progress = useApp((s) => s.progress);
  const status = useApp((s) => s.status);
  const syncError = useApp((s) => s.syncError);
  const syncsFinished = useApp((s) => s.syncsFinished);
  const online = useApp((s) => s.connection.online);
  const startSync = useApp((s) => s.startSync);
  const cancelSync = useApp((s) => s.cancelSync);
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const wasSyncing = useRef(false);

  // The popover shows a sync from its start (whatever started it) and closes when it ends; an error
  // opens it, so the error can be read.
  useEffect(() => {
    if ((syncing && !wasSyncing.current) || syncError) setOpen(true);
    else if (!syncing && wasSyncing.current) setOpen(false);
    wasSyncing.current = syncing;
  }, [syncing, syncError]);

  useEffect(() => {
    if (!open) return;
    const closeOnClickElsewhere = (event: MouseEvent) => {
      if (ref.current && !ref.current.contains(event.target as Node)) setOpen(false);
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', closeOnClickElsewhere);
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('mousedown', closeOnClickElsewhere);
      document.removeEventListener('keydown', closeOnEscape);
    };
  }, [open]);

  const oldest = status.length ? status.reduce<string | null>((min, s) => (s.asOf && (!min || s.asOf < min) ? s.asOf : min), null) : null;
  const never = status.length > 0 && status.every((s) => !s.asOf);

  return (
    <div ref={ref} className="row sync-controls">
      <button
        className="btn small data-as-of"
        onClick={() => setOpen((v) => !v)}
        aria-expanded={open}
        data-testid="data-as-of"
        data-syncs-finished={syncsFinished}
        title="Sync status per collection"
      >
        {syncing ? 'Syncing…' : never ? 'Never synced' : `Data as of ${agoAt(oldest)}`}
      </button>
      <button
        className="btn primary sync-button"
        disabled={syncing || !online}
        title={online ? 'Fetch every collection from the tenant' : 'The tenant cannot be reached'}
        onClick={() => {
          setOpen(true);
          void startSync();
        }}
      >
        Sync
      </button>
      {open && (
        <div className="card popover stack" role="dialog" aria-label="Sync progress" data-testid="sync-panel">
          <div className="row">
            <h3 className="grow" style={{ margin: 0 }}>
              {syncing ? 'Syncing' : 'Collections'}
            </h3>
            {syncing && (
              <button className="btn small" onClick={() => void cancelSync()}>
                Cancel
              </button>
            )}
          </div>
          {syncError && <div className="field-error">{syncError}</div>}
          {COLLECTION_ORDER.map((id) => {
            const live = progress[id];
            const stored = status.find((s) => s.id === id);
            return (
              <div key={id} data-testid={`sync-${id}`}>
                <div className="row small">
                  <span className="grow">{COLLECTION_LABELS[id]}</span>
                  {live ? (
                    <span className="muted" data-state={live.state} data-testid={`sync-${id}-progress`}>
                      {live.state === 'failed' ? 'failed' : progressText(live)}
                      {live.state === 'done' && ' ✓'}
                    </span>
                  ) : (
                    <span className="muted">
                      {stored?.asOf ? `${count(stored.count)} · as of ${agoAt(stored.asOf)}` : 'never synced'}
                      {stored && stored.asOf && !stored.complete && ' · incomplete'}
                    </span>
                  )}
                </div>
                {live && (
                  <ProgressBar
                    label={`Sync of ${COLLECTION_LABELS[id]}`}
                    value={
                      live.state === 'done'
                        ? 100
                        : live.state === 'queued'
                          ? 0
                          : live.expectedPages
                            ? Math.min(99, (100 * live.pages) / live.expectedPages)
                            : null
                    }
                    state={live.state}
                  />
                )}
                {live?.error && <div className="field-error">{live.error}</div>}
              </div>
            );
          })}
        </div>
      )}
    </div>
  );
}

/**
 * A walk's progress: objects and pages so far, against what the last sync of the collection fetched
 * (or the ids to read) where that is known, and the time left at the pace so far.
 */
function progressText(live: CollectionProgress): string {
  const expected = live.state === 'running' && live.expectedPages !== null && live.pages <= live.expectedPages;
  const items = expected && live.expectedItems !== null ? `${count(live.items)} of ~${count(live.expectedItems)}` : count(live.items);
  const pages = expected ? `page ${live.pages} of ~${live.expectedPages}` : `${live.pages} ${live.pages === 1 ? 'page' : 'pages'}`;
  const left = live.state === 'running' && live.etaSeconds !== null ? ` · ${timeLeft(live.etaSeconds)}` : '';
  return `${items} items · ${pages}${left}`;
}
