import { posix } from 'node:path';
import type { SaxesParser, SaxesTagPlain } from 'saxes';
import { CellError } from './canonical';
import { consumeXml, localName, parseXml } from './xml';
import { READ_LIMITS, UnreadableWorkbook, openEntry, readZipDirectory, type ZipDirectory } from './zip';

/**
 * A small streaming reader of .xlsx cells, for `attest verify`: it inflates one part at a time
 * (within READ_LIMITS) and walks the XML with saxes, yielding rows without holding a sheet in
 * memory. It reads what any writer produces (inline strings, formula strings, shared strings,
 * booleans, numbers, errors, date cells by their number format, ISO `t="d"` cells), so a file
 * re-saved by Excel or openpyxl reads the same; and it tells what Attest never writes (formulas,
 * hidden rows and columns, markup outside the plain grid) so verify can refuse it.
 * (exceljs's own streaming reader decodes XML entities twice in inline strings.)
 */

export { UnreadableWorkbook } from './zip';

export interface XlsxSheet {
  name: string;
  /** visible, hidden or veryHidden. */
  state: string;
  /** Part name inside the zip, e.g. xl/worksheets/sheet1.xml; null when its relationship is missing. */
  part: string | null;
  /**
   * The page header and footer texts of the sheet by element (oddFooter, evenHeader...), and the
   * attributes of its headerFooter element: filled in as its rows are read.
   */
  page: Record<string, string>;
}

/** A defined name of the workbook (print titles, print areas, named ranges...). */
export interface DefinedName {
  name: string;
  /** The index of the sheet it belongs to, in the workbook's sheet order (null: global). */
  localSheetId: number | null;
  text: string;
}

export interface Relationship {
  id: string;
  type: string;
  /** The part it points to, resolved; the raw target when external. */
  target: string;
  external: boolean;
}

/** What the package holds, for the structure checks of verify (structure.ts). */
export interface PackageInfo {
  parts: string[];
  /** Content type of each part, by its Override or its extension's Default (null: none). */
  contentType(part: string): string | null;
  rootRels: Relationship[];
  workbookRels: Relationship[];
  /** Elements of xl/workbook.xml a plain workbook does not have (external links, pivot caches...). */
  workbookExtras: string[];
  /** The defined names of xl/workbook.xml (judged by verify, per form: see structure.ts). */
  definedNames: DefinedName[];
  hiddenWindow: boolean;
}

export interface XlsxRow {
  number: number;
  /** Cell values by column (index 0 = column A); missing cells are undefined. */
  cells: unknown[];
  /** The number format of each cell whose format is not General (by column). */
  formats: (string | undefined)[];
}

/** Elements of a worksheet that hold the plain grid, its view and its page setup; anything else is reported. */
const SHEET_ELEMENTS = new Set(
  (
    'worksheet sheetPr tabColor outlinePr pageSetUpPr dimension sheetViews sheetView pane selection sheetFormatPr cols col ' +
    'sheetData row c v is t r rPr rPh phoneticPr b i u strike sz color rFont family scheme vertAlign charset condense extend ' +
    'outline shadow autoFilter pageMargins pageSetup printOptions rowBreaks colBreaks brk ' +
    'headerFooter oddHeader oddFooter evenHeader evenFooter firstHeader firstFooter'
  ).split(' '),
);
/** Elements of a sheet's headerFooter that hold text. */
const PAGE_TEXTS = new Set('oddHeader oddFooter evenHeader evenFooter firstHeader firstFooter'.split(' '));
const WORKBOOK_ELEMENTS = new Set(
  'workbook fileVersion workbookPr bookViews workbookView sheets sheet calcPr definedNames definedName'.split(' '),
);

/** Excel's built-in number formats by id (as openpyxl names them). */
const BUILTIN_FORMATS: Record<number, string> = {
  0: 'General',
  1: '0',
  2: '0.00',
  3: '#,##0',
  4: '#,##0.00',
  9: '0%',
  10: '0.00%',
  11: '0.00E+00',
  12: '# ?/?',
  13: '# ??/??',
  14: 'mm-dd-yy',
  15: 'd-mmm-yy',
  16: 'd-mmm',
  17: 'mmm-yy',
  18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM',
  20: 'h:mm',
  21: 'h:mm:ss',
  22: 'm/d/yy h:mm',
  37: '#,##0_);(#,##0)',
  38: '#,##0_);[Red](#,##0)',
  39: '#,##0.00_);(#,##0.00)',
  40: '#,##0.00_);[Red](#,##0.00)',
  45: 'mm:ss',
  46: '[h]:mm:ss',
  47: 'mmss.0',
  48: '##0.0E+0',
  49: '@',
};

const REL_STYLES = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles';
const REL_SHARED_STRINGS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings';

const isTrue = (v: unknown): boolean => v === '1' || v === 'true';
/** A part's extension as content types name it ("_rels/.rels" -> "rels"). */
const extension = (part: string): string => {
  const dot = part.lastIndexOf('.');
  return dot > part.lastIndexOf('/') ? part.slice(dot + 1).toLowerCase() : '';
};

/** Column index (0 = A) of a cell reference such as "AB12"; -1 when it has no letters. */
export function columnIndex(ref: string): number {
  let col = 0;
  for (let i = 0; i < ref.length && i < 4; i += 1) {
    const c = ref.charCodeAt(i);
    if (c < 65 || c > 90) break;
    col = col * 26 + (c - 64);
  }
  return col - 1;
}

const columnName = (index: number): string => {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
};

export class XlsxReader {
  private sharedStrings: string[] | null = null;
  /** Per cell style index: its number format (undefined: General). */
  private styleFormats: (string | undefined)[] = [];
  private dateStyles: boolean[] = [];
  private date1904 = false;
  sheets: XlsxSheet[] = [];
  readonly package: PackageInfo;
  private readonly overrides = new Map<string, string>();
  private readonly defaults = new Map<string, string>();

  private constructor(
    readonly file: string,
    private readonly zip: ZipDirectory,
  ) {
    this.package = {
      parts: [...zip.entries.keys()],
      contentType: (part) => this.overrides.get(`/${part}`.toLowerCase()) ?? this.defaults.get(extension(part)) ?? null,
      rootRels: [],
      workbookRels: [],
      workbookExtras: [],
      definedNames: [],
      hiddenWindow: false,
    };
  }

  static async open(file: string): Promise<XlsxReader> {
    let zip: ZipDirectory;
    try {
      zip = await readZipDirectory(file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (error instanceof UnreadableWorkbook || code === 'ENOENT') throw error;
      throw new UnreadableWorkbook(`cannot read the file (${code ?? (error as Error).message})`);
    }
    if (!zip.entries.has('xl/workbook.xml')) throw new UnreadableWorkbook('not an Excel workbook (no xl/workbook.xml)');
    const reader = new XlsxReader(file, zip);
    await reader.load();
    return reader;
  }

  has(part: string): boolean {
    return this.zip.entries.has(part);
  }

  private async part(part: string, limit: number = READ_LIMITS.smallPartBytes) {
    const entry = this.zip.entries.get(part);
    if (!entry) throw new UnreadableWorkbook(`missing part ${part}`);
    return openEntry(this.file, this.zip, entry, limit);
  }

  private async consume(part: string, setup: (parser: SaxesParser) => void, limit?: number): Promise<void> {
    await consumeXml(await this.part(part, limit), part, setup);
  }

  private async relationships(part: string, base: string): Promise<Relationship[]> {
    const rels: Relationship[] = [];
    if (!this.has(part)) return rels;
    await this.consume(part, (parser) => {
      parser.on('opentag', (tag) => {
        if (localName(tag.name) !== 'Relationship') return;
        const target = String(tag.attributes.Target ?? '');
        const external = String(tag.attributes.TargetMode ?? '') === 'External';
        const resolved = external ? target : posix.normalize(target.startsWith('/') ? target.slice(1) : posix.join(base, target));
        rels.push({ id: String(tag.attributes.Id ?? ''), type: String(tag.attributes.Type ?? ''), target: resolved, external });
      });
    });
    return rels;
  }

  private async load(): Promise<void> {
    if (this.has('[Content_Types].xml')) {
      await this.consume('[Content_Types].xml', (parser) => {
        parser.on('opentag', (tag) => {
          const name = localName(tag.name);
          const type = String(tag.attributes.ContentType ?? '');
          if (name === 'Default') this.defaults.set(String(tag.attributes.Extension ?? '').toLowerCase(), type);
          else if (name === 'Override') this.overrides.set(String(tag.attributes.PartName ?? '').toLowerCase(), type);
        });
      });
    }
    this.package.rootRels = await this.relationships('_rels/.rels', '');
    const rels = await this.relationships('xl/_rels/workbook.xml.rels', 'xl');
    this.package.workbookRels = rels;
    const extras = new Set<string>();
    let foreign = 0; // depth inside an element a plain workbook does not have (reported once, not its content)
    let definedName: DefinedName | null = null;
    await this.consume('xl/workbook.xml', (parser) => {
      parser.on('text', (text) => {
        if (definedName && !foreign && definedName.text.length < 4096) definedName.text += text;
      });
      parser.on('opentag', (tag) => {
        const name = localName(tag.name);
        if (foreign || !WORKBOOK_ELEMENTS.has(name)) {
          if (!foreign) extras.add(name);
          foreign += 1;
          return;
        }
        if (name === 'definedName') {
          const local = tag.attributes.localSheetId;
          definedName = { name: String(tag.attributes.name ?? ''), localSheetId: local === undefined ? null : Number(local), text: '' };
          this.package.definedNames.push(definedName);
        } else if (name === 'workbookPr') this.date1904 = isTrue(tag.attributes.date1904);
        else if (name === 'workbookView' && /hidden/i.test(String(tag.attributes.visibility ?? ''))) this.package.hiddenWindow = true;
        else if (name === 'sheet') {
          const rid = Object.entries(tag.attributes).find(([k]) => localName(k) === 'id' && k !== 'sheetId')?.[1];
          const rel = rels.find((r) => r.id === String(rid) && !r.external);
          this.sheets.push({
            name: String(tag.attributes.name ?? ''),
            state: String(tag.attributes.state ?? 'visible'),
            part: rel?.target ?? null,
            page: {},
          });
        }
      });
      parser.on('closetag', (tag) => {
        if (foreign) foreign -= 1;
        else if (localName(tag.name) === 'definedName') definedName = null;
      });
    });
    this.package.workbookExtras = [...extras];
    const styles = rels.find((r) => r.type === REL_STYLES && !r.external && this.has(r.target));
    if (styles) await this.loadStyles(styles.target);
    const strings = rels.find((r) => r.type === REL_SHARED_STRINGS && !r.external && this.has(r.target));
    if (strings) await this.loadSharedStrings(strings.target);
  }

  private async loadStyles(part: string): Promise<void> {
    const formats = new Map<number, string>();
    const xfFormats: number[] = [];
    let inCellXfs = false;
    await this.consume(part, (parser) => {
      parser.on('opentag', (tag) => {
        const name = localName(tag.name);
        if (name === 'numFmt') formats.set(Number(tag.attributes.numFmtId), String(tag.attributes.formatCode ?? ''));
        else if (name === 'cellXfs') inCellXfs = true;
        else if (name === 'xf' && inCellXfs) xfFormats.push(Number(tag.attributes.numFmtId ?? 0));
      });
      parser.on('closetag', (tag) => {
        if (localName(tag.name) === 'cellXfs') inCellXfs = false;
      });
    });
    this.styleFormats = xfFormats.map((id) => {
      const code = formats.get(id) ?? BUILTIN_FORMATS[id] ?? `builtin ${id}`;
      return /^general$/i.test(code) ? undefined : code;
    });
    this.dateStyles = xfFormats.map((id) => isDateFormat(id, formats.get(id)));
  }

  private async loadSharedStrings(part: string): Promise<void> {
    const strings: string[] = [];
    let text = '';
    let total = 0;
    let inT = false;
    let skip = 0; // inside rPh (phonetic runs), whose text is not the cell's
    await this.consume(
      part,
      (parser) => {
        parser.on('opentag', (tag) => {
          const name = localName(tag.name);
          if (name === 'si') text = '';
          else if (name === 'rPh') skip += 1;
          else if (name === 't' && !skip) inT = true;
        });
        parser.on('text', (t) => {
          if (!inT) return;
          text += t;
          total += t.length;
          if (text.length > READ_LIMITS.cellText)
            throw new UnreadableWorkbook(
              `shared string ${strings.length} holds more than ${READ_LIMITS.cellText} characters (Excel's limit for a cell)`,
            );
          if (total > READ_LIMITS.sharedStringsText)
            throw new UnreadableWorkbook(
              `the shared strings hold more than ${READ_LIMITS.sharedStringsText} characters, more than verify reads`,
            );
        });
        parser.on('closetag', (tag) => {
          const name = localName(tag.name);
          if (name === 't') inT = false;
          else if (name === 'rPh') skip -= 1;
          else if (name === 'si') strings.push(text);
        });
      },
      READ_LIMITS.sharedStringsBytes,
    );
    this.sharedStrings = strings;
  }

  /**
   * The rows of one sheet, streamed. What Attest never writes (a formula, a hidden or zero-height
   * row or column, markup outside the plain grid) is told to `onProblem`, once per kind and place.
   */
  async *rows(sheet: XlsxSheet, onProblem: (problem: string) => void = () => undefined): AsyncGenerator<XlsxRow> {
    if (!sheet.part || !this.has(sheet.part)) throw new UnreadableWorkbook(`the sheet '${sheet.name}' has no part in the file`);
    const grid = new SheetGrid(sheet, this.sharedStrings, this.styleFormats, this.dateStyles, this.date1904 ? 24107 : 25569, onProblem);
    const stream = await this.part(sheet.part, READ_LIMITS.sheetBytes);
    yield* parseXml(
      stream,
      sheet.part,
      (parser) => grid.attach(parser),
      () => grid.drain(),
    );
  }
}

/** The SAX handlers of one worksheet: cells to values, rows to a queue, problems told as found. */
class SheetGrid {
  private readonly queue: XlsxRow[] = [];
  private row: XlsxRow | null = null;
  private lastRow = 0;
  private nextCol = 0;
  private cell: { col: number; type: string; style: number } | null = null;
  private value = '';
  private formula: string | null = null;
  private inValue = false;
  private inInline = false;
  private inFormula = false;
  private skip = 0;
  private foreign = 0;
  private formulas = 0;
  private readonly told = new Set<string>();
  /** The header or footer element whose text is being read. */
  private pageText: string | null = null;
  private readonly name: string;

  constructor(
    private readonly sheet: XlsxSheet,
    private readonly shared: string[] | null,
    private readonly formats: (string | undefined)[],
    private readonly dateStyles: boolean[],
    private readonly epoch: number,
    private readonly onProblem: (problem: string) => void,
  ) {
    this.name = sheet.name;
  }

  private problem(kind: string, text: string): void {
    if (this.told.has(kind)) return;
    this.told.add(kind);
    this.onProblem(text);
  }

  private ref(col: number): string {
    return `'${this.name}'!${columnName(col)}${this.row?.number ?? '?'}`;
  }

  *drain(): Iterable<XlsxRow> {
    while (this.queue.length) yield this.queue.shift() as XlsxRow;
  }

  attach(parser: SaxesParser): void {
    parser.on('opentag', (tag) => this.open(tag));
    parser.on('text', (t) => this.text(t));
    parser.on('closetag', (tag) => this.close(localName(tag.name)));
  }

  private open(tag: SaxesTagPlain): void {
    const name = localName(tag.name);
    const a = tag.attributes;
    // Inside an element a plain sheet does not have: reported once, its content is not looked at.
    if (this.foreign || (!SHEET_ELEMENTS.has(name) && name !== 'f')) {
      if (!this.foreign) this.problem(`element ${name}`, `'${this.name}' holds <${name}>, which Attest never writes`);
      this.foreign += 1;
      return;
    }
    if (name === 'row') this.openRow(a);
    else if (name === 'c' && this.row) this.openCell(a);
    else if (name === 'col') {
      if (isTrue(a.hidden)) this.problem('hidden column', `'${this.name}' has hidden columns`);
      if (a.width !== undefined && Number(a.width) <= 0) this.problem('narrow column', `'${this.name}' has columns of zero width`);
    } else if (name === 'headerFooter') {
      for (const [key, value] of Object.entries(a)) this.sheet.page[`@${key}`] = String(value);
    } else if (PAGE_TEXTS.has(name)) {
      this.pageText = name;
      this.sheet.page[name] = '';
    } else if (name === 'sheetView') {
      if (a.showZeros === '0' || a.showZeros === 'false') this.problem('showZeros', `'${this.name}' hides zero values`);
    } else if (this.cell) {
      if (name === 'v') this.inValue = true;
      else if (name === 'is') this.inInline = true;
      else if (name === 'rPh') this.skip += 1;
      else if (name === 'f') {
        this.inFormula = true;
        this.formula = '';
      }
    }
  }

  private openRow(a: Record<string, string>): void {
    const r = a.r === undefined ? this.lastRow + 1 : Number(a.r);
    if (!Number.isInteger(r) || r < 1 || r > READ_LIMITS.rows)
      throw new UnreadableWorkbook(`'${this.name}' has a row number outside Excel's grid (${String(a.r).slice(0, 20)})`);
    if (r <= this.lastRow) this.problem(`row order ${r}`, `'${this.name}' has row ${r} twice or out of order`);
    this.row = { number: r, cells: [], formats: [] };
    this.lastRow = r;
    this.nextCol = 0;
    if (isTrue(a.hidden)) this.problem(`hidden row`, `'${this.name}' has hidden rows (row ${r})`);
    if (a.ht !== undefined && Number(a.ht) <= 0) this.problem(`low row`, `'${this.name}' has rows of zero height (row ${r})`);
  }

  private openCell(a: Record<string, string>): void {
    const col = a.r === undefined ? this.nextCol : columnIndex(a.r);
    if (col < 0 || col >= READ_LIMITS.columns)
      throw new UnreadableWorkbook(`'${this.name}' has a cell outside Excel's grid (${String(a.r).slice(0, 20)})`);
    if (col < this.nextCol)
      this.problem(`cell order ${this.row?.number}`, `'${this.name}' has cell ${this.ref(col)} twice or out of order`);
    this.nextCol = col + 1;
    const style = a.s === undefined ? 0 : Number(a.s);
    if (!Number.isInteger(style) || style < 0 || (style > 0 && style >= this.formats.length))
      this.problem('style', `${this.ref(col)} refers to a cell style that does not exist`);
    if (a.cm !== undefined || a.vm !== undefined) this.problem('metadata', `${this.ref(col)} carries cell or value metadata (rich values)`);
    this.cell = { col, type: a.t ?? 'n', style };
    this.value = '';
    this.formula = null;
  }

  private text(t: string): void {
    if (this.pageText && !this.foreign) {
      const so = this.sheet.page[this.pageText] ?? '';
      if (so.length < 4096) this.sheet.page[this.pageText] = so + t;
      return;
    }
    const cell = this.cell;
    if (!cell || this.skip) return;
    if (this.inFormula) this.formula = (this.formula ?? '') + t;
    else if ((this.inValue && cell.type !== 'inlineStr') || (this.inInline && cell.type === 'inlineStr')) {
      this.value += t;
      if (this.value.length > READ_LIMITS.cellText)
        throw new UnreadableWorkbook(`${this.ref(cell.col)} holds more than ${READ_LIMITS.cellText} characters (Excel's limit for a cell)`);
    }
  }

  private close(name: string): void {
    if (this.foreign) {
      this.foreign -= 1;
      return;
    }
    if (name === 'v') this.inValue = false;
    else if (PAGE_TEXTS.has(name)) this.pageText = null;
    else if (name === 'is') this.inInline = false;
    else if (name === 'rPh') this.skip -= 1;
    else if (name === 'f') this.inFormula = false;
    else if (name === 'c') {
      this.finishCell();
      this.cell = null;
    } else if (name === 'row' && this.row) {
      this.queue.push(this.row);
      this.row = null;
    }
  }

  private finishCell(): void {
    const { row, cell, value } = this;
    if (!row || !cell) return;
    if (this.formula !== null) {
      // Each of the first few formulas is named; then one line says there are more.
      this.formulas += 1;
      const shown = this.formula.length > 80 ? `${this.formula.slice(0, 80)}…` : this.formula;
      if (this.formulas <= 5) this.onProblem(`formula in ${this.ref(cell.col)}: =${shown} (Attest writes no formulas)`);
      else this.problem('more formulas', `'${this.name}' holds more formulas`);
    }
    let v: unknown;
    switch (cell.type) {
      case 's': {
        const s = this.shared?.[Number(value)];
        if (s === undefined)
          throw new UnreadableWorkbook(`${this.ref(cell.col)} refers to shared string ${value.slice(0, 20)}, which does not exist`);
        v = s;
        break;
      }
      case 'str':
      case 'inlineStr':
        v = value;
        break;
      case 'b':
        if (value !== '' && !/^(0|1|true|false)$/.test(value))
          this.problem(`bool ${cell.col}`, `${this.ref(cell.col)} holds a malformed boolean`);
        v = value === '' ? undefined : value === '1' || value === 'true';
        break;
      case 'e':
        v = value === '' ? undefined : new CellError(value);
        break;
      case 'd': {
        const date = value === '' ? undefined : new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);
        if (date && !Number.isFinite(date.getTime())) this.problem(`date ${cell.col}`, `${this.ref(cell.col)} holds a malformed date`);
        v = date;
        break;
      }
      default: {
        if (value === '') v = undefined;
        else {
          const n = Number(value);
          if (!Number.isFinite(n) || value.trim() === '')
            this.problem(`number ${cell.col}`, `${this.ref(cell.col)} holds a malformed number`);
          v = this.dateStyles[cell.style] ? new Date(Math.round((n - this.epoch) * 86_400_000)) : n;
        }
      }
    }
    row.cells[cell.col] = v;
    const format = this.formats[cell.style];
    if (format !== undefined && v !== undefined) row.formats[cell.col] = format;
  }
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
