/**
 * A small seeded PRNG (sfc32) and the helpers the dataset and the fault injector draw from.
 * Everything the reference tenant makes up comes from here, so one seed gives one tenant.
 */

/** 32-bit FNV-1a of a string: turns a seed plus a stream name into independent PRNG seeds. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const BASE62 = Array.from('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', (c) => c.charCodeAt(0));
const idCodes: number[] = new Array(27).fill(0);

export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** A stream named `stream` under `seed`: streams never share draws, so adding one shifts no other. */
  constructor(seed: number, stream = '') {
    this.a = hash32(`${seed}:a:${stream}`);
    this.b = hash32(`${seed}:b:${stream}`);
    this.c = hash32(`${seed}:c:${stream}`);
    this.d = 1;
    for (let i = 0; i < 12; i += 1) this.next();
  }

  /** A uint32. */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A float in [0, 1). */
  float(): number {
    return this.next() / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** An integer in [min, max]. */
  range(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  chance(p: number): boolean {
    return p > 0 && this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[this.int(items.length)] as T;
  }

  /** `count` distinct items (fewer when the list is shorter), in list order. */
  sample<T>(items: readonly T[], count: number): T[] {
    if (count >= items.length) return items.slice();
    const chosen = new Set<number>();
    while (chosen.size < count) chosen.add(this.int(items.length));
    return [...chosen].sort((x, y) => x - y).map((i) => items[i] as T);
  }

  /** A KSUID-like identifier: 27 base62 characters, as the service's ids look. */
  id(): string {
    // One flat string from char codes: appending char by char would leave a 27-deep rope that
    // every Map lookup has to flatten again.
    for (let i = 0; i < 27; i += 1) idCodes[i] = BASE62[this.next() % 62] as number;
    return String.fromCharCode(...idCodes);
  }
}
