import { AmbiguousWorkbook, attributesOf, NS, type XmlParser, type XmlTag } from './xml';

/**
 * What a cell style does to what a person sees, for `attest verify`: the number format (hashed
 * with the cell), and whether the text can be seen at all. Content can be hidden without any
 * hidden flag (a white font on a white cell, a font of 1 point, a symbol font, a format that
 * shows nothing), so verify judges a style by what it does: see `invisibility`.
 * The same thresholds hold the differential tests' independent reader (test/helpers/display_oracle.py).
 */

/** Text under this size (points) cannot be read. */
export const MIN_FONT_POINTS = 6;
/** A font colour whose contrast with its background (WCAG 2 ratio) is under this is not seen. */
export const MIN_CONTRAST = 1.5;
/** Fonts that draw letters as symbols: the text shown is not the text held. */
const SYMBOL_FONTS = new Set(['symbol', 'wingdings', 'wingdings 2', 'wingdings 3', 'webdings', 'marlett', 'mt extra', 'zapf dingbats']);

/** Excel's built-in number formats by id (as openpyxl names them). */
export const BUILTIN_FORMATS: Record<number, string> = {
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

/**
 * A format code as shown: a backslash before a character a format shows as itself anyway
 * (`yyyy\-mm\-dd\ hh:mm:ss`, as LibreOffice writes `yyyy-mm-dd hh:mm:ss`) is dropped, so a
 * re-save that changes no display changes no hash. Formats Attest writes are already in this form.
 */
export function canonicalFormat(code: string): string {
  return code.replace(/"[^"]*"|\\(.)/g, (whole, escaped: string | undefined) =>
    escaped !== undefined && /[-+/():!^&'~{}<>= $]/.test(escaped) ? escaped : whole,
  );
}

/** The sections of a format code (split at `;` outside quotes and escapes). */
function sections(code: string): string[] {
  const out: string[] = [];
  let current = '';
  for (let i = 0; i < code.length; i += 1) {
    const c = code[i]!;
    if (c === '"') {
      const end = code.indexOf('"', i + 1);
      const stop = end < 0 ? code.length : end + 1;
      current += code.slice(i, stop);
      i = stop - 1;
    } else if (c === '\\') {
      current += code.slice(i, i + 2);
      i += 1;
    } else if (c === ';') {
      out.push(current);
      current = '';
    } else current += c;
  }
  out.push(current);
  return out;
}

/** Whether a format shows anything of `value`: its section for the value is not empty, and text keeps its `@`. */
export function formatShowsValue(code: string, value: unknown): boolean {
  const parts = sections(code);
  // Colours and conditions ([Red], [>100]) show nothing by themselves.
  const visible = (section: string | undefined): boolean => (section ?? '').replace(/\[[^\]]*\]/g, '').trim() !== '';
  if (typeof value === 'string') return parts.length < 4 || (visible(parts[3]) && /@/.test(parts[3]!.replace(/"[^"]*"/g, '')));
  if (typeof value !== 'number') return true;
  const section = value > 0 || parts.length === 1 ? parts[0] : value < 0 ? (parts[1] ?? parts[0]) : (parts[2] ?? parts[0]);
  return visible(section);
}

type Rgb = [number, number, number];

/** The colour of a <color>, <fgColor> or <bgColor> element, as far as verify resolves it. */
interface ColorRef {
  rgb?: string;
  theme?: number;
  indexed?: number;
  tint?: number;
  auto?: boolean;
}

/** Office's default theme colours, SpreadsheetML's theme index order (lt1, dk1, lt2, dk2, accents, links). */
const DEFAULT_THEME = [
  'FFFFFF',
  '000000',
  'E7E6E6',
  '44546A',
  '4472C4',
  'ED7D31',
  'A5A5A5',
  'FFC000',
  '5B9BD5',
  '70AD47',
  '0563C1',
  '954F72',
];
/** clrScheme's element names in that order. */
const THEME_SLOTS = ['lt1', 'dk1', 'lt2', 'dk2', 'accent1', 'accent2', 'accent3', 'accent4', 'accent5', 'accent6', 'hlink', 'folHlink'];

/** The legacy indexed palette (0-63), then the system foreground (64) and background (65). */
const INDEXED = (
  '000000 FFFFFF FF0000 00FF00 0000FF FFFF00 FF00FF 00FFFF 000000 FFFFFF FF0000 00FF00 0000FF FFFF00 FF00FF 00FFFF ' +
  '800000 008000 000080 808000 800080 008080 C0C0C0 808080 9999FF 993366 FFFFCC CCFFFF 660066 FF8080 0066CC CCCCFF ' +
  '000080 FF00FF FFFF00 00FFFF 800080 800000 008080 0000FF 00CCFF CCFFFF CCFFCC FFFF99 99CCFF FF99CC CC99FF FFCC99 ' +
  '3366FF 33CCCC 99CC00 FFCC00 FF9900 FF6600 666699 969696 003366 339966 003300 333300 993300 993366 333399 333333 ' +
  '000000 FFFFFF'
).split(' ');

const hexRgb = (hex: string): Rgb | null => {
  const h = hex.length === 8 ? hex.slice(2) : hex;
  if (!/^[0-9a-f]{6}$/i.test(h)) return null;
  return [parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16)];
};

/** Excel's tint: lightens (tint > 0) or darkens (tint < 0) a colour's luminance in HSL. */
function applyTint([r, g, b]: Rgb, tint: number): Rgb {
  if (!tint) return [r, g, b];
  const [h, s, l] = toHsl(r / 255, g / 255, b / 255);
  const lum = tint < 0 ? l * (1 + tint) : l * (1 - tint) + tint;
  return fromHsl(h, s, Math.min(1, Math.max(0, lum))).map((v) => Math.round(v * 255)) as Rgb;
}

function toHsl(r: number, g: number, b: number): [number, number, number] {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h = max === r ? (g - b) / d + (g < b ? 6 : 0) : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return [h / 6, s, l];
}

function fromHsl(h: number, s: number, l: number): [number, number, number] {
  if (s === 0) return [l, l, l];
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const hue = (t0: number): number => {
    const t = t0 < 0 ? t0 + 1 : t0 > 1 ? t0 - 1 : t0;
    if (t < 1 / 6) return p + (q - p) * 6 * t;
    if (t < 1 / 2) return q;
    if (t < 2 / 3) return p + (q - p) * (2 / 3 - t) * 6;
    return p;
  };
  return [hue(h + 1 / 3), hue(h), hue(h - 1 / 3)];
}

const luminance = (rgb: Rgb): number => {
  const [r, g, b] = rgb.map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};

/** WCAG 2's contrast ratio of two colours (1 to 21). */
export function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

export interface FontLook {
  size?: number;
  color?: ColorRef;
  name?: string;
  symbolCharset?: boolean;
}

interface FillLook {
  pattern: string;
  fg?: ColorRef;
}

interface CellXf {
  numFmtId: number;
  fontId: number;
  fillId: number;
  /** The cell style (cellStyleXfs) it derives from. */
  parent: number;
  applyFont: boolean;
  /** Alignment that moves or shrinks text out of sight (fill, shrinkToFit, a large indent). */
  hidingAlignment: string | null;
}

const colorOf = (tag: XmlTag, part: string): ColorRef => {
  const a = attributesOf(tag, part);
  const num = (v: string | undefined): number | undefined => (v === undefined ? undefined : Number(v));
  return {
    rgb: a.get('rgb'),
    theme: num(a.get('theme')),
    indexed: num(a.get('indexed')),
    tint: num(a.get('tint')),
    auto: a.get('auto') === '1',
  };
};

const isTrue = (v: string | undefined): boolean => v === '1' || v === 'true';

/** The styles part (and theme colours) of a workbook, read for what they show. */
export class StyleBook {
  private readonly numFmts = new Map<number, string>();
  private readonly fonts: FontLook[] = [];
  private readonly fills: FillLook[] = [];
  private readonly styleXfs: CellXf[] = [];
  private readonly xfs: CellXf[] = [];
  private indexed: string[] = INDEXED;
  theme: string[] = DEFAULT_THEME;
  /** Per cell style: its number format (undefined: General), whether it is a date, and why its text cannot be seen. */
  formats: (string | undefined)[] = [];
  dateStyles: boolean[] = [];
  private readonly hiding = new Map<number, string | null>();

  get count(): number {
    return this.xfs.length;
  }

  /** Handlers for styles.xml. Twice-defined formats and twin style lists are ambiguities. */
  attachStyles(parser: XmlParser, part: string): void {
    let list: 'cellXfs' | 'cellStyleXfs' | null = null;
    let font: FontLook | null = null;
    let fill: FillLook | null = null;
    let xf: CellXf | null = null;
    let indexedColors: string[] | null = null;
    const lists = new Set<string>();
    parser.on('opentag', (tag) => {
      if (tag.uri !== NS.main) return;
      const a = attributesOf(tag, part);
      switch (tag.local) {
        case 'numFmt': {
          const id = Number(a.get('numFmtId'));
          if (this.numFmts.has(id)) throw new AmbiguousWorkbook(`the part ${part} defines number format ${id} twice`);
          this.numFmts.set(id, a.get('formatCode') ?? '');
          break;
        }
        case 'cellXfs':
        case 'cellStyleXfs':
        case 'fonts':
        case 'fills':
          if (lists.has(tag.local)) throw new AmbiguousWorkbook(`the part ${part} has two <${tag.local}> lists`);
          lists.add(tag.local);
          if (tag.local === 'cellXfs' || tag.local === 'cellStyleXfs') list = tag.local;
          break;
        case 'font':
          font = {};
          this.fonts.push(font);
          break;
        case 'fill':
          fill = { pattern: 'none' };
          this.fills.push(fill);
          break;
        case 'patternFill':
          if (fill) fill.pattern = a.get('patternType') ?? 'none';
          break;
        case 'gradientFill':
          if (fill) fill.pattern = 'gradient';
          break;
        case 'fgColor':
          if (fill) fill.fg = colorOf(tag, part);
          break;
        case 'color':
          if (font) {
            if (font.color) throw new AmbiguousWorkbook(`the part ${part} gives a font two colours`);
            font.color = colorOf(tag, part);
          }
          break;
        case 'sz':
          if (font) font.size = Number(a.get('val'));
          break;
        case 'name':
          if (font) font.name = a.get('val');
          break;
        case 'charset':
          if (font) font.symbolCharset = a.get('val') === '2';
          break;
        case 'indexedColors':
          indexedColors = [];
          break;
        case 'rgbColor':
          indexedColors?.push(a.get('rgb') ?? '');
          break;
        case 'xf':
          if (!list) break;
          xf = {
            numFmtId: Number(a.get('numFmtId') ?? 0),
            fontId: Number(a.get('fontId') ?? 0),
            fillId: Number(a.get('fillId') ?? 0),
            parent: Number(a.get('xfId') ?? 0),
            applyFont: a.get('applyFont') !== '0' && a.get('applyFont') !== 'false',
            hidingAlignment: null,
          };
          (list === 'cellXfs' ? this.xfs : this.styleXfs).push(xf);
          break;
        case 'alignment':
          if (xf) xf.hidingAlignment = hidingAlignment(a.get('horizontal'), a.get('shrinkToFit'), a.get('indent'));
          break;
      }
    });
    parser.on('closetag', (tag) => {
      if (tag.uri !== NS.main) return;
      if (tag.local === 'cellXfs' || tag.local === 'cellStyleXfs') list = null;
      else if (tag.local === 'font') font = null;
      else if (tag.local === 'fill') fill = null;
      else if (tag.local === 'xf') xf = null;
      else if (tag.local === 'indexedColors' && indexedColors) this.indexed = [...indexedColors, ...INDEXED.slice(indexedColors.length)];
    });
  }

  /** Handlers for the theme part: its colour scheme, the one thing of a theme a cell's look takes. */
  attachTheme(parser: XmlParser, part: string): void {
    const colors = new Map<string, string>();
    let slot: string | null = null;
    let inScheme = false;
    parser.on('opentag', (tag) => {
      if (tag.uri !== NS.drawing) return;
      const a = attributesOf(tag, part);
      if (tag.local === 'clrScheme') inScheme = true;
      else if (inScheme && THEME_SLOTS.includes(tag.local)) slot = tag.local;
      else if (slot && (tag.local === 'srgbClr' || tag.local === 'sysClr')) {
        if (colors.has(slot)) throw new AmbiguousWorkbook(`the part ${part} gives the theme colour ${slot} twice`);
        colors.set(slot, (tag.local === 'srgbClr' ? a.get('val') : a.get('lastClr')) ?? '');
      }
    });
    parser.on('closetag', (tag) => {
      if (tag.uri !== NS.drawing) return;
      if (tag.local === 'clrScheme') inScheme = false;
      else if (tag.local === slot) slot = null;
    });
    this.themeColors = colors;
  }

  private themeColors: Map<string, string> | null = null;

  /** Derives the per-style tables once every part is read. */
  finish(): void {
    if (this.themeColors) this.theme = THEME_SLOTS.map((slot, i) => this.themeColors!.get(slot) ?? DEFAULT_THEME[i]!);
    this.formats = this.xfs.map((xf) => {
      const code = this.numFmts.get(xf.numFmtId) ?? BUILTIN_FORMATS[xf.numFmtId] ?? `builtin ${xf.numFmtId}`;
      return /^general$/i.test(code) ? undefined : canonicalFormat(code);
    });
    this.dateStyles = this.xfs.map((xf) => isDateFormat(xf.numFmtId, this.numFmts.get(xf.numFmtId)));
  }

  private rgb(color: ColorRef | undefined, fallback: Rgb): Rgb {
    if (!color || color.auto) return fallback;
    let base: Rgb | null = null;
    if (color.rgb !== undefined) base = hexRgb(color.rgb);
    else if (color.theme !== undefined) base = hexRgb(this.theme[color.theme] ?? '');
    else if (color.indexed !== undefined) base = hexRgb(this.indexed[color.indexed] ?? '');
    else return fallback;
    return applyTint(base ?? fallback, color.tint ?? 0);
  }

  /** Why text of this font on this fill cannot be seen, or null. */
  private fontHides(font: FontLook | undefined, fill: FillLook | undefined): string | null {
    if (!font) return null;
    if (font.size !== undefined && !(font.size >= MIN_FONT_POINTS)) return `a font of ${font.size} points`;
    if (font.symbolCharset || SYMBOL_FONTS.has((font.name ?? '').toLowerCase()))
      return `the symbol font ${font.name ?? '(symbol charset)'}`;
    if (fill && fill.pattern !== 'none' && fill.pattern !== 'solid' && fill.pattern !== 'gray125') return `a ${fill.pattern} fill`;
    const background = fill?.pattern === 'solid' ? this.rgb(fill.fg, [255, 255, 255]) : ([255, 255, 255] as Rgb);
    const ratio = contrast(this.rgb(font.color, [0, 0, 0]), background);
    return ratio < MIN_CONTRAST ? `text the colour of its background (contrast ${ratio.toFixed(2)}:1)` : null;
  }

  /**
   * Why a cell of this style cannot be seen (null: it can). Where a style says not to apply its
   * own font, programs differ on which font shows, so both are judged.
   */
  invisibility(style: number): string | null {
    const known = this.hiding.get(style);
    if (known !== undefined) return known;
    const xf = this.xfs[style];
    let why: string | null = null;
    if (xf) {
      const fill = this.fills[xf.fillId];
      why = xf.hidingAlignment ?? this.fontHides(this.fonts[xf.fontId], fill);
      const parent = this.styleXfs[xf.parent];
      if (!why && !xf.applyFont && parent) why = this.fontHides(this.fonts[parent.fontId], fill);
    }
    this.hiding.set(style, why);
    return why;
  }

  /** Why a rich-text run's font hides it on a cell of this style (null: it shows). */
  runInvisibility(font: FontLook, style: number): string | null {
    const xf = this.xfs[style];
    return this.fontHides(font, xf ? this.fills[xf.fillId] : undefined);
  }
}

function hidingAlignment(horizontal: string | undefined, shrink: string | undefined, indent: string | undefined): string | null {
  if (horizontal === 'fill') return 'an alignment that repeats the text to fill the cell';
  if (isTrue(shrink)) return 'text shrunk to fit its column';
  if (indent !== undefined && Number(indent) > 15) return `an indent of ${indent}`;
  return null;
}
