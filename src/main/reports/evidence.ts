/**
 * The Evidence sheet's manifest: who exported what, from which tenant, as of when, complete or
 * not, and how many rows each sheet holds against the store. The hash table below it is written
 * by the workbook layer (workbook.ts). No secret is ever an input here: the connection is given
 * by name, host and client id only.
 */
import type { CollectionStatus, SyncRun } from '../store/types';
import { collection as descriptorOf, completenessOf, overallCompleteness, snapshotCompleteness, type CollectionId } from '../collections';
import type { CellValue } from './canonical';
import { InvalidInputError } from './errors';
import type { ReportParams, ReportPlan, ReportStore } from './catalog';
import { isoDate } from './catalog';
import { viewOf } from './columns';
import { EVIDENCE_FORMAT, PAGE_FOOTER, SIGNED_BY, SIGNING_PUBLIC_KEY, type SheetResult } from './workbook';

/** The connection as the Evidence sheet names it. Deliberately without any credential field. */
export interface ReportConnection {
  name: string;
  tenantHost?: string | null;
  clientId?: string | null;
  serverUrl?: string | null;
}

export interface CollectionEvidence {
  collection: CollectionId | 'outbox journal';
  sheet: string | null;
  dataAsOf: string | null;
  runId: number | null;
  /** How the collection was gathered: a full walk of the list, or only the objects others name. */
  gathered: string;
  /** A full walk that ended (never true for a collection gathered by reference). */
  complete: boolean;
  note: string;
  rowsInSheet: number | null;
  /** Objects in the store matching the report's filters and as-of run. */
  rowsInStore: number | null;
  /** Every current object of the collection in the store (or of the snapshot). */
  objectsInStore: number | null;
}

/** Per collection of the plan: its sync status (from the store), before the rows are written. */
export function collectionEvidence(store: ReportStore, plan: ReportPlan, params: ReportParams): CollectionEvidence[] {
  const statuses = new Map<string, CollectionStatus>(store.collectionStatus().map((s) => [s.collection, s]));
  let asOf: SyncRun | undefined;
  if (params.asOfRun !== undefined) {
    asOf = store.runs().find((r) => r.id === params.asOfRun);
    if (!asOf || asOf.status !== 'completed') throw new InvalidInputError(`run ${params.asOfRun} is not a completed sync run`);
  }
  return plan.collections.map((id) => {
    const sheet = plan.sheets.find((s) => s.collection === id)?.name ?? null;
    const status = statuses.get(id);
    const counted = plan.kind !== 'diff';
    const rowsInStore = counted ? store.countObjects(id, viewOf(params, id)) : null;
    const objectsInStore = counted ? store.countObjects(id, { asOfRun: params.asOfRun }) : null;
    const base = { collection: id, sheet, rowsInSheet: null, rowsInStore, objectsInStore };
    if (asOf) {
      const walked = asOf.collections.length === 0 || asOf.collections.includes(id);
      const c = snapshotCompleteness(id, asOf.id, walked);
      return { ...base, dataAsOf: asOf.finishedAt, runId: asOf.id, gathered: c.gathered, complete: c.complete, note: c.note };
    }
    const c = completenessOf(id, status);
    return {
      ...base,
      dataAsOf: status?.dataAsOf ?? null,
      runId: status?.lastCompletedRunId ?? null,
      gathered: c.gathered,
      complete: c.complete,
      note: c.note,
    };
  });
}

export interface ManifestInput {
  plan: ReportPlan;
  params: ReportParams;
  connection: ReportConnection;
  appVersion: string;
  generatedAt: Date;
  generatedBy: string;
  collections: CollectionEvidence[];
  sheets: SheetResult[];
  /** The centre of every sheet's printed footer (stated here, so verify can hold every footer to it). */
  footer?: string;
  /** The key that signs the workbook (its fingerprint and public key are written here). */
  signer?: { fingerprint: string; publicKey: string } | null;
}

/** What the Evidence sheet says of a workbook exported without --sign. */
export const NOT_SIGNED = 'not signed: the hashes show the cells are unchanged since export, not who exported them';

const yes = (b: boolean): string => (b ? 'yes' : 'NO');
const hasEntries = (value: object | undefined): value is object => value !== undefined && Object.keys(value).length > 0;
const titleOf = (id: CollectionEvidence['collection']): string => (id === 'outbox journal' ? id : descriptorOf(id).title);

/** The manifest rows of the Evidence sheet (the hash table follows, written by the workbook). */
export function manifestRows(input: ManifestInput): CellValue[][] {
  const { plan, params, connection } = input;
  const filters = Object.entries(params.filters).filter(([, f]) => f && Object.keys(f).length > 0);
  const rows: CellValue[][] = [
    ['Attest evidence workbook', plan.title],
    ['Format', EVIDENCE_FORMAT],
    ['Report', plan.kind],
    ['Tenant', connection.tenantHost ?? null],
    ['Connection', connection.name],
    ['Client ID', connection.clientId ?? null],
    ['Server URL', connection.serverUrl ?? null],
    ['Generated at (UTC)', input.generatedAt],
    ['Generated at (ISO)', input.generatedAt.toISOString()],
    ['Prepared by', input.generatedBy],
    ['App version', input.appVersion],
    [SIGNED_BY, input.signer ? input.signer.fingerprint : NOT_SIGNED],
    ...(input.signer ? [[SIGNING_PUBLIC_KEY, input.signer.publicKey]] : []),
    ['As of sync run', params.asOfRun !== undefined ? params.asOfRun : 'latest synced data'],
    ['Filters', filters.length ? JSON.stringify(Object.fromEntries(filters)) : 'none'],
    ...(hasEntries(params.text) ? [['Text filter', JSON.stringify(params.text)]] : []),
    ...(hasEntries(params.sort) ? [['Sort', JSON.stringify(params.sort)]] : []),
    ...(params.campaign ? [['Campaign', params.campaign]] : []),
    [
      'Diff runs',
      plan.diffRuns
        ? `${plan.diffRuns.from} -> ${plan.diffRuns.to}`
        : plan.kind === 'evidence'
          ? 'fewer than two completed runs: empty'
          : null,
    ],
    [
      'Parameters',
      JSON.stringify({
        report: plan.kind,
        asOfRun: params.asOfRun ?? null,
        filters: Object.fromEntries(filters),
        ...(hasEntries(params.text) ? { text: params.text } : {}),
        ...(hasEntries(params.sort) ? { sort: params.sort } : {}),
        ...(params.campaign ? { campaign: params.campaign } : {}),
        diff: plan.diffRuns ?? null,
      }),
    ],
    ...(input.footer ? [[PAGE_FOOTER, input.footer]] : []),
    ['All collections complete', overallCompleteness(input.collections.map((c) => ({ ...c, title: titleOf(c.collection) })))],
    [],
    [
      'Collection',
      'Sheet',
      'Data as of (UTC)',
      'Data as of (ISO)',
      'Sync run',
      'Gathered',
      'Complete',
      'Note',
      'Rows in sheet',
      'Rows in store (same filters)',
      'Objects in store (all)',
    ],
  ];
  for (const c of input.collections) {
    const inSheet = c.sheet ? (input.sheets.find((s) => s.name === c.sheet)?.rows ?? null) : c.rowsInSheet;
    rows.push([
      titleOf(c.collection),
      c.sheet,
      isoDate(c.dataAsOf),
      c.dataAsOf,
      c.runId,
      c.gathered,
      yes(c.complete),
      c.note,
      inSheet,
      c.rowsInStore,
      c.objectsInStore,
    ]);
  }
  return rows;
}
