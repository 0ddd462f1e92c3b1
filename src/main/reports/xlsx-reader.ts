import { posix } from 'node:path';
import { CellError } from './canonical';
import { readProperties, type DocumentProperties } from './properties';
import { formatShowsValue, StyleBook, type FontLook } from './styles';
import { AmbiguousWorkbook, attributesOf, consumeXml, NS, parseXml, type Attributes, type XmlParser, type XmlTag } from './xml';
import { READ_LIMITS, UnreadableWorkbook, openEntry, readZipDirectory, type ZipDirectory, type ZipEntry } from './zip';

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
export { AmbiguousWorkbook } from './xml';

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
  /** The sheet's data validations (a review worksheet's Decision list): filled in as its rows are read. */
  validations: DataValidation[];
  /** The attributes of the sheet's protection (without a password), or null when it is not protected. */
  protection: Record<string, string> | null;
}

/** A data validation as a sheet gives it: its type, the cells it covers and its first formula (a list's values). */
export interface DataValidation {
  type: string;
  sqref: string;
  formula1: string;
}

/** A defined name of the workbook (print titles, print areas, named ranges...). */
export interface DefinedName {
  name: string;
  /** The index of the sheet it belongs to, in the workbook's sheet order (null: global). */
  localSheetId: number | null;
  text: string;
  hidden: boolean;
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
  /** What the package's own parts hold that a plain package does not (unknown elements or attributes, twin sheet ids...). */
  packageProblems: string[];
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

/**
 * The worksheet as verify reads it: each element of the SpreadsheetML namespace it knows, the
 * parents it may stand in and the attributes it may carry ("element < parents : attributes").
 * Anything else (another element, an element out of place, an attribute verify does not read)
 * is reported, so nothing a program displays passes unread.
 */
const SHEET_SCHEMA = schema([
  'worksheet < : ',
  'sheetPr < worksheet : filterMode codeName published enableFormatConditionsCalculation syncHorizontal syncVertical syncRef ' +
    'transitionEvaluation transitionEntry',
  'tabColor < sheetPr : rgb theme indexed tint auto',
  'outlinePr < sheetPr : summaryBelow summaryRight applyStyles showOutlineSymbols',
  'pageSetUpPr < sheetPr : fitToPage autoPageBreaks',
  'dimension < worksheet : ref',
  'sheetViews < worksheet : ',
  'sheetView < sheetViews : workbookViewId tabSelected zoomScale zoomScaleNormal zoomScalePageLayoutView zoomScaleSheetLayoutView showGridLines ' +
    'showRowColHeaders showZeros rightToLeft topLeftCell view showFormulas showRuler showOutlineSymbols defaultGridColor colorId ' +
    'showWhiteSpace windowProtection',
  'pane < sheetView : xSplit ySplit topLeftCell activePane state',
  'selection < sheetView : pane activeCell activeCellId sqref',
  'sheetFormatPr < worksheet : baseColWidth defaultColWidth defaultRowHeight customHeight zeroHeight thickTop thickBottom outlineLevelRow outlineLevelCol',
  'cols < worksheet : ',
  'col < cols : min max width style hidden bestFit customWidth phonetic outlineLevel collapsed',
  'sheetData < worksheet : ',
  'row < sheetData : r spans s customFormat ht hidden customHeight outlineLevel collapsed thickTop thickBot ph',
  'c < row : r s t ph',
  'v < c : ',
  'f < c : t ref si aca ca dt2D dtr del1 del2 r1 r2 bx',
  'is < c : ',
  't < is r rPh : ',
  'r < is : ',
  'rPr < r : ',
  'rPh < is : sb eb',
  'phoneticPr < is worksheet : fontId type alignment',
  'b i u strike sz color rFont family scheme vertAlign charset condense extend outline shadow < rPr : val rgb theme indexed tint auto',
  'autoFilter < worksheet : ref',
  'pageMargins < worksheet : left right top bottom header footer',
  'pageSetup < worksheet : paperSize scale firstPageNumber fitToWidth fitToHeight pageOrder orientation usePrinterDefaults blackAndWhite draft ' +
    'cellComments useFirstPageNumber errors horizontalDpi verticalDpi copies paperHeight paperWidth',
  'printOptions < worksheet : horizontalCentered verticalCentered headings gridLines gridLinesSet',
  'rowBreaks colBreaks < worksheet : count manualBreakCount',
  'brk < rowBreaks colBreaks : id min max man pt',
  'headerFooter < worksheet : differentOddEven differentFirst scaleWithDoc alignWithMargins',
  // A review worksheet's guidance (reviews.ts): sheet protection without a password, and the Decision
  // column's list. Read so they can be compared; refused on any other workbook (see SheetGrid).
  'sheetProtection < worksheet : sheet objects scenarios formatCells formatColumns formatRows insertColumns insertRows insertHyperlinks ' +
    'deleteColumns deleteRows selectLockedCells sort autoFilter pivotTables selectUnlockedCells',
  'dataValidations < worksheet : count disablePrompts xWindow yWindow',
  'dataValidation < dataValidations : type errorStyle imeMode operator allowBlank showDropDown showInputMessage showErrorMessage ' +
    'errorTitle error promptTitle prompt sqref',
  'formula1 formula2 < dataValidation : ',
  'oddHeader oddFooter evenHeader evenFooter firstHeader firstFooter < headerFooter : ',
]);

interface ElementRule {
  parents: Set<string>;
  attributes: Set<string>;
}

function schema(lines: string[]): Map<string, ElementRule> {
  const rules = new Map<string, ElementRule>();
  for (const line of lines) {
    const [names = '', rest = ''] = line.split('<');
    const [parents = '', attributes = ''] = rest.split(':');
    const rule = {
      parents: new Set(parents.trim().split(/\s+/).filter(Boolean)),
      attributes: new Set(attributes.trim().split(/\s+/).filter(Boolean)),
    };
    if (rule.parents.size === 0) rule.parents.add('');
    for (const name of names.trim().split(/\s+/)) rules.set(name, rule);
  }
  return rules;
}

/** The attributes of a workbook's <sheet> verify reads (and r:id). */
const SHEET_ATTRIBUTES = new Set(['name', 'sheetId', 'state']);
/** Elements of a sheet's headerFooter that hold text. */
const PAGE_TEXTS = new Set('oddHeader oddFooter evenHeader evenFooter firstHeader firstFooter'.split(' '));
const WORKBOOK_ELEMENTS = new Set(
  'workbook fileVersion workbookPr workbookProtection bookViews workbookView sheets sheet calcPr definedNames definedName'.split(' '),
);
/** Extensions of the workbook part that change nothing shown (LibreOffice's formula syntax). */
const NEUTRAL_WORKBOOK_EXTENSIONS = new Set(['{7626C862-2A13-11E5-B345-FEFF819CDC9F}']);
/** A row shorter than this (points), or a column narrower than this (characters), hides what it holds. */
export const MIN_ROW_POINTS = 6;
export const MIN_COLUMN_CHARACTERS = 2;
/** Excel's defaults where a sheet gives none. */
const DEFAULT_ROW_POINTS = 15;
const DEFAULT_COLUMN_CHARACTERS = 8.43;

const REL_STYLES = `${NS.rel}/styles`;
const REL_SHARED_STRINGS = `${NS.rel}/sharedStrings`;
const REL_THEME = `${NS.rel}/theme`;
const REL_CORE = 'http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties';
const REL_EXTENDED = `${NS.rel}/extended-properties`;
const REL_CUSTOM = `${NS.rel}/custom-properties`;

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

export const columnName = (index: number): string => {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
};

/** A relationship target as a part name: resolved against its source's folder, percent-escapes decoded. */
function resolveTarget(base: string, target: string): string {
  let decoded = target;
  try {
    decoded = decodeURIComponent(target);
  } catch {
    decoded = target;
  }
  return posix.normalize(decoded.startsWith('/') ? decoded.slice(1) : posix.join(base, decoded));
}

export class XlsxReader {
  private sharedStrings: string[] | null = null;
  /** Why a shared string's own runs cannot be seen (by index). */
  private readonly sharedHidden = new Map<number, string>();
  readonly styles = new StyleBook();
  private date1904 = false;
  sheets: XlsxSheet[] = [];
  readonly package: PackageInfo;
  /** The file's document properties (docProps), as a reader shows them. */
  properties: DocumentProperties | null = null;
  private readonly overrides = new Map<string, string>();
  private readonly defaults = new Map<string, string>();
  /** Zip entries by part name as OPC compares them (case-insensitively). */
  private readonly entries = new Map<string, ZipEntry>();

  private constructor(
    readonly file: string,
    private readonly zip: ZipDirectory,
  ) {
    for (const [name, entry] of zip.entries) {
      const key = name.toLowerCase();
      if (this.entries.has(key))
        throw new AmbiguousWorkbook(`the file holds two parts named ${name} (part names are the same whatever their case)`);
      this.entries.set(key, entry);
    }
    this.package = {
      parts: [...zip.entries.keys()],
      contentType: (part) => this.overrides.get(`/${part}`.toLowerCase()) ?? this.defaults.get(extension(part)) ?? null,
      rootRels: [],
      workbookRels: [],
      workbookExtras: [],
      packageProblems: [],
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
    const reader = new XlsxReader(file, zip);
    if (!reader.has('xl/workbook.xml')) throw new UnreadableWorkbook('not an Excel workbook (no xl/workbook.xml)');
    await reader.load();
    return reader;
  }

  has(part: string): boolean {
    return this.entries.has(part.toLowerCase());
  }

  private async part(part: string, limit: number = READ_LIMITS.smallPartBytes) {
    const entry = this.entries.get(part.toLowerCase());
    if (!entry) throw new UnreadableWorkbook(`missing part ${part}`);
    return openEntry(this.file, this.zip, entry, limit);
  }

  private async consume(part: string, setup: (parser: XmlParser) => void, limit?: number): Promise<void> {
    await consumeXml(await this.part(part, limit), part, setup);
  }

  private async relationships(part: string, base: string): Promise<Relationship[]> {
    const rels: Relationship[] = [];
    if (!this.has(part)) return rels;
    const ids = new Map<string, string>();
    await this.consume(part, (parser) => {
      parser.on('opentag', (tag) => {
        if (tag.uri !== NS.packageRel || (tag.local !== 'Relationship' && tag.local !== 'Relationships')) {
          this.package.packageProblems.push(`${part} holds <${tag.name}>, which a relationships part does not`);
          return;
        }
        if (tag.local !== 'Relationship') return;
        const a = attributesOf(tag, part);
        const id = a.get('Id') ?? '';
        const target = a.get('Target') ?? '';
        if (ids.has(id))
          throw new AmbiguousWorkbook(
            `${part} gives the relationship id '${id.slice(0, 40)}' twice (to ${ids.get(id)} and to ${target.slice(0, 80)})`,
          );
        ids.set(id, target.slice(0, 80));
        const external = a.get('TargetMode') === 'External';
        rels.push({ id, type: a.get('Type') ?? '', target: external ? target : resolveTarget(base, target), external });
      });
    });
    return rels;
  }

  private async loadContentTypes(): Promise<void> {
    if (!this.has('[Content_Types].xml')) return;
    await this.consume('[Content_Types].xml', (parser) => {
      parser.on('opentag', (tag) => {
        if (tag.uri !== NS.contentTypes) return;
        const a = attributesOf(tag, '[Content_Types].xml');
        const type = a.get('ContentType') ?? '';
        const [map, key] =
          tag.local === 'Default'
            ? [this.defaults, (a.get('Extension') ?? '').toLowerCase()]
            : tag.local === 'Override'
              ? [this.overrides, (a.get('PartName') ?? '').toLowerCase()]
              : [null, ''];
        if (!map) return;
        if (map.has(key) && map.get(key) !== type) throw new AmbiguousWorkbook(`[Content_Types].xml gives ${key} two content types`);
        map.set(key, type);
      });
    });
  }

  private async load(): Promise<void> {
    await this.loadContentTypes();
    this.package.rootRels = await this.relationships('_rels/.rels', '');
    const rels = await this.relationships('xl/_rels/workbook.xml.rels', 'xl');
    this.package.workbookRels = rels;
    await this.loadWorkbook(rels);
    const internal = (type: string, from: Relationship[]) => from.find((r) => r.type === type && !r.external && this.has(r.target));
    const styles = internal(REL_STYLES, rels);
    if (styles) await this.consume(styles.target, (parser) => this.styles.attachStyles(parser, styles.target));
    const theme = internal(REL_THEME, rels);
    if (theme) await this.consume(theme.target, (parser) => this.styles.attachTheme(parser, theme.target));
    this.styles.finish();
    const strings = internal(REL_SHARED_STRINGS, rels);
    if (strings) await this.loadSharedStrings(strings.target);
    const root = this.package.rootRels;
    this.properties = await readProperties(
      (part) => this.consume.bind(this, part),
      internal(REL_CORE, root)?.target ?? null,
      internal(REL_EXTENDED, root)?.target ?? null,
      internal(REL_CUSTOM, root)?.target ?? null,
    );
  }

  private async loadWorkbook(rels: Relationship[]): Promise<void> {
    const extras = new Set<string>();
    let foreign = 0; // depth inside an element a plain workbook does not have (reported once, not its content)
    let definedName: DefinedName | null = null;
    let extension: string | null = null;
    const sheetIds = new Set<string>();
    const sheetRels = new Set<string>();
    const part = 'xl/workbook.xml';
    const problems = this.package.packageProblems;
    await this.consume(part, (parser) => {
      parser.on('text', (text) => {
        if (definedName && !foreign && definedName.text.length < 4096) definedName.text += text;
      });
      parser.on('opentag', (tag) => {
        if (!foreign && tag.uri === NS.main && tag.local === 'ext') extension = attributesOf(tag, part).get('uri') ?? '';
        const neutral = extension !== null && NEUTRAL_WORKBOOK_EXTENSIONS.has(extension);
        if (foreign || tag.uri !== NS.main || !WORKBOOK_ELEMENTS.has(tag.local)) {
          if (!foreign && !neutral && !(tag.uri === NS.main && tag.local === 'extLst')) extras.add(tag.local);
          if (!(tag.uri === NS.main && tag.local === 'extLst')) foreign += 1;
          return;
        }
        const a = attributesOf(tag, part);
        if (tag.local === 'definedName') {
          const local = a.get('localSheetId');
          definedName = {
            name: a.get('name') ?? '',
            localSheetId: local === undefined ? null : Number(local),
            text: '',
            hidden: isTrue(a.get('hidden')),
          };
          this.package.definedNames.push(definedName);
        } else if (tag.local === 'workbookPr') this.date1904 = isTrue(a.get('date1904'));
        else if (tag.local === 'workbookView' && /hidden/i.test(a.get('visibility') ?? '')) this.package.hiddenWindow = true;
        else if (tag.local === 'workbookProtection' && a.plain().some((name) => /password|hash|salt/i.test(name)))
          problems.push('the workbook is protected with a password (Attest protects nothing with one)');
        else if (tag.local === 'sheet') this.openSheet(a, rels, sheetIds, sheetRels);
      });
      parser.on('closetag', (tag) => {
        if (foreign) foreign -= 1;
        else if (tag.uri === NS.main && tag.local === 'definedName') definedName = null;
        else if (tag.uri === NS.main && tag.local === 'ext') extension = null;
      });
    });
    this.package.workbookExtras = [...extras];
  }

  private openSheet(a: Attributes, rels: Relationship[], sheetIds: Set<string>, sheetRels: Set<string>): void {
    const problems = this.package.packageProblems;
    const name = a.get('name') ?? '';
    const unread = a.unread(SHEET_ATTRIBUTES);
    if (unread.length) problems.push(`the sheet '${name}' carries ${unread.join(', ')}, which verify does not read`);
    const rid = a.rel('id') ?? '';
    const id = a.get('sheetId') ?? '';
    if (sheetIds.has(id)) problems.push(`two sheets have the sheet id ${id.slice(0, 20)}`);
    if (sheetRels.has(rid)) problems.push(`two sheets are the same part (relationship ${rid.slice(0, 40)})`);
    sheetIds.add(id);
    sheetRels.add(rid);
    const rel = rels.find((r) => r.id === rid && !r.external);
    this.sheets.push({ name, state: a.get('state') ?? 'visible', part: rel?.target ?? null, page: {}, validations: [], protection: null });
  }

  private async loadSharedStrings(part: string): Promise<void> {
    const strings: string[] = [];
    let text = '';
    let total = 0;
    const runs = new RunReader();
    await this.consume(
      part,
      (parser) => {
        parser.on('opentag', (tag) => {
          if (tag.uri !== NS.main) return;
          if (tag.local === 'si') text = '';
          runs.open(tag, part);
        });
        parser.on('text', (t) => {
          if (!runs.inText) return;
          text += t;
          runs.text(t);
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
          if (tag.uri !== NS.main) return;
          const hidden = runs.close(tag.local, (font) => this.styles.runInvisibility(font, 0));
          if (hidden) this.sharedHidden.set(strings.length, hidden);
          if (tag.local === 'si') strings.push(text);
        });
      },
      READ_LIMITS.sharedStringsBytes,
    );
    this.sharedStrings = strings;
  }

  /**
   * The rows of one sheet, streamed. What Attest never writes (a formula, a hidden or zero-height
   * row or column, markup outside the plain grid) and what no one can see (see StyleBook) is told
   * to `onProblem`, once per kind and place.
   */
  async *rows(
    sheet: XlsxSheet,
    onProblem: (problem: string) => void = () => undefined,
    opts: { reviewGuidance?: boolean } = {},
  ): AsyncGenerator<XlsxRow> {
    if (!sheet.part || !this.has(sheet.part)) throw new UnreadableWorkbook(`the sheet '${sheet.name}' has no part in the file`);
    const epoch = this.date1904 ? 24107 : 25569;
    const grid = new SheetGrid(sheet, this.sharedStrings, this.sharedHidden, this.styles, epoch, onProblem, opts.reviewGuidance === true);
    const stream = await this.part(sheet.part, READ_LIMITS.sheetBytes);
    yield* parseXml(
      stream,
      sheet.part,
      (parser) => grid.attach(parser),
      () => grid.drain(),
    );
  }
}

/**
 * The text runs of a rich string (a shared string, or an inline one): which text is the cell's
 * (not a phonetic guide's), and whether a run's own font hides it.
 */
class RunReader {
  inText = false;
  private phonetic = 0;
  private font: FontLook | null = null;
  private runText = '';
  private hidden: string | null = null;

  open(tag: XmlTag, part: string): void {
    const a = (): Attributes => attributesOf(tag, part);
    switch (tag.local) {
      case 'rPh':
        this.phonetic += 1;
        break;
      case 't':
        this.inText = this.phonetic === 0;
        break;
      case 'r':
        this.font = null;
        this.runText = '';
        break;
      case 'rPr':
        this.font = {};
        break;
      case 'sz':
        if (this.font) this.font.size = Number(a().get('val'));
        break;
      case 'rFont':
        if (this.font) this.font.name = a().get('val');
        break;
      case 'charset':
        if (this.font) this.font.symbolCharset = a().get('val') === '2';
        break;
      case 'color':
        if (this.font) {
          const c = a();
          const num = (v: string | undefined): number | undefined => (v === undefined ? undefined : Number(v));
          this.font.color = {
            rgb: c.get('rgb'),
            theme: num(c.get('theme')),
            indexed: num(c.get('indexed')),
            tint: num(c.get('tint')),
            auto: c.get('auto') === '1',
          };
        }
        break;
      case 'si':
      case 'is':
        this.hidden = null;
        break;
    }
  }

  text(t: string): void {
    this.runText += t;
  }

  /** Closes an element; at the end of a string, says why one of its runs cannot be seen (null: all can). */
  close(local: string, judge: (font: FontLook) => string | null): string | null {
    if (local === 't') this.inText = false;
    else if (local === 'rPh') this.phonetic -= 1;
    else if (local === 'r') {
      if (this.font && this.runText.trim() !== '' && !this.hidden) this.hidden = judge(this.font);
      this.font = null;
    } else if (local === 'si' || local === 'is') return this.hidden;
    return null;
  }
}

/** The columns of a sheet as the cols element gives them: width and whether hidden, by range. */
interface ColumnRange {
  min: number;
  max: number;
  width: number | null;
  style: number;
}

/** The SAX handlers of one worksheet: cells to values, rows to a queue, problems told as found. */
class SheetGrid {
  private readonly queue: XlsxRow[] = [];
  private row: XlsxRow | null = null;
  private rowHeight: number | null = null;
  private rowCustomHeight = false;
  /** The style a row gives the cells it holds that have none of their own (customFormat), as LibreOffice reads it. */
  private rowStyle: number | null = null;
  private rowHasValue = false;
  private lastRow = 0;
  private nextCol = 0;
  private cell: { col: number; type: string; style: number; values: number; inline: number; inherited: number | null } | null = null;
  private value = '';
  private formula: string | null = null;
  private inValue = false;
  private inInline = false;
  private inFormula = false;
  private readonly runs = new RunReader();
  private runHidden: string | null = null;
  private foreign = 0;
  private formulas = 0;
  private readonly told = new Set<string>();
  /** The SpreadsheetML elements open around the current one. */
  private readonly path: string[] = [];
  private readonly columns: ColumnRange[] = [];
  private defaultRowHeight = DEFAULT_ROW_POINTS;
  private defaultColumnWidth = DEFAULT_COLUMN_CHARACTERS;
  private zeroHeight = false;
  /** The header or footer element whose text is being read. */
  private pageText: string | null = null;
  /** The text of a data validation's first formula, while it is read. */
  private validationText: string | null = null;
  private readonly name: string;

  constructor(
    private readonly sheet: XlsxSheet,
    private readonly shared: string[] | null,
    private readonly sharedHidden: Map<number, string>,
    private readonly styles: StyleBook,
    private readonly epoch: number,
    private readonly onProblem: (problem: string) => void,
    /** Sheet protection and data validations are read (a review worksheet), not refused. */
    private readonly reviewGuidance = false,
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

  attach(parser: XmlParser): void {
    parser.on('opentag', (tag) => this.open(tag));
    parser.on('text', (t) => this.text(t));
    parser.on('closetag', (tag) => this.close(tag));
  }

  /** Whether an element is one verify reads, where it stands; reports it (once per kind) when not. */
  private known(tag: XmlTag, a: Attributes): boolean {
    const rule = tag.uri === NS.main ? SHEET_SCHEMA.get(tag.local) : undefined;
    const parent = this.path[this.path.length - 1] ?? '';
    if (!rule || !rule.parents.has(parent)) {
      const where = rule ? ` inside <${parent}>` : '';
      this.problem(`element ${tag.name}${where}`, `'${this.name}' holds <${tag.name}>${where}, which Attest never writes`);
      return false;
    }
    const unread = a.unread(rule.attributes);
    if (unread.length)
      this.problem(
        `attributes ${tag.local} ${unread.join()}`,
        `'${this.name}' has <${tag.local}> with ${unread.join(', ')}, which verify does not read`,
      );
    return true;
  }

  private open(tag: XmlTag): void {
    if (this.foreign) {
      this.foreign += 1;
      return;
    }
    const a = attributesOf(tag, this.sheet.part ?? this.name);
    // Inside an element a plain sheet does not have: reported once, its content is not looked at.
    if (!this.known(tag, a)) {
      this.foreign = 1;
      return;
    }
    const name = tag.local;
    this.path.push(name);
    if (name === 'row') this.openRow(a);
    else if (name === 'c') this.openCell(a);
    else if (name === 'col') this.openColumn(a);
    else if (name === 'sheetFormatPr') {
      const number = (v: string | undefined, fallback: number): number =>
        v === undefined || !Number.isFinite(Number(v)) ? fallback : Number(v);
      this.defaultRowHeight = number(a.get('defaultRowHeight'), DEFAULT_ROW_POINTS);
      this.defaultColumnWidth = number(a.get('defaultColWidth'), number(a.get('baseColWidth'), 8) + 0.43);
      this.zeroHeight = isTrue(a.get('zeroHeight'));
    } else if (name === 'headerFooter') {
      for (const key of a.plain()) this.sheet.page[`@${key}`] = a.get(key) ?? '';
    } else if (PAGE_TEXTS.has(name)) {
      this.pageText = name;
      this.sheet.page[name] = '';
    } else if (name === 'sheetProtection' || name === 'dataValidation') {
      this.guidance(name, a);
    } else if (name === 'formula1') {
      this.validationText = '';
    } else if (name === 'sheetView') {
      if (a.get('showZeros') === '0' || a.get('showZeros') === 'false') this.problem('showZeros', `'${this.name}' hides zero values`);
      if (isTrue(a.get('showFormulas'))) this.problem('showFormulas', `'${this.name}' shows formulas in place of values`);
    } else if (this.cell) this.openInCell(tag, name);
  }

  /** A review worksheet's protection or Decision list: kept to be compared; on any other sheet, named as foreign. */
  private guidance(name: 'sheetProtection' | 'dataValidation', a: Attributes): void {
    if (!this.reviewGuidance) {
      const what = name === 'sheetProtection' ? 'sheet protection' : 'data validation';
      this.problem(name, `'${this.name}' holds ${what}, which Attest writes on review worksheets only`);
      return;
    }
    if (name === 'sheetProtection') {
      this.sheet.protection = Object.fromEntries(a.plain().map((key) => [key, a.get(key) ?? '']));
      return;
    }
    this.sheet.validations.push({ type: a.get('type') ?? 'none', sqref: a.get('sqref') ?? '', formula1: '' });
  }

  private openInCell(tag: XmlTag, name: string): void {
    const cell = this.cell!;
    if (name === 'v') {
      cell.values += 1;
      this.inValue = true;
    } else if (name === 'is') {
      cell.inline += 1;
      this.inInline = true;
    } else if (name === 'f') {
      this.inFormula = true;
      this.formula = '';
    }
    if (this.inInline) this.runs.open(tag, this.sheet.part ?? this.name);
  }

  private openColumn(a: Attributes): void {
    const min = Number(a.get('min'));
    const max = Number(a.get('max'));
    if (isTrue(a.get('hidden'))) this.problem('hidden column', `'${this.name}' has hidden columns`);
    const width = a.get('width') === undefined ? null : Number(a.get('width'));
    if (width !== null && !(width > 0)) this.problem('narrow column', `'${this.name}' has columns of zero width`);
    if (Number.isInteger(min) && Number.isInteger(max) && min >= 1 && max >= min)
      this.columns.push({ min, max, width, style: Number(a.get('style') ?? 0) });
    else
      this.problem(
        'column range',
        `'${this.name}' has a column range verify cannot read (${String(a.get('min'))}:${String(a.get('max'))})`,
      );
  }

  private openRow(a: Attributes): void {
    const given = a.get('r');
    const r = given === undefined ? this.lastRow + 1 : Number(given);
    if (!Number.isInteger(r) || r < 1 || r > READ_LIMITS.rows)
      throw new UnreadableWorkbook(`'${this.name}' has a row number outside Excel's grid (${String(given).slice(0, 20)})`);
    if (r <= this.lastRow) this.problem(`row order ${r}`, `'${this.name}' has row ${r} twice or out of order`);
    this.row = { number: r, cells: [], formats: [] };
    this.lastRow = r;
    this.nextCol = 0;
    this.rowHasValue = false;
    this.rowHeight = a.get('ht') === undefined ? null : Number(a.get('ht'));
    this.rowCustomHeight = isTrue(a.get('customHeight'));
    this.rowStyle = isTrue(a.get('customFormat')) ? Number(a.get('s') ?? 0) : null;
    if (isTrue(a.get('hidden'))) this.problem(`hidden row`, `'${this.name}' has hidden rows (row ${r})`);
    if (this.rowHeight !== null && !(this.rowHeight > 0)) this.problem(`low row`, `'${this.name}' has rows of zero height (row ${r})`);
  }

  private openCell(a: Attributes): void {
    const row = this.row!;
    const ref = a.get('r');
    let col = this.nextCol;
    if (ref !== undefined) {
      const m = /^([A-Z]{1,10})([1-9][0-9]{0,9})$/.exec(ref);
      if (!m) throw new UnreadableWorkbook(`'${this.name}' has a cell reference verify cannot read (${ref.slice(0, 20)})`);
      col = m[1]!.length > 3 ? READ_LIMITS.columns : columnIndex(m[1]!);
      // The cell names its own row: where it differs from the row it stands in, programs place it differently.
      if (Number(m[2]) !== row.number)
        this.problem(
          `cell row ${row.number}`,
          `'${this.name}' has the cell ${ref} inside row ${row.number}: spreadsheet programs place it in row ${m[2]}, so verify cannot say which row it is`,
        );
    }
    if (col < 0 || col >= READ_LIMITS.columns)
      throw new UnreadableWorkbook(`'${this.name}' has a cell outside Excel's grid (${String(ref).slice(0, 20)})`);
    if (col < this.nextCol) this.problem(`cell order ${row.number}`, `'${this.name}' has cell ${this.ref(col)} twice or out of order`);
    this.nextCol = col + 1;
    const style = a.get('s') === undefined ? 0 : Number(a.get('s'));
    if (!Number.isInteger(style) || style < 0 || (style > 0 && style >= this.styles.count))
      this.problem('style', `${this.ref(col)} refers to a cell style that does not exist`);
    const type = a.get('t') ?? 'n';
    if (!['n', 's', 'str', 'inlineStr', 'b', 'e', 'd'].includes(type))
      this.problem(`type ${type}`, `${this.ref(col)} has the cell type '${type.slice(0, 20)}', which no reader agrees on`);
    // A cell without a style of its own: Excel and openpyxl show it in the default style, LibreOffice in its row's or column's.
    const inherited = a.get('s') === undefined ? (this.rowStyle ?? this.columnStyle(col)) : null;
    this.cell = { col, type, style, values: 0, inline: 0, inherited: inherited && inherited > 0 ? inherited : null };
    this.value = '';
    this.formula = null;
    this.runHidden = null;
  }

  private text(t: string): void {
    if (this.foreign) return;
    if (this.validationText !== null) {
      if (this.validationText.length < 4096) this.validationText += t;
      return;
    }
    if (this.pageText) {
      const so = this.sheet.page[this.pageText] ?? '';
      if (so.length < 4096) this.sheet.page[this.pageText] = so + t;
      return;
    }
    const cell = this.cell;
    if (!cell) return;
    if (this.inFormula) this.formula = (this.formula ?? '') + t;
    else if ((this.inValue && cell.type !== 'inlineStr') || (this.inInline && cell.type === 'inlineStr' && this.runs.inText)) {
      this.value += t;
      if (this.inInline) this.runs.text(t);
      if (this.value.length > READ_LIMITS.cellText)
        throw new UnreadableWorkbook(`${this.ref(cell.col)} holds more than ${READ_LIMITS.cellText} characters (Excel's limit for a cell)`);
    }
  }

  private close(tag: XmlTag): void {
    if (this.foreign) {
      this.foreign -= 1;
      return;
    }
    const name = tag.local;
    this.path.pop();
    if (this.inInline) {
      const hidden = this.runs.close(name, (font) => this.styles.runInvisibility(font, this.cell?.style ?? 0));
      if (hidden) this.runHidden = hidden;
    }
    if (name === 'v') this.inValue = false;
    else if (name === 'formula1' && this.validationText !== null) {
      const last = this.sheet.validations.at(-1);
      if (last) last.formula1 = this.validationText;
      this.validationText = null;
    } else if (PAGE_TEXTS.has(name)) this.pageText = null;
    else if (name === 'is') this.inInline = false;
    else if (name === 'f') this.inFormula = false;
    else if (name === 'c') {
      this.finishCell();
      this.cell = null;
    } else if (name === 'row' && this.row) {
      this.finishRow(this.row);
      this.queue.push(this.row);
      this.row = null;
    }
  }

  /** A row that holds a value must be tall enough to show it. */
  private finishRow(row: XlsxRow): void {
    if (!this.rowHasValue) return;
    const height =
      this.rowHeight !== null && (this.rowCustomHeight || !this.zeroHeight) ? this.rowHeight : this.zeroHeight ? 0 : this.defaultRowHeight;
    if (!(height >= MIN_ROW_POINTS))
      this.problem(`short row`, `'${this.name}' row ${row.number} is ${height} points high: what it holds cannot be seen`);
  }

  private columnStyle(col: number): number {
    return this.columns.find((c) => col + 1 >= c.min && col + 1 <= c.max)?.style ?? 0;
  }

  private columnWidth(col: number): number {
    const range = this.columns.find((c) => col + 1 >= c.min && col + 1 <= c.max);
    return range?.width ?? this.defaultColumnWidth;
  }

  /** Why a cell's value cannot be seen (null: it can). */
  private invisibility(cell: { col: number; style: number; type: string }, v: unknown, format: string | undefined): string | null {
    const width = this.columnWidth(cell.col);
    if (!(width >= MIN_COLUMN_CHARACTERS)) return `its column is ${width} characters wide`;
    if (format !== undefined && !formatShowsValue(format, v)) return `its number format ${JSON.stringify(format)} shows nothing of it`;
    if (cell.type === 's' && this.sharedHidden.has(Number(this.value))) return this.sharedHidden.get(Number(this.value))!;
    return this.runHidden ?? this.styles.invisibility(cell.style);
  }

  private finishCell(): void {
    const { row, cell, value } = this;
    if (!row || !cell) return;
    if (cell.values > 1 || cell.inline > 1 || (cell.values && cell.inline))
      this.problem(`twin values ${row.number}`, `${this.ref(cell.col)} holds more than one value (programs show different ones)`);
    const v = this.cellValue(cell, value);
    this.checkFormula(cell, v);
    row.cells[cell.col] = v;
    const format = this.styles.formats[cell.style];
    if (format !== undefined && v !== undefined) row.formats[cell.col] = format;
    if (v === undefined || (v === '' && format === undefined)) return;
    this.rowHasValue = true;
    const hidden = this.invisibility(cell, v, format);
    if (hidden) this.problem(`hidden cell ${hidden}`, `${this.ref(cell.col)} cannot be seen: ${hidden}`);
    if (cell.inherited !== null) this.inheritedStyle(cell as typeof cell & { inherited: number }, v, format);
  }

  /** A cell shown in another style by some programs: refused where that style shows it otherwise, or not at all. */
  private inheritedStyle(
    cell: { col: number; style: number; type: string; inherited: number },
    v: unknown,
    format: string | undefined,
  ): void {
    const other = this.styles.formats[cell.inherited];
    if (other !== format)
      this.problem(
        `inherited format ${cell.inherited}`,
        `${this.ref(cell.col)} has no style of its own: programs show it in the default style or in its row's or column's, ` +
          `whose number format ${JSON.stringify(other ?? 'General')} differs`,
      );
    const hidden = this.invisibility({ ...cell, style: cell.inherited }, v, other);
    if (hidden) this.problem(`hidden cell ${hidden}`, `${this.ref(cell.col)} cannot be seen in its row's or column's style: ${hidden}`);
  }

  /** Formulas are refused, but for TRUE() and FALSE() over the same boolean (how LibreOffice writes a boolean cell). */
  private checkFormula(cell: { col: number; type: string }, v: unknown): void {
    if (this.formula === null) return;
    const plainBoolean =
      cell.type === 'b' && /^(TRUE|FALSE)(\(\))?$/i.test(this.formula.trim()) && v === /^TRUE/i.test(this.formula.trim());
    if (plainBoolean) return;
    // Each of the first few formulas is named; then one line says there are more.
    this.formulas += 1;
    const shown = this.formula.length > 80 ? `${this.formula.slice(0, 80)}…` : this.formula;
    if (this.formulas <= 5) this.onProblem(`formula in ${this.ref(cell.col)}: =${shown} (Attest writes no formulas)`);
    else this.problem('more formulas', `'${this.name}' holds more formulas`);
  }

  private cellValue(cell: { col: number; type: string; style: number }, value: string): unknown {
    switch (cell.type) {
      case 's': {
        const s = this.shared?.[Number(value)];
        if (s === undefined || !/^\d+$/.test(value))
          throw new UnreadableWorkbook(`${this.ref(cell.col)} refers to shared string ${value.slice(0, 20)}, which does not exist`);
        return s;
      }
      case 'str':
      case 'inlineStr':
        return value;
      case 'b':
        if (value !== '' && !/^(0|1|true|false)$/.test(value))
          this.problem(`bool ${cell.col}`, `${this.ref(cell.col)} holds a malformed boolean`);
        return value === '' ? undefined : value === '1' || value === 'true';
      case 'e':
        return value === '' ? undefined : new CellError(value);
      case 'd': {
        const date = value === '' ? undefined : new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);
        if (date && !Number.isFinite(date.getTime())) this.problem(`date ${cell.col}`, `${this.ref(cell.col)} holds a malformed date`);
        return date;
      }
      default: {
        if (value === '') return undefined;
        const n = Number(value);
        if (!Number.isFinite(n) || value.trim() === '')
          this.problem(`number ${cell.col}`, `${this.ref(cell.col)} holds a malformed number`);
        return this.styles.dateStyles[cell.style] ? new Date(Math.round((n - this.epoch) * 86_400_000)) : n;
      }
    }
  }
}

export { isDateFormat } from './styles';
