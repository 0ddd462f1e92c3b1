/**
 * Durability without a disk flush per request: claims ("sending") and outcomes are committed in
 * small group transactions. A claim always commits before its request leaves; an outcome may wait
 * a few milliseconds for the next group. If the process dies in between, the item is still
 * `sending` in the store and becomes `uncertain` at the next start: never lost, never resent
 * blindly.
 */
import type { OutboxDb } from './items';
import type { NotSent, Outcome } from './send-attempt';
import type { OutboxItem } from './types';

export interface Claimed {
  item: OutboxItem;
  attempt: number;
}

export interface CommitResult {
  /** Items now `sending`, each with its attempt number: their requests may leave. */
  claimed: Claimed[];
  /** Items taken to send that were no longer queued (another sender claimed them): skipped. */
  lost: OutboxItem[];
  /** The outcomes this commit recorded. */
  settled: Outcome[];
}

export class GroupCommitter {
  readonly #outcomes: Outcome[] = [];
  readonly #notSent: NotSent[] = [];
  #commits = 0;
  #commitMs = 0;
  #lastCommit = 0;

  /** `fixedMs`: minimum milliseconds between commits; default adaptive (see `#gatherMs`). */
  constructor(
    private readonly o: OutboxDb,
    private readonly fixedMs?: number,
  ) {}

  /** A settled attempt, recorded at the next commit. */
  addOutcome(outcome: Outcome): void {
    this.#outcomes.push(outcome);
  }

  /** An attempt the server never handled, returned to the queue at the next commit. */
  addNotSent(r: NotSent): void {
    this.#notSent.push(r);
  }

  /** Records waiting to be written. */
  get pending(): number {
    return this.#outcomes.length + this.#notSent.length;
  }

  get commits(): number {
    return this.#commits;
  }

  /** Milliseconds spent committing. */
  get commitMs(): number {
    return this.#commitMs;
  }

  /** How long to wait before the next commit, at `now`, so several records share one disk flush (0 or less: now). */
  waitMs(urgent: boolean, now: number): number {
    return this.#gatherMs(urgent) - (now - this.#lastCommit);
  }

  /** One group transaction: record finished attempts, then claim `picked` (the items to send next). */
  commit(picked: OutboxItem[]): CommitResult {
    const settled = this.#outcomes.splice(0);
    const returned = this.#notSent.splice(0);
    const result: CommitResult = { claimed: [], lost: [], settled };
    if (settled.length === 0 && returned.length === 0 && picked.length === 0) return result;
    const started = performance.now();
    const now = new Date().toISOString();
    this.o.durable(() => {
      for (const out of settled) this.#settle(out, now);
      for (const r of returned) this.#returnToQueue(r, now);
      for (const item of picked) {
        if (this.o.claim(item.id, now)) result.claimed.push({ item, attempt: this.o.attempts(item.id) });
        else result.lost.push(item);
      }
    });
    this.#lastCommit = performance.now();
    this.#commits += 1;
    this.#commitMs += this.#lastCommit - started;
    return result;
  }

  /**
   * How long to gather work before the next group commit (each is a disk flush that blocks the
   * thread). When many slots are free, claims are urgent: wait about one flush. Otherwise (the
   * pipeline is full, only outcomes wait) gather for up to 20 flushes, at most 100 ms: flushing
   * then takes under a tenth of the time.
   */
  #gatherMs(urgent: boolean): number {
    if (this.fixedMs !== undefined) return this.fixedMs;
    const flush = this.#commits > 0 ? this.#commitMs / this.#commits : 1;
    return urgent ? Math.min(20, Math.max(2, flush)) : Math.min(100, Math.max(4, 20 * flush));
  }

  #settle(out: Outcome, now: string): void {
    this.o.settle({
      id: out.item.id,
      attempt: out.attempt,
      state: out.state,
      now,
      status: out.httpStatus,
      lastError: out.error,
      result: out.result ? JSON.stringify(out.result) : null,
    });
    if (out.state === 'succeeded') this.o.deleteOverlays(out.item.id);
    this.o.journal.append({
      itemId: out.item.id,
      kind: out.item.kind,
      target: out.item.target,
      attempt: out.attempt,
      event: 'send',
      requestDigest: out.item.requestDigest,
      method: out.item.request.method,
      path: out.item.request.path,
      httpStatus: out.httpStatus,
      outcome: out.state,
      answer: out.answer,
      at: now,
    });
  }

  /** Never handled by the server: back to queued, the attempt recorded. */
  #returnToQueue(r: NotSent, now: string): void {
    this.o.returnToQueue(r.item.id, r.attempt, now, r.error.status, r.error.message);
    this.o.journal.append({
      itemId: r.item.id,
      kind: r.item.kind,
      target: r.item.target,
      attempt: r.attempt,
      event: 'send',
      requestDigest: r.item.requestDigest,
      method: r.item.request.method,
      path: r.item.request.path,
      httpStatus: r.error.status,
      outcome: 'not-sent',
      answer: `${r.error.kind}: ${r.error.message}`,
      at: now,
    });
  }
}
