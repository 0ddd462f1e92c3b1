/**
 * The two sheets that make a workbook readable to someone who has never seen Attest: the Cover
 * (what the workbook is for, which report with which filters, as of when, who prepared it, from
 * which tenant and server, with which version, whether it is complete, how to check it) and the
 * Dictionary (every column of every data sheet: its type, what it means, the API member it
 * shows). Both are hashed like any other sheet.
 */
import { collection as descriptorOf, overallCompleteness, type CollectionId } from '../collections';
import type { Filters } from '../store/types';
import { enumText } from './cells';
import type { CellValue } from './canonical';
import type { CollectionEvidence, ReportConnection } from './evidence';
import type { ReportParams, ReportPlan } from './catalog';
import type { ColumnType, SheetResult, SheetSpec } from './workbook';
import { meaningOf } from './meanings';
import { columnLetter, EVIDENCE_SHEET, MAX_FOOTER } from './workbook';

export const COVER_SHEET = 'Cover';
export const DICTIONARY_SHEET = 'Dictionary';

export interface CoverInput {
  plan: ReportPlan;
  params: ReportParams;
  connection: ReportConnection;
  appVersion: string;
  preparedBy: string;
  generatedAt: Date;
  collections: readonly CollectionEvidence[];
  /** The data sheets as written (the Dictionary included), for their row counts. */
  sheets: readonly SheetResult[];
  /** Fingerprint of the signing key, or null. */
  signedBy: string | null;
  /** The view of the app the report's parameters came from ("the Cross-app scopes list"), if any. */
  view?: string;
}

const TYPE_WORDS: Record<ColumnType, string> = {
  text: 'text',
  enum: 'one of a fixed list of values',
  int: 'whole number',
  number: 'number',
  bool: 'TRUE or FALSE',
  date: 'date and time (UTC)',
};

const titleOf = (id: CollectionEvidence['collection']): string => (id === 'outbox journal' ? id : descriptorOf(id).title);

/**
 * Filters in words, each column by its label and key, each enum value by its label and exact value
 * (so the filter can be read and given again): "Cross-app scopes: State (state) = Enabled
 * (XAA_SCOPE_STATE_ENABLED) or Disabled (XAA_SCOPE_STATE_DISABLED); App (appId) = app-1".
 */
export function filtersInWords(filters: Partial<Record<CollectionId, Filters>>): string {
  const parts = Object.entries(filters)
    .filter(([, f]) => f && Object.keys(f).length > 0)
    .map(([id, f]) => {
      const d = descriptorOf(id as CollectionId);
      const terms = Object.entries(f as Filters).map(([key, value]) => {
        const column = d.columns.find((c) => c.name === key);
        const values = (Array.isArray(value) ? (value as unknown[]) : [value]).map((v) => {
          const label = column?.type === 'enum' ? enumText(v, column.enumName) : null;
          // A value no enumeration lists (its label is the value, marked) stays as written.
          return label && !label.startsWith(String(v)) ? `${label} (${String(v)})` : String(v);
        });
        return `${column ? `${column.label} (${key})` : key} = ${values.join(' or ')}`;
      });
      return `${d.title}: ${terms.join('; ')}`;
    });
  return parts.length ? parts.join('. ') : 'none: every object of each collection';
}

/** The words each collection's objects must match: "Cross-app scopes: okta read". */
function textInWords(text: ReportParams['text']): string | null {
  const parts = Object.entries(text ?? {})
    .filter(([, t]) => t)
    .map(([id, t]) => `${descriptorOf(id as CollectionId).title}: ${t}`);
  return parts.length ? `${parts.join('. ')} (objects whose text holds every word)` : null;
}

/** The order of the rows: "Cross-app scopes: by state, descending (then by id)". */
function sortInWords(sort: ReportParams['sort']): string {
  const parts = Object.entries(sort ?? {})
    .filter(([, s]) => s)
    .map(([id, s]) => {
      const d = descriptorOf(id as CollectionId);
      const label = { id: 'ID', title: 'Name' }[s!.column] ?? d.columns.find((c) => c.name === s!.column)?.label ?? s!.column;
      return `${d.title}: by ${label} (${s!.column}), ${s!.dir === 'desc' ? 'descending' : 'ascending'}, then by id`;
    });
  return parts.length ? parts.join('. ') : "each sheet's own order (objects by id)";
}

function asOfInWords(input: CoverInput): string {
  const { params, collections } = input;
  if (params.asOfRun !== undefined) {
    const at = collections.find((c) => c.runId === params.asOfRun)?.dataAsOf;
    return `the snapshot of completed sync run ${params.asOfRun}${at ? ` (finished ${at})` : ''}`;
  }
  const times = collections
    .filter((c) => c.collection !== 'outbox journal' && c.dataAsOf)
    .map((c) => c.dataAsOf as string)
    .sort();
  if (times.length === 0) return 'the latest synced data (nothing synced yet)';
  const range = times[0] === times.at(-1) ? times[0] : `${times[0]} to ${times.at(-1)}`;
  return `the latest synced data of each collection, as of ${range} (UTC; per collection on the Evidence sheet)`;
}

const shortTime = (iso: string): string => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/** The centre of every sheet's printed footer: the report, and as of when its data is. */
export function footerLine(plan: ReportPlan, params: ReportParams, collections: readonly CollectionEvidence[]): string {
  const synced = collections.filter((c) => c.collection !== 'outbox journal' && c.dataAsOf).map((c) => c.dataAsOf as string);
  const latest = synced.sort().at(-1);
  const asOf =
    params.asOfRun !== undefined
      ? `snapshot of sync run ${params.asOfRun}${latest ? `, ${shortTime(latest)}` : ''}`
      : latest
        ? `data as of ${shortTime(latest)}`
        : 'nothing synced';
  const line = `${plan.title}: ${asOf}`;
  return line.length > MAX_FOOTER ? `${line.slice(0, MAX_FOOTER - 1)}…` : line;
}

/** The Cover sheet: label and value rows, then the list of sheets (`descriptions`: what each holds). */
export function coverSheet(input: CoverInput, descriptions: ReadonlyMap<string, string>): SheetSpec {
  const { plan, connection } = input;
  const tenant = connection.tenantHost ?? 'the tenant';
  const rows: CellValue[][] = [
    [
      'Purpose',
      `Evidence of the configuration of the identity-governance tenant ${tenant}: ${plan.title.toLowerCase()}, ` +
        'as the local copy kept by Attest held it. Each data sheet lists the objects of one collection; the Evidence ' +
        'sheet states, per collection, how it was gathered, as of when and whether it is complete, and a SHA-256 hash ' +
        'of every sheet.',
    ],
    ['Report', `${plan.title} (attest export ${plan.kind})`],
    ['Filters', filtersInWords(input.params.filters)],
    ...(textInWords(input.params.text) ? [['Text filter', textInWords(input.params.text)]] : []),
    ['Sort', sortInWords(input.params.sort)],
    ...(input.params.campaign ? [['Campaign', input.params.campaign]] : []),
    ...(input.view ? [['View', input.view]] : []),
    ['As of', asOfInWords(input)],
    ...(plan.diffRuns ? [['Changes compared', `sync run ${plan.diffRuns.from} with sync run ${plan.diffRuns.to}`]] : []),
    ['Complete', overallCompleteness(input.collections.map((c) => ({ ...c, title: titleOf(c.collection) })))],
    ['Prepared by', input.preparedBy],
    [
      'Prepared at',
      `${input.generatedAt
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, '')} UTC`,
    ],
    ['Tenant', connection.tenantHost ?? null],
    ['Server URL', connection.serverUrl ?? null],
    ['Connection', connection.name],
    ['Client ID', connection.clientId ?? null],
    ['Prepared with', `Attest ${input.appVersion}`],
    [
      'Signed',
      input.signedBy ? `with the Ed25519 key ${input.signedBy}` : 'no: the hashes show the cells are unchanged, not who exported them',
    ],
    [
      'How to verify',
      'Run `attest verify FILE.xlsx`: it recomputes the SHA-256 of every sheet from its cells and compares them with the ' +
        'Evidence sheet (exit 0: intact). With `--key FINGERPRINT` it also checks that the key of that fingerprint signed it. ' +
        'Without Attest, recompute the hashes from the canonical form stated at the foot of the Evidence sheet.',
    ],
    [],
    ['Sheet', 'What it holds', 'Rows'],
    [EVIDENCE_SHEET, 'who exported what, from which tenant, completeness per collection, the hash of every sheet', null],
    ...input.sheets.map((s) => [s.name, descriptions.get(s.name) ?? null, s.rows]),
  ];
  return {
    name: COVER_SHEET,
    layout: 'form',
    columns: [
      // One page wide at full size (see printScale): labels, their values wrapped, the rows of each sheet.
      { header: 'Attest evidence workbook', type: 'text', width: 18 },
      { header: plan.title, type: 'text', width: 78 },
      { header: '', type: 'int', width: 8 },
    ],
    rows,
  };
}

/** The Dictionary: one row per column of every data sheet. */
export function dictionarySheet(sheets: readonly SheetSpec[]): SheetSpec {
  const rows: CellValue[][] = [];
  for (const sheet of sheets) {
    sheet.columns.forEach((c, i) => {
      rows.push([sheet.name, columnLetter(i), c.header, TYPE_WORDS[c.type], meaningOf(sheet.name, c), c.source ?? null]);
    });
  }
  return {
    name: DICTIONARY_SHEET,
    columns: [
      // Sheet to Meaning fill one page wide at the smallest print scale (see printScale), a meaning
      // on one line; the API member, for those who map a column back to the API, is in the file.
      { header: 'Sheet', type: 'text', width: 22 },
      { header: 'Column', type: 'text', width: 8 },
      { header: 'Header', type: 'text', width: 24 },
      { header: 'Type', type: 'text', width: 14 },
      { header: 'Meaning', type: 'text', width: 70 },
      { header: 'API member', type: 'text', width: 28 },
    ],
    paper: 'first page wide',
    rows,
  };
}

export { columnLetter } from './workbook';
