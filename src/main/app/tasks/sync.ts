import type { SyncProgress } from '../../../shared/contract';
import { CoreError, firstLineOf } from '../../errors';
import { runSyncJob } from '../../jobs/sync-job';
import type { CollectionId } from '../../collections';
import { syncTenant, type SyncSummary } from '../../sync/engine';
import type { Workspace } from '../workspace';

export type { SyncSummary };

/**
 * A sync of a workspace, for both fronts: in this thread (the CLI) or in a worker thread with its
 * own store connection (the app, whose main process must stay responsive). Aborting `signal`
 * stops at the next page boundary; the store stays consistent and the next sync resumes.
 */
export interface SyncTaskOptions {
  only?: readonly CollectionId[] | null | undefined;
  /** Collections walked at the same time (default 3). */
  concurrency?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Every progress event of the engine, then one 'finished' event that says how the sync ended (and why it failed). */
  onProgress?: ((event: SyncProgress) => void) | undefined;
  /** In a worker thread (needs the workspace's credentials). */
  worker?: boolean | undefined;
}

export const NO_SECRET_MESSAGE = 'The secret of this connection is not available; add the connection again.';

function finishedEvent(summary: SyncSummary | null, failure: unknown, cancelled: boolean): SyncProgress {
  let failed: string | null = null;
  if (failure !== null) failed = firstLineOf(failure, 'The sync failed.');
  else if (summary && summary.status !== 'completed')
    failed = summary.collections.find((c) => c.error)?.error ?? `The sync ended ${summary.status}.`;
  return {
    phase: 'finished',
    runId: summary?.runId ?? null,
    collection: null,
    state: cancelled ? 'cancelled' : failed ? 'failed' : 'done',
    pages: 0,
    items: 0,
    ratePerSecond: null,
    error: cancelled ? null : failed,
    expectedPages: null,
    expectedItems: null,
    etaSeconds: null,
  };
}

async function syncIn(workspace: Workspace, opts: SyncTaskOptions, onProgress: (event: SyncProgress) => void): Promise<SyncSummary> {
  const only = opts.only ?? undefined;
  if (!opts.worker) {
    const api = await workspace.requireApi();
    return syncTenant({
      store: workspace.store,
      api,
      only,
      concurrency: opts.concurrency,
      signal: opts.signal,
      onProgress,
      pageThread: true,
    });
  }
  const credentials = workspace.credentials;
  if (!credentials) throw new CoreError('auth', NO_SECRET_MESSAGE);
  return runSyncJob(
    { storeFile: workspace.store.file, ...credentials, only, concurrency: opts.concurrency },
    { signal: opts.signal, onProgress },
  );
}

/** Syncs the workspace's tenant into its store; rejects with the cause when the sync could not run at all. */
export async function runSync(workspace: Workspace, opts: SyncTaskOptions = {}): Promise<SyncSummary> {
  let summary: SyncSummary | null = null;
  let failure: unknown = null;
  try {
    // The engine's own 'finished' is replaced by the one below, which carries the reason of a failure.
    summary = await syncIn(workspace, opts, (event) => event.phase !== 'finished' && opts.onProgress?.(event));
    return summary;
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    opts.onProgress?.(finishedEvent(summary, failure, opts.signal?.aborted === true));
  }
}
