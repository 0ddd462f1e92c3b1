import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInflateRaw } from 'node:zlib';
import { Readable } from 'node:stream';
import { SaxesParser, type SaxesTagPlain } from 'saxes';

/**
 * A small streaming reader of .xlsx cells, for `attest verify`: it reads the zip's central
 * directory, inflates one part at a time and walks the XML with saxes, yielding rows without
 * holding a sheet in memory. It reads what any writer produces (inline strings, formula strings,
 * shared strings, booleans, numbers, date cells by their number format, ISO `t="d"` cells), so a
 * file re-saved by Excel or openpyxl reads the same. (exceljs's own streaming reader decodes XML
 * entities twice in inline strings, so a cell holding the text "&amp;" would read back as "&".)
 */

export class NotAnXlsx extends Error {
  override name = 'NotAnXlsx';
}

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  localOffset: number;
}

export interface XlsxSheet {
  name: string;
  /** Part name inside the zip, e.g. xl/worksheets/sheet1.xml. */
  part: string;
}

export interface XlsxRow {
  number: number;
  /** Cell values by column (index 0 = column A); missing cells are undefined. */
  cells: unknown[];
}

const local = (name: string): string => name.slice(name.indexOf(':') + 1);

async function readCentralDirectory(file: string): Promise<Map<string, ZipEntry>> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const tailSize = Math.min(size, 65_557);
    const tail = Buffer.alloc(tailSize);
    await handle.read(tail, 0, tailSize, size - tailSize);
    let eocd = -1;
    for (let i = tailSize - 22; i >= 0; i -= 1) {
      if (tail.readUInt32LE(i) === 0x06054b50) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) throw new NotAnXlsx('not a zip file');
    let count = tail.readUInt16LE(eocd + 10);
    let cdSize = tail.readUInt32LE(eocd + 12);
    let cdOffset = tail.readUInt32LE(eocd + 16);
    if (cdOffset === 0xffffffff || count === 0xffff || cdSize === 0xffffffff) {
      // zip64: the locator sits just before the classic record
      const locator = eocd - 20;
      if (locator < 0 || tail.readUInt32LE(locator) !== 0x07064b50) throw new NotAnXlsx('broken zip64 directory');
      const recordOffset = Number(tail.readBigUInt64LE(locator + 8));
      const record = Buffer.alloc(56);
      await handle.read(record, 0, 56, recordOffset);
      if (record.readUInt32LE(0) !== 0x06064b50) throw new NotAnXlsx('broken zip64 directory');
      count = Number(record.readBigUInt64LE(32));
      cdSize = Number(record.readBigUInt64LE(40));
      cdOffset = Number(record.readBigUInt64LE(48));
    }
    const cd = Buffer.alloc(cdSize);
    await handle.read(cd, 0, cdSize, cdOffset);
    const entries = new Map<string, ZipEntry>();
    let p = 0;
    for (let n = 0; n < count; n += 1) {
      if (cd.readUInt32LE(p) !== 0x02014b50) throw new NotAnXlsx('broken zip directory');
      const method = cd.readUInt16LE(p + 10);
      let compressedSize = cd.readUInt32LE(p + 20);
      let uncompressedSize = cd.readUInt32LE(p + 24);
      const nameLength = cd.readUInt16LE(p + 28);
      const extraLength = cd.readUInt16LE(p + 30);
      const commentLength = cd.readUInt16LE(p + 32);
      let localOffset = cd.readUInt32LE(p + 42);
      const name = cd.toString('utf8', p + 46, p + 46 + nameLength).replace(/^\/+/, '');
      // zip64 extra field: the 64-bit values replace, in order, those that are 0xffffffff
      let e = p + 46 + nameLength;
      const extraEnd = e + extraLength;
      while (e + 4 <= extraEnd) {
        const id = cd.readUInt16LE(e);
        const len = cd.readUInt16LE(e + 2);
        if (id === 0x0001) {
          let q = e + 4;
          if (uncompressedSize === 0xffffffff) {
            uncompressedSize = Number(cd.readBigUInt64LE(q));
            q += 8;
          }
          if (compressedSize === 0xffffffff) {
            compressedSize = Number(cd.readBigUInt64LE(q));
            q += 8;
          }
          if (localOffset === 0xffffffff) localOffset = Number(cd.readBigUInt64LE(q));
        }
        e += 4 + len;
      }
      entries.set(name, { name, method, compressedSize, localOffset });
      p = extraEnd + commentLength;
    }
    return entries;
  } finally {
    await handle.close();
  }
}

export class XlsxReader {
  private sharedStrings: string[] | null = null;
  /** Per cell style index: whether its number format is a date format. */
  private dateStyles: boolean[] = [];
  private date1904 = false;
  sheets: XlsxSheet[] = [];

  private constructor(
    readonly file: string,
    private readonly entries: Map<string, ZipEntry>,
  ) {}

  static async open(file: string): Promise<XlsxReader> {
    let entries: Map<string, ZipEntry>;
    try {
      entries = await readCentralDirectory(file);
    } catch (error) {
      if (error instanceof NotAnXlsx) throw error;
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw error;
      throw new NotAnXlsx(`not a zip file (${(error as Error).message})`);
    }
    if (!entries.has('xl/workbook.xml')) throw new NotAnXlsx('not an Excel workbook (no xl/workbook.xml)');
    const reader = new XlsxReader(file, entries);
    await reader.load();
    return reader;
  }

  has(part: string): boolean {
    return this.entries.has(part);
  }

  private async openPart(part: string): Promise<Readable> {
    const entry = this.entries.get(part);
    if (!entry) throw new NotAnXlsx(`missing part ${part}`);
    const header = Buffer.alloc(30);
    const handle = await open(this.file, 'r');
    try {
      await handle.read(header, 0, 30, entry.localOffset);
    } finally {
      await handle.close();
    }
    if (header.readUInt32LE(0) !== 0x04034b50) throw new NotAnXlsx(`broken zip entry ${part}`);
    const start = entry.localOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
    if (entry.compressedSize === 0) return Readable.from([]);
    const raw = createReadStream(this.file, { start, end: start + entry.compressedSize - 1 });
    if (entry.method === 0) return raw;
    if (entry.method !== 8) throw new NotAnXlsx(`unsupported zip compression ${entry.method} in ${part}`);
    const inflate = createInflateRaw();
    raw.on('error', (error) => inflate.destroy(error));
    return raw.pipe(inflate);
  }

  /** Runs a SAX parse over one part, calling back per event; resolves at the end. */
  private async *parse(part: string, setup: (parser: SaxesParser) => void, drain: () => Iterable<XlsxRow>): AsyncGenerator<XlsxRow> {
    const stream = await this.openPart(part);
    stream.setEncoding('utf8');
    const parser = new SaxesParser();
    setup(parser);
    for await (const chunk of stream) {
      parser.write(chunk as string);
      yield* drain();
    }
    parser.close();
    yield* drain();
  }

  private async consume(part: string, setup: (parser: SaxesParser) => void): Promise<void> {
    for await (const _ of this.parse(part, setup, () => [])) void _;
  }

  private async load(): Promise<void> {
    const rels = new Map<string, string>();
    if (this.entries.has('xl/_rels/workbook.xml.rels')) {
      await this.consume('xl/_rels/workbook.xml.rels', (parser) => {
        parser.on('opentag', (tag) => {
          if (local(tag.name) !== 'Relationship') return;
          const target = String(tag.attributes.Target ?? '');
          const path = target.startsWith('/') ? target.slice(1) : `xl/${target}`;
          rels.set(String(tag.attributes.Id), path.replace(/\/\.\//g, '/'));
        });
      });
    }
    await this.consume('xl/workbook.xml', (parser) => {
      parser.on('opentag', (tag) => {
        const name = local(tag.name);
        if (name === 'workbookPr') {
          const v = String(tag.attributes.date1904 ?? '');
          this.date1904 = v === '1' || v === 'true';
        } else if (name === 'sheet') {
          const rid = Object.entries(tag.attributes).find(([k]) => local(k) === 'id' && k !== 'sheetId')?.[1];
          const part = rels.get(String(rid)) ?? '';
          this.sheets.push({ name: String(tag.attributes.name ?? ''), part });
        }
      });
    });
    if (this.entries.has('xl/styles.xml')) await this.loadStyles();
    if (this.entries.has('xl/sharedStrings.xml')) await this.loadSharedStrings();
  }

  private async loadStyles(): Promise<void> {
    const formats = new Map<number, string>();
    const xfFormats: number[] = [];
    let inCellXfs = false;
    await this.consume('xl/styles.xml', (parser) => {
      parser.on('opentag', (tag) => {
        const name = local(tag.name);
        if (name === 'numFmt') formats.set(Number(tag.attributes.numFmtId), String(tag.attributes.formatCode ?? ''));
        else if (name === 'cellXfs') inCellXfs = true;
        else if (name === 'xf' && inCellXfs) xfFormats.push(Number(tag.attributes.numFmtId ?? 0));
      });
      parser.on('closetag', (tag) => {
        if (local(tag.name) === 'cellXfs') inCellXfs = false;
      });
    });
    this.dateStyles = xfFormats.map((id) => isDateFormat(id, formats.get(id)));
  }

  private async loadSharedStrings(): Promise<void> {
    const strings: string[] = [];
    let text = '';
    let inT = false;
    let skip = 0; // inside rPh (phonetic runs), whose text is not the cell's
    await this.consume('xl/sharedStrings.xml', (parser) => {
      parser.on('opentag', (tag) => {
        const name = local(tag.name);
        if (name === 'si') text = '';
        else if (name === 'rPh') skip += 1;
        else if (name === 't' && !skip) inT = true;
      });
      parser.on('text', (t) => {
        if (inT) text += t;
      });
      parser.on('closetag', (tag) => {
        const name = local(tag.name);
        if (name === 't') inT = false;
        else if (name === 'rPh') skip -= 1;
        else if (name === 'si') strings.push(text);
      });
    });
    this.sharedStrings = strings;
  }

  /** The rows of one sheet, streamed. */
  async *rows(sheet: XlsxSheet): AsyncGenerator<XlsxRow> {
    const queue: XlsxRow[] = [];
    let row: XlsxRow | null = null;
    let nextRow = 1;
    let nextCol = 0;
    let cell: { col: number; type: string; style: number } | null = null;
    let value = '';
    let inValue = false;
    let inInline = false;
    let skip = 0;
    const shared = this.sharedStrings;
    const dateStyles = this.dateStyles;
    const epoch = this.date1904 ? 24107 : 25569;

    const finishCell = (): void => {
      if (!row || !cell) return;
      let v: unknown;
      switch (cell.type) {
        case 's': {
          const s = shared?.[Number(value)];
          if (s === undefined) throw new NotAnXlsx(`shared string ${value} missing`);
          v = s;
          break;
        }
        case 'str':
        case 'inlineStr':
          v = value;
          break;
        case 'b':
          v = value === '' ? undefined : value !== '0' && value !== 'false';
          break;
        case 'e':
          v = value === '' ? undefined : value;
          break;
        case 'd':
          v = value === '' ? undefined : new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);
          break;
        default: {
          if (value === '') v = undefined;
          else {
            const n = Number(value);
            v = dateStyles[cell.style] ? new Date(Math.round((n - epoch) * 86_400_000)) : n;
          }
        }
      }
      row.cells[cell.col] = v;
    };

    const setup = (parser: SaxesParser): void => {
      parser.on('opentag', (tag: SaxesTagPlain) => {
        const name = local(tag.name);
        if (name === 'row') {
          const r = Number(tag.attributes.r);
          row = { number: Number.isInteger(r) && r > 0 ? r : nextRow, cells: [] };
          nextRow = row.number + 1;
          nextCol = 0;
        } else if (name === 'c' && row) {
          const ref = tag.attributes.r as string | undefined;
          const col = ref ? columnIndex(ref) : nextCol;
          nextCol = col + 1;
          cell = { col, type: String(tag.attributes.t ?? 'n'), style: Number(tag.attributes.s ?? 0) };
          value = '';
        } else if (cell) {
          if (name === 'v') inValue = true;
          else if (name === 'is') inInline = true;
          else if (name === 'rPh') skip += 1;
        }
      });
      parser.on('text', (t) => {
        if (!cell || skip) return;
        if ((inValue && cell.type !== 'inlineStr') || (inInline && cell.type === 'inlineStr')) value += t;
      });
      parser.on('closetag', (tag) => {
        const name = local(tag.name);
        if (name === 'v') inValue = false;
        else if (name === 'is') inInline = false;
        else if (name === 'rPh') skip -= 1;
        else if (name === 'c') {
          finishCell();
          cell = null;
        } else if (name === 'row' && row) {
          queue.push(row);
          row = null;
        }
      });
    };
    yield* this.parse(sheet.part, setup, function* drain() {
      while (queue.length) yield queue.shift() as XlsxRow;
    });
  }
}

/** Column index (0 = A) of a cell reference such as "AB12". */
export function columnIndex(ref: string): number {
  let col = 0;
  for (let i = 0; i < ref.length; i += 1) {
    const c = ref.charCodeAt(i);
    if (c < 65 || c > 90) break;
    col = col * 26 + (c - 64);
  }
  return col - 1;
}

const BUILTIN_DATE_FORMATS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58,
]);

/** Whether a number format shows a date or time (as Excel and openpyxl decide it). */
export function isDateFormat(id: number, code: string | undefined): boolean {
  if (code === undefined) return BUILTIN_DATE_FORMATS.has(id);
  const stripped =
    code
      .replace(/"[^"]*"/g, '')
      .replace(/\[[^\]]*\]/g, '')
      .replace(/\\./g, '')
      .split(';')[0] ?? '';
  return /[dmyhs]/i.test(stripped) && !/^general$/i.test(stripped.trim());
}
