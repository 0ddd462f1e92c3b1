import { createReadStream } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { crc32, createInflateRaw } from 'node:zlib';

/**
 * The zip container of an .xlsx, read defensively for `attest verify`: the central directory and
 * every entry are checked against READ_LIMITS before anything is read or inflated, and an entry
 * inflates through a counter that stops past its declared size and checks its CRC-32. A hostile
 * file ends in an UnreadableWorkbook error naming the limit, never in a crash or an exhausted heap.
 */

/** The file cannot be read as a workbook, or not within the limits verify reads files with. */
export class UnreadableWorkbook extends Error {
  override name = 'UnreadableWorkbook';
}

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/** What verify reads at most. Far above any workbook Attest writes (a 1,048,576-row sheet is about 1 GiB of XML). */
export const READ_LIMITS = {
  /** The workbook file itself (a regular file; a full 1,048,576-row sheet deflates to well under 200 MiB). */
  fileBytes: 4 * GiB,
  /** Zip entries (Attest writes 8 + one per sheet). */
  entries: 10_000,
  directoryBytes: 16 * MiB,
  /** Parts read whole: content types, relationships, workbook, styles. */
  smallPartBytes: 16 * MiB,
  /** The shared strings part (held in memory; Attest writes none, other programs do). */
  sharedStringsBytes: 256 * MiB,
  /** A worksheet part (streamed). */
  sheetBytes: 4 * GiB,
  /** All entries together. */
  totalBytes: 16 * GiB,
  /** Inflated to compressed size, for entries above ratioFloorBytes (sheet XML deflates 10 to 30 times). */
  ratio: 200,
  ratioFloorBytes: 1 * MiB,
  /** Characters of one cell: Excel's limit. */
  cellText: 32_767,
  /** Characters of all shared strings together. */
  sharedStringsText: 128 * MiB,
  /** Characters between two '<' of an XML part: bounds every text, attribute and tag the parser buffers. */
  xmlRun: 1 * MiB,
  /** Excel's grid. */
  rows: 1_048_576,
  columns: 16_384,
} as const;

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

export interface ZipDirectory {
  entries: Map<string, ZipEntry>;
  /** Where the central directory starts: every entry's data lies before it. */
  directoryOffset: number;
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

const bytes = (n: number): string => (n >= MiB ? `${(n / MiB).toFixed(1)} MiB` : `${n} bytes`);

async function readAt(handle: FileHandle, length: number, position: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  if (bytesRead !== length) throw new UnreadableWorkbook('the zip file is cut short');
  return buffer;
}

/** The end of central directory record (zip64 when the classic one is saturated): entry count, size, offset. */
async function endOfDirectory(handle: FileHandle, size: number): Promise<{ count: number; cdSize: number; cdOffset: number }> {
  if (size < 22) throw new UnreadableWorkbook('not a zip file');
  const tailSize = Math.min(size, 65_557);
  const tail = await readAt(handle, tailSize, size - tailSize);
  let eocd = -1;
  for (let i = tailSize - 22; i >= 0; i -= 1) {
    if (tail.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new UnreadableWorkbook('not a zip file');
  let count = tail.readUInt16LE(eocd + 10);
  let cdSize = tail.readUInt32LE(eocd + 12);
  let cdOffset = tail.readUInt32LE(eocd + 16);
  if (cdOffset === 0xffffffff || count === 0xffff || cdSize === 0xffffffff) {
    const locator = eocd - 20;
    if (locator < 0 || tail.readUInt32LE(locator) !== ZIP64_LOCATOR) throw new UnreadableWorkbook('broken zip64 directory');
    const recordOffset = Number(tail.readBigUInt64LE(locator + 8));
    if (recordOffset + 56 > size) throw new UnreadableWorkbook('broken zip64 directory');
    const record = await readAt(handle, 56, recordOffset);
    if (record.readUInt32LE(0) !== ZIP64_EOCD) throw new UnreadableWorkbook('broken zip64 directory');
    count = Number(record.readBigUInt64LE(32));
    cdSize = Number(record.readBigUInt64LE(40));
    cdOffset = Number(record.readBigUInt64LE(48));
  }
  if (count > READ_LIMITS.entries)
    throw new UnreadableWorkbook(`the zip holds ${count} entries, more than the ${READ_LIMITS.entries} verify reads`);
  if (cdSize > READ_LIMITS.directoryBytes)
    throw new UnreadableWorkbook(
      `the zip directory declares ${bytes(cdSize)}, more than the ${bytes(READ_LIMITS.directoryBytes)} verify reads`,
    );
  if (cdOffset + cdSize > size)
    throw new UnreadableWorkbook(`the zip directory (${bytes(cdSize)} at ${cdOffset}) lies beyond the end of the ${bytes(size)} file`);
  return { count, cdSize, cdOffset };
}

/** One central directory record at `p`: the entry, and where the next record starts. */
function directoryRecord(cd: Buffer, p: number): { entry: ZipEntry; next: number } {
  if (p + 46 > cd.length || cd.readUInt32LE(p) !== CENTRAL) throw new UnreadableWorkbook('broken zip directory');
  const nameLength = cd.readUInt16LE(p + 28);
  const extraLength = cd.readUInt16LE(p + 30);
  const commentLength = cd.readUInt16LE(p + 32);
  const next = p + 46 + nameLength + extraLength + commentLength;
  if (next > cd.length) throw new UnreadableWorkbook('broken zip directory');
  const entry: ZipEntry = {
    name: cd.toString('utf8', p + 46, p + 46 + nameLength),
    flags: cd.readUInt16LE(p + 8),
    method: cd.readUInt16LE(p + 10),
    crc: cd.readUInt32LE(p + 16),
    compressedSize: cd.readUInt32LE(p + 20),
    size: cd.readUInt32LE(p + 24),
    localOffset: cd.readUInt32LE(p + 42),
  };
  // zip64 extra field: the 64-bit values replace, in order, those that are 0xffffffff
  let e = p + 46 + nameLength;
  const extraEnd = e + extraLength;
  while (e + 4 <= extraEnd) {
    const id = cd.readUInt16LE(e);
    const len = cd.readUInt16LE(e + 2);
    if (id === 0x0001) {
      let q = e + 4;
      const take = (): number => {
        if (q + 8 > e + 4 + len) throw new UnreadableWorkbook('broken zip64 field');
        const value = Number(cd.readBigUInt64LE(q));
        q += 8;
        return value;
      };
      if (entry.size === 0xffffffff) entry.size = take();
      if (entry.compressedSize === 0xffffffff) entry.compressedSize = take();
      if (entry.localOffset === 0xffffffff) entry.localOffset = take();
    }
    e += 4 + len;
  }
  return { entry, next };
}

/** Refuses what no writer of workbooks makes: encryption, unknown compression, twin names, overlapping data, bombs. */
function checkEntries(entries: ZipEntry[], cdOffset: number): void {
  const seen = new Set<string>();
  let total = 0;
  for (const entry of entries) {
    const key = entry.name.toLowerCase();
    if (seen.has(key)) throw new UnreadableWorkbook(`the zip holds two entries named ${entry.name}`);
    seen.add(key);
    if (entry.flags & 0x1) throw new UnreadableWorkbook(`the zip entry ${entry.name} is encrypted`);
    if (entry.method !== 0 && entry.method !== 8)
      throw new UnreadableWorkbook(`the zip entry ${entry.name} uses compression method ${entry.method}`);
    if (entry.method === 0 && entry.size !== entry.compressedSize) throw new UnreadableWorkbook(`the zip entry ${entry.name} is broken`);
    if (entry.size > READ_LIMITS.ratioFloorBytes && entry.size > READ_LIMITS.ratio * entry.compressedSize) {
      const ratio = Math.round(entry.size / Math.max(1, entry.compressedSize));
      throw new UnreadableWorkbook(
        `the zip entry ${entry.name} inflates ${ratio} times (${bytes(entry.size)}), more than the ${READ_LIMITS.ratio} times verify accepts`,
      );
    }
    total += entry.size;
  }
  if (total > READ_LIMITS.totalBytes)
    throw new UnreadableWorkbook(
      `the zip entries declare ${bytes(total)} in all, more than the ${bytes(READ_LIMITS.totalBytes)} verify reads`,
    );
  // Each entry's local header and data must end before the next entry (or the directory) starts.
  const byOffset = [...entries].sort((a, b) => a.localOffset - b.localOffset);
  for (const [i, entry] of byOffset.entries()) {
    const end = entry.localOffset + 30 + Buffer.byteLength(entry.name) + entry.compressedSize;
    if (end > (byOffset[i + 1]?.localOffset ?? cdOffset))
      throw new UnreadableWorkbook(`the zip entry ${entry.name} overlaps another entry`);
  }
}

export async function readZipDirectory(file: string): Promise<ZipDirectory> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const { count, cdSize, cdOffset } = await endOfDirectory(handle, size);
    const cd = await readAt(handle, cdSize, cdOffset);
    const list: ZipEntry[] = [];
    let p = 0;
    for (let n = 0; n < count; n += 1) {
      const { entry, next } = directoryRecord(cd, p);
      list.push(entry);
      p = next;
    }
    checkEntries(list, cdOffset);
    return { entries: new Map(list.map((e) => [e.name, e])), directoryOffset: cdOffset };
  } finally {
    await handle.close();
  }
}

/** Counts what an entry inflates to: refuses more than declared, fewer than declared, or a wrong CRC-32. */
class EntryCheck extends Transform {
  private seen = 0;
  private crc = 0;
  constructor(private readonly entry: ZipEntry) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.entry.size)
      return callback(new UnreadableWorkbook(`the zip entry ${this.entry.name} inflates beyond its declared ${bytes(this.entry.size)}`));
    this.crc = crc32(chunk, this.crc);
    callback(null, chunk);
  }
  override _flush(callback: TransformCallback): void {
    if (this.seen !== this.entry.size)
      return callback(new UnreadableWorkbook(`the zip entry ${this.entry.name} is shorter than it declares`));
    if (this.crc >>> 0 !== this.entry.crc >>> 0)
      return callback(new UnreadableWorkbook(`the zip entry ${this.entry.name} fails its CRC-32 check (the file is damaged)`));
    callback();
  }
}

/** The inflated bytes of one entry, refused before reading if it declares more than `limit`. */
export async function openEntry(file: string, directory: ZipDirectory, entry: ZipEntry, limit: number): Promise<Readable> {
  if (entry.size > limit)
    throw new UnreadableWorkbook(`the part ${entry.name} declares ${bytes(entry.size)}, more than the ${bytes(limit)} verify reads`);
  const handle = await open(file, 'r');
  let header: Buffer;
  try {
    header = await readAt(handle, 30, entry.localOffset);
  } finally {
    await handle.close();
  }
  if (header.readUInt32LE(0) !== LOCAL) throw new UnreadableWorkbook(`broken zip entry ${entry.name}`);
  const start = entry.localOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  if (start + entry.compressedSize > directory.directoryOffset)
    throw new UnreadableWorkbook(`the zip entry ${entry.name} runs into the zip directory`);
  const check = new EntryCheck(entry);
  if (entry.compressedSize === 0) {
    check.end();
    return check;
  }
  const raw = createReadStream(file, { start, end: start + entry.compressedSize - 1 });
  const fail = (error: Error): void => {
    check.destroy(
      error instanceof UnreadableWorkbook ? error : new UnreadableWorkbook(`the zip entry ${entry.name} is damaged (${error.message})`),
    );
  };
  raw.on('error', fail);
  // Stop reading and inflating as soon as the consumer stops (a refusal half-way through a part).
  check.on('close', () => raw.destroy());
  if (entry.method === 0) return raw.pipe(check);
  const inflate = createInflateRaw();
  inflate.on('error', fail);
  check.on('close', () => inflate.destroy());
  return raw.pipe(inflate).pipe(check);
}
