import type { SendProgress } from '../../shared/contract';

/** How often a send's progress reaches the screen, and how often the outbox's lists refetch during a send. */
export const PROGRESS_EVERY_MS = 250;
export const REFRESH_EVERY_MS = 1000;

export interface SendEventSink {
  /** The latest progress, to show. */
  progress(event: SendProgress): void;
  /** The outbox changed: its lists and counts refetch. */
  outboxChanged(): void;
  /** The send ended: objects it changed may show differently. */
  finished(): void;
}

/**
 * Paces a send's events for the screen. A send reports every item (hundreds a second against a
 * fast tenant); handing each one to the store re-rendered the outbox and refetched its lists once
 * per item, and each commit found the next update already waiting, until React stopped the
 * cascade ("Maximum update depth exceeded", #185). Here the item events are folded: the latest
 * progress at most every PROGRESS_EVERY_MS, a refetch at most every REFRESH_EVERY_MS; `started`,
 * `paused` and `finished` go through at once (with whatever was waiting).
 */
export function paceSendEvents(sink: SendEventSink): { push(event: SendProgress): void; stop(): void } {
  let waiting: SendProgress | null = null;
  let progressTimer: ReturnType<typeof setTimeout> | null = null;
  let refreshTimer: ReturnType<typeof setTimeout> | null = null;
  let lastRefresh = 0;

  const flushProgress = () => {
    if (progressTimer) clearTimeout(progressTimer);
    progressTimer = null;
    if (waiting) sink.progress(waiting);
    waiting = null;
  };
  const refresh = () => {
    if (refreshTimer) clearTimeout(refreshTimer);
    refreshTimer = null;
    lastRefresh = Date.now();
    sink.outboxChanged();
  };

  return {
    push(event) {
      waiting = event;
      if (event.phase !== 'item') {
        flushProgress();
        if (event.phase === 'finished') {
          refresh();
          sink.finished();
        }
        return;
      }
      progressTimer ??= setTimeout(flushProgress, PROGRESS_EVERY_MS);
      refreshTimer ??= setTimeout(refresh, Math.max(0, lastRefresh + REFRESH_EVERY_MS - Date.now()));
    },
    stop() {
      if (progressTimer) clearTimeout(progressTimer);
      if (refreshTimer) clearTimeout(refreshTimer);
      progressTimer = refreshTimer = null;
    },
  };
}
