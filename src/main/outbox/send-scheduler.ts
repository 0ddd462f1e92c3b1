/**
 * The order of a send: which queued item goes out next. Items with the same target (object) go one
 * after another in queue order; an item waits while an earlier one on its target is in flight, and
 * is blocked (left queued) behind an earlier one that is uncertain, failed to settle, or not part
 * of this run.
 */
import { rowToItem, type OutboxDb } from './items';
import type { OutboxItem } from './types';

export class SendScheduler {
  /** Items whose predecessors on the same target are settled (front = next). */
  readonly #ready: OutboxItem[] = [];
  /** target -> items behind one in flight. */
  readonly #waiting = new Map<string, OutboxItem[]>();
  readonly #inFlightTargets = new Set<string>();
  readonly #blockedTargets = new Set<string>();
  readonly #blockedIds: string[] = [];
  #cursor = 0;

  /**
   * `candidates`: the items of this run in queue order. `earliestOutside`: target -> lowest seq of
   * a queued item not in this run. `unsettled`: target -> lowest seq of a sending or uncertain item.
   */
  constructor(
    readonly candidates: OutboxItem[],
    private readonly earliestOutside: Map<string, number>,
    private readonly unsettled: Map<string, number>,
  ) {}

  /** The queued items (only those of `ids`, when given), with what holds their targets. */
  static load(o: OutboxDb, ids?: string[]): SendScheduler {
    const idFilter = ids && ids.length > 0 ? new Set(ids) : null;
    const candidates: OutboxItem[] = [];
    const earliestOutside = new Map<string, number>();
    for (const r of o.rowsInState('queued')) {
      if (!idFilter || idFilter.has(r.id)) candidates.push(rowToItem(r));
      else if (!earliestOutside.has(r.target)) earliestOutside.set(r.target, r.seq);
    }
    return new SendScheduler(candidates, earliestOutside, o.unsettledTargets());
  }

  /** Whether any item could still be taken (in this run, not yet reached). */
  hasMore(): boolean {
    return this.#ready.length > 0 || this.#cursor < this.candidates.length;
  }

  /** Takes up to `count` items to send now, their targets then in flight. */
  take(count: number): OutboxItem[] {
    const picked: OutboxItem[] = [];
    while (picked.length < count) {
      const item = this.#next();
      if (!item) break;
      picked.push(item);
      this.#inFlightTargets.add(item.target);
    }
    return picked;
  }

  /** An item's attempt settled: the next item on its target is ready, or (not settled well) every one behind it is blocked. */
  release(target: string, settledOk: boolean): void {
    this.#inFlightTargets.delete(target);
    const list = this.#waiting.get(target);
    if (!list) return;
    if (!settledOk) {
      this.#waiting.delete(target);
      this.#blockedTargets.add(target);
      for (const it of list) this.#blockedIds.push(it.id);
      return;
    }
    const next = list.shift() as OutboxItem;
    if (list.length === 0) this.#waiting.delete(target);
    this.#ready.unshift(next);
  }

  /** A taken item did not go out (another sender claimed it, or the server never handled it): its target is free. */
  drop(target: string): void {
    this.#inFlightTargets.delete(target);
  }

  /** The item was not handled: it goes out again in this run, first (its state was set back to queued). */
  requeue(item: OutboxItem): void {
    this.#ready.unshift(item);
  }

  /** Items left blocked behind an unsettled item on their target. */
  blocked(): string[] {
    return [...new Set(this.#blockedIds)];
  }

  /** Every item of the run not taken: ready, not reached, waiting or blocked. */
  leftover(): Set<string> {
    const ids = new Set<string>();
    for (const it of this.#ready) ids.add(it.id);
    for (let i = this.#cursor; i < this.candidates.length; i += 1) ids.add((this.candidates[i] as OutboxItem).id);
    for (const list of this.#waiting.values()) for (const it of list) ids.add(it.id);
    for (const id of this.#blockedIds) ids.add(id);
    return ids;
  }

  #isBlocked(item: OutboxItem): boolean {
    if (this.#blockedTargets.has(item.target)) return true;
    const outside = this.earliestOutside.get(item.target);
    if (outside !== undefined && outside < item.seq) return true;
    const held = this.unsettled.get(item.target);
    return held !== undefined && held < item.seq;
  }

  #block(item: OutboxItem): void {
    this.#blockedTargets.add(item.target);
    this.#blockedIds.push(item.id);
  }

  #next(): OutboxItem | null {
    while (this.#ready.length > 0) {
      const item = this.#ready.shift() as OutboxItem;
      if (!this.#isBlocked(item)) return item;
      this.#block(item);
    }
    while (this.#cursor < this.candidates.length) {
      const item = this.candidates[this.#cursor++] as OutboxItem;
      if (this.#isBlocked(item)) {
        this.#block(item);
        continue;
      }
      if (this.#inFlightTargets.has(item.target) || this.#waiting.has(item.target)) {
        const list = this.#waiting.get(item.target) ?? [];
        list.push(item);
        this.#waiting.set(item.target, list);
        continue;
      }
      return item;
    }
    return null;
  }
}
