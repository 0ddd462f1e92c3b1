/**
 * One collection of the tenant: an ordinary `Map<id, object>` (tests read and mutate it directly),
 * which also numbers every id in insertion order. The number (`seq`) is the walk order and the
 * keyset of page tokens: a walk resumes at "the first object numbered after the last one I saw",
 * which stays right when objects before or after the cursor are added or deleted meanwhile.
 *
 * Map semantics are kept exactly: re-setting an existing id keeps its place (and its seq);
 * deleting and setting it again moves it to the end with a new seq.
 */
export class Collection<T extends object> extends Map<string, T> {
  /** Ids in seq order; deleted ones stay as tombstones until the next compaction. */
  private ids: string[] = [];
  private seqs: number[] = [];
  private seqOf = new Map<string, number>();
  private nextSeq = 1;
  private tombstones = 0;
  /** Bumped by every set, delete and touch: indexes rebuild when it moves. */
  version = 0;
  /**
   * Bumped by what can change an object's place in a sorted view (set, touch, clear), not by a
   * delete: a view skips deleted entries, so removing members never re-sorts a large collection.
   */
  layout = 0;
  private indexes = new Map<string, { key: (value: T) => string; ids: Map<string, string>; version: number }>();

  constructor(readonly name: string) {
    super();
  }

  override set(id: string, value: T): this {
    // Map's constructor may call set before the fields exist; this class never passes it entries.
    const previous = super.get(id);
    if (previous === undefined) {
      const seq = this.nextSeq++;
      this.ids.push(id);
      this.seqs.push(seq);
      this.seqOf.set(id, seq);
    }
    super.set(id, value);
    this.layout += 1;
    this.bump((index) => {
      if (previous !== undefined && index.ids.get(index.key(previous)) === id) index.ids.delete(index.key(previous));
      index.ids.set(index.key(value), id);
    });
    return this;
  }

  override delete(id: string): boolean {
    const previous = super.get(id);
    if (!super.delete(id)) return false;
    this.seqOf.delete(id);
    this.tombstones += 1;
    this.bump((index) => {
      if (previous !== undefined && index.ids.get(index.key(previous)) === id) index.ids.delete(index.key(previous));
    });
    // Compact once tombstones outnumber live entries: amortised O(1) per delete.
    if (this.tombstones > 1024 && this.tombstones > this.size) this.compact();
    return true;
  }

  override clear(): void {
    super.clear();
    this.ids = [];
    this.seqs = [];
    this.seqOf.clear();
    this.tombstones = 0;
    this.indexes.clear();
    this.version += 1;
    this.layout += 1;
  }

  /** The insertion number of a live id. */
  seq(id: string): number | undefined {
    return this.seqOf.get(id);
  }

  /** Marks the collection changed after an object was edited in place (sorted views and indexes rebuild). */
  changed(): void {
    this.version += 1;
    this.layout += 1;
  }

  /** A new version; indexes that were current follow the change instead of rebuilding. */
  private bump(follow: (index: { key: (value: T) => string; ids: Map<string, string>; version: number }) => void): void {
    const before = this.version;
    this.version += 1;
    if (this.indexes.size === 0) return;
    for (const index of this.indexes.values()) {
      if (index.version !== before) continue;
      follow(index);
      index.version = this.version;
    }
  }

  /**
   * The object whose derived key is `value` (the last one set wins), through an index named
   * `name` that is built once and kept current by set/delete. Edits that bypass them (in place,
   * then `changed()`) make it rebuild; a hit is re-checked, so an unannounced edit cannot lie.
   */
  find(name: string, key: (value: T) => string, value: string): T | undefined {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      let index = this.indexes.get(name);
      if (!index || index.version !== this.version || attempt === 1) {
        index = { key, ids: new Map(), version: this.version };
        for (const [id, object] of super.entries()) index.ids.set(key(object), id);
        this.indexes.set(name, index);
      }
      const id = index.ids.get(value);
      const object = id === undefined ? undefined : super.get(id);
      if (object === undefined) return undefined;
      if (key(object) === value) return object;
    }
    return undefined;
  }

  /**
   * Live entries in seq order starting after `afterSeq` (0: from the start). Finding the start is a
   * binary search, so resuming deep in a large collection costs the same as the first page.
   */
  *after(afterSeq: number): Generator<[seq: number, id: string, value: T]> {
    let lo = 0;
    let hi = this.seqs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.seqs[mid] as number) <= afterSeq) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.ids.length; i += 1) {
      const id = this.ids[i] as string;
      const seq = this.seqs[i] as number;
      if (this.seqOf.get(id) !== seq) continue; // tombstone (deleted, maybe re-added later)
      yield [seq, id, super.get(id) as T];
    }
  }

  private compact(): void {
    const ids: string[] = [];
    const seqs: number[] = [];
    for (let i = 0; i < this.ids.length; i += 1) {
      const id = this.ids[i] as string;
      const seq = this.seqs[i] as number;
      if (this.seqOf.get(id) === seq) {
        ids.push(id);
        seqs.push(seq);
      }
    }
    this.ids = ids;
    this.seqs = seqs;
    this.tombstones = 0;
  }
}
