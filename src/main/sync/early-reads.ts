/**
 * Objects read by id before their walk begins: the templates that campaigns and automations name.
 * Their walk can only start once those walks have ended (its ids are what the stored objects name,
 * and what it does not read counts as deleted), but each template can be read as soon as a page
 * names it. Over a slow network that takes the reads off the end of the sync: the walk then finds
 * most of its objects already read, and reads only the rest. What is read early is only a head
 * start: the walk still decides which ids it stores, and an early read that failed is read again.
 */
import type { ApiClient } from '../api/client';
import type { CollectionDescriptor, CollectionId, ReceivedObject } from '../collections';
import { DETAIL_CONCURRENCY, fetchOne, Limiter } from './pages';

/** Early reads held at most (a read the walk takes is no longer held): past it, the walk reads the rest. */
const MAX_HELD = 5_000;

export class EarlyReads {
  private readonly reads = new Map<string, Promise<ReceivedObject | null>>();
  private readonly started = new Set<string>();
  private readonly limiter = new Limiter(DETAIL_CONCURRENCY);
  private readonly stop = new AbortController();
  private readonly signal: AbortSignal;

  /** `targets`: the collections read by id whose walks in this run are still to come. */
  constructor(
    private readonly api: ApiClient,
    private readonly targets: readonly CollectionDescriptor[],
    signal: AbortSignal | undefined,
  ) {
    this.signal = signal ? AbortSignal.any([signal, this.stop.signal]) : this.stop.signal;
  }

  /** Starts reading what the objects of a page of `from` name in the targets (each id once per run). */
  note(from: CollectionDescriptor, objects: readonly ReceivedObject[]): void {
    if (!from.references || this.stop.signal.aborted) return;
    for (const target of this.targets) {
      if (!target.byIds!.referencedBy.includes(from.id)) continue;
      for (const o of objects) for (const id of from.references(o.json)[target.id] ?? []) if (id) this.start(target, id);
    }
  }

  private start(target: CollectionDescriptor, id: string): void {
    const key = `${target.id}/${id}`;
    if (this.started.has(key) || this.reads.size >= MAX_HELD) return;
    this.started.add(key);
    const read = this.limiter.run(() =>
      this.signal.aborted
        ? Promise.reject(this.signal.reason)
        : fetchOne(target.byIds!.fetch, this.api, id, target.listKey, target.id, this.signal),
    );
    // Failures are the walk's to meet (it reads again); none goes unhandled meanwhile.
    read.catch(() => undefined);
    this.reads.set(key, read);
  }

  /** The early read of `id` in `collection`, if one was started; handed over once (no longer held). */
  take(collection: CollectionId, id: string): Promise<ReceivedObject | null> | undefined {
    const key = `${collection}/${id}`;
    const read = this.reads.get(key);
    this.reads.delete(key);
    return read;
  }

  /** Stops reading early and waits for the reads under way to settle (none outlives the sync). */
  async close(): Promise<void> {
    this.stop.abort(new Error('the sync ended'));
    await Promise.allSettled(this.reads.values());
    this.reads.clear();
  }
}
