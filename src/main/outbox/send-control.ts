/**
 * When a send stops or holds: cancel, auth refused, 429s (a Retry-After holds the whole batch; five
 * in a row for one item pause it), and network loss (pause at once, or keep probing for a while
 * when asked to).
 */
import type { ReadError } from './api-shape';
import type { OutboxItem, PauseInfo } from './types';

export interface ResumeOnNetwork {
  probeEveryMs: number;
  maxWaitMs: number;
}

/** What to do with an item the server never handled. */
export interface NotSentDecision {
  /** Send it again in this run (after the hold). */
  requeue: boolean;
  /** Said to the listener while the send holds. */
  notice?: string;
}

const MAX_RATE_RETRIES = 5;

export class SendControl {
  /** Why the send stops (first reason wins): no new request starts. */
  stop: PauseInfo | null = null;
  /** performance.now() until which no new request starts. */
  holdUntil = 0;
  #networkSince = 0;
  readonly #rateRetries = new Map<string, number>();

  constructor(private readonly resume?: ResumeOnNetwork) {}

  cancel(): void {
    this.stop ??= {
      reason: 'cancelled',
      message: 'sending was cancelled: items in flight were finished and recorded, the rest stay queued',
    };
  }

  /** The server answered an item (succeeded or failed): the network is there. */
  reached(): void {
    this.#networkSince = 0;
  }

  holding(now: number): boolean {
    return this.holdUntil > now;
  }

  notSent(item: OutboxItem, e: ReadError): NotSentDecision {
    if (e.kind === 'auth') {
      this.stop ??= {
        reason: 'auth',
        message:
          `the tenant refused the credentials (${e.message}); sending is paused: replace the connection's credential ` +
          '(Settings → Replace credential, or `attest connect --name NAME` with the new one), then send again',
      };
      return { requeue: false };
    }
    if (e.kind === 'cancelled') {
      this.stop ??= { reason: 'cancelled', message: 'sending was cancelled' };
      return { requeue: false };
    }
    if (e.kind === 'rate_limited') return this.#rateLimited(item, e);
    return this.#unreachable(e); // network: certainly not sent
  }

  #rateLimited(item: OutboxItem, e: ReadError): NotSentDecision {
    const n = (this.#rateRetries.get(item.id) ?? 0) + 1;
    this.#rateRetries.set(item.id, n);
    if (n > MAX_RATE_RETRIES) {
      this.stop ??= {
        reason: 'rate_limited',
        message: `the tenant keeps answering 429 (${e.message}); sending is paused: send again later`,
      };
      return { requeue: false };
    }
    this.holdUntil = Math.max(this.holdUntil, performance.now() + (e.retryAfterMs ?? 1000));
    return { requeue: true };
  }

  #unreachable(e: ReadError): NotSentDecision {
    const resume = this.resume;
    const now = performance.now();
    if (this.#networkSince === 0) this.#networkSince = now;
    if (resume && now - this.#networkSince < resume.maxWaitMs) {
      this.holdUntil = Math.max(this.holdUntil, now + resume.probeEveryMs);
      return { requeue: true, notice: `the tenant cannot be reached (${e.message}); retrying in ${resume.probeEveryMs} ms` };
    }
    this.stop ??= {
      reason: 'network',
      message: `the tenant cannot be reached (${e.message}); sending is paused: the remaining items stay queued, send again when online`,
    };
    return { requeue: false };
  }
}
