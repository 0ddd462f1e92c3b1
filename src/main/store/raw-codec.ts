/**
 * How a version's raw JSON is kept: LZ4 (its block format, the uncompressed length first) against
 * a dictionary of its collection, one block per version, so any one version reads back alone and
 * any LZ4 reads it (decompress with the dictionary from `raw_dictionaries`).
 *
 * Objects of one collection share their keys, enum values and id shapes, but one object is too
 * short for a compressor to find much in itself: the dictionary (objects of the collection as
 * first stored) gives it those strings up front, and a version keeps about a third of its bytes.
 * A collection's dictionary is made once, from the first page stored of it, and never changes (the
 * versions name theirs). Until a collection has one, its versions are kept as text (`raw_dict`
 * NULL): a few objects make a poor dictionary.
 *
 * Why LZ4 and not zlib's deflate (which keeps a quarter): every version is compressed once and
 * read many times (an export reads each object twice), and for a short value Node's zlib costs
 * mostly its set-up, a stream and a zlib state per call: about 40 µs to deflate and 10 µs to
 * inflate an object, against 6 and 3 for LZ4. Migration 0013 moved the deflated versions to LZ4.
 */
import Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import { compressSync, uncompressSync } from 'lz4-napi';
import { deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * The dictionary's length. It was sized for deflate's 8 KiB window (less its lookahead), which
 * migration 0012 used; LZ4 would take up to 64 KiB, but a longer one gained little on the
 * tenant's objects and costs its loading on every call.
 */
export const DICTIONARY_BYTES = (1 << 13) - 262;

/** A raw value as stored: text (no dictionary yet) or compressed bytes. */
export type StoredRaw = string | Buffer;

/** The JSON text a stored raw holds. `dict` null: stored as text. */
export interface RawReader {
  text(raw: StoredRaw, dict: number | null): string;
}

interface Dictionary {
  did: number;
  dict: Buffer;
}

export class RawCodec implements RawReader {
  private readonly dictionaries = new Map<number, Buffer>();
  /** The dictionary each collection's new versions are deflated with, as known to this connection. */
  private readonly current = new Map<string, Dictionary>();
  /** Dictionaries made in the write transaction under way (see dictionaryFor). */
  private made: { collection: string; did: number }[] = [];
  private readonly s: Record<'all' | 'ofCollection' | 'insert', Statement>;

  constructor(private readonly db: Database.Database) {
    this.s = {
      all: db.prepare('SELECT did, dict FROM raw_dictionaries'),
      ofCollection: db.prepare('SELECT did, dict FROM raw_dictionaries WHERE collection = ? ORDER BY did DESC LIMIT 1'),
      insert: db.prepare('INSERT INTO raw_dictionaries (collection, dict, created_at) VALUES (?, ?, ?)'),
    };
    for (const row of this.s.all.all() as Dictionary[]) this.dictionaries.set(row.did, row.dict);
  }

  /**
   * A dictionary by id. One made by another connection since this one opened is read through a
   * connection of its own: a miss can come while this connection is in the middle of a query (a
   * version read as its rows stream), where it cannot run another.
   */
  private dictionary(did: number): Buffer {
    const known = this.dictionaries.get(did);
    if (known) return known;
    if (!this.db.memory) {
      const other = new Database(this.db.name, { readonly: true, fileMustExist: true });
      try {
        for (const row of other.prepare('SELECT did, dict FROM raw_dictionaries').all() as Dictionary[])
          this.dictionaries.set(row.did, row.dict);
      } finally {
        other.close();
      }
    }
    const dict = this.dictionaries.get(did);
    if (!dict) throw new Error(`the store has no raw dictionary ${did}`);
    return dict;
  }

  text(raw: StoredRaw, dict: number | null): string {
    if (dict === null) return typeof raw === 'string' ? raw : raw.toString('utf8');
    return uncompressSync(raw, this.dictionary(dict)).toString('utf8');
  }

  /**
   * The dictionary `collection`'s new versions are deflated with, made from `samples` (the raws of
   * its first page) when it has none and they are long enough; null: keep them as text for now.
   * Call inside the write transaction that stores the versions, then `settle` once it ended.
   */
  dictionaryFor(collection: string, samples: () => readonly string[]): Dictionary | null {
    const known = this.current.get(collection);
    if (known) return known;
    const stored = this.s.ofCollection.get(collection) as Dictionary | undefined;
    if (stored) {
      this.current.set(collection, stored);
      this.dictionaries.set(stored.did, stored.dict);
      return stored;
    }
    const dict = dictionaryOf(samples());
    if (!dict) return null;
    const did = Number(this.s.insert.run(collection, dict, new Date().toISOString()).lastInsertRowid);
    this.made.push({ collection, did });
    const made = { did, dict };
    this.current.set(collection, made);
    this.dictionaries.set(did, dict);
    return made;
  }

  /** After the write transaction: if it rolled back, the dictionaries made in it went with it. */
  settle(committed: boolean): void {
    if (!committed)
      for (const { collection, did } of this.made) {
        this.current.delete(collection);
        this.dictionaries.delete(did);
      }
    this.made = [];
  }

  /** `raw` as stored with `dictionary` (text when there is none). */
  static encode(raw: string, dictionary: Dictionary | null): { raw: StoredRaw; dict: number | null } {
    if (!dictionary) return { raw, dict: null };
    return { raw: compressSync(raw, dictionary.dict), dict: dictionary.did };
  }
}

/**
 * A dictionary from sample raws: the last DICTIONARY_BYTES of their text (deflate finds strings
 * nearest the end of its window cheapest). Null when the samples hold less than half that.
 */
export function dictionaryOf(samples: readonly string[]): Buffer | null {
  const text = Buffer.from(samples.join('\n'), 'utf8');
  if (text.length < DICTIONARY_BYTES / 2) return null;
  return Buffer.from(text.subarray(Math.max(0, text.length - DICTIONARY_BYTES)));
}

/**
 * Raws as migration 0012 kept them: raw deflate (RFC 1951) with an 8 KiB window against the
 * dictionary. Only the migrations use these: 0012 writes them, 0013 reads them once to move them
 * to LZ4.
 */
export const deflatedRaw = {
  encode: (raw: string, dict: Buffer): Buffer => deflateRawSync(raw, { dictionary: dict, windowBits: 13, memLevel: 2, level: 6 }),
  text: (raw: Buffer, dict: Buffer): string => inflateRawSync(raw, { dictionary: dict, windowBits: 15 }).toString('utf8'),
};

const CODECS = new WeakMap<Database.Database, RawCodec>();

/**
 * The codec of a connection (its dictionaries cached). Raws are inflated in JavaScript after a
 * read, never in SQL: zlib called from inside a SQLite function cost several times as much.
 */
export function rawCodec(db: Database.Database): RawCodec {
  let codec = CODECS.get(db);
  if (!codec) {
    codec = new RawCodec(db);
    CODECS.set(db, codec);
  }
  return codec;
}
