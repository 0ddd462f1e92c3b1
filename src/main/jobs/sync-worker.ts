/**
 * The sync worker thread: its own store connection and API client, the engine, and messages to
 * the thread that started it (see sync-job.ts). Nothing here holds on to the secret after the
 * client is built.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createApiClient } from '../api/client';
import { openStore, type Store } from '../store/db';
import { syncTenant } from '../sync/engine';
import type { SyncJobInput, WorkerMessage } from './sync-job';
import { threadErrorOf } from '../worker-entry';

const port = parentPort;
if (!port) throw new Error('sync-worker runs in a worker thread');
const input = workerData as SyncJobInput;
const controller = new AbortController();
const post = (message: WorkerMessage): void => port.postMessage(message);
port.on('message', (message: { type?: string }) => {
  if (message?.type === 'cancel') controller.abort(new Error('cancelled'));
});

let store: Store | null = null;
try {
  const api = createApiClient({
    clientId: input.clientId,
    clientSecret: input.clientSecret,
    serverUrl: input.serverUrl,
    auth: input.auth,
  });
  store = openStore(input.storeFile);
  const summary = await syncTenant({
    store,
    api,
    only: input.only,
    concurrency: input.concurrency,
    signal: controller.signal,
    onProgress: (event) => post({ type: 'progress', event }),
    pageThread: true,
  });
  post({ type: 'done', summary });
} catch (error) {
  post({ type: 'error', error: threadErrorOf(error) });
} finally {
  store?.close();
  port.close();
}
