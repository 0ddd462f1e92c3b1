/**
 * The review worksheet: one row per membership in a scope (an entitlement, an app, a campaign's
 * apps) for a reviewer to mark Keep or Revoke offline, and the reading of it back.
 *
 * What it proves: every cell but the Decision and Comment columns is evidence, hashed at export
 * (the Cover's "Worksheet SHA-256") and kept, row by row, in the store that exported it, so an
 * import names each cell changed since. The Decision and Comment columns are the reviewer's: they
 * are left out of the hash (taken as empty), so deciding never breaks the evidence of the rest.
 * The Decision column's list and the sheet protection are hashed too (the "[Review guidance]"
 * entry): a widened list or an unprotected sheet is not the worksheet that was exported.
 */
import { createHash, randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { entitlementType, getPath, membershipsManaged, str } from '../collections';
import type { StoredObject } from '../store/types';
import { canonicalRow, cellText, overallHash, SheetHasher, type CellValue } from './canonical';
import { InvalidInputError } from './errors';
import { fingerprintOf, signatureValid, signedMessage, type EvidenceSigner } from './signing';
import { DATE_FORMAT } from './workbook';
import { columnName, XlsxReader, type DataValidation, type XlsxRow, type XlsxSheet } from './xlsx-reader';

export const REVIEW_FORM = 'attest-review/1';
export const COVER_SHEET = 'Cover';
export const REVIEW_SHEET = 'Review';
export const DECISIONS = ['Keep', 'Revoke'] as const;
export type Decision = (typeof DECISIONS)[number];

/** The Review sheet's columns, in order; Decision and Comment are the reviewer's. */
export const REVIEW_COLUMNS = [
  { header: '#', width: 6 },
  { header: 'Subject', width: 26 },
  { header: 'Email', width: 30 },
  { header: 'App', width: 22 },
  { header: 'Entitlement', width: 28 },
  { header: 'Since (UTC)', width: 20 },
  { header: 'Granted', width: 12 },
  { header: 'Removable', width: 36 },
  { header: 'Decision', width: 12 },
  { header: 'Comment', width: 40 },
  { header: 'App user ID', width: 24 },
  { header: 'Entitlement ID', width: 24 },
  { header: 'App ID', width: 24 },
] as const;
const col = (header: (typeof REVIEW_COLUMNS)[number]['header']): number => REVIEW_COLUMNS.findIndex((c) => c.header === header);
export const DECISION_COL = col('Decision');
export const COMMENT_COL = col('Comment');
const EDITABLE = new Set([DECISION_COL, COMMENT_COL]);
const REMOVABLE_COL = col('Removable');
const USER_COL = col('App user ID');
const ENTITLEMENT_COL = col('Entitlement ID');
const APP_COL = col('App ID');
const SUBJECT_COL = col('Subject');

/** The Cover's rows whose values the hash leaves out (the hash itself, and the signature over it). */
export const HASH_LABEL = 'Worksheet SHA-256';
export const SIGNATURE_LABEL = 'Signature (Ed25519)';
const SIGNED_BY_LABEL = 'Signed by key';
const PUBLIC_KEY_LABEL = 'Signing public key (Ed25519)';
const FORM_LABEL = 'Form';
export const WORKSHEET_ID_LABEL = 'Worksheet ID';
const UNHASHED = new Set([HASH_LABEL, SIGNATURE_LABEL]);

const INSTRUCTIONS =
  'For each row of the Review sheet, choose Keep or Revoke in the Decision column (a list) and say why in the Comment column. ' +
  'Change nothing else: the other cells are evidence, hashed at export, and an import names any cell changed and refuses ' +
  'the worksheet. The sheets are protected without a password, as guidance. Save the file (Excel or LibreOffice) and return it.';

export interface ReviewScope {
  entitlements?: readonly string[];
  apps?: readonly string[];
  campaign?: string;
}

/** One membership as the worksheet shows it. */
export interface ReviewRow {
  appId: string;
  entitlementId: string;
  appUserId: string;
  subject: string | null;
  email: string | null;
  app: string | null;
  entitlement: string | null;
  since: Date | null;
  granted: string | null;
  /** "yes", or "no: why". */
  removable: string;
}

export interface ReviewStore {
  iterateObjects(
    collection: 'memberships',
    opts?: { asOfRun?: number; filters?: Record<string, readonly string[]> },
  ): Iterable<StoredObject>;
  getObject(
    collection: 'apps' | 'entitlements' | 'campaigns' | 'memberships',
    id: string,
    opts?: { asOfRun?: number },
  ): StoredObject | null;
}

/**
 * What a campaign reviews: its single app whole, or per app of a multi-app campaign the
 * entitlements it names (the whole app where it names none).
 */
function campaignScope(store: ReviewStore, id: string): { wholeApps: Set<string>; entitlements: Set<string> } {
  const campaign = store.getObject('campaigns', id);
  if (!campaign) throw new InvalidInputError(`the store holds no campaign ${id}`);
  const review = getPath(campaign.json, 'accessReview');
  const wholeApps = new Set<string>();
  const entitlements = new Set<string>();
  const single = str(getPath(review, 'singleApp.appId'));
  if (single) wholeApps.add(single);
  const multi = getPath(review, 'multiApp.appEntitlements');
  if (multi && typeof multi === 'object')
    for (const [key, value] of Object.entries(multi)) {
      const app = str(getPath(value, 'appId')) || key;
      const ids = getPath(value, 'entitlementIds');
      const named = Array.isArray(ids) ? ids.map(str).filter(Boolean) : [];
      if (named.length) for (const e of named) entitlements.add(e);
      else wholeApps.add(app);
    }
  if (!wholeApps.size && !entitlements.size)
    throw new InvalidInputError(`campaign ${id} names no app (single or multi-app) the worksheet could list the memberships of`);
  return { wholeApps, entitlements };
}

/** Why a membership cannot be removed through the API, or "yes". */
function removable(entitlement: StoredObject | null): string {
  if (!entitlement) return 'unknown: the store holds no such entitlement';
  const managed = membershipsManaged(entitlement.json);
  if (managed === true) return 'yes';
  if (managed === null) return 'unknown: the entitlement type is not known';
  return `no: a ${entitlementType(entitlement.json) ?? 'synced'} entitlement (its app manages its memberships)`;
}

/** The memberships in scope, as of `asOfRun` (else the current data), ordered by entitlement then subject. */
export function reviewRows(store: ReviewStore, scope: ReviewScope, asOfRun?: number): ReviewRow[] {
  const filters: Record<string, readonly string[]> = {};
  if (scope.entitlements?.length) filters.appEntitlementId = scope.entitlements;
  if (scope.apps?.length) filters.appId = scope.apps;
  const campaign = scope.campaign ? campaignScope(store, scope.campaign) : null;
  // A campaign's entitlements are read by id (one may be of another app than the one it is listed under).
  if (campaign && !campaign.entitlements.size) filters.appId = [...campaign.wholeApps];
  if (campaign && !campaign.wholeApps.size) filters.appEntitlementId = [...campaign.entitlements];
  if (!Object.keys(filters).length && !campaign) throw new InvalidInputError('give the scope: --entitlement ID, --app ID or --campaign ID');
  for (const id of scope.entitlements ?? [])
    if (!store.getObject('entitlements', id, { asOfRun })) throw new InvalidInputError(`the store holds no entitlement ${id}`);
  for (const id of scope.apps ?? [])
    if (!store.getObject('apps', id, { asOfRun })) throw new InvalidInputError(`the store holds no app ${id}`);
  const entitlements = new Map<string, StoredObject | null>();
  const appNames = new Map<string, string | null>();
  const rows: ReviewRow[] = [];
  for (const m of store.iterateObjects('memberships', { asOfRun, filters })) {
    if (m.deleted) continue;
    const entitlementId = str(m.columns.appEntitlementId);
    const appId = str(m.columns.appId);
    if (campaign && !campaign.wholeApps.has(appId) && !campaign.entitlements.has(entitlementId)) continue;
    if (!entitlements.has(entitlementId)) entitlements.set(entitlementId, null);
    if (!appNames.has(appId)) appNames.set(appId, null);
    const since = typeof m.columns.grantedAt === 'string' ? new Date(m.columns.grantedAt) : null;
    rows.push({
      appId,
      entitlementId,
      appUserId: str(m.columns.appUserId),
      subject: str(m.columns.appUserName) || null,
      email: str(getPath(m.json, 'appUser.appUser.email')) || null,
      app: null,
      entitlement: null,
      since: since && Number.isFinite(since.getTime()) ? since : null,
      granted: str(m.columns.grantedHow) || null,
      removable: '',
    });
  }
  for (const id of entitlements.keys()) entitlements.set(id, store.getObject('entitlements', id, { asOfRun }));
  for (const id of appNames.keys()) appNames.set(id, store.getObject('apps', id, { asOfRun })?.title || null);
  for (const r of rows) {
    const e = entitlements.get(r.entitlementId) ?? null;
    r.entitlement = e?.title || null;
    r.app = appNames.get(r.appId) ?? null;
    r.removable = removable(e);
  }
  const key = (r: ReviewRow): string => `${r.entitlement ?? ''}\u0000${r.entitlementId}\u0000${r.subject ?? ''}\u0000${r.appUserId}`;
  return rows.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

export interface WorksheetOptions {
  out: string;
  scope: ReviewScope;
  /** The scope in words, for the Cover ("entitlement Admins (e1)"). */
  scopeText: string;
  reviewer: string | null;
  asOfRun: number | null;
  dataAsOf: string | null;
  tenant: string;
  appVersion: string;
  signer?: EvidenceSigner | undefined;
}

export interface WrittenWorksheet {
  id: string;
  file: string;
  rows: number;
  sha256: string;
  /** The canonical text of every row of both sheets as read back from the file (what an import compares). */
  canonical: CanonicalWorksheet;
  signedBy: string | null;
}

const reviewCells = (r: ReviewRow, n: number): CellValue[] => [
  n,
  r.subject,
  r.email,
  r.app,
  r.entitlement,
  r.since,
  r.granted,
  r.removable,
  null,
  null,
  r.appUserId,
  r.entitlementId,
  r.appId,
];

/** Writes the worksheet, then reads it back as an import will, to hash and keep what it holds. */
export async function writeWorksheet(rows: readonly ReviewRow[], o: WorksheetOptions): Promise<WrittenWorksheet> {
  const id = randomUUID();
  const exportedAt = new Date();
  const last = rows.length + 1;
  const cover: [string, CellValue][] = [
    ['Access review worksheet', null],
    ['Scope', o.scopeText],
    ['Reviewer', o.reviewer],
    ['As of sync run', o.asOfRun],
    ['Data as of (UTC)', o.dataAsOf],
    ['Memberships', rows.length],
    ['Tenant', o.tenant],
    ['Exported at (UTC)', exportedAt.toISOString()],
    ['Exported by', `Attest ${o.appVersion}`],
    [WORKSHEET_ID_LABEL, id],
    [FORM_LABEL, REVIEW_FORM],
    ['Instructions', INSTRUCTIONS],
    ['Decision list', `${columnName(DECISION_COL)}2:${columnName(DECISION_COL)}${last}: ${DECISIONS.join(', ')}`],
    [HASH_LABEL, null],
  ];
  if (o.signer) cover.push([SIGNED_BY_LABEL, o.signer.fingerprint], [PUBLIC_KEY_LABEL, o.signer.publicKey], [SIGNATURE_LABEL, null]);
  const build = (hash: string | null, signature: string | null): ExcelJS.Workbook => {
    const wb = new ExcelJS.Workbook();
    wb.creator = `Attest ${o.appVersion}`;
    wb.created = exportedAt;
    const c = wb.addWorksheet(COVER_SHEET);
    c.columns = [{ width: 24 }, { width: 100 }];
    for (const [label, value] of cover) {
      const v = label === HASH_LABEL ? hash : label === SIGNATURE_LABEL ? signature : value;
      const row = c.addRow([label, typeof v === 'string' ? cellText(v) : v]);
      row.getCell(2).alignment = { wrapText: true, vertical: 'top' };
    }
    c.getRow(1).font = { bold: true, size: 14 };
    const r = wb.addWorksheet(REVIEW_SHEET, { views: [{ state: 'frozen', ySplit: 1 }] });
    r.columns = REVIEW_COLUMNS.map((h) => ({ width: h.width }));
    r.addRow(REVIEW_COLUMNS.map((h) => h.header)).font = { bold: true };
    rows.forEach((row, i) => {
      const added = r.addRow(reviewCells(row, i + 1).map((v) => (typeof v === 'string' ? cellText(v) : v)));
      added.getCell(col('Since (UTC)') + 1).numFmt = DATE_FORMAT;
      for (const editable of EDITABLE) added.getCell(editable + 1).protection = { locked: false };
    });
    if (rows.length)
      (r as unknown as { dataValidations: { add(address: string, v: ExcelJS.DataValidation): void } }).dataValidations.add(
        `${columnName(DECISION_COL)}2:${columnName(DECISION_COL)}${last}`,
        {
          type: 'list',
          allowBlank: true,
          formulae: [`"${DECISIONS.join(',')}"`],
          showErrorMessage: true,
          errorTitle: 'Decision',
          error: `Choose ${DECISIONS.join(' or ')}`,
        },
      );
    return wb;
  };
  const protect = async (wb: ExcelJS.Workbook): Promise<void> => {
    for (const ws of wb.worksheets) await ws.protect('', { selectLockedCells: true, selectUnlockedCells: true, formatColumns: true });
  };
  // Hashed as read back, so what is kept is exactly what an import will read.
  const first = build(null, null);
  await protect(first);
  await first.xlsx.writeFile(o.out);
  const read = await readWorksheet(o.out);
  if (read.problems.length) throw new Error(`the worksheet written reads with problems: ${read.problems.join('; ')}`);
  const sha256 = read.sha256;
  const signature = o.signer ? o.signer.sign(signedMessage(REVIEW_FORM, sha256)).toString('base64') : null;
  const final = build(sha256, signature);
  await protect(final);
  await final.xlsx.writeFile(o.out);
  const again = await readWorksheet(o.out);
  if (again.sha256 !== sha256) throw new Error('the worksheet written does not hash as it was built');
  return { id, file: o.out, rows: rows.length, sha256, canonical: again.canonical, signedBy: o.signer?.fingerprint ?? null };
}

/** Each row of a sheet as its canonical JSON cells (by column), the row number first. */
export interface CanonicalSheet {
  rows: { n: number; cells: string[] }[];
}

export interface CanonicalWorksheet {
  cover: CanonicalSheet;
  review: CanonicalSheet;
  guidance: string;
}

export interface ReadWorksheet {
  sheets: XlsxSheet[];
  /** What the reader refuses (formulas, hidden cells, foreign markup...), and sheets other than Cover and Review. */
  problems: string[];
  canonical: CanonicalWorksheet;
  sha256: string;
  /** The values of the Review sheet's rows (2 on), as read. */
  reviewRows: XlsxRow[];
  coverValue(label: string): unknown;
}

/** The guidance as hashed: the Decision list's cells and values, and whether each sheet is protected. */
export function guidanceLine(sheets: readonly XlsxSheet[]): string {
  const validations = (v: DataValidation) => ({ type: v.type, sqref: v.sqref, list: v.formula1 });
  return JSON.stringify(
    sheets.map((s) => ({
      sheet: s.name,
      protected: s.protection !== null && s.protection.sheet !== '0' && s.protection.sheet !== 'false',
      validations: s.validations.map(validations),
    })),
  );
}

/** Reads a worksheet with verify's reader: its canonical rows, its hash, and what the reader refuses in it. */
export async function readWorksheet(file: string): Promise<ReadWorksheet> {
  const reader = await XlsxReader.open(file);
  const problems = [...reader.package.packageProblems];
  const names = reader.sheets.map((s) => s.name);
  if (names.join('\u0000') !== [COVER_SHEET, REVIEW_SHEET].join('\u0000'))
    problems.push(
      `the worksheet holds the sheets ${names.map((n) => `'${n}'`).join(', ')}: a review worksheet holds '${COVER_SHEET}' and '${REVIEW_SHEET}' only`,
    );
  const canonical: CanonicalWorksheet = { cover: { rows: [] }, review: { rows: [] }, guidance: '' };
  const entries: { name: string; sha256: string }[] = [];
  const reviewRowsRead: XlsxRow[] = [];
  const cover = new Map<string, unknown>();
  for (const sheet of reader.sheets) {
    if (sheet.name !== COVER_SHEET && sheet.name !== REVIEW_SHEET) continue;
    if (sheet.state !== 'visible') problems.push(`the sheet '${sheet.name}' is ${sheet.state}`);
    const hasher = new SheetHasher(sheet);
    const target = sheet.name === COVER_SHEET ? canonical.cover : canonical.review;
    for await (const row of reader.rows(sheet, (p) => problems.push(p), { reviewGuidance: true })) {
      const cells: string[] = [];
      canonicalRow(row.number, row.cells, undefined, row.formats, (i, json) => (cells[i] = json));
      if (cells.length) target.rows.push({ n: row.number, cells: Array.from(cells, (c) => c ?? 'null') });
      if (sheet.name === COVER_SHEET) {
        const label = typeof row.cells[0] === 'string' ? row.cells[0] : '';
        cover.set(label, row.cells[1]);
        hasher.add(row.number, UNHASHED.has(label) ? [row.cells[0]] : row.cells, row.formats);
      } else {
        if (row.number > 1) reviewRowsRead.push(row);
        hasher.add(
          row.number,
          row.cells.map((v, i) => (EDITABLE.has(i) && row.number > 1 ? null : v)),
          row.formats.map((f, i) => (EDITABLE.has(i) && row.number > 1 ? undefined : f)),
        );
      }
    }
    entries.push({ name: sheet.name, sha256: hasher.digest() });
  }
  canonical.guidance = guidanceLine(reader.sheets);
  entries.push({ name: '[Review guidance]', sha256: createHash('sha256').update(canonical.guidance, 'utf8').digest('hex') });
  return {
    sheets: reader.sheets,
    problems,
    canonical,
    sha256: overallHash(entries),
    reviewRows: reviewRowsRead,
    coverValue: (label) => cover.get(label),
  };
}

/** The membership a row of the Review sheet names, and its Decision and Comment as the reviewer left them. */
export interface RowDecision {
  row: number;
  appId: string;
  entitlementId: string;
  appUserId: string;
  subject: string | null;
  removable: string;
  decision: Decision | null;
  comment: string | null;
}

export const rowDecision = (row: XlsxRow): { decision: unknown; comment: unknown; d: Omit<RowDecision, 'decision' | 'comment'> } => ({
  decision: row.cells[DECISION_COL],
  comment: row.cells[COMMENT_COL],
  d: {
    row: row.number,
    appId: str(row.cells[APP_COL]),
    entitlementId: str(row.cells[ENTITLEMENT_COL]),
    appUserId: str(row.cells[USER_COL]),
    subject: typeof row.cells[SUBJECT_COL] === 'string' ? row.cells[SUBJECT_COL] : null,
    removable: str(row.cells[REMOVABLE_COL]),
  },
});

export const isEditable = (col: number): boolean => EDITABLE.has(col);

/** A Decision cell's value as a decision (any case, white space around it ignored); null: none; undefined: not one of the list. */
export const decisionOf = (value: unknown): Decision | null | undefined => {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') return undefined;
  return DECISIONS.find((d) => d.toLowerCase() === value.trim().toLowerCase());
};

/** What verify says of a review worksheet, without the store that exported it. */
export interface ReviewVerification {
  file: string;
  status: 'intact' | 'altered';
  /** The hash the Cover recorded at export, and the one recomputed now (Decision and Comment left out). */
  recorded: string | null;
  sha256: string;
  signedBy: string | null;
  problems: string[];
  decided: number;
}

/** Whether a workbook's Cover says it is a review worksheet (a cheap first look, for verify). */
export async function isReviewWorksheet(file: string): Promise<boolean> {
  const reader = await XlsxReader.open(file);
  const cover = reader.sheets.find((s) => s.name === COVER_SHEET);
  if (!cover || !reader.sheets.some((s) => s.name === REVIEW_SHEET)) return false;
  for await (const row of reader.rows(cover, () => undefined, { reviewGuidance: true }))
    if (row.cells[0] === FORM_LABEL) return row.cells[1] === REVIEW_FORM;
  return false;
}

/**
 * Checks a review worksheet on its own: its evidence cells hash as its Cover recorded (the Decision
 * and Comment columns left out, so a decided worksheet still verifies), the reader finds nothing it
 * refuses, and a signature is the named key's. Which cell changed is told by an import, where the
 * store that exported it is.
 */
export async function verifyReviewWorksheet(file: string, key: string | null = null): Promise<ReviewVerification> {
  const read = await readWorksheet(file);
  const problems = [...read.problems];
  const recordedValue = read.coverValue(HASH_LABEL);
  const recorded = typeof recordedValue === 'string' ? recordedValue : null;
  if (recorded === null) problems.push(`the '${COVER_SHEET}' sheet records no ${HASH_LABEL}`);
  else if (recorded !== read.sha256)
    problems.push(
      `the evidence cells (every cell but Decision and Comment), the Decision list or the protection changed since export: ` +
        `they hash as ${read.sha256}, the Cover recorded ${recorded}`,
    );
  const signedBy = read.coverValue(SIGNED_BY_LABEL);
  const publicKey = read.coverValue(PUBLIC_KEY_LABEL);
  const signature = read.coverValue(SIGNATURE_LABEL);
  let signer: string | null = null;
  if (typeof signedBy === 'string' || typeof signature === 'string') {
    const valid =
      typeof publicKey === 'string' &&
      typeof signature === 'string' &&
      recorded !== null &&
      fingerprintOf(publicKey) === signedBy &&
      signatureValid(publicKey, signedMessage(REVIEW_FORM, recorded), signature);
    if (valid) signer = String(signedBy);
    else problems.push('the signature does not match the worksheet or the key the Cover names');
  }
  if (key && signer !== key) problems.push(signer ? `signed by ${signer}, not by ${key}` : `not signed (by ${key} or any key)`);
  const decisions = read.reviewRows
    .map((r) => ({ row: r.number, value: r.cells[DECISION_COL] }))
    .filter((d) => d.value !== undefined && d.value !== '');
  for (const d of decisions)
    if (decisionOf(d.value) === undefined)
      problems.push(
        `'${REVIEW_SHEET}'!${columnName(DECISION_COL)}${d.row}: ${JSON.stringify(d.value)} is not a decision (${DECISIONS.join(' or ')})`,
      );
  const decided = decisions.length;
  return { file, status: problems.length ? 'altered' : 'intact', recorded, sha256: read.sha256, signedBy: signer, problems, decided };
}
