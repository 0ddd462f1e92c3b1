/**
 * The thread that writes a sync's pages (see page-writer.ts): its own connection to the store
 * file, where each page the sync prepared commits with its checkpoint in one transaction, exactly
 * as on the sync's own connection. Requests are served one at a time, in the order they came.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openStore, type Store } from './db';
import type { PageWriterReply, PageWriterRequest } from './page-writer';
import { threadErrorOf } from '../worker-entry';

const port = parentPort;
if (!port) throw new Error('page-writer-thread runs in a worker thread');

let store: Store | null = null;
try {
  store = openStore((workerData as { file: string }).file);
  port.postMessage({ id: 0 } satisfies PageWriterReply);
} catch (error) {
  port.postMessage({ id: 0, error: threadErrorOf(error) } satisfies PageWriterReply);
  port.close();
}

port.on('message', (request: PageWriterRequest) => {
  if (!store) return;
  try {
    if (request.op === 'close') {
      store.close();
      store = null;
      port.postMessage({ id: request.id } satisfies PageWriterReply);
      port.close();
      return;
    }
    if (request.op === 'flushSearch') {
      store.sync.flushSearch();
      port.postMessage({ id: request.id } satisfies PageWriterReply);
      return;
    }
    const [runId, collection, walk, pages, fetchedAt] = request.args;
    // A Buffer arrives as a plain Uint8Array: the hashes are compared and bound as Buffers.
    const asSent = pages.map(({ objects, next }) => ({
      objects: objects.map((o) => ('hash' in o ? { ...o, hash: Buffer.from(o.hash.buffer, o.hash.byteOffset, o.hash.byteLength) } : o)),
      next,
    }));
    const result = store.sync.commitPages(runId, collection, walk, asSent, fetchedAt);
    port.postMessage({ id: request.id, result } satisfies PageWriterReply);
  } catch (error) {
    port.postMessage({ id: request.id, error: threadErrorOf(error) } satisfies PageWriterReply);
  }
});
