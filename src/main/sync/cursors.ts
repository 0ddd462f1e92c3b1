/**
 * The cursors of one walk: a single page token for most collections, or one per part of a split
 * collection (independent walks of the same list), each reading some pages ahead (readAheadPages) of
 * what its walk has taken. Their positions make the walk's one checkpoint: the token itself for a
 * single cursor, a JSON object of part -> token (null once that part reached its end) for several.
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

type Arrived = { key: string; token: string; page: FetchedPage };
type Settled = Arrived | { key: string; token: string; error: unknown };

/**
 * Pages a cursor reads ahead of the pages its walk has taken. Its reads do not wait for the walk
 * to store what it took: over a slow network a cursor's next page is on the wire while the
 * pages before it wait for the store, so a walk goes as fast as its slowest cursor's round trips.
 */
export const READ_AHEAD = 8;

/**
 * The objects a cursor reads ahead, at most: READ_AHEAD pages of the largest page the API gives
 * (100 objects).
 */
export const READ_AHEAD_OBJECTS = READ_AHEAD * 100;

/**
 * The pages a cursor of a walk of `pageSize`-object pages reads ahead: READ_AHEAD, or as many as
 * READ_AHEAD_OBJECTS hold. A chain of small pages (automations', 10 objects each) read ahead
 * eight pages only stalled whenever the store was busy for a moment (writing a batch of search
 * entries, say): over a network its next request waited on it, page after page.
 */
export function readAheadPages(pageSize: number): number {
  return Math.max(READ_AHEAD, Math.ceil(READ_AHEAD_OBJECTS / Math.max(1, pageSize)));
}

/** One cursor's reading: its pages, the token its next read asks with, and whether it reads on. */
interface Reader {
  key: string;
  pages: AsyncIterator<FetchedPage>;
  token: string;
  /** A read is on the wire. */
  reading: boolean;
  /** Read pages not yet taken. */
  held: number;
  /** It met its last page or an error: no read follows. */
  finished: boolean;
}

/**
 * Pages of several cursors in the order they arrive. Each cursor reads on by itself, up to
 * `readAhead` pages ahead of what was taken; `take` gives the next page of any cursor (or the error
 * one met, with the token it asked with), and `advance` records a taken page's position, which is
 * what the checkpoint says: a page read ahead is not in it until it is taken and stored.
 */
export class CursorSet {
  private readonly positions: Map<string, Position>;
  private readonly readers = new Map<string, Reader>();
  private readonly arrived: Settled[] = [];
  private waiting: ((read: Settled) => void) | null = null;
  private closed = false;

  constructor(
    positions: ReadonlyMap<string, Position>,
    open: (key: string, token: string) => AsyncIterator<FetchedPage>,
    /** Pages each cursor reads ahead of what was taken. */
    private readonly readAhead = READ_AHEAD,
  ) {
    this.positions = new Map(positions);
    for (const [key, position] of this.positions) {
      if (position === null) continue;
      const reader: Reader = { key, pages: open(key, position), token: position, reading: false, held: 0, finished: false };
      this.readers.set(key, reader);
      this.read(reader);
    }
  }

  private read(reader: Reader): void {
    if (this.closed || reader.reading || reader.finished || reader.held >= this.readAhead) return;
    reader.reading = true;
    const { key, token } = reader;
    void reader.pages.next().then(
      (step) => {
        if (step.done) return this.arrive(reader, { key, token, error: new Error('the page walk ended without a last page') });
        reader.token = step.value.next;
        if (step.value.next === '') reader.finished = true;
        this.arrive(reader, { key, token, page: step.value });
      },
      (error: unknown) => this.arrive(reader, { key, token, error }),
    );
  }

  private arrive(reader: Reader, settled: Settled): void {
    reader.reading = false;
    if ('error' in settled) reader.finished = true;
    reader.held += 1;
    const waiting = this.waiting;
    this.waiting = null;
    if (waiting) this.taken(settled, waiting);
    else this.arrived.push(settled);
    this.read(reader);
  }

  /** A page leaves the set: its cursor may read on. */
  private taken(settled: Settled, to: (read: Settled) => void): void {
    const reader = this.readers.get(settled.key)!;
    reader.held -= 1;
    to(settled);
    this.read(reader);
  }

  /** The next page (or error) of whichever cursor answered first. */
  take(): Promise<Settled> {
    return new Promise((resolve) => {
      const next = this.arrived.shift();
      if (next) this.taken(next, resolve);
      else this.waiting = resolve;
    });
  }

  /**
   * The pages that have arrived and wait to be taken, up to `max`, in the order they arrived: none
   * past an error (the next take gives it).
   */
  takeArrived(max: number): Arrived[] {
    const out: Arrived[] = [];
    while (out.length < max) {
      const next = this.arrived[0];
      if (!next || 'error' in next) break;
      this.arrived.shift();
      this.taken(next, () => out.push(next));
    }
    return out;
  }

  /** A taken page: its cursor's position moves past it. */
  advance(key: string, page: FetchedPage): void {
    this.positions.set(key, page.next === '' ? null : page.next);
  }

  /** The checkpoint after the pages advanced so far. */
  checkpoint(): string {
    return writeCheckpoint(this.positions);
  }

  /** No read starts after this (the walk ended, or starts over with new cursors). */
  close(): void {
    this.closed = true;
  }
}
