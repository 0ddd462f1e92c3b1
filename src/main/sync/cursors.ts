/**
 * The cursors of one walk: a single page token for most collections, or one per part of a split
 * collection (independent walks of the same list), each reading one page ahead of what was
 * stored. Their positions make the walk's one checkpoint: the token itself for a single cursor,
 * a JSON object of part -> token (null once that part reached its end) for several.
 */
import type { FetchedPage } from './pages';

/** A cursor's position: the token of the next page ('' = the first), or null once it ended. */
export type Position = string | null;

/** The checkpoint could not have been written for these parts (an older store's, say): the walk starts over. */
export class UnreadableCheckpoint extends Error {}

export function readCheckpoint(checkpoint: string, keys: readonly string[]): Map<string, Position> {
  if (keys.length === 1) return new Map([[keys[0]!, checkpoint]]);
  if (checkpoint === '') return new Map(keys.map((k) => [k, '']));
  let parsed: unknown;
  try {
    parsed = JSON.parse(checkpoint);
  } catch {
    throw new UnreadableCheckpoint(`checkpoint '${checkpoint.slice(0, 40)}' is not one of parts ${keys.join(', ')}`);
  }
  const record = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
  const positions = new Map<string, Position>();
  for (const k of keys) {
    const v = record[k];
    if (v !== null && typeof v !== 'string') throw new UnreadableCheckpoint(`checkpoint has no position for part ${k}`);
    positions.set(k, v);
  }
  return positions;
}

/** The checkpoint of these positions; '' once every cursor ended (the walk's last page). */
export function writeCheckpoint(positions: ReadonlyMap<string, Position>): string {
  if ([...positions.values()].every((p) => p === null)) return '';
  if (positions.size === 1) return [...positions.values()][0]!;
  return JSON.stringify(Object.fromEntries(positions));
}

type Settled = { key: string; token: string } & ({ page: FetchedPage } | { error: unknown });

/**
 * Pages of several cursors in the order they arrive. `take` gives the next page of any cursor
 * (or the error one met, with the token it asked with); `advance` records a taken page's position
 * and starts that cursor's next read, so each cursor has one read on the wire while pages are stored.
 */
export class CursorSet {
  private readonly positions: Map<string, Position>;
  private readonly reads = new Map<string, Promise<Settled>>();

  constructor(
    positions: ReadonlyMap<string, Position>,
    private readonly open: (key: string, token: string) => AsyncIterator<FetchedPage>,
  ) {
    this.positions = new Map(positions);
    for (const [key, position] of this.positions) if (position !== null) this.start(key, this.open(key, position), position);
  }

  private start(key: string, pages: AsyncIterator<FetchedPage>, token: string): void {
    const read = pages.next().then(
      (step): Settled =>
        step.done ? { key, token, error: new Error('the page walk ended without a last page') } : { key, token, page: step.value },
      (error: unknown): Settled => ({ key, token, error }),
    );
    this.reads.set(key, read);
    this.iterators.set(key, pages);
  }

  private readonly iterators = new Map<string, AsyncIterator<FetchedPage>>();

  /** Every cursor reached its end. */
  get ended(): boolean {
    return this.reads.size === 0;
  }

  /** The next page (or error) of whichever cursor answers first. */
  take(): Promise<Settled> {
    return Promise.race(this.reads.values());
  }

  /** A taken page: its cursor moves past it and, unless that was its last page, reads the next one. */
  advance(key: string, page: FetchedPage): void {
    this.reads.delete(key);
    this.positions.set(key, page.next === '' ? null : page.next);
    if (page.next !== '') this.start(key, this.iterators.get(key)!, page.next);
  }

  /** The checkpoint after the pages advanced so far. */
  checkpoint(): string {
    return writeCheckpoint(this.positions);
  }
}
