import {
  CANONICAL_FORM,
  CANONICAL_FORM_1,
  CANONICAL_FORM_1_TEXT,
  CANONICAL_FORM_2,
  CANONICAL_FORM_3,
  isPrintable,
  SheetHasher,
  overallHash,
  type CanonicalForm,
} from './canonical';
import { checkInputFile, InputFileError } from '../input-file';
import { InvalidInputError } from './errors';
import { fingerprintOf, normaliseFingerprint, signatureValid, signedMessage } from './signing';
import { definedNameProblems, pageProblems, structureProblems } from './structure';
import {
  DATE_FORMAT,
  EVIDENCE_FORMAT,
  EVIDENCE_FORMAT_1,
  EVIDENCE_FORMAT_2,
  EVIDENCE_FORMAT_3,
  EVIDENCE_SHEET,
  HASHES_MARKER,
  MANIFEST_ENTRY,
  OVERALL_ENTRY,
  PAGE_FOOTER,
  SIGNATURE_ENTRY,
  SIGNED_BY,
  SIGNING_PUBLIC_KEY,
} from './workbook';
import { AmbiguousWorkbook, UnreadableWorkbook, XlsxReader, type XlsxRow, type XlsxSheet } from './xlsx-reader';
import { PROPERTIES_ENTRY, propertiesSha256, type DocumentProperties } from './properties';
import { locateByDigests, locateChanges, MAX_CHANGES, type CellChange } from './locate';
import { LOCATOR_SHEET, parseLocator, type SheetLocator } from './digests';
import { READ_LIMITS } from './zip';

/**
 * `attest verify`: reads an Attest workbook's cells back, recomputes the canonical hash of every
 * sheet listed on its Evidence sheet (the Evidence sheet itself included, but for its hash cells)
 * and says which sheets no longer match; refuses whatever Attest never writes (formulas, hidden
 * sheets, rows or columns, twin sheet names, extra parts or relationships); and checks the
 * signature when the workbook carries one. The hashes prove the cells are those written at
 * export; only a signature checked against a key the reader trusts tells who exported them.
 * Files beyond the reading limits (zip.ts) are refused as unreadable, never half-read.
 */

export type SheetStatus = 'intact' | 'altered' | 'missing' | 'unexpected';

export interface SheetCheck {
  name: string;
  status: SheetStatus;
  expectedSha256?: string;
  actualSha256?: string;
  expectedRows?: number;
  actualRows?: number;
}

export interface SignatureCheck {
  /** not-signed; valid (signed, and the signature matches the cells); invalid; other-key (valid, but not by the key given). */
  status: 'not-signed' | 'valid' | 'invalid' | 'other-key';
  /** The fingerprint of the key the workbook names as its signer. */
  fingerprint: string | null;
  /** The fingerprint the verifier asked for (verify --key). */
  expected: string | null;
}

export interface VerifyResult {
  file: string;
  /** 'intact': every hash matches and nothing foreign is there; 'altered': something changed; 'not-attest': not our workbook, or unreadable. */
  status: 'intact' | 'altered' | 'not-attest';
  reason?: string;
  /** The canonical form the workbook was written in. */
  form: string | null;
  sheets: SheetCheck[];
  /** What Attest never writes, found in the file (each names what and where). */
  problems: string[];
  warnings: string[];
  signature: SignatureCheck;
  /** Every check asked for passed: intact, and signed by the given key when one was given. */
  ok: boolean;
  /** What the result shows about who exported the workbook, in plain words. */
  notice: string;
  expectedOverall?: string;
  actualOverall?: string;
  /** A few fields of the manifest, for display (report, tenant, generated at…). */
  manifest: Record<string, string>;
  /**
   * Another program saved the file after export (its stamp in the document properties): then
   * "intact" means data intact, every shown cell, sheet and property as exported. Null: as written.
   */
  resaved: ResaveStamp | null;
  /** Each change located to its cell or row, with the value as exported where the exporting store was at hand. */
  changes: CellChange[];
  /** How the changes were located ("cells located against the store of the connection acme"), or why they could not be. */
  located: string | null;
  /**
   * The document properties a reader shows, as the file holds them now ("core:title": …), and
   * whether they are those exported (hashed since attest-canonical/4; before, held to what Attest wrote).
   */
  properties: { status: 'intact' | 'altered'; shown: Record<string, string> };
}

export interface ResaveStamp {
  /** The program the file names (docProps/app.xml), e.g. "LibreOffice/7.4.7.2…"; programs that copy Excel's name say "Microsoft Excel". */
  application: string | null;
  modifiedBy: string | null;
  modified: string | null;
}

export interface VerifyOptions {
  /** The fingerprint of the key the workbook must be signed with. */
  key?: string | null;
  onProgress?: (sheet: string, rows: number) => void;
  /**
   * Where the store that exported the workbook is at hand: the same report exported again from it
   * (by the manifest's connection and recorded parameters), so a changed cell is told with its old
   * value. Null: no such store. Called only when a sheet changed.
   */
  original?: (manifest: Record<string, string>) => Promise<OriginalWorkbook | null>;
}

/** A workbook exported again for comparison, removed by `dispose`. */
export interface OriginalWorkbook {
  file: string;
  /** What it was exported from, in words ("the store of the connection acme"). */
  source: string;
  dispose(): Promise<void>;
}

const NOTICE_UNSIGNED_HASHES =
  'the hashes show whether the cells are unchanged since export, and nothing about who exported them ' +
  '(whoever edits the file can compute new ones).';
export const NOTICE_UNSIGNED = `Not signed: ${NOTICE_UNSIGNED_HASHES}`;

const LEGACY_WARNING =
  `exported before strict verification (${CANONICAL_FORM_1}): its hashes cover the cell values only; verified under that ` +
  'form, with the checks for what Attest never writes; it carries no signature (export it again for both)';

/** Rows of the Evidence sheet verify reads at most. */
const MAX_EVIDENCE_ROWS = 10_000;
/** Problems listed at most (then a count). */
const MAX_PROBLEMS = 50;

const text = (value: unknown): string =>
  value === null || value === undefined ? '' : value instanceof Date ? value.toISOString() : String(value);
const isSha = (value: unknown): value is string => typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);

interface HashEntry {
  name: string;
  sha256: string;
  rows: number | undefined;
}

/** The Evidence sheet, parsed by its layout: manifest rows, then the hash table. */
interface EvidenceTable {
  form: CanonicalForm;
  manifest: Record<string, string>;
  markerIndex: number;
  entries: HashEntry[];
  expectedOverall: string;
  signature: string | null;
  /** Rows whose column B is a hash cell (taken as empty when the Evidence sheet is hashed). */
  hashRows: Set<number>;
  /** Rows after the overall (and signature) row. */
  tail: XlsxRow[];
}

/** The canonical form of each Format an Evidence sheet can carry. */
const FORMS: Record<string, CanonicalForm> = {
  [EVIDENCE_FORMAT]: CANONICAL_FORM,
  [EVIDENCE_FORMAT_3]: CANONICAL_FORM_3,
  [EVIDENCE_FORMAT_2]: CANONICAL_FORM_2,
  [EVIDENCE_FORMAT_1]: CANONICAL_FORM_1,
};

class Refusal extends Error {
  constructor(
    readonly status: 'altered' | 'not-attest',
    message: string,
  ) {
    super(message);
  }
}

function parseEvidence(rows: XlsxRow[]): EvidenceTable {
  const markerIndex = rows.findIndex((r) => r.cells[0] === HASHES_MARKER);
  const manifest: Record<string, string> = {};
  for (const row of rows.slice(0, markerIndex < 0 ? rows.length : markerIndex)) {
    const key = text(row.cells[0]);
    if (key && !(key in manifest)) manifest[key] = text(row.cells[1]);
  }
  const form = FORMS[manifest.Format ?? ''];
  if (!form)
    throw new Refusal(
      'not-attest',
      `the Evidence sheet does not carry Format ${EVIDENCE_FORMAT} (or the earlier ${EVIDENCE_FORMAT_3}, ${EVIDENCE_FORMAT_2}, ${EVIDENCE_FORMAT_1})`,
    );
  const table: EvidenceTable = {
    form,
    manifest,
    markerIndex,
    entries: [],
    expectedOverall: '',
    signature: null,
    hashRows: new Set(),
    tail: [],
  };
  if (markerIndex < 0) throw new Refusal('altered', 'the hash table of the Evidence sheet is missing');
  const header = rows[markerIndex + 1]?.cells ?? [];
  if (header[0] !== 'Sheet' || header[1] !== 'SHA-256') throw new Refusal('altered', 'the hash table of the Evidence sheet is incomplete');
  let i = markerIndex + 2;
  for (; i < rows.length && rows[i]!.cells[0] !== OVERALL_ENTRY; i += 1) {
    const { number, cells } = rows[i]!;
    const [name, sha, count] = cells;
    if (typeof name !== 'string' || !isSha(sha))
      throw new Refusal('altered', `the hash table of the Evidence sheet is malformed at row ${number}`);
    table.entries.push({ name, sha256: sha, rows: typeof count === 'number' ? count : undefined });
    table.hashRows.add(number);
  }
  const overall = rows[i];
  if (!overall || !isSha(overall.cells[1]) || table.entries.length === 0)
    throw new Refusal('altered', 'the hash table of the Evidence sheet is incomplete');
  table.expectedOverall = overall.cells[1];
  table.hashRows.add(overall.number);
  i += 1;
  if (rows[i]?.cells[0] === SIGNATURE_ENTRY) {
    table.signature = text(rows[i]!.cells[1]);
    table.hashRows.add(rows[i]!.number);
    i += 1;
  }
  table.tail = rows.slice(i);
  return table;
}

/** The Evidence sheet's own hash: attest-canonical/2 hashes it whole but for its hash cells; /1 its manifest rows. */
function hashEvidence(sheet: XlsxSheet, rows: XlsxRow[], table: EvidenceTable, problems: string[]): { sha256: string; rows: number } {
  const hasher = new SheetHasher(sheet, table.form);
  for (const [index, row] of rows.entries()) {
    if (table.form === CANONICAL_FORM_1) {
      if (index < table.markerIndex) hasher.add(row.number, row.cells);
      continue;
    }
    if (!table.hashRows.has(row.number)) {
      hasher.add(row.number, row.cells, row.formats);
      continue;
    }
    if (typeof row.cells[1] !== 'string' || row.formats[1] !== undefined)
      problems.push(`the hash cell 'Evidence'!B${row.number} is not plain text`);
    const cells = [...row.cells];
    cells[1] = null;
    hasher.add(
      row.number,
      cells,
      row.formats.map((f, i) => (i === 1 ? undefined : f)),
    );
  }
  return { sha256: hasher.digest(), rows: hasher.rows };
}

async function hashSheet(
  reader: XlsxReader,
  sheet: XlsxSheet,
  form: CanonicalForm,
  problems: string[],
  onProgress?: (sheet: string, rows: number) => void,
): Promise<{ sha256: string; rows: number }> {
  const hasher = new SheetHasher(sheet, form);
  for await (const row of reader.rows(sheet, (problem) => problems.push(problem))) {
    hasher.add(row.number, row.cells, row.formats);
    if (form === CANONICAL_FORM_1) legacyFormats(sheet.name, row, problems);
    if (onProgress && hasher.rows % 50_000 === 0) onProgress(sheet.name, hasher.rows);
  }
  return { rows: hasher.rows, sha256: hasher.digest() };
}

/** attest-canonical/1 hashes no formats: only General and the date format Attest wrote pass. */
function legacyFormats(sheet: string, row: XlsxRow, problems: string[]): void {
  row.formats.forEach((format) => {
    if (format !== undefined && format !== DATE_FORMAT && problems.length < MAX_PROBLEMS * 2)
      problems.push(`'${sheet}' row ${row.number} has the number format ${JSON.stringify(format)}, which Attest never writes`);
  });
}

/** The tail Attest wrote after the hash table of an attest-canonical/1 workbook (it is not hashed). */
function legacyTail(table: EvidenceTable, problems: string[]): void {
  const tail = table.tail.map((r) => r.cells.map(text).join('\t').replace(/\t+$/, ''));
  const expected = [`Canonical form\t${CANONICAL_FORM_1_TEXT}`, 'Check\tattest verify <file.xlsx> recomputes every hash from the cells.'];
  if (tail.join('\n') !== expected.join('\n')) problems.push('the Evidence sheet was edited below its hash table');
}

function checkSignature(table: EvidenceTable, actualOverall: string, key: string | null, problems: string[]): SignatureCheck {
  const named = table.manifest[SIGNED_BY] ?? '';
  const fingerprint = normaliseFingerprint(named);
  const check: SignatureCheck = { status: 'not-signed', fingerprint, expected: key };
  if (!fingerprint) {
    if (table.signature !== null) problems.push('the Evidence sheet has a signature but names no signing key');
    return check;
  }
  const publicKey = table.manifest[SIGNING_PUBLIC_KEY] ?? '';
  let matches = false;
  try {
    matches = fingerprintOf(publicKey) === fingerprint;
  } catch {
    matches = false;
  }
  const valid = matches && table.signature !== null && signatureValid(publicKey, signedMessage(table.form, actualOverall), table.signature);
  check.status = !valid ? 'invalid' : key && key !== fingerprint ? 'other-key' : 'valid';
  return check;
}

function noticeOf(signature: SignatureCheck): string {
  const { status, fingerprint, expected } = signature;
  if (status === 'valid' && expected)
    return `Signed by the key you gave (${expected}): the workbook is as the holder of that key exported it.`;
  if (status === 'valid')
    return (
      `Signed with the key ${fingerprint}: give the exporter's fingerprint to verify --key to know who exported it; ` +
      'without that, the signature says nothing about who did.'
    );
  if (status === 'other-key')
    return `Signed with the key ${fingerprint}, not with the key you gave (${expected}): not as the holder of that key exported it.`;
  if (status === 'invalid')
    return 'The signature does not match the workbook: it was changed after it was signed, or the signature was copied from another workbook.';
  return expected ? `Not signed, so not by the key you gave (${expected}): ${NOTICE_UNSIGNED_HASHES}` : NOTICE_UNSIGNED;
}

export async function verifyWorkbook(file: string, options: VerifyOptions = {}): Promise<VerifyResult> {
  const key = options.key ? normaliseFingerprint(options.key) : null;
  if (options.key && !key) throw new InvalidInputError(`'${options.key.slice(0, 80)}' is not a key fingerprint (SHA256:<64 hex digits>)`);
  try {
    checkInputFile(file, 'the workbook', READ_LIMITS.fileBytes);
    return await verifyOpened(await XlsxReader.open(file), file, key, options);
  } catch (error) {
    if (error instanceof InputFileError) return refused(file, 'not-attest', error.message, key);
    if (error instanceof UnreadableWorkbook) return refused(file, 'not-attest', error.message, key);
    if (error instanceof AmbiguousWorkbook) return refused(file, 'altered', `the file can be read two ways: ${error.message}`, key);
    if (error instanceof Refusal) return refused(file, error.status, error.message, key);
    throw error;
  }
}

async function readEvidenceRows(reader: XlsxReader, problems: string[]): Promise<{ sheet: XlsxSheet; rows: XlsxRow[] }> {
  const sheet = reader.sheets.find((s) => s.name === EVIDENCE_SHEET);
  if (!sheet) throw new Refusal('not-attest', `no '${EVIDENCE_SHEET}' sheet`);
  const rows: XlsxRow[] = [];
  for await (const row of reader.rows(sheet, (problem) => problems.push(problem))) {
    rows.push(row);
    if (rows.length > MAX_EVIDENCE_ROWS) throw new Refusal('not-attest', 'the Evidence sheet is not an Attest manifest');
  }
  return { sheet, rows };
}

async function verifyOpened(reader: XlsxReader, file: string, key: string | null, options: VerifyOptions): Promise<VerifyResult> {
  const { onProgress } = options;
  const problems: string[] = [];
  const evidence = await readEvidenceRows(reader, problems);
  const table = parseEvidence(evidence.rows);
  const legacy = table.form === CANONICAL_FORM_1;
  const selfEntry = legacy ? MANIFEST_ENTRY : EVIDENCE_SHEET;
  if (!table.entries.some((e) => e.name === selfEntry)) throw new Refusal('altered', 'the hash table of the Evidence sheet is incomplete');
  const listed = [EVIDENCE_SHEET, ...table.entries.map((e) => e.name).filter((n) => n !== selfEntry)];
  const printable = isPrintable(table.form);
  const footer = printable ? (table.manifest[PAGE_FOOTER] ?? null) : null;
  problems.unshift(
    ...structureProblems(reader.package, reader.sheets, listed),
    ...definedNameProblems(reader.package.definedNames, reader.sheets, printable, new Map(table.entries.map((e) => [e.name, e.rows]))),
    ...pageProblems(evidence.sheet, printable, footer),
  );
  if (new Set(table.entries.map((e) => e.name)).size !== table.entries.length) problems.push('the hash table lists a sheet twice');

  const checks: SheetCheck[] = [];
  const actual: { name: string; sha256: string }[] = [];
  const properties = reader.properties!;
  problems.push(...properties.unknown.map((what) => `the document properties hold ${what}, which verify does not read`));
  const legacyFindings = table.form !== CANONICAL_FORM ? legacyProperties(properties) : [];
  problems.push(...legacyFindings);
  let propertiesIntact = legacyFindings.length === 0;
  if (table.form === CANONICAL_FORM && !table.entries.some((e) => e.name === PROPERTIES_ENTRY)) propertiesIntact = false;
  for (const entry of table.entries) {
    if (entry.name === PROPERTIES_ENTRY && table.form === CANONICAL_FORM) {
      const sha256 = propertiesSha256(properties.shown);
      actual.push({ name: entry.name, sha256 });
      propertiesIntact = sha256 === entry.sha256;
      continue;
    }
    const sheet = reader.sheets.find((s) => s.name === entry.name);
    if (entry.name !== selfEntry && !sheet) {
      checks.push({ name: entry.name, status: 'missing', expectedSha256: entry.sha256, expectedRows: entry.rows });
      actual.push({ name: entry.name, sha256: '' });
      continue;
    }
    const own = entry.name === selfEntry;
    const hashed = own
      ? hashEvidence(evidence.sheet, evidence.rows, table, problems)
      : await hashSheet(reader, sheet!, table.form, problems, onProgress);
    if (!own) problems.push(...pageProblems(sheet!, printable, footer));
    // The Evidence sheet counts all its rows; a data sheet its rows below the header.
    const rows = own ? hashed.rows : Math.max(0, hashed.rows - 1);
    actual.push({ name: entry.name, sha256: hashed.sha256 });
    checks.push({
      name: entry.name,
      status: hashed.sha256 === entry.sha256 ? 'intact' : 'altered',
      expectedSha256: entry.sha256,
      actualSha256: hashed.sha256,
      expectedRows: entry.rows,
      actualRows: rows,
    });
    if (entry.rows !== undefined && entry.rows !== rows)
      problems.push(`the hash table says '${entry.name}' has ${entry.rows} rows; it has ${rows}`);
  }
  for (const sheet of reader.sheets) {
    if (sheet.name !== EVIDENCE_SHEET && !table.entries.some((e) => e.name === sheet.name))
      checks.push({ name: sheet.name, status: 'unexpected' });
  }
  if (legacy) legacyTail(table, problems);

  const actualOverall = overallHash(actual);
  const signature = checkSignature(table, actualOverall, key, problems);
  const hashesOk =
    checks.every((c) => c.status === 'intact') &&
    propertiesIntact &&
    overallHash(table.entries) === table.expectedOverall &&
    actualOverall === table.expectedOverall;
  const intact = hashesOk && problems.length === 0 && signature.status !== 'invalid';
  const result: VerifyResult = {
    file,
    status: intact ? 'intact' : 'altered',
    form: table.form,
    sheets: checks,
    problems:
      problems.length > MAX_PROBLEMS ? [...problems.slice(0, MAX_PROBLEMS), `… and ${problems.length - MAX_PROBLEMS} more`] : problems,
    warnings: legacy ? [LEGACY_WARNING] : [],
    signature,
    ok: intact && (!key || signature.status === 'valid'),
    notice: noticeOf(signature),
    expectedOverall: table.expectedOverall,
    actualOverall,
    manifest: table.manifest,
    resaved: resaveStamp(properties),
    properties: { status: propertiesIntact ? 'intact' : 'altered', shown: properties.shown },
    changes: [],
    located: null,
  };
  if (!intact) result.reason = reasonOf(checks, problems, hashesOk, signature, propertiesIntact);
  await locate(reader, result, table, options.original);
  return result;
}

/**
 * Tells each change of the altered sheets: against the workbook exported again from the store
 * that exported it, where that store is at hand (old and new values); else, or for a sheet that
 * store no longer holds as exported, by the digests of the workbook's own Locator sheet (the rows,
 * and where they tell it the cells, with their values now).
 */
async function locate(reader: XlsxReader, result: VerifyResult, table: EvidenceTable, original: VerifyOptions['original']): Promise<void> {
  const altered = result.sheets.filter((s) => s.status === 'altered' && s.name !== EVIDENCE_SHEET && s.name !== MANIFEST_ENTRY);
  if (altered.length === 0 || table.form === CANONICAL_FORM_1) return;
  let remaining = altered.map((s) => s.name);
  const notes: string[] = [];
  const again = original ? await original(table.manifest) : null;
  if (again) {
    try {
      const expected = new Map(altered.map((s) => [s.name, s.expectedSha256 ?? '']));
      const found = await locateChanges(reader, await XlsxReader.open(again.file), remaining, expected, table.form);
      result.changes.push(...found.changes);
      remaining = found.unlocated;
      notes.push(`cells located against ${again.source}, with their values as exported`);
    } finally {
      await again.dispose();
    }
  }
  const locator = result.sheets.find((s) => s.name === LOCATOR_SHEET)?.status === 'intact' ? await readLocator(reader) : null;
  const byDigests = remaining.filter((name) => locator?.has(name));
  for (const name of byDigests) result.changes.push(...(await locateByDigests(reader, name, locator!.get(name)!, table.form)));
  if (byDigests.length)
    notes.push(`${again ? 'the others ' : ''}located by the workbook's Locator sheet (the values as exported are not in the workbook)`);
  const unlocated = remaining.filter((name) => !byDigests.includes(name));
  if (unlocated.length) notes.push(`not located in ${unlocated.map((n) => `'${n}'`).join(', ')}`);
  if (!again) notes.push(`the store that exported it (the connection ${table.manifest.Connection ?? '?'}) is not at hand here`);
  result.changes.splice(MAX_CHANGES);
  result.located = notes.join('; ');
}

async function readLocator(reader: XlsxReader): Promise<Map<string, SheetLocator> | null> {
  const sheet = reader.sheets.find((s) => s.name === LOCATOR_SHEET);
  if (!sheet) return null;
  const rows: unknown[][] = [];
  for await (const row of reader.rows(sheet)) if (row.number > 1) rows.push(row.cells);
  return parseLocator(rows);
}

/** Attest's writer stamps the file as exceljs does (Microsoft Excel 16.0300), modified when created. */
function resaveStamp(properties: DocumentProperties): ResaveStamp | null {
  const { application, appVersion, modifiedBy, modified } = properties.saved;
  const created = properties.shown['core:created'] ?? null;
  const asWritten =
    application === 'Microsoft Excel' &&
    appVersion === '16.0300' &&
    (modifiedBy === 'Attest' || modifiedBy === 'ExcelJS') &&
    modified !== null &&
    created !== null &&
    new Date(modified).getTime() === new Date(created).getTime();
  return asWritten ? null : { application, modifiedBy, modified };
}

/** Before attest-canonical/4 the properties were not hashed: they must be those Attest wrote (its name as author, a date). */
function legacyProperties(properties: DocumentProperties): string[] {
  return Object.entries(properties.shown)
    .filter(([name, value]) => !(name === 'core:created' || (name === 'core:creator' && value === 'Attest')))
    .map(([name, value]) => `the document property ${name} reads ${JSON.stringify(value.slice(0, 80))}, which Attest did not write`);
}

function reasonOf(
  checks: SheetCheck[],
  problems: string[],
  hashesOk: boolean,
  signature: SignatureCheck,
  propertiesIntact: boolean,
): string {
  if (!checks.every((c) => c.status === 'intact')) return 'sheets changed since export';
  if (!propertiesIntact) return 'the document properties changed since export';
  if (!hashesOk) return 'the hash table of the Evidence sheet was edited';
  if (problems.length) return `the workbook holds what Attest never writes (${problems.length} finding${problems.length > 1 ? 's' : ''})`;
  return signature.status === 'invalid' ? 'the signature does not match the workbook' : 'altered';
}

function refused(file: string, status: 'altered' | 'not-attest', reason: string, key: string | null): VerifyResult {
  const signature: SignatureCheck = { status: 'not-signed', fingerprint: null, expected: key };
  return {
    file,
    status,
    reason,
    form: null,
    sheets: [],
    problems: [],
    warnings: [],
    signature,
    ok: false,
    notice: noticeOf(signature),
    manifest: {},
    resaved: null,
    properties: { status: 'altered', shown: {} },
    changes: [],
    located: null,
  };
}

/**
 * The document properties of an altered workbook in words: those Attest does not write (it
 * writes only the author and the date created), else all of them.
 */
export function propertiesLine(result: Pick<VerifyResult, 'properties'>): string {
  const all = Object.entries(result.properties.shown);
  const added = all.filter(([name]) => name !== 'core:creator' && name !== 'core:created');
  const shown = (added.length ? added : all).map(
    ([name, value]) => `${name.slice(name.indexOf(':') + 1)} ${JSON.stringify(value.slice(0, 120))}`,
  );
  const list = shown.join(', ') || 'nothing';
  return added.length ? `they now hold ${list} (Attest writes only the author and the date created)` : `they now read ${list}`;
}

/** Names of the sheets a verify result found changed, missing or added. */
export function changedSheets(result: VerifyResult): string[] {
  return result.sheets.filter((s) => s.status !== 'intact').map((s) => (s.name === MANIFEST_ENTRY ? EVIDENCE_SHEET : s.name));
}
