import { pageFooter } from './workbook';
import type { DefinedName, PackageInfo, XlsxSheet } from './xlsx-reader';

/**
 * What an Attest workbook is made of, and nothing else: the parts exceljs writes for it, their
 * content types and relationships, visible sheets with distinct names, no defined names. The
 * expected parts derive from the sheets the Evidence sheet lists, so a report with more sheets
 * (a cover sheet, child sheets) needs no change here. Whatever else a file holds (a macro, a
 * shared-strings part, an external link, a hidden copy of a sheet) is named as a problem.
 */

const RELS = 'http://schemas.openxmlformats.org';
const CT = 'application/vnd.openxmlformats-officedocument';

export const CONTENT_TYPES = {
  relationships: 'application/vnd.openxmlformats-package.relationships+xml',
  core: 'application/vnd.openxmlformats-package.core-properties+xml',
  extended: `${CT}.extended-properties+xml`,
  workbook: `${CT}.spreadsheetml.sheet.main+xml`,
  worksheet: `${CT}.spreadsheetml.worksheet+xml`,
  styles: `${CT}.spreadsheetml.styles+xml`,
  theme: `${CT}.theme+xml`,
  sharedStrings: `${CT}.spreadsheetml.sharedStrings+xml`,
  custom: `${CT}.custom-properties+xml`,
} as const;

const REL_TYPES = {
  officeDocument: `${RELS}/officeDocument/2006/relationships/officeDocument`,
  core: `${RELS}/package/2006/relationships/metadata/core-properties`,
  extended: `${RELS}/officeDocument/2006/relationships/extended-properties`,
  styles: `${RELS}/officeDocument/2006/relationships/styles`,
  theme: `${RELS}/officeDocument/2006/relationships/theme`,
  worksheet: `${RELS}/officeDocument/2006/relationships/worksheet`,
  sharedStrings: `${RELS}/officeDocument/2006/relationships/sharedStrings`,
  custom: `${RELS}/officeDocument/2006/relationships/custom-properties`,
} as const;

/**
 * Parts other programs write on a re-save that change nothing shown by themselves: a shared
 * strings table (its strings are read as cells), a custom properties part (its properties are
 * hashed with the others), and no theme (verify then takes Office's default colours).
 */
const OPTIONAL_PARTS = new Set(['xl/sharedStrings.xml', 'docProps/custom.xml', 'xl/theme/theme1.xml']);

/** The parts of a workbook with these worksheet parts, each with its content type. */
export function expectedParts(sheetParts: readonly string[]): Map<string, string> {
  return new Map<string, string>([
    ['[Content_Types].xml', ''],
    ['_rels/.rels', CONTENT_TYPES.relationships],
    ['docProps/core.xml', CONTENT_TYPES.core],
    ['docProps/app.xml', CONTENT_TYPES.extended],
    ['xl/workbook.xml', CONTENT_TYPES.workbook],
    ['xl/_rels/workbook.xml.rels', CONTENT_TYPES.relationships],
    ['xl/styles.xml', CONTENT_TYPES.styles],
    ['xl/theme/theme1.xml', CONTENT_TYPES.theme],
    ['xl/sharedStrings.xml', CONTENT_TYPES.sharedStrings],
    ['docProps/custom.xml', CONTENT_TYPES.custom],
    ...sheetParts.map((part): [string, string] => [part, CONTENT_TYPES.worksheet]),
  ]);
}

/** The relationships a part may have: type -> the targets allowed. */
function expectedRelationships(sheetParts: readonly string[]): { root: Map<string, string[]>; workbook: Map<string, string[]> } {
  return {
    root: new Map([
      [REL_TYPES.officeDocument, ['xl/workbook.xml']],
      [REL_TYPES.core, ['docProps/core.xml']],
      [REL_TYPES.extended, ['docProps/app.xml']],
      [REL_TYPES.custom, ['docProps/custom.xml']],
    ]),
    workbook: new Map([
      [REL_TYPES.styles, ['xl/styles.xml']],
      [REL_TYPES.theme, ['xl/theme/theme1.xml']],
      [REL_TYPES.sharedStrings, ['xl/sharedStrings.xml']],
      [REL_TYPES.worksheet, [...sheetParts]],
    ]),
  };
}

const shortType = (type: string): string => type.slice(type.lastIndexOf('/') + 1);

/**
 * Problems of the workbook's structure, each naming what it found: sheets (states, names), parts,
 * content types, relationships, and workbook-level extras. `listed` are the sheets the Evidence
 * sheet lists (by name); their parts are the expected worksheet parts.
 */
export function structureProblems(pkg: PackageInfo, sheets: readonly XlsxSheet[], listed: readonly string[]): string[] {
  const problems: string[] = [];
  const names = new Map<string, number>();
  for (const sheet of sheets) {
    if (sheet.state !== 'visible') problems.push(`sheet '${sheet.name}' is ${sheet.state} (Attest writes only visible sheets)`);
    const key = sheet.name.toLowerCase();
    names.set(key, (names.get(key) ?? 0) + 1);
    if (names.get(key) === 2) problems.push(`two sheets are named '${sheet.name}'`);
  }
  if (pkg.hiddenWindow) problems.push('the workbook window is hidden');
  for (const extra of pkg.workbookExtras) problems.push(`the workbook holds <${extra}>`);
  const wanted = new Set(listed);
  const sheetParts = sheets.filter((s) => wanted.has(s.name) && s.part).map((s) => s.part as string);
  const expected = expectedParts(sheetParts);
  const present = new Set(pkg.parts);
  for (const part of pkg.parts) {
    if (part.endsWith('/')) continue; // a folder entry holds nothing
    const type = expected.get(part);
    if (type === undefined) problems.push(`unexpected part ${part}`);
    else if (type && pkg.contentType(part) !== type)
      problems.push(`the part ${part} has the content type ${pkg.contentType(part) ?? 'none'}`);
  }
  for (const part of expected.keys()) if (!present.has(part) && !OPTIONAL_PARTS.has(part)) problems.push(`missing part ${part}`);
  problems.push(...pkg.packageProblems);

  const allowed = expectedRelationships(sheetParts);
  const check = (from: string, rels: PackageInfo['rootRels'], rules: Map<string, string[]>): void => {
    const seen = new Set<string>();
    for (const rel of rels) {
      const targets = rules.get(rel.type);
      const twice = seen.has(`${rel.type} ${rel.target}`);
      seen.add(`${rel.type} ${rel.target}`);
      if (rel.external || !targets?.includes(rel.target) || twice) {
        problems.push(`unexpected relationship in ${from}: ${shortType(rel.type)} to ${rel.external ? 'external ' : ''}${rel.target}`);
      }
    }
  };
  check('_rels/.rels', pkg.rootRels, allowed.root);
  check('xl/_rels/workbook.xml.rels', pkg.workbookRels, allowed.workbook);
  return problems;
}

/** The sheet and range of a reference such as `'Sheet ''1'''!$1:$1` or `Sheet1!$1:$1` (null: not one). */
function sheetRange(text: string): { sheet: string; range: string } | null {
  const m = /^(?:'((?:[^']|'')+)'|([^'!]+))!(.+)$/.exec(text.trim());
  if (!m) return null;
  return { sheet: m[1] !== undefined ? m[1].replace(/''/g, "'") : m[2]!, range: m[3]! };
}

/**
 * Defined names: before attest-canonical/3 Attest wrote none; since, only the print titles of a
 * sheet, which are its row 1 (`'Sheet'!$1:$1`), once per sheet.
 */
export function definedNameProblems(
  names: readonly DefinedName[],
  sheets: readonly XlsxSheet[],
  printable: boolean,
  rowsOf: ReadonlyMap<string, number | undefined> = new Map(),
): string[] {
  if (names.length === 0) return [];
  if (!printable) return ['the workbook has defined names (Attest writes none)'];
  const problems: string[] = [];
  const seen = new Set<number>();
  const areas = new Set<string>();
  for (const n of names) {
    const sheet = n.localSheetId !== null && Number.isInteger(n.localSheetId) ? sheets[n.localSheetId] : undefined;
    const ref = sheetRange(n.text);
    // A spreadsheet program's hidden name for the range of a sheet's own filter buttons shows nothing.
    if (n.name === '_xlnm._FilterDatabase' && n.hidden && sheet && ref?.sheet === sheet.name) continue;
    // A sheet prints a part of it (SheetSpec.paper), once: its header row, or its first columns
    // down to its last row (the hash table's Rows, and the header).
    const area =
      n.name === '_xlnm.Print_Area' && sheet && ref?.sheet === sheet.name ? /^\$A\$?1:\$[A-Z]{1,3}\$?(\d{1,7})$/.exec(ref.range) : null;
    if (area && (area[1] === '1' || Number(area[1]) === (rowsOf.get(sheet!.name) ?? NaN) + 1) && !areas.has(sheet!.name)) {
      areas.add(sheet!.name);
      continue;
    }
    if (n.name !== '_xlnm.Print_Titles') {
      problems.push(`the workbook has the defined name '${n.name.slice(0, 80)}' (Attest writes only print titles)`);
    } else if (!sheet || seen.has(n.localSheetId!)) {
      problems.push('the workbook has print titles that belong to no sheet, or twice to one');
    } else if (ref?.sheet !== sheet.name || ref.range !== '$1:$1') {
      problems.push(`the print titles of '${sheet.name}' are ${n.text.slice(0, 80)} (Attest repeats row 1 only)`);
    }
    if (n.localSheetId !== null) seen.add(n.localSheetId);
  }
  return problems;
}

/**
 * A sheet's page header and footer: before attest-canonical/3 Attest wrote none; since, every
 * sheet has the footer `pageFooter(sheet, footer)` (footer: the Evidence sheet's "Page footer"
 * row; none when it has no such row) and no header. Read after the sheet's rows.
 */
export function pageProblems(sheet: XlsxSheet, printable: boolean, footer: string | null): string[] {
  const texts = Object.entries(sheet.page).filter(([key, value]) => !key.startsWith('@') && value !== '');
  const expected = printable && footer ? pageFooter(sheet.name, footer) : null;
  const found = texts.map(([key]) => key).join(', ');
  if (!expected) return texts.length ? [`'${sheet.name}' has a page header or footer (${found}), which Attest never writes there`] : [];
  const odd = sheet.page.oddFooter ?? null;
  if (texts.length !== 1 || odd !== expected)
    return [`the page header or footer of '${sheet.name}' is not the one the Evidence sheet gives (${found || 'none'})`];
  return [];
}
