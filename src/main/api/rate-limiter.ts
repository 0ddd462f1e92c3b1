/**
 * One gate for every request of a connection (or of a whole outbox batch): a 429's Retry-After
 * pauses all senders sharing the limiter, not just the one that got it; optionally it also bounds
 * how many requests are in flight and how many start per second.
 */
import { ApiError } from './errors';

export interface RateLimiterOptions {
  /** At most this many requests in flight at once (default: unbounded). */
  maxConcurrent?: number;
  /** At most this many requests started per second (default: unbounded). */
  requestsPerSecond?: number;
  /** Clock, for tests. */
  now?: () => number;
}

/** Resolves after `ms`, or rejects with a `cancelled` ApiError when `signal` fires first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(cancelledError());
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelledError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function cancelledError(): ApiError {
  return new ApiError('cancelled', 'The request was cancelled before it was sent');
}

export class RateLimiter {
  readonly #maxConcurrent: number;
  readonly #intervalMs: number;
  readonly #now: () => number;
  #pausedUntil = 0;
  #nextStart = 0;
  #active = 0;
  readonly #waiters: Array<() => void> = [];

  constructor(options: RateLimiterOptions = {}) {
    const max = options.maxConcurrent;
    this.#maxConcurrent = max !== undefined && max > 0 ? Math.floor(max) : Number.POSITIVE_INFINITY;
    const rps = options.requestsPerSecond;
    this.#intervalMs = rps !== undefined && rps > 0 ? 1000 / rps : 0;
    this.#now = options.now ?? Date.now;
  }

  /** Epoch ms until which nobody may send (0 when not paused). */
  get pausedUntil(): number {
    return this.#pausedUntil;
  }

  get inFlight(): number {
    return this.#active;
  }

  /** The server asked to wait `ms`: no request sharing this limiter starts before then. */
  pause(ms: number): void {
    if (!(ms > 0)) return;
    this.#pausedUntil = Math.max(this.#pausedUntil, this.#now() + ms);
  }

  /** Waits until no pause is in force, without taking a slot (for token mints, which run inside a request's slot). */
  async whenOpen(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const wait = this.#pausedUntil - this.#now();
      if (wait <= 0) return;
      await sleep(wait, signal);
    }
  }

  /**
   * Waits for the pause to end, a free slot and the rate, then takes the slot. Call the returned
   * function exactly once when the request is done.
   */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    for (;;) {
      if (signal?.aborted) throw cancelledError();
      const wait = this.#pausedUntil - this.#now();
      if (wait > 0) {
        await sleep(wait, signal);
        continue;
      }
      if (this.#active >= this.#maxConcurrent) {
        await this.#waitForSlot(signal);
        continue;
      }
      if (this.#intervalMs > 0) {
        const now = this.#now();
        const start = Math.max(now, this.#nextStart);
        this.#nextStart = start + this.#intervalMs;
        if (start > now) {
          this.#active += 1;
          try {
            await sleep(start - now, signal);
          } catch (error) {
            this.#release();
            throw error;
          }
          // A pause that began while we waited for our turn still applies.
          if (this.#pausedUntil > this.#now()) {
            this.#release();
            continue;
          }
          return this.#once();
        }
      }
      this.#active += 1;
      return this.#once();
    }
  }

  #once(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#release();
    };
  }

  #release(): void {
    this.#active -= 1;
    this.#waiters.shift()?.();
  }

  #waitForSlot(signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const wake = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        const index = this.#waiters.indexOf(wake);
        if (index >= 0) this.#waiters.splice(index, 1);
        reject(cancelledError());
      };
      this.#waiters.push(wake);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
