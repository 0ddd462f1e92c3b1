/**
 * Reports: export any report of the catalog to a verifiable Excel workbook, and verify one.
 * The one entry point the CLI, the IPC layer and the jobs host call.
 */
import { osUserName } from '../os-user';
import {
  REPORTS,
  collectionsOf,
  isReportKind,
  parseFilters,
  parseSort,
  parseText,
  type ReportKind,
  type ReportParams,
  type ReportSources,
} from './catalog';
import { InvalidInputError } from './errors';
import { collectionEvidence, manifestRows, type CollectionEvidence, type ReportConnection } from './evidence';
import { COVER_SHEET, coverSheet, dictionarySheet, footerLine } from './cover';
import type { EvidenceSigner } from './signing';
import { ReportWorkbook, type ExportProgress, type SheetResult } from './workbook';

export {
  REPORT_KINDS,
  REPORTS,
  isReportKind,
  parseFilters,
  filterKeys,
  type ReportKind,
  type ReportStore,
  type ReportParams,
} from './catalog';
export type { ReportConnection, CollectionEvidence } from './evidence';
export { ExportCancelled, ExportWriteError, type ExportProgress, type SheetResult } from './workbook';
export { InvalidInputError } from './errors';
export {
  verifyWorkbook,
  changedSheets,
  propertiesLine,
  NOTICE_UNSIGNED,
  type VerifyResult,
  type SheetCheck,
  type SignatureCheck,
  type OriginalWorkbook,
  type VerifyOptions,
} from './verify';
export { CANONICAL_FORM, CANONICAL_FORM_TEXT } from './canonical';
export {
  SIGNING_KEY_ACCOUNT,
  signingKey,
  publicKeyPem,
  normaliseFingerprint,
  fingerprintFromKeyText,
  type EvidenceSigner,
} from './signing';
export { READ_LIMITS } from './zip';
export { PROPERTIES_ENTRY } from './properties';

export interface ExportOptions extends ReportSources {
  kind: ReportKind;
  /** Target .xlsx path; written through a temp file next to it, renamed at the end. */
  out: string;
  connection: ReportConnection;
  appVersion: string;
  asOfRun?: number;
  /** `key=value` or `collection.key=value`; repeated keys mean any of the values. */
  filters?: readonly string[];
  /** Words every object's indexed text must hold (a list's text filter, a search's query). */
  text?: string;
  /** `[collection.]column[:asc|desc]`: the order of the rows (else by id). */
  sort?: string;
  /** The view of the app these parameters came from, as the cover names it ("the Cross-app scopes list"). */
  view?: string;
  fromRun?: number;
  toRun?: number;
  /** The certification report: the one campaign (its id) to report on. */
  campaign?: string;
  signal?: AbortSignal;
  onProgress?: (progress: ExportProgress & { sheetCount: number }) => void;
  /** Who prepared the workbook (default: the OS user's full name where the system knows it). */
  preparedBy?: string;
  /** Signs the workbook (see signing.ts); without it the workbook says it is not signed. */
  signer?: EvidenceSigner;
  now?: () => Date;
  /** The parameters already parsed (a workbook's recorded Parameters, exported again): filters, text and sort are then unused. */
  params?: ReportParams;
}

export interface ExportResult {
  file: string;
  kind: ReportKind;
  sheets: SheetResult[];
  collections: CollectionEvidence[];
  evidenceSha256: string;
  overallSha256: string;
  /** Fingerprint of the signing key, or null when not signed. */
  signedBy: string | null;
  bytes: number;
  complete: boolean;
  generatedAt: string;
  ms: number;
}

/**
 * The report and parameters an Evidence sheet records in its "Parameters" row (see evidence.ts),
 * read back so the same report can be exported again; null when the row is not one Attest wrote.
 */
export function recordedParameters(text: string | undefined): { kind: ReportKind; params: ReportParams } | null {
  let recorded: unknown;
  try {
    recorded = JSON.parse(text ?? '');
  } catch {
    return null;
  }
  if (!recorded || typeof recorded !== 'object') return null;
  const r = recorded as {
    report?: unknown;
    asOfRun?: unknown;
    filters?: unknown;
    text?: unknown;
    sort?: unknown;
    diff?: unknown;
    campaign?: unknown;
  };
  if (typeof r.report !== 'string' || !isReportKind(r.report)) return null;
  const object = (v: unknown): Record<string, never> | undefined => (v && typeof v === 'object' ? (v as Record<string, never>) : undefined);
  const diff = object(r.diff) as { from?: unknown; to?: unknown } | undefined;
  const run = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);
  return {
    kind: r.report,
    params: {
      asOfRun: run(r.asOfRun),
      filters: object(r.filters) ?? {},
      text: object(r.text),
      sort: object(r.sort),
      fromRun: run(diff?.from),
      toRun: run(diff?.to),
      ...(typeof r.campaign === 'string' && r.campaign ? { campaign: r.campaign } : {}),
    },
  };
}

/** A campaign id: 1 to 200 characters without control characters or spaces, else an error. */
function campaignId(id: string | undefined, kind: ReportKind): string | undefined {
  if (id === undefined) return undefined;
  if (kind !== 'certification') throw new InvalidInputError('a campaign scopes the certification report only');
  const value = id.trim();
  // eslint-disable-next-line no-control-regex
  if (!value || value.length > 200 || /[\x00-\x20\x7f]/.test(value))
    throw new InvalidInputError(`a campaign is named by its id (1 to 200 characters, no spaces), not '${id}'`);
  return value;
}

/** The name of the view the parameters came from: 1 to 200 characters without control characters, else an error. */
function viewName(view: string | undefined): string | undefined {
  const name = view?.trim();
  if (!name) return undefined;
  // eslint-disable-next-line no-control-regex
  if (name.length > 200 || /[\x00-\x1f\x7f]/.test(name))
    throw new InvalidInputError('a view is named in 1 to 200 characters, without control characters');
  return name;
}

export async function exportReport(options: ExportOptions): Promise<ExportResult> {
  const started = performance.now();
  if (!isReportKind(options.kind)) throw new InvalidInputError(`unknown report '${String(options.kind)}'`);
  const params: ReportParams = options.params ?? {
    asOfRun: options.asOfRun,
    filters: parseFilters(options.filters ?? [], collectionsOf(options.kind)),
    text: parseText(options.text, collectionsOf(options.kind)),
    sort: parseSort(options.sort, collectionsOf(options.kind)),
    fromRun: options.fromRun,
    toRun: options.toRun,
    campaign: campaignId(options.campaign, options.kind),
  };
  const view = viewName(options.view);
  const sources: ReportSources = { store: options.store, journal: options.journal, reviewDecisions: options.reviewDecisions };
  const plan = REPORTS[options.kind].build(sources, params);
  const generatedAt = (options.now ?? (() => new Date()))();
  const collections = collectionEvidence(options.store, plan, params);

  const sheetCount = plan.sheets.length + 2; // and the Dictionary and the Cover
  const footer = footerLine(plan, params, collections);
  const book = await ReportWorkbook.create(options.out, {
    footer,
    signal: options.signal,
    onProgress: options.onProgress ? (p) => options.onProgress?.({ ...p, sheetCount, rowsTotal: knownRowsOf(plan.sheets) }) : undefined,
  });
  const sheets: SheetResult[] = [];
  const preparedBy = options.preparedBy?.trim() || osUserName();
  try {
    for (const sheet of plan.sheets) sheets.push(await book.addSheet(sheet));
    sheets.push(await book.addSheet(dictionarySheet(plan.sheets)));
  } catch (error) {
    await book.abort();
    throw error;
  }
  if (plan.usesJournal) {
    const journalSheet = sheets.find((s) => s.name === 'Outbox journal');
    collections.push({
      collection: 'outbox journal',
      sheet: journalSheet?.name ?? null,
      dataAsOf: generatedAt.toISOString(),
      runId: null,
      gathered: 'the local outbox journal, read whole',
      complete: Boolean(options.journal),
      note: options.journal ? 'local outbox journal, every attempt up to the time of export' : 'no outbox journal in this workspace',
      rowsInSheet: null,
      rowsInStore: journalSheet?.rows ?? 0,
      objectsInStore: journalSheet?.rows ?? 0,
    });
  }
  try {
    const descriptions = new Map(
      plan.sheets.map((sheet) => [
        sheet.name,
        onPaper(
          sheets.find((s) => s.name === sheet.name),
          sheet.about ?? '',
        ),
      ]),
    );
    descriptions.set('Dictionary', 'every column of every data sheet: its type, what it means, the API member it shows');
    const cover = {
      plan,
      params,
      connection: options.connection,
      appVersion: options.appVersion,
      preparedBy,
      generatedAt,
      collections,
      sheets,
      view,
    };
    sheets.unshift(await book.addSheet(coverSheet({ ...cover, signedBy: options.signer?.fingerprint ?? null }, descriptions)));
  } catch (error) {
    await book.abort();
    throw error;
  }
  const manifest = manifestRows({
    plan,
    params,
    connection: options.connection,
    appVersion: options.appVersion,
    generatedAt,
    generatedBy: preparedBy,
    footer,
    collections,
    sheets,
    signer: options.signer,
  });
  const done = await book.finish(manifest, options.signer, { first: [COVER_SHEET] });
  return {
    file: done.file,
    kind: plan.kind,
    sheets: done.sheets,
    collections,
    evidenceSha256: done.evidenceSha256,
    overallSha256: done.overallSha256,
    signedBy: done.signedBy,
    bytes: done.bytes,
    complete: collections.every((c) => c.complete),
    generatedAt: generatedAt.toISOString(),
    ms: Math.round(performance.now() - started),
  };
}

/** The rows of a report's data sheets that say how many they hold (one per collection; derived sheets do not). */
function knownRowsOf(sheets: readonly { total?: number }[]): number {
  return sheets.reduce((sum, sheet) => sum + (sheet.total ?? 0), 0);
}

/** What a sheet holds, and what of it prints where not all of it does. */
function onPaper(sheet: SheetResult | undefined, about: string): string {
  if (!sheet?.printed) return about;
  const [columns, rows] = sheet.printed.split(', ');
  const first = columns!.replace(':', ' to ');
  return rows
    ? `${about} (on paper: its header row only; the rows are in the file)`
    : `${about} (on paper: columns ${first}, one page wide; every column is in the file)`;
}
