/**
 * A sync's pages committed on a thread of their own (page-writer-thread.ts), with its own
 * connection to the store file. SQLite's work for a page (versions, indexes, search entries, the
 * commit) is most of a sync's CPU; on its own thread it runs while the sync's thread reads,
 * parses and prepares the next pages. Each page is still one transaction with its checkpoint, and
 * the pages commit in the order they were handed over.
 */
import { Worker } from 'node:worker_threads';
import { ErrorFromThread, workerEntry, type ThreadError } from '../worker-entry';
import type { SyncWriter } from './sync-writer';

/**
 * How far below the process the thread runs (its nice value's increment, on Linux): where the CPU
 * is short, the sync's requests and their answers (and the app's windows) go first, and the pages
 * wait, which costs little (the thread catches up while the next answers are on the wire).
 */
export const WRITER_NICE = 10;

type CommitArgs = Parameters<SyncWriter['commitPages']>;
type CommitResult = ReturnType<SyncWriter['commitPages']>;

/** What the thread is asked to do. */
type PageWriterOp = { op: 'commitPages'; args: CommitArgs } | { op: 'flushSearch' } | { op: 'close' };

export type PageWriterRequest = PageWriterOp & { id: number };

export interface PageWriterReply {
  id: number;
  result?: CommitResult;
  error?: ThreadError;
}

export class PageWriterThread {
  private readonly waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private nextId = 1;
  /** Set once the thread is gone: every later request fails with it. */
  private ended: Error | null = null;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: PageWriterReply) => {
      const waiter = this.waiting.get(reply.id);
      if (!waiter) return;
      this.waiting.delete(reply.id);
      if (reply.error) waiter.reject(new ErrorFromThread(reply.error));
      else waiter.resolve(reply.result);
    });
    worker.on('error', (error) => this.end(error));
    worker.on('exit', (code) => this.end(new Error(`the page writer thread ended (exit code ${code})`)));
  }

  /** Starts a thread on the store `file`; resolves once its connection is open. */
  static start(file: string): Promise<PageWriterThread> {
    const { url, execArgv } = workerEntry(import.meta.url, 'page-writer-thread');
    const thread = new PageWriterThread(new Worker(url, { workerData: { file }, execArgv, name: 'attest-page-writer' }));
    return thread.opened().then(() => thread);
  }

  private opened(): Promise<unknown> {
    return new Promise((resolve, reject) => this.waiting.set(0, { resolve, reject }));
  }

  private end(error: Error): void {
    this.ended ??= error;
    for (const waiter of this.waiting.values()) waiter.reject(this.ended);
    this.waiting.clear();
  }

  private call(request: PageWriterOp): Promise<unknown> {
    if (this.ended) return Promise.reject(this.ended);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ ...request, id });
    });
  }

  /** SyncWriter.commitPages, on the thread. */
  commitPages(...args: CommitArgs): Promise<CommitResult> {
    return this.call({ op: 'commitPages', args }) as Promise<CommitResult>;
  }

  /** SyncWriter.flushSearch, on the thread (whose writer holds the search entries its pages queued). */
  async flushSearch(): Promise<void> {
    await this.call({ op: 'flushSearch' });
  }

  /** Closes the thread's connection and ends the thread (stopped, if it ended otherwise: its walks told why). */
  async close(): Promise<void> {
    await this.call({ op: 'close' }).catch(() => undefined);
    await this.worker.terminate();
  }
}
