import type {
  ChangedObject,
  ChartDatum,
  CollectionId,
  CollectionInfo,
  CollectionStatus,
  ColumnInfo,
  FieldChange,
  HistoryEntry,
  ObjectDetail,
  ObjectRow,
  SearchHit,
  SyncRun,
} from '../../shared/contract';
import { FILTER_CHOICES_MAX } from '../../shared/contract';
import { COLLECTIONS, columnValues, collection as descriptorOf, MULTI_SEPARATOR, type ColumnDef } from '../collections';
import type { DiffDetail, Store } from '../store/db';
import { nestedIdNames } from './id-names';
import { columnDistinctCount, columnValueCounts, matchesPerCollection, memo, objectWindow, type WindowOptions } from '../store/read-models';
import type * as StoreTypes from '../store/types';
import type { OutboxBatch, OutboxItem, ImportPreview as OutboxImportPreview, JournalEntryInWords, OutboxFilter } from '../outbox/types';
import type {
  OutboxBatchView,
  OutboxFilter as OutboxFilterArgs,
  OutboxItemView,
  ImportPreview,
  OutboxJournalEntry,
} from '../../shared/contract';

/**
 * The store's answers shaped as the contract's view models: list rows, details, facets and chart
 * data. Everything is read through the Store and its read models (store/read-models.ts); no SQL here.
 */

const KIND: Record<ColumnDef['type'], ColumnInfo['kind']> = { text: 'text', enum: 'enum', bool: 'bool', int: 'number', date: 'date' };

export function columnsOf(id: CollectionId): ColumnInfo[] {
  return descriptorOf(id).columns.map((column) => ({
    key: column.name,
    label: column.label,
    kind: /Id$/.test(column.name) && column.type === 'text' ? 'id' : KIND[column.type],
    enumName: column.enumName ?? null,
    sortable: true,
    filterable: column.filter === true,
  }));
}

/** A window of a collection for the virtualized table (id order unless a sort is chosen), with its total. */
export function listWindow(
  store: Store,
  id: CollectionId,
  opts: WindowOptions,
  extraStamp = '',
): { rows: StoreTypes.StoredObject[]; total: number } {
  return objectWindow(store, id, opts, extraStamp);
}

/** Values of one column among the current objects of a collection, most frequent first. */
export function groupCounts(store: Store, id: CollectionId, column: string, limit = 50): ChartDatum[] {
  return columnValueCounts(store, id, column, limit).map((d) => ({ key: d.value === null ? '' : String(d.value), count: d.count }));
}

export function collectionInfos(store: Store | null): CollectionInfo[] {
  return store ? memo(store, 'collectionInfos', () => computeCollectionInfos(store)) : computeCollectionInfos(null);
}

function computeCollectionInfos(store: Store | null): CollectionInfo[] {
  return COLLECTIONS.map((descriptor) => {
    const columns = columnsOf(descriptor.id);
    const filterValues: Record<string, string[]> = {};
    const filterLabels: Record<string, Record<string, string>> = {};
    const filterTotals: Record<string, number> = {};
    if (store)
      for (const column of columns.filter((c) => c.filterable)) {
        const counts = groupCounts(store, descriptor.id, column.key, FILTER_CHOICES_MAX + 1);
        filterValues[column.key] = counts
          .slice(0, FILTER_CHOICES_MAX)
          .map((d) => d.key)
          .filter((key) => key !== '');
        // More values than listed: how many there are, so the app says so.
        if (counts.length > FILTER_CHOICES_MAX) filterTotals[column.key] = columnDistinctCount(store, descriptor.id, column.key);
        if (column.kind === 'bool')
          filterValues[column.key] = filterValues[column.key]!.map((v) => (v === '1' || v === 'true' ? 'true' : 'false'));
        const refersTo = descriptor.columns.find((c) => c.name === column.key)?.refersTo;
        if (refersTo) filterLabels[column.key] = namesOf(store, refersTo, filterValues[column.key]!);
      }
    return {
      id: descriptor.id,
      label: descriptor.title,
      columns,
      filterValues,
      filterLabels,
      ...(Object.keys(filterTotals).length > 0 ? { filterTotals } : {}),
      liveRead: descriptor.readOne !== undefined,
    };
  });
}

/** The names the store has for these ids of a collection (ids it does not hold are left out). */
function namesOf(store: Store, collection: CollectionId, ids: string[]): Record<string, string> {
  const names: Record<string, string> = {};
  for (const id of ids) {
    const title = store.getObject(collection, id)?.title;
    if (title) names[id] = title;
  }
  return names;
}

export function statusOf(status: StoreTypes.CollectionStatus): CollectionStatus {
  return {
    id: status.collection,
    count: status.objectCount,
    asOf: status.dataAsOf,
    complete: status.complete,
    lastRunId: status.lastRunId,
    error: status.error,
  };
}

export function runOf(run: StoreTypes.SyncRun): SyncRun {
  return {
    id: run.id,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    status: run.status,
    collections: run.collections,
    origin: run.origin,
  };
}

/** Looks up the title of an object of a collection once per id (a window of rows names the same owners again and again). */
export type NameLookup = (collection: CollectionId, id: string) => string | null;

export function nameLookup(store: Store, asOfRun?: number): NameLookup {
  const cache = new Map<string, string | null>();
  return (collection, id) => {
    const key = `${collection}\u0000${id}`;
    if (!cache.has(key)) cache.set(key, store.getObject(collection, id, { asOfRun })?.title || null);
    return cache.get(key)!;
  };
}

/** The names of what the object's id columns point at (`refersTo`), by column key; each of a list in order. */
function namesOfCells(object: StoreTypes.StoredObject, lookup: NameLookup): Record<string, string> | undefined {
  const names: Record<string, string> = {};
  for (const column of descriptorOf(object.collection).columns) {
    if (!column.refersTo) continue;
    const ids = columnValues(column, object.columns[column.name]).map(String);
    const found = ids.map((id) => lookup(column.refersTo!, id));
    if (found.some((n) => n !== null)) names[column.name] = ids.map((id, i) => found[i] ?? id).join(MULTI_SEPARATOR);
  }
  return Object.keys(names).length > 0 ? names : undefined;
}

export function rowOf(object: StoreTypes.StoredObject, lookup?: NameLookup): ObjectRow {
  const names = lookup ? namesOfCells(object, lookup) : undefined;
  return {
    collection: object.collection,
    id: object.id,
    title: object.title,
    cells: object.columns,
    deleted: object.deleted,
    pending: object.pending !== undefined && object.pending !== null && object.pending !== false,
    ...(names ? { names } : {}),
  };
}

export function detailOf(object: StoreTypes.StoredObject, lookup?: NameLookup): ObjectDetail {
  const idNames = lookup ? nestedIdNames(object.json, lookup) : {};
  return {
    ...rowOf(object, lookup),
    raw: object.raw,
    runId: object.runId,
    fetchedAt: object.fetchedAt,
    ...(Object.keys(idNames).length > 0 ? { idNames } : {}),
  };
}

/** Longer values are cut (a whole list of steps can be long); the field's path still says where the change is. */
const VALUE_TEXT_MAX = 2000;

/** A value as JSON text for the renderer (null: absent), cut to a readable length. */
function valueText(value: unknown): string | null {
  if (value === undefined) return null;
  const text = JSON.stringify(value);
  return text.length > VALUE_TEXT_MAX ? `${text.slice(0, VALUE_TEXT_MAX)}…` : text;
}

export function fieldChangeOf(change: StoreTypes.FieldChange): FieldChange {
  return { field: change.field, before: valueText(change.before), after: valueText(change.after) };
}

export function historyOf(versions: StoreTypes.ObjectVersion[]): HistoryEntry[] {
  return versions
    .map((v) => ({
      runId: v.runId,
      at: v.at,
      change: v.change,
      changedFields: v.changedFields,
      fields: v.fieldChanges.map(fieldChangeOf),
      fieldCount: v.fieldCount,
      raw: v.raw,
    }))
    .reverse();
}

export function changedObjectOf(detail: DiffDetail): ChangedObject {
  const { collection, id, title, change, fieldCount } = detail;
  return { collection, id, title, change, fields: detail.fields.map(fieldChangeOf), fieldCount };
}

export function hitOf(hit: StoreTypes.SearchHit): SearchHit {
  return { collection: hit.collection, id: hit.id, title: hit.title, snippet: hit.snippet, cells: hit.columns };
}

/** Contract filters (column -> values as strings) in the store's terms; unknown columns are the store's error. */
export function filtersOf(filters: Record<string, string[]>): StoreTypes.Filters {
  const out: StoreTypes.Filters = {};
  for (const [key, values] of Object.entries(filters)) if (values.length) out[key] = values;
  return out;
}

/** Matches per collection, each counted up to the search's count cap (so that counting stays cheap on any prefix). */
export function searchFacets(store: Store, query: string): Record<string, number> {
  return matchesPerCollection(store, query);
}

/** Routing rules by the kind of their action (acceptRisk, createTask, snooze, suppress). */
export function overviewCharts(store: Store) {
  return memo(store, 'overviewCharts', () => computeOverviewCharts(store));
}

function computeOverviewCharts(store: Store) {
  const has = (id: CollectionId, column: string) => descriptorOf(id).columns.some((c) => c.name === column);
  const counts = (id: CollectionId, column: string) => (has(id, column) ? groupCounts(store, id, column, 20) : []);
  return {
    campaignsByState: counts('campaigns', 'state'),
    automationsByTrigger: counts('automations', 'primaryTriggerType'),
    routingRulesByAction: counts('routing-rules', 'actionKind'),
    scopesByClassification: counts('scopes', 'classification'),
    scopesByState: counts('scopes', 'state'),
  };
}

/** An item as the app shows it; `change` is its summary in words (see Outbox.summariesInWords), the summary itself without. */
export function itemOf(item: OutboxItem, change = item.summary): OutboxItemView {
  return {
    id: item.id,
    seq: item.seq,
    kind: item.kind,
    state: item.state,
    summary: item.summary,
    change,
    target: item.target,
    input: item.input,
    request: { method: item.request.method, path: item.request.path, body: item.request.body },
    requestDigest: item.requestDigest,
    attempts: item.attempts,
    lastStatus: item.lastStatus,
    lastError: item.lastError,
    result: item.result,
    note: item.note,
    source: item.source,
    batchId: item.batchId,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
    lastSentAt: item.lastSentAt,
  };
}

/** The contract's filter (nulls for "any") as the outbox's. */
export function filterOf(f: OutboxFilterArgs): OutboxFilter {
  return { state: f.state ?? undefined, kind: f.kind ?? undefined, batch: f.batch ?? undefined, error: f.error ?? undefined };
}

export function batchOf(b: OutboxBatch): OutboxBatchView {
  return { id: b.id, name: b.name, kind: b.kind, rows: b.rows, createdAt: b.createdAt, counts: b.counts };
}

export function previewOf(preview: OutboxImportPreview): ImportPreview {
  return {
    kind: preview.kind,
    rows: preview.rows,
    valid: preview.valid,
    errors: preview.errors,
    duplicatesInFile: preview.duplicatesInFile,
    duplicatesInQueue: preview.duplicatesInQueue,
    warnings: preview.warnings,
    rowWarnings: preview.rowWarnings,
    refused: preview.refused,
    rejectsCsv: preview.rejectsCsv,
  };
}

export function journalOf(entry: JournalEntryInWords): OutboxJournalEntry {
  return { ...entry };
}
