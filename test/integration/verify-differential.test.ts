/**
 * The differential suite of `attest verify`: what verify hashes must be what a spreadsheet
 * program shows. A corpus of workbooks crafted from a real export (unsigned and signed), each read
 * by independent readers: openpyxl through test/helpers/display_oracle.py (the grid as shown,
 * visible sheets, document properties, and every other part a reader shows), and LibreOffice's
 * CSV export of every sheet, as shown, for a subset. verify must say intact (and the signature
 * valid) exactly when every reader shows what the export shows, and something else otherwise.
 * Each attack is also checked to change what the reader shows: one that changes nothing proves
 * nothing. Add a case for every way found to make verify and a reader disagree.
 */
import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual, promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportReport } from '../../src/main/reports';
import { ephemeralSigner } from '../../src/main/reports/signing';
import { verifyWorkbook, type VerifyResult } from '../../src/main/reports/verify';
import { openStore } from '../../src/main/store/db';
import { seedFixtureStore } from '../e2e/seed-store';
import { editWorkbook, replaceIn, sheetPart } from '../helpers/hostile-xlsx';
import { SYSTEM_PYTHON } from '../helpers/openpyxl';

type Parts = Map<string, string | Buffer>;

const dir = mkdtempSync(join(tmpdir(), 'attest-verify-differential-'));
const oracleScript = fileURLToPath(new URL('../helpers/display_oracle.py', import.meta.url));
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const CT = 'application/vnd.openxmlformats-officedocument';
const FORGED = 'Approved by CFO';
/** Scopes row 15: the one scope whose classification differs from the others' ("Read"). */
const REGULATED = 'XAA_SCOPE_CLASSIFICATION_REGULATED (value not known to this version)';

// ---- crafting -------------------------------------------------------------------------------------

const text = (parts: Parts, part: string): string => String(parts.get(part) ?? '');
const scopes = (parts: Parts): string => sheetPart(parts, 'Scopes');

/** Edits the Scopes sheet's XML. */
/** The sheet's `<col>` elements one per column (a group of columns split: what readers show is the same). */
function oneColumnEach(xml: string): string {
  return xml.replace(/<col min="(\d+)" max="(\d+)"([^>]*)\/>/g, (_, min: string, max: string, rest: string) =>
    Array.from(
      { length: Number(max) - Number(min) + 1 },
      (_x, i) => `<col min="${Number(min) + i}" max="${Number(min) + i}"${rest}/>`,
    ).join(''),
  );
}

function editScopes(parts: Parts, edit: (xml: string) => string): void {
  const part = scopes(parts);
  const before = text(parts, part);
  const after = edit(before);
  if (after === before) throw new Error('the edit changed nothing in Scopes');
  parts.set(part, after);
}

/** The `<row r="n">…</row>` element of a sheet's XML. */
function rowXml(xml: string, n: number): string {
  const row = new RegExp(`<row r="${n}"[^>]*>.*?</row>`).exec(xml)?.[0];
  if (!row) throw new Error(`no row ${n}`);
  return row;
}

/** Replaces the first `<c r="A">` with `<c r="B">` and the first `<c r="B">` with `<c r="A">`. */
function swapCellRefs(xml: string, a: string, b: string): string {
  return xml.replace(`<c r="${a}"`, '<c r="@swap"').replace(`<c r="${b}"`, `<c r="${a}"`).replace('<c r="@swap"', `<c r="${b}"`);
}

/** Appends an element to a counted list of styles.xml (`fonts`, `fills`, `cellXfs`), returning its index. */
function addStyleEntry(parts: Parts, list: 'fonts' | 'fills' | 'cellXfs', xml: string): number {
  const styles = text(parts, 'xl/styles.xml');
  const count = Number(new RegExp(`<${list} count="(\\d+)"`).exec(styles)?.[1]);
  parts.set(
    'xl/styles.xml',
    styles.replace(new RegExp(`<${list} count="\\d+"`), `<${list} count="${count + 1}"`).replace(`</${list}>`, `${xml}</${list}>`),
  );
  return count;
}

/** Adds a custom number format, returning its id. */
function addNumFmt(parts: Parts, code: string): number {
  const styles = text(parts, 'xl/styles.xml');
  const ids = [...styles.matchAll(/numFmtId="(\d+)"/g)].map((m) => Number(m[1]));
  const id = Math.max(163, ...ids) + 1;
  const count = Number(/<numFmts count="(\d+)"/.exec(styles)?.[1]);
  parts.set(
    'xl/styles.xml',
    styles
      .replace(/<numFmts count="\d+"/, `<numFmts count="${count + 1}"`)
      .replace('</numFmts>', `<numFmt numFmtId="${id}" formatCode="${code}"/></numFmts>`),
  );
  return id;
}

/** A new cell style (xf) of these parts, the rest as the plain text cells' (xf 1). */
function addXf(parts: Parts, { numFmt = 0, font = 0, fill = 0 }: { numFmt?: number; font?: number; fill?: number }): number {
  return addStyleEntry(
    parts,
    'cellXfs',
    `<xf numFmtId="${numFmt}" fontId="${font}" fillId="${fill}" borderId="0" xfId="0" applyNumberFormat="1" applyFont="1" applyFill="1" applyAlignment="1"><alignment vertical="top" wrapText="1"/></xf>`,
  );
}

/** A new cell style of the default font, fill and format with this alignment. */
const alignedXf = (parts: Parts, alignment: string): number =>
  addStyleEntry(
    parts,
    'cellXfs',
    `<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0" applyAlignment="1"><alignment ${alignment}/></xf>`,
  );

/** Gives one cell of Scopes another style. */
function styleScopesCell(parts: Parts, ref: string, xf: number): void {
  replaceIn(parts, scopes(parts), new RegExp(`<c r="${ref}" s="\\d+"`), `<c r="${ref}" s="${xf}"`);
}

/** A font of the export's (Calibri 11) with these extra children. */
const font = (inner: string): string => `<font>${inner}<family val="2"/><scheme val="minor"/><name val="Calibri"/></font>`;

function addContentType(parts: Parts, xml: string): void {
  replaceIn(parts, '[Content_Types].xml', '</Types>', `${xml}</Types>`);
}

/** Adds a relationship to a part's .rels (creating it), returning its id. */
function addRelationship(parts: Parts, relsPart: string, type: string, target: string, external = false): string {
  const rels =
    text(parts, relsPart) ||
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"></Relationships>';
  const id = `rIdX${(rels.match(/<Relationship /g) ?? []).length + 1}`;
  const mode = external ? ' TargetMode="External"' : '';
  parts.set(
    relsPart,
    rels.replace('</Relationships>', `<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"${mode}/></Relationships>`),
  );
  return id;
}

/** The .rels part of the Scopes sheet's part. */
const scopesRels = (parts: Parts): string => scopes(parts).replace(/([^/]+)$/, '_rels/$1.rels');

/** Inserts sheet markup where the schema puts it: after autoFilter (before pageMargins), or at the end. */
function insertInScopes(parts: Parts, xml: string, where: 'beforeMargins' | 'end'): void {
  replaceIn(
    parts,
    scopes(parts),
    where === 'end' ? '</worksheet>' : '<pageMargins',
    where === 'end' ? `${xml}</worksheet>` : `${xml}<pageMargins`,
  );
}

/** The r:id of a sheet's `<sheet>` element. */
function sheetRid(parts: Parts, name: string): string {
  const id = new RegExp(`<sheet [^>]*name="${name}"[^>]*r:id="([^"]+)"`).exec(text(parts, 'xl/workbook.xml'))?.[1];
  if (!id) throw new Error(`no sheet ${name}`);
  return id;
}

function addCoreProperty(parts: Parts, element: string): void {
  replaceIn(parts, 'docProps/core.xml', '</cp:coreProperties>', `${element}</cp:coreProperties>`);
}

// ---- the cases ------------------------------------------------------------------------------------

interface Case {
  name: string;
  /** How the file is made from the export: its parts edited, or the whole re-saved by a program (else a copy). */
  edit?: (parts: Parts) => void;
  resave?: 'openpyxl' | 'libreoffice';
  /** An attack: it must change what a reader shows (checked on the corpus). Without it the readers decide. */
  attack: boolean;
  /** Also read by LibreOffice (every sheet to CSV, as shown). */
  libreoffice?: boolean;
  /**
   * A file that can be read two ways, which verify refuses whatever the readers here show (the
   * rule holds for readers not tried here: another version of Excel, another library); the reason.
   */
  ambiguous?: string;
  /** What else verify must say of the file. */
  check?: (result: VerifyResult) => void;
}

const CASES: Case[] = [
  { name: 'the export as written', attack: false, libreoffice: true },

  // A cell's own r: readers place a cell by it, row and column.
  {
    name: 'cell r: E2 and E15 each written in the other row (classifications swapped)',
    attack: true,
    libreoffice: true,
    edit: (parts) => editScopes(parts, (xml) => swapCellRefs(xml, 'E2', 'E15')),
  },
  {
    name: 'cell r: C2 written as C3 (two cells claim C3, C2 shows empty)',
    attack: true,
    edit: (parts) => editScopes(parts, (xml) => xml.replace('<c r="C2"', '<c r="C3"')),
  },
  {
    name: 'cell r: E2 written as D2 (two cells of a row claim D2)',
    attack: true,
    edit: (parts) => editScopes(parts, (xml) => xml.replace('<c r="E2"', '<c r="D2"')),
  },
  {
    name: 'cell r: E15 and F15 swap columns within their row',
    attack: true,
    edit: (parts) => editScopes(parts, (xml) => swapCellRefs(xml, 'E15', 'F15')),
  },
  {
    name: 'cell r: the cells of row 15 written without r, in order',
    attack: false,
    edit: (parts) => editScopes(parts, (xml) => xml.replace(rowXml(xml, 15), rowXml(xml, 15).replace(/<c r="[A-Z]+15"/g, '<c'))),
  },
  {
    name: 'cell r: the cells of row 15 without r, the empty H15 left out (the rest slide left)',
    attack: true,
    edit: (parts) =>
      editScopes(parts, (xml) =>
        xml.replace(
          rowXml(xml, 15),
          rowXml(xml, 15)
            .replace('<c r="H15" s="1"/>', '')
            .replace(/<c r="[A-Z]+15"/g, '<c'),
        ),
      ),
  },
  {
    name: 'row r: rows 2 and 3 swap their r, their cells keep theirs',
    ambiguous: 'cells name other rows than the one they stand in: which row holds them is up to the reader',
    attack: false,
    edit: (parts) =>
      editScopes(parts, (xml) =>
        xml.replace('<row r="2"', '<row r="@swap"').replace('<row r="3"', '<row r="2"').replace('<row r="@swap"', '<row r="3"'),
      ),
  },

  // Which part a tab shows.
  {
    name: 'sheet ids: Scopes has id="<its rId>" first, r:id="<Raw API values\' rId>" after',
    attack: true,
    libreoffice: true,
    edit: (parts) => {
      const own = sheetRid(parts, 'Scopes');
      replaceIn(
        parts,
        'xl/workbook.xml',
        `name="Scopes" state="visible" r:id="${own}"`,
        `name="Scopes" state="visible" id="${own}" r:id="${sheetRid(parts, 'Raw API values')}"`,
      );
    },
  },
  {
    name: 'sheet ids: Scopes has r:id="<Raw API values\' rId>" first, id="<its rId>" after',
    attack: true,
    edit: (parts) => {
      const own = sheetRid(parts, 'Scopes');
      replaceIn(
        parts,
        'xl/workbook.xml',
        `name="Scopes" state="visible" r:id="${own}"`,
        `name="Scopes" state="visible" r:id="${sheetRid(parts, 'Raw API values')}" id="${own}"`,
      );
    },
  },
  {
    name: 'sheet ids: the r prefix rebound to another namespace, the relationship id under another prefix',
    attack: true,
    edit: (parts) => {
      const own = sheetRid(parts, 'Scopes');
      replaceIn(
        parts,
        'xl/workbook.xml',
        `<sheet sheetId="10" name="Scopes" state="visible" r:id="${own}"/>`,
        `<sheet xmlns:r="urn:example:decoy" xmlns:rel="${REL}" sheetId="10" name="Scopes" state="visible" r:id="${own}" rel:id="${sheetRid(parts, 'Raw API values')}"/>`,
      );
    },
  },
  {
    name: "relationships: Scopes' rId twice, the first to Raw API values' part",
    attack: true,
    edit: (parts) => {
      const own = sheetRid(parts, 'Scopes');
      const raw = sheetPart(parts, 'Raw API values').replace(/^xl\//, '');
      replaceIn(
        parts,
        'xl/_rels/workbook.xml.rels',
        `<Relationship Id="${own}"`,
        `<Relationship Id="${own}" Type="${REL}/worksheet" Target="${raw}"/><Relationship Id="${own}"`,
      );
    },
  },
  {
    name: "relationships: Scopes' rId twice, the second to Raw API values' part",
    ambiguous: 'one relationship id names two parts: which sheet shows is up to the reader',
    attack: false,
    edit: (parts) => {
      const own = sheetRid(parts, 'Scopes');
      const raw = sheetPart(parts, 'Raw API values').replace(/^xl\//, '');
      replaceIn(
        parts,
        'xl/_rels/workbook.xml.rels',
        '</Relationships>',
        `<Relationship Id="${own}" Type="${REL}/worksheet" Target="${raw}"/></Relationships>`,
      );
    },
  },
  {
    name: 'a sheet renamed (Scopes to "Scopes (approved)")',
    attack: true,
    edit: (parts) => replaceIn(parts, 'xl/workbook.xml', /name="Scopes"/, 'name="Scopes (approved)"'),
  },

  // Document properties (File > Info).
  ...(['dc:title', 'dc:creator', 'dc:description', 'cp:keywords', 'dc:subject', 'cp:category', 'cp:contentStatus'] as const).map(
    (element): Case => ({
      name: `core property ${element} "${FORGED}"`,
      attack: true,
      edit: (parts) =>
        element === 'dc:creator'
          ? replaceIn(parts, 'docProps/core.xml', '<dc:creator>Attest</dc:creator>', `<dc:creator>${FORGED}</dc:creator>`)
          : addCoreProperty(parts, `<${element}>${FORGED}</${element}>`),
    }),
  ),
  {
    // A save stamp, not a statement of the document's: verify does not hash it, it names it as who re-saved the file.
    name: 'core property lastModifiedBy "CFO"',
    attack: false,
    edit: (parts) =>
      replaceIn(parts, 'docProps/core.xml', '<cp:lastModifiedBy>Attest</cp:lastModifiedBy>', '<cp:lastModifiedBy>CFO</cp:lastModifiedBy>'),
    check: (result) => expect(result.resaved?.modifiedBy).toBe('CFO'),
  },
  {
    name: `app property Company "${FORGED}"`,
    attack: true,
    edit: (parts) => replaceIn(parts, 'docProps/app.xml', '<Company></Company>', `<Company>${FORGED}</Company>`),
  },
  {
    name: 'app property Manager "CFO"',
    attack: true,
    edit: (parts) => replaceIn(parts, 'docProps/app.xml', '<Company>', '<Manager>CFO</Manager><Company>'),
  },
  {
    name: 'app property HyperlinkBase (every relative link goes there)',
    attack: true,
    edit: (parts) =>
      replaceIn(
        parts,
        'docProps/app.xml',
        '<HyperlinksChanged>',
        '<HyperlinkBase>https://phish.example/</HyperlinkBase><HyperlinksChanged>',
      ),
  },
  {
    name: `custom properties part added (Approval: "${FORGED}")`,
    attack: true,
    edit: (parts) => {
      parts.set(
        'docProps/custom.xml',
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">' +
          `<property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="2" name="Approval"><vt:lpwstr>${FORGED}</vt:lpwstr></property></Properties>`,
      );
      addRelationship(parts, '_rels/.rels', 'custom-properties', 'docProps/custom.xml');
      addContentType(parts, `<Override PartName="/docProps/custom.xml" ContentType="${CT}.custom-properties+xml"/>`);
    },
  },

  // Content hidden without a hidden flag.
  {
    name: 'row 15 height 0.1',
    attack: true,
    edit: (parts) => editScopes(parts, (xml) => xml.replace('<row r="15"', '<row r="15" ht="0.1" customHeight="1"')),
  },
  {
    name: 'columns D:F width 0.01',
    attack: true,
    edit: (parts) =>
      editScopes(parts, (xml) =>
        oneColumnEach(xml).replace(/<col min="([4-6])" max="\1" width="[\d.]+"/g, '<col min="$1" max="$1" width="0.01"'),
      ),
  },
  {
    name: 'zeroHeight in sheetFormatPr (every row without a height of its own hidden)',
    attack: true,
    edit: (parts) => editScopes(parts, (xml) => xml.replace('<sheetFormatPr ', '<sheetFormatPr zeroHeight="1" ')),
  },
  {
    name: 'zeroHeight, every row but 15 given a height of its own',
    attack: true,
    edit: (parts) =>
      editScopes(parts, (xml) =>
        xml
          .replace('<sheetFormatPr ', '<sheetFormatPr zeroHeight="1" ')
          // Rows of wrapped text have a height already: row 15 loses its own, the others get one.
          .replace(/(<row r="\d+") ht="[\d.]+" customHeight="1"/g, '$1')
          .replace(/<row r="(\d+)"/g, (row: string, n: string) => (n === '15' ? row : `${row} ht="15" customHeight="1"`)),
      ),
  },
  {
    name: 'E15 in a white font (rgb FFFFFFFF)',
    attack: true,
    edit: (parts) =>
      styleScopesCell(parts, 'E15', addXf(parts, { font: addStyleEntry(parts, 'fonts', font('<color rgb="FFFFFFFF"/><sz val="11"/>')) })),
  },
  {
    name: 'E15 in theme colour 0 (lt1: white)',
    attack: true,
    edit: (parts) =>
      styleScopesCell(parts, 'E15', addXf(parts, { font: addStyleEntry(parts, 'fonts', font('<color theme="0"/><sz val="11"/>')) })),
  },
  {
    name: 'E15 in indexed colour 9 (white)',
    attack: true,
    edit: (parts) =>
      styleScopesCell(parts, 'E15', addXf(parts, { font: addStyleEntry(parts, 'fonts', font('<color indexed="9"/><sz val="11"/>')) })),
  },
  {
    name: 'E15 in black text (theme 1) on a black solid fill',
    attack: true,
    edit: (parts) =>
      styleScopesCell(
        parts,
        'E15',
        addXf(parts, {
          fill: addStyleEntry(
            parts,
            'fills',
            '<fill><patternFill patternType="solid"><fgColor rgb="FF000000"/><bgColor indexed="64"/></patternFill></fill>',
          ),
        }),
      ),
  },
  {
    name: 'E15 in Wingdings (letters drawn as symbols)',
    attack: true,
    edit: (parts) =>
      styleScopesCell(
        parts,
        'E15',
        addXf(parts, {
          font: addStyleEntry(parts, 'fonts', '<font><color theme="1"/><sz val="11"/><name val="Wingdings"/><charset val="2"/></font>'),
        }),
      ),
  },
  {
    name: 'E15 aligned to fill (its text repeated across the cell)',
    attack: true,
    edit: (parts) => styleScopesCell(parts, 'E15', alignedXf(parts, 'horizontal="fill"')),
  },
  {
    name: 'E15 shrunk to fit a narrow column',
    attack: true,
    edit: (parts) => styleScopesCell(parts, 'E15', alignedXf(parts, 'shrinkToFit="1"')),
  },
  {
    name: 'E15 in a 1-point font',
    attack: true,
    edit: (parts) =>
      styleScopesCell(parts, 'E15', addXf(parts, { font: addStyleEntry(parts, 'fonts', font('<color theme="1"/><sz val="1"/>')) })),
  },

  // The format ;;; shows nothing; every way a format reaches a cell.
  {
    name: ';;; in a new xf given to E15',
    attack: true,
    libreoffice: true,
    edit: (parts) => styleScopesCell(parts, 'E15', addXf(parts, { numFmt: addNumFmt(parts, ';;;') })),
  },
  {
    name: '0;0;0; (an empty text section) in a new xf given to E15',
    attack: true,
    edit: (parts) => styleScopesCell(parts, 'E15', addXf(parts, { numFmt: addNumFmt(parts, '0;0;0;') })),
  },
  {
    name: ';;; as the number format of the xf the dates already use (xf 3)',
    attack: true,
    edit: (parts) => {
      const id = addNumFmt(parts, ';;;');
      replaceIn(
        parts,
        'xl/styles.xml',
        /(<cellXfs count="\d+"><xf [^>]*\/><xf [^>]*>.*?<\/xf><xf [^>]*>.*?<\/xf><xf )numFmtId="164"/,
        `$1numFmtId="${id}"`,
      );
    },
  },
  {
    name: 'numFmt 164 (the dates) redefined as ;;;',
    attack: true,
    edit: (parts) => replaceIn(parts, 'xl/styles.xml', 'formatCode="yyyy-mm-dd hh:mm:ss"', 'formatCode=";;;"'),
  },
  {
    name: 'numFmt 164 defined twice, ;;; second',
    attack: true,
    edit: (parts) => replaceIn(parts, 'xl/styles.xml', '</numFmts>', '<numFmt numFmtId="164" formatCode=";;;"/></numFmts>'),
  },
  {
    name: 'numFmt 164 defined twice, ;;; first',
    ambiguous: 'one number format id has two codes: which one shows is up to the reader',
    attack: false,
    edit: (parts) =>
      replaceIn(parts, 'xl/styles.xml', '<numFmt numFmtId="164"', '<numFmt numFmtId="164" formatCode=";;;"/><numFmt numFmtId="164"'),
  },
  {
    name: ";;; as row 15's style (customFormat), its text cells written without s (its dates keep theirs)",
    attack: true,
    edit: (parts) => {
      const xf = addXf(parts, { numFmt: addNumFmt(parts, ';;;') });
      editScopes(parts, (xml) =>
        xml.replace(
          rowXml(xml, 15),
          rowXml(xml, 15)
            .replace(/ s="1"/g, '')
            .replace('<row r="15"', `<row r="15" s="${xf}" customFormat="1"`),
        ),
      );
    },
  },
  {
    name: ";;; as column E's style, its cells written without s",
    attack: true,
    edit: (parts) => {
      const xf = addXf(parts, { numFmt: addNumFmt(parts, ';;;') });
      editScopes(parts, (xml) =>
        oneColumnEach(xml)
          .replace(/(<col min="5" max="5" width="[\d.]+" style=)"\d+"/, `$1"${xf}"`)
          .replace(/<c r="(E\d+)" s="\d+"/g, '<c r="$1"'),
      );
    },
  },

  // Edits of the grid.
  {
    name: 'one cell edited (E15 says Read)',
    attack: true,
    libreoffice: true,
    edit: (parts) => replaceIn(parts, scopes(parts), `<v>${REGULATED}</v>`, '<v>Read</v>'),
  },
  {
    name: 'a row added (row 15 again as row 16)',
    attack: true,
    edit: (parts) =>
      editScopes(parts, (xml) => xml.replace('</sheetData>', `${rowXml(xml, 15).replace(/r="([A-Z]*)15"/g, 'r="$116"')}</sheetData>`)),
  },
  {
    name: 'a row removed (row 15)',
    attack: true,
    edit: (parts) => editScopes(parts, (xml) => xml.replace(rowXml(xml, 15), '')),
  },

  // Every other part a reader shows.
  {
    name: `a comment on E15 ("${FORGED}": comments part, VML drawing, relationships, as Excel writes them)`,
    attack: true,
    edit: (parts) => {
      parts.set(
        'xl/comments1.xml',
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<comments xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><authors><author>CFO</author></authors>' +
          `<commentList><comment ref="E15" authorId="0"><text><r><t>${FORGED}</t></r></text></comment></commentList></comments>`,
      );
      parts.set(
        'xl/drawings/vmlDrawing1.vml',
        '<xml xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:x="urn:schemas-microsoft-com:office:excel">' +
          '<o:shapelayout v:ext="edit"><o:idmap v:ext="edit" data="1"/></o:shapelayout>' +
          '<v:shapetype id="_x0000_t202" coordsize="21600,21600" o:spt="202" path="m,l,21600r21600,l21600,xe"><v:stroke joinstyle="miter"/><v:path gradientshapeok="t" o:connecttype="rect"/></v:shapetype>' +
          '<v:shape id="_x0000_s1025" type="#_x0000_t202" style="position:absolute;margin-left:300pt;margin-top:200pt;width:108pt;height:59.25pt;z-index:1;visibility:hidden" fillcolor="#ffffe1" o:insetmode="auto">' +
          '<v:fill color2="#ffffe1"/><v:shadow on="t" color="black" obscured="t"/><v:path o:connecttype="none"/><v:textbox style="mso-direction-alt:auto"><div style="text-align:left"></div></v:textbox>' +
          '<x:ClientData ObjectType="Note"><x:MoveWithCells/><x:SizeWithCells/><x:Anchor>5, 15, 13, 2, 7, 15, 17, 16</x:Anchor><x:AutoFill>False</x:AutoFill><x:Row>14</x:Row><x:Column>4</x:Column></x:ClientData></v:shape></xml>',
      );
      const rels = scopesRels(parts);
      addRelationship(parts, rels, 'comments', '../comments1.xml');
      const vml = addRelationship(parts, rels, 'vmlDrawing', '../drawings/vmlDrawing1.vml');
      insertInScopes(parts, `<legacyDrawing r:id="${vml}"/>`, 'end');
      addContentType(
        parts,
        `<Default Extension="vml" ContentType="${CT}.vmlDrawing"/><Override PartName="/xl/comments1.xml" ContentType="${CT}.spreadsheetml.comments+xml"/>`,
      );
    },
  },
  {
    name: 'a text box over the grid (a drawing part)',
    attack: true,
    edit: (parts) => {
      parts.set(
        'xl/drawings/drawing1.xml',
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">' +
          '<xdr:twoCellAnchor><xdr:from><xdr:col>4</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>14</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from><xdr:to><xdr:col>6</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>15</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:to>' +
          '<xdr:sp macro="" textlink=""><xdr:nvSpPr><xdr:cNvPr id="2" name="TextBox 1"/><xdr:cNvSpPr txBox="1"/></xdr:nvSpPr><xdr:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:solidFill><a:srgbClr val="FFFFFF"/></a:solidFill></xdr:spPr>' +
          '<xdr:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:t>Read</a:t></a:r></a:p></xdr:txBody></xdr:sp><xdr:clientData/></xdr:twoCellAnchor></xdr:wsDr>',
      );
      const id = addRelationship(parts, scopesRels(parts), 'drawing', '../drawings/drawing1.xml');
      insertInScopes(parts, `<drawing r:id="${id}"/>`, 'end');
      addContentType(parts, `<Override PartName="/xl/drawings/drawing1.xml" ContentType="${CT}.drawing+xml"/>`);
    },
  },
  {
    name: 'a data validation (a list, with a prompt) on E2:E15',
    attack: true,
    edit: (parts) =>
      insertInScopes(
        parts,
        `<dataValidations count="1"><dataValidation type="list" allowBlank="1" showInputMessage="1" promptTitle="Approved" prompt="${FORGED}" sqref="E2:E15"><formula1>"Read,Write"</formula1></dataValidation></dataValidations>`,
        'beforeMargins',
      ),
  },
  {
    name: 'a conditional format (white text) on E2:E15',
    attack: true,
    edit: (parts) => {
      replaceIn(parts, 'xl/styles.xml', '<dxfs count="0"/>', '<dxfs count="1"><dxf><font><color rgb="FFFFFFFF"/></font></dxf></dxfs>');
      insertInScopes(
        parts,
        '<conditionalFormatting sqref="E2:E15"><cfRule type="expression" dxfId="0" priority="1"><formula>TRUE</formula></cfRule></conditionalFormatting>',
        'beforeMargins',
      );
    },
  },
  {
    name: 'a hyperlink on C2 to an outside address',
    attack: true,
    edit: (parts) => {
      const id = addRelationship(parts, scopesRels(parts), 'hyperlink', 'https://phish.example/login', true);
      insertInScopes(parts, `<hyperlinks><hyperlink ref="C2" r:id="${id}" display="Read payroll"/></hyperlinks>`, 'beforeMargins');
    },
  },
  {
    name: 'merged cells D15:F15 (E15 and F15 under D15)',
    attack: true,
    edit: (parts) => insertInScopes(parts, '<mergeCells count="1"><mergeCell ref="D15:F15"/></mergeCells>', 'beforeMargins'),
  },
  {
    name: 'a print area on Scopes (A1:C5)',
    attack: true,
    // The evidence workbook prints Scopes' first page of columns down to its last row: now five rows.
    edit: (parts) => replaceIn(parts, 'xl/workbook.xml', /&apos;Scopes&apos;!\$A\$1:\$[A-Z]+\$\d+/, '&apos;Scopes&apos;!$A$1:$C$5'),
  },
  {
    name: 'a named range (Approved)',
    attack: true,
    edit: (parts) =>
      replaceIn(
        parts,
        'xl/workbook.xml',
        '<definedNames>',
        '<definedNames><definedName name="Approved">&apos;Scopes&apos;!$E$15</definedName>',
      ),
  },
  {
    name: 'a custom view (workbook and Scopes, rows and columns hidden in it)',
    attack: true,
    edit: (parts) => {
      const guid = '{6F1C2A5E-0D4B-4C2E-9A43-3B1E5C7D9A01}';
      replaceIn(
        parts,
        'xl/workbook.xml',
        /(<calcPr [^>]*\/>)/,
        `$1<customWorkbookViews><customWorkbookView name="${FORGED}" guid="${guid}" windowWidth="1200" windowHeight="800" activeSheetId="10"/></customWorkbookViews>`,
      );
      insertInScopes(
        parts,
        `<customSheetViews><customSheetView guid="${guid}" hiddenRows="1" hiddenColumns="1"><selection activeCell="A1" sqref="A1"/></customSheetView></customSheetViews>`,
        'beforeMargins',
      );
    },
  },

  // Re-saved by a program, every cell unchanged: the readers decide whether anything shown changed.
  { name: 'opened and saved by openpyxl', attack: false, resave: 'openpyxl' },
  { name: 'opened and saved by LibreOffice (xlsx to xlsx)', attack: false, resave: 'libreoffice', libreoffice: true },
];

// ---- the readers ----------------------------------------------------------------------------------

type View = Record<string, unknown>;
interface OracleEntry {
  file: string;
  view?: View;
  error?: string;
}

const run = promisify(execFile);

/** What openpyxl shows of each file (display_oracle.py: two processes, each reading half the files). */
async function oracle(files: string[]): Promise<Map<string, OracleEntry>> {
  const halves = [files.filter((_, i) => i % 2 === 0), files.filter((_, i) => i % 2 === 1)];
  const outs = await Promise.all(halves.map((half) => run(SYSTEM_PYTHON, [oracleScript, ...half], { maxBuffer: 1024 * 1024 * 1024 })));
  return new Map(outs.flatMap(({ stdout }) => (JSON.parse(stdout) as OracleEntry[]).map((e): [string, OracleEntry] => [e.file, e])));
}

/** LibreOffice headless, with a profile of its own (never the user's, never another test's). */
async function soffice(args: string[]): Promise<string> {
  const { stdout } = await run('soffice', [`-env:UserInstallation=file://${join(dir, 'lo-profile')}`, '--headless', ...args], {
    timeout: 120_000,
  });
  return stdout;
}

/** A sheet as LibreOffice shows it: its name and its rows of displayed text. */
interface LibreofficeSheet {
  name: string;
  rows: string[][];
}

/** Every sheet's CSV text as LibreOffice shows it (token 9: as shown), in tab order, by file. */
const LO_CSV = 'csv:Text - txt - csv (StarCalc):44,34,UTF8,1,,0,false,true,true,false,false,-1';
async function libreofficeGrids(files: string[]): Promise<Map<string, LibreofficeSheet[]>> {
  const outdir = join(dir, 'lo-csv');
  mkdirSync(outdir, { recursive: true });
  const log = await soffice(['--convert-to', LO_CSV, '--outdir', outdir, ...files]);
  const grids = new Map<string, LibreofficeSheet[]>(files.map((f) => [f, []]));
  // "Writing sheet NAME -> OUTDIR/BASE-NAME.csv", in tab order.
  for (const [, sheet, path] of log.matchAll(/^Writing sheet (.*) -> (.*)$/gm) as IterableIterator<[string, string, string]>) {
    const base = path.slice(outdir.length + 1, path.length - `-${sheet}.csv`.length);
    const file = files.find((f) => f.endsWith(`/${base}.xlsx`));
    if (!file) throw new Error(`LibreOffice wrote ${path} for no file given`);
    const rows = (parse(readFileSync(path, 'utf8'), { relaxColumnCount: true }) as string[][]).map((row) => {
      const cells = [...row];
      while (cells.length && cells[cells.length - 1] === '') cells.pop();
      return cells;
    });
    grids.get(file)!.push({ name: sheet, rows });
  }
  return grids;
}

/** Where two views differ, as paths (the first few). */
function differences(a: unknown, b: unknown, path = '', out: string[] = []): string[] {
  if (out.length >= 6) return out;
  if (isDeepStrictEqual(a, b)) return out;
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    for (const key of new Set([...Object.keys(x), ...Object.keys(y)])) {
      const label = Array.isArray(a) && typeof (x[key] as { name?: unknown })?.name === 'string' ? (x[key] as { name: string }).name : key;
      differences(x[key], y[key], `${path}/${label}`, out);
    }
    return out;
  }
  out.push(`${path}: ${JSON.stringify(a)?.slice(0, 120)} -> ${JSON.stringify(b)?.slice(0, 120)}`);
  return out;
}

// ---- the corpus -----------------------------------------------------------------------------------

const VARIANTS = ['unsigned', 'signed'] as const;
type Variant = (typeof VARIANTS)[number];

interface Crafted {
  kase: Case;
  variant: Variant;
  file: string;
  /** What openpyxl shows differently from the export (empty: the same). */
  oracleDiff: string[];
  /** The same for LibreOffice, when it read the file. */
  libreofficeDiff?: string[];
}

const exports: Record<Variant, string> = { unsigned: join(dir, 'unsigned-export.xlsx'), signed: join(dir, 'signed-export.xlsx') };
const corpus: Crafted[] = [];
const connection = { name: 'acme', tenantHost: 'acme.example.test', clientId: 'abc123@acme.example.test/attest', serverUrl: null };

beforeAll(async () => {
  const storeFile = join(dir, 'store.sqlite');
  seedFixtureStore(storeFile, 12);
  const store = openStore(storeFile);
  try {
    await exportReport({ kind: 'evidence', out: exports.unsigned, store, connection, appVersion: '9.9.9' });
    await exportReport({ kind: 'evidence', out: exports.signed, store, connection, appVersion: '9.9.9', signer: ephemeralSigner() });
  } finally {
    store.close();
  }

  const resavedByLibreoffice = join(dir, 'lo-xlsx');
  await soffice(['--convert-to', 'xlsx', '--outdir', resavedByLibreoffice, exports.unsigned, exports.signed]);
  for (const [index, kase] of CASES.entries()) {
    for (const variant of VARIANTS) {
      const file = join(dir, `${variant}-case${index}.xlsx`);
      const from = exports[variant];
      if (kase.edit) await editWorkbook(from, file, kase.edit);
      else if (kase.resave === 'openpyxl')
        execFileSync(SYSTEM_PYTHON, ['-c', 'import sys, openpyxl; openpyxl.load_workbook(sys.argv[1]).save(sys.argv[2])', from, file]);
      else if (kase.resave === 'libreoffice') copyFileSync(join(resavedByLibreoffice, `${variant}-export.xlsx`), file);
      else copyFileSync(from, file);
      corpus.push({ kase, variant, file, oracleDiff: [] });
    }
  }

  // Both readers at once: openpyxl on every file, LibreOffice on its subset.
  const [views, grids] = await Promise.all([
    oracle([...Object.values(exports), ...corpus.map((c) => c.file)]),
    libreofficeGrids([...Object.values(exports), ...corpus.filter((c) => c.kase.libreoffice).map((c) => c.file)]),
  ]);
  const viewOf = (file: string): unknown => views.get(file)?.view ?? { unreadable: views.get(file)?.error };
  for (const [file, sheets] of grids) if (sheets.length === 0) throw new Error(`LibreOffice wrote no sheet of ${file}`);
  for (const crafted of corpus) {
    crafted.oracleDiff = differences(viewOf(exports[crafted.variant]), viewOf(crafted.file));
    if (crafted.kase.libreoffice) crafted.libreofficeDiff = differences(grids.get(exports[crafted.variant]), grids.get(crafted.file));
  }
}, 240_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** verify's verdict in a few words, for a failure message. */
function verdict(result: VerifyResult): string {
  const sheets = result.sheets.filter((s) => s.status !== 'intact').map((s) => `${s.name}: ${s.status}`);
  return `verify: ${result.status}, signature ${result.signature.status}${result.reason ? ` (${result.reason})` : ''}; sheets not intact: [${sheets.join('; ')}]; problems: ${JSON.stringify(result.problems.slice(0, 6))}`;
}

describe('verify says intact exactly when the readers show the export', () => {
  for (const kase of CASES) {
    for (const variant of VARIANTS) {
      it(`${kase.name} (${variant})`, async () => {
        const crafted = corpus.find((c) => c.kase === kase && c.variant === variant)!;
        const shown = [
          ...crafted.oracleDiff.map((d) => `openpyxl ${d}`),
          ...(crafted.libreofficeDiff ?? []).map((d) => `LibreOffice ${d}`),
        ];
        const result = await verifyWorkbook(crafted.file);
        const message = `${kase.name} (${variant}): the readers show ${shown.length ? `a change: ${shown.join(' | ')}` : 'the export'}; ${verdict(result)}`;
        if (shown.length === 0 && !kase.ambiguous) {
          expect(result.status, message).toBe('intact');
          if (variant === 'signed') expect(result.signature.status, message).toBe('valid');
        } else {
          expect(result.status, `${message}${kase.ambiguous ? ` (ambiguous: ${kase.ambiguous})` : ''}`).not.toBe('intact');
        }
        kase.check?.(result);
      });
    }
  }
});

describe('the corpus: every attack changes what a reader shows', () => {
  for (const kase of CASES.filter((c) => c.attack)) {
    for (const variant of VARIANTS) {
      it(`${kase.name} (${variant})`, () => {
        const crafted = corpus.find((c) => c.kase === kase && c.variant === variant)!;
        expect(
          crafted.oracleDiff.length + (crafted.libreofficeDiff?.length ?? 0),
          `${kase.name} (${variant}) changes nothing a reader shows`,
        ).toBeGreaterThan(0);
      });
    }
  }
});
