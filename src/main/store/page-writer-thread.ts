/**
 * The thread that writes a sync's pages (see page-writer.ts): its own connection to the store
 * file, where each page the sync prepared commits with its checkpoint in one transaction, exactly
 * as on the sync's own connection. Requests are served one at a time: the smallest commit first
 * among those waiting (see `waiting`), anything else in the order it came.
 */
import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { openStore, type Store } from './db';
import { WRITER_NICE, type PageWriterReply, type PageWriterRequest } from './page-writer';
import { threadErrorOf } from '../worker-entry';

if (!parentPort) throw new Error('page-writer-thread runs in a worker thread');
const port: MessagePort = parentPort;

// Below the rest of the process (see WRITER_NICE). Only on Linux, where a thread's nice value is
// its own: elsewhere it would lower the whole process.
if (process.platform === 'linux') {
  try {
    setPriority(0, Math.min(19, getPriority(0) + WRITER_NICE));
  } catch {
    // Not allowed (a sandbox, say): the thread keeps the process's priority.
  }
}

let store: Store | null = null;
try {
  store = openStore((workerData as { file: string }).file);
  port.postMessage({ id: 0 } satisfies PageWriterReply);
} catch (error) {
  port.postMessage({ id: 0, error: threadErrorOf(error) } satisfies PageWriterReply);
  port.close();
}

/**
 * Requests waiting for the connection. Each walk waits for its commit before it sends the next,
 * so the pages waiting here are of different walks, and their order among themselves is free:
 * the smallest commit goes first, so that a walk of small pages read one after another (the
 * automations' chains of 10) is not held up page after page behind the large batches of others.
 * Anything else (flushing the search entries, closing) waits for what came before it.
 */
const waiting: PageWriterRequest[] = [];
let draining = false;

const objectsOf = (request: PageWriterRequest): number =>
  request.op === 'commitPages' ? request.args[3].reduce((n, page) => n + page.objects.length, 0) : 0;

function next(): PageWriterRequest {
  let pick = 0;
  for (let i = 0; i < waiting.length && waiting[i]!.op === 'commitPages'; i += 1)
    if (objectsOf(waiting[i]!) < objectsOf(waiting[pick]!)) pick = i;
  return waiting.splice(pick, 1)[0]!;
}

port.on('message', (request: PageWriterRequest) => {
  waiting.push(request);
  // Served once the messages that arrived meanwhile are all here, so the choice sees them all.
  if (!draining) {
    draining = true;
    setImmediate(drain);
  }
});

/** Serves one request, then lets the messages that arrived meanwhile in before choosing the next. */
function drain(): void {
  serve(next());
  if (waiting.length > 0) setImmediate(drain);
  else draining = false;
}

function serve(request: PageWriterRequest): void {
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
}
