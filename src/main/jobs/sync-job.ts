import { Worker } from 'node:worker_threads';
import type { AuthMethod } from '../api/token';
import type { CollectionId } from '../collections';
import type { SyncProgress, SyncSummary } from '../sync/engine';
import { ErrorFromThread, workerEntry, type ThreadError } from '../worker-entry';

/** What the worker needs to sync one connection: its store file and its credentials. */
export interface SyncJobInput {
  storeFile: string;
  clientId: string;
  /** Passed to the worker thread in memory only; never written or logged. */
  clientSecret: string;
  serverUrl?: string | undefined;
  auth?: AuthMethod | undefined;
  only?: readonly CollectionId[] | undefined;
  concurrency?: number | undefined;
}

export interface SyncJobOptions {
  signal?: AbortSignal | undefined;
  onProgress?: ((event: SyncProgress) => void) | undefined;
  /** How long a cancelled sync may take to reach a page boundary before its thread is stopped. Default 10 s. */
  cancelGraceMs?: number | undefined;
}

export type WorkerMessage =
  { type: 'progress'; event: SyncProgress } | { type: 'done'; summary: SyncSummary } | { type: 'error'; error: ThreadError };

/** An error raised inside the sync worker, with the name and kind/code its layer gave it (for exit codes). */
export class SyncJobError extends ErrorFromThread {}

/**
 * Runs a sync in a worker thread with its own store connection, so the calling thread (Electron's
 * main process) stays responsive. Progress events arrive as the worker stores pages; aborting
 * `signal` cancels at the next page boundary (the store stays consistent and resumable); if the
 * worker does not stop within the grace period, its thread is terminated, which SQLite survives
 * too (an unfinished transaction never becomes visible).
 */
export function runSyncJob(input: SyncJobInput, opts: SyncJobOptions = {}): Promise<SyncSummary> {
  const { url, execArgv } = workerEntry(import.meta.url, 'sync-worker');
  const worker = new Worker(url, { workerData: input, execArgv, name: 'attest-sync' });
  return new Promise<SyncSummary>((resolve, reject) => {
    let settled = false;
    let killTimer: NodeJS.Timeout | undefined;
    const finish = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(killTimer);
      opts.signal?.removeEventListener('abort', onAbort);
      fn();
    };
    const onAbort = (): void => {
      worker.postMessage({ type: 'cancel' });
      killTimer = setTimeout(() => void worker.terminate(), opts.cancelGraceMs ?? 10_000);
      killTimer.unref();
    };
    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'progress') opts.onProgress?.(message.event);
      else if (message.type === 'done') finish(() => resolve(message.summary));
      else finish(() => reject(new SyncJobError(message.error)));
    });
    worker.on('error', (error) => finish(() => reject(error)));
    worker.on('exit', (code) =>
      finish(() =>
        reject(
          new SyncJobError({
            name: 'SyncJobError',
            message: opts.signal?.aborted ? 'the sync was stopped' : `the sync worker exited (code ${code})`,
          }),
        ),
      ),
    );
  });
}
