import JSZip from 'jszip';
import { readFileSync, writeFileSync } from 'node:fs';
import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * Building blocks of hostile workbooks for the verify tests: re-zip an exported workbook with
 * edited parts (JSZip), and write zips no honest writer makes (sizes that lie, zip64 sizes of
 * gigabytes over a few megabytes of deflate data), which no library writes on purpose.
 */

/** The parts of a workbook as text (all of an .xlsx is XML). */
export async function readParts(file: string): Promise<Map<string, string>> {
  const zip = await JSZip.loadAsync(readFileSync(file));
  const parts = new Map<string, string>();
  for (const name of Object.keys(zip.files).sort()) {
    const entry = zip.files[name]!;
    if (!entry.dir) parts.set(name, await entry.async('string'));
  }
  return parts;
}

/** Writes `parts` as a deflated zip (an honest one). */
export async function writeParts(file: string, parts: Map<string, string | Buffer>): Promise<void> {
  const zip = new JSZip();
  for (const [name, content] of parts) zip.file(name, content);
  writeFileSync(file, await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }));
}

/** Copies `from` to `to`, changing parts on the way. */
export async function editWorkbook(from: string, to: string, edit: (parts: Map<string, string | Buffer>) => void): Promise<void> {
  const parts: Map<string, string | Buffer> = await readParts(from);
  edit(parts);
  await writeParts(to, parts);
}

/** Replaces `search` in one part, failing when it is not there (a probe that edits nothing proves nothing). */
export function replaceIn(parts: Map<string, string | Buffer>, part: string, search: string | RegExp, replacement: string): void {
  const text = String(parts.get(part) ?? '');
  const next = text.replace(search, replacement);
  if (next === text) throw new Error(`${String(search)} not found in ${part}`);
  parts.set(part, next);
}

export interface RawEntry {
  name: string;
  /** Raw deflate data. */
  deflated: Buffer;
  /** The size and CRC-32 the zip declares (they may lie). */
  size: number;
  crc: number;
}

/** An honest entry: `content` deflated. */
export function entryOf(name: string, content: string | Buffer): RawEntry {
  const data = Buffer.from(content);
  return { name, deflated: deflateRawSync(data), size: data.length, crc: crc32(data) };
}

/**
 * Raw deflate data that inflates to `pieces` in order, where a piece [text, n] repeats text n
 * times. Each repeated unit is deflated once and its bytes repeated (sync-flushed blocks join).
 */
export function repeatedDeflate(pieces: [string, number][]): Buffer {
  const out: Buffer[] = [];
  for (const [text, times] of pieces) {
    const unit = deflateRawSync(Buffer.from(text), { finishFlush: constants.Z_SYNC_FLUSH });
    for (let i = 0; i < times; i += 1) out.push(unit);
  }
  out.push(deflateRawSync(Buffer.alloc(0))); // the final block
  return Buffer.concat(out);
}

/** A zip of these entries, with zip64 fields for any size over 4 GiB. */
export function rawZip(entries: RawEntry[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const big = e.size >= 0xffffffff;
    const extra = big ? Buffer.alloc(20) : Buffer.alloc(0);
    if (big) {
      extra.writeUInt16LE(0x0001, 0);
      extra.writeUInt16LE(16, 2);
      extra.writeBigUInt64LE(BigInt(e.size), 4);
      extra.writeBigUInt64LE(BigInt(e.deflated.length), 12);
    }
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(big ? 45 : 20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(e.crc >>> 0, 14);
    local.writeUInt32LE(big ? 0xffffffff : e.deflated.length, 18);
    local.writeUInt32LE(big ? 0xffffffff : e.size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(extra.length, 28);
    locals.push(local, name, extra, e.deflated);
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(big ? 45 : 20, 4);
    record.writeUInt16LE(big ? 45 : 20, 6);
    record.writeUInt16LE(8, 10);
    record.writeUInt32LE(e.crc >>> 0, 16);
    record.writeUInt32LE(big ? 0xffffffff : e.deflated.length, 20);
    record.writeUInt32LE(big ? 0xffffffff : e.size, 24);
    record.writeUInt16LE(name.length, 28);
    record.writeUInt16LE(extra.length, 30);
    record.writeUInt32LE(offset, 42);
    central.push(record, name, extra);
    offset += 30 + name.length + extra.length + e.deflated.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** The part of the sheet named `name`, through xl/workbook.xml and its relationships. */
export function sheetPart(parts: Map<string, string | Buffer>, name: string): string {
  const workbook = String(parts.get('xl/workbook.xml'));
  const sheet = new RegExp(`<sheet [^>]*name="${name}"[^>]*/>`).exec(workbook)?.[0];
  const id = sheet && /r:id="([^"]+)"/.exec(sheet)?.[1];
  const target =
    id &&
    new RegExp(`Id="${id}"[^>]*Target="([^"]+)"|Target="([^"]+)"[^>]*Id="${id}"`).exec(String(parts.get('xl/_rels/workbook.xml.rels')));
  const path = target && (target[1] ?? target[2]);
  if (!path) throw new Error(`no sheet named ${name}`);
  return path.startsWith('/') ? path.slice(1) : `xl/${path}`;
}
