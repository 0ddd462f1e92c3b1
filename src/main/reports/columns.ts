/**
 * What the sheets of the report catalog are built with: the store and parameters a report reads,
 * columns (a header, a type and how to read a row), the descriptor columns as people read them,
 * the names of objects an id points at, and a sheet as a lazy row stream over the store.
 */
import type { JournalEntry, JournalEntryInWords } from '../outbox/types';
import type { CollectionStatus, DiffEntry, Filters, StoredObject, SyncRun } from '../store/types';
import {
  celExpressions,
  collection as descriptorOf,
  columnValues,
  getPath,
  isRecord,
  str,
  type CollectionDescriptor,
  type CollectionId,
  type ColumnDef,
  type ColumnValue,
} from '../collections';
import type { CellValue } from './canonical';
import type { ReviewDecisionRow } from './review-import';
import { durationText, enumList, enumText, isKnownEnumName, kindText } from './cells';
import { labelIds, referenceOf, type Labeler } from './references';
import { valueText } from './settings';
import type { ColumnSpec, ColumnType, SheetSpec } from './workbook';

/** What the reports read from the store: a subset of the Store interface. */
export interface ReportStore {
  runs(): SyncRun[];
  collectionStatus(): CollectionStatus[];
  iterateObjects(
    collection: CollectionId,
    opts?: { asOfRun?: number; filters?: Filters; text?: string; sort?: ReportSort },
  ): Iterable<StoredObject>;
  countObjects(collection: CollectionId, opts?: { asOfRun?: number; filters?: Filters; text?: string }): number;
  diff(fromRun: number, toRun: number, opts?: { collection?: CollectionId }): DiffEntry[];
}

/** Parameters of one export, after validation. */
export interface ReportParams {
  /** Read the snapshot of this completed run instead of the current data. */
  asOfRun?: number;
  /** Per collection, the filters that apply to it. */
  filters: Partial<Record<CollectionId, Filters>>;
  /** Per collection, the words its objects' indexed text must match (a list's text filter, a search's query). */
  text?: Partial<Record<CollectionId, string>>;
  /** Per collection, the order of its rows (else by id). */
  sort?: Partial<Record<CollectionId, ReportSort>>;
  /** Certification: the one campaign reported (else every campaign). */
  campaign?: string;
  /** Diff: the two runs compared. */
  fromRun?: number;
  toRun?: number;
}

/** The order of a collection's rows: a column, ascending or descending (ties by id). */
export interface ReportSort {
  column: string;
  dir: 'asc' | 'desc';
}

/** A journal entry as reports take it: with its change in words and its import, when the outbox tells them. */
export type ReportJournalEntry = JournalEntry & Partial<Pick<JournalEntryInWords, 'change' | 'batchId'>>;

export interface ReportSources {
  store: ReportStore;
  /** The outbox journal (the `changes` report), each change in words where known; absent when the workspace has no outbox. */
  journal?: () => Iterable<ReportJournalEntry>;
  /** The decisions imported from review worksheets, with their proof (review-import.ts); absent: none. */
  reviewDecisions?: () => ReviewDecisionRow[];
}

/** A data sheet of a report, plus the collection it shows (for the Evidence sheet's counts). */
export interface ReportSheet extends SheetSpec {
  collection?: CollectionId;
}

// ---------------------------------------------------------------------------------------------
// Columns

export interface ReportColumn<T> extends ColumnSpec {
  value(row: T): CellValue;
}

/** ISO text as the API sent it -> a Date (null when absent or unparseable). */
export function isoDate(text: unknown): Date | null {
  if (typeof text !== 'string' || text.trim() === '') return null;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A date: a real Excel date cell, in UTC (the header says so); the API's text stays on the Raw sheet. */
export function dateColumns<T>(label: string, text: (row: T) => unknown, source?: string): ReportColumn<T>[] {
  return [{ header: `${label} (UTC)`, type: 'date', value: (row) => isoDate(text(row)), source, about: `${label}, in UTC` }];
}

/** Where a column's value comes from and what it means (the data dictionary), and its width. */
export interface ColumnMeta {
  width?: number;
  source?: string;
  about?: string;
}

export function col<T>(header: string, type: ColumnType, value: (row: T) => CellValue, meta?: number | ColumnMeta): ReportColumn<T> {
  const m = typeof meta === 'number' ? { width: meta } : (meta ?? {});
  return { header, type, value, ...m };
}

export const cellOf = (value: unknown): CellValue => {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
};

/** Columns of the descriptors that hold a protobuf Duration ("1209600s"), shown in words. */
export const DURATIONS = new Set(['accessReviewDuration']);

/** Columns of the descriptors held as text (the API writes 64-bit integers as text) that are whole numbers: number cells. */
export const WHOLE_NUMBERS = new Set(['numericId']);

/**
 * A whole number the API may write as text, as a number cell; one a number cell cannot hold
 * exactly (beyond 2^53) or that is no number stays text as written, so nothing is lost.
 */
export function wholeNumber(value: unknown): CellValue {
  if (value === null || value === undefined || value === '') return null;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : cellOf(value);
}

/** Columns of the descriptors that hold the id of an object of another collection: its name follows. */
export const REFERENCES: Record<string, CollectionId> = {
  accessReviewTemplateId: 'templates',
  templateId: 'templates',
  appId: 'apps',
  parentAppId: 'apps',
  appEntitlementId: 'entitlements',
  appUserId: 'app-users',
};

/**
 * The names the store knows of objects, by collection and id, for the columns that show a name
 * beside an id. Read once per export (the same snapshot as the rows), before the first row of a
 * sheet that shows them: the store's connection is busy while a sheet's rows stream.
 */
export class Names {
  private readonly wanted = new Set<CollectionId>();
  private readonly loaded = new Map<CollectionId, Map<string, string>>();

  constructor(
    private readonly sources: ReportSources,
    private readonly params: ReportParams,
  ) {}

  /** A sheet will show names of `collection`. */
  want(collection: CollectionId): void {
    this.wanted.add(collection);
  }

  /** Reads the names wanted and not yet read (call it while no rows stream). */
  load(): void {
    for (const id of this.wanted) {
      if (this.loaded.has(id)) continue;
      const names = new Map<string, string>();
      for (const o of this.sources.store.iterateObjects(id, { asOfRun: this.params.asOfRun })) if (o.title) names.set(o.id, o.title);
      this.loaded.set(id, names);
    }
  }

  of(collection: CollectionId, id: unknown): string | null {
    return typeof id === 'string' && id ? (this.loaded.get(collection)?.get(id) ?? null) : null;
  }

  /** An id with its name: "Ada Allen <ada@example.com> (id)"; the id alone where the store has no name for it. */
  readonly label: Labeler = (collection, id) => {
    const name = this.of(collection, id);
    return name ? `${name} (${id})` : id;
  };

  /** A sheet will show ids of users and policies anywhere in its cells (settings, parameters, JSON). */
  wantPeopleAndPolicies(): this {
    this.want('users');
    this.want('policies');
    return this;
  }
}

/** One Names per export: every sheet of a report shares it. */
const namesOfExport = new WeakMap<ReportSources, Names>();

export function namesFrom(sources: ReportSources, params: ReportParams): Names {
  let names = namesOfExport.get(sources);
  if (!names) namesOfExport.set(sources, (names = new Names(sources, params)));
  return names;
}

/** The singular of a collection's title, for the dictionary ("app", "entitlement", "app user"). */
export const singular = (collection: CollectionId): string => descriptorOf(collection).title.toLowerCase().replace(/s$/, '');

/** The name beside an id of `collection`, when the store knows it. */
export function nameColumn<T>(header: string, collection: CollectionId, id: (row: T) => unknown, names: Names): ReportColumn<T> {
  names.want(collection);
  return col<T>(header, 'text', (row) => names.of(collection, id(row)), {
    about: `the name of that ${singular(collection)}, where this workbook's store holds it`,
  });
}

/** An enum column's value in words: labels of its enumeration (each of a list), a kind's name in words. */
export function enumWords(c: ColumnDef, value: unknown): string | null {
  if (c.multi) return enumList(value, c.enumName);
  if (c.enumName) return enumText(value, c.enumName);
  return kindText(str(value));
}

/** The descriptor's columns as people read them (enum labels, dates, durations in words, names beside ids). */
export function descriptorColumns(d: CollectionDescriptor, names: Names, skip: string[] = []): ReportColumn<StoredObject>[] {
  return d.columns
    .filter((c) => !skip.includes(c.name))
    .flatMap((c: ColumnDef): ReportColumn<StoredObject>[] => {
      const source = c.value ? (c.path ? `${c.path} (derived)` : '(derived)') : c.path;
      const raw = (o: StoredObject): unknown => o.columns[c.name];
      if (c.type === 'date') return dateColumns<StoredObject>(c.label, raw, c.path);
      if (c.type === 'enum') return [col<StoredObject>(c.label, 'enum', (o) => enumWords(c, raw(o)), { source })];
      if (DURATIONS.has(c.name)) return [col<StoredObject>(c.label, 'text', (o) => durationText(raw(o)), { source })];
      if (WHOLE_NUMBERS.has(c.name)) return [col<StoredObject>(c.label, 'int', (o) => wholeNumber(raw(o)), { source })];
      const target = c.refersTo ?? REFERENCES[c.name];
      if (!target) return [col<StoredObject>(c.label, c.type, (o) => cellOf(raw(o)), { source })];
      if (c.multi) {
        // A list of ids: each written with its name, in one cell.
        names.want(target);
        return [
          col<StoredObject>(c.label, 'text', (o) => labelList(columnValues(c, raw(o) as ColumnValue).map(String), target, names), {
            source,
            about: `each ${singular(target)} by name, its id in brackets, where this workbook's store holds it`,
          }),
        ];
      }
      // An id of another collection: the id, then the name the store knows for it.
      return [
        col<StoredObject>(`${c.label} ID`, c.type, (o) => cellOf(raw(o)), { source }),
        nameColumn<StoredObject>(c.label, target, raw, names),
      ];
    });
}

function labelList(ids: string[], collection: CollectionId, names: Names): string | null {
  return ids.length ? ids.map((id) => names.label(collection, id)).join(', ') : null;
}

/**
 * A member holding ids of `collection` (one, or a list), each written with its name in one cell:
 * "Ada Allen <ada@example.com> (id), ...".
 */
export function namedIdsField(
  header: string,
  path: string,
  collection: CollectionId,
  names: Names,
  meta: ColumnMeta = {},
): ReportColumn<StoredObject> {
  names.want(collection);
  return col<StoredObject>(
    header,
    'text',
    (o) => {
      const v = getPath(o.json, path);
      const ids = (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string' && x !== '');
      return labelList(ids, collection, names);
    },
    { source: path, about: `each ${singular(collection)} by name, its id in brackets, where this workbook's store holds it`, ...meta },
  );
}

/** The object's id, read from where it sits in what is stored (`accessReview.id` for a campaign). */
export const idColumnAt = (source: string): ReportColumn<StoredObject> =>
  col<StoredObject>('ID', 'text', (o) => o.id, { source, about: "the object's id on the tenant" });

export const idColumn = idColumnAt('id');

export const join = (values: unknown): string | null => {
  if (!Array.isArray(values) || values.length === 0) return null;
  return values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
};

export const flag = (value: unknown): boolean => value === true || value === 'true';

/** The members present in an object (a oneof's kind, as written, unknown ones included). */
export function membersOf(value: unknown, ignore: readonly string[] = []): string[] {
  if (!isRecord(value)) return [];
  return Object.keys(value).filter((k) => !ignore.includes(k) && value[k] !== null && value[k] !== undefined);
}

/** "key=value; ..." of the members of an object, each value in words (valueText). */
export function parameters(value: unknown, names?: Names): string | null {
  if (!isRecord(value)) return null;
  const parts = Object.entries(value)
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([k, v]) => {
      // User and policy ids with their names, where the store holds them.
      if (names && typeof v === 'string' && referenceOf(k)) return `${k}=${names.label(referenceOf(k)!, v)}`;
      return `${k}=${String(valueText(k, names ? labelIds(v, names.label, k) : v))}`;
    });
  return parts.length ? parts.join('; ') : null;
}

/** A one-line description of a scope selector: its members, with the CEL text where there is one. */
export function scopeSummary(scope: unknown): string | null {
  if (!isRecord(scope)) return null;
  const parts = membersOf(scope).map((k) => {
    const member = scope[k];
    const expression = getPath(member, 'expression');
    const name = kindText(k);
    if (typeof expression === 'string' && expression) return `${name}: ${expression}`;
    if (typeof member === 'string') return `${name}: ${isKnownEnumName(member) ? enumText(member) : member}`;
    if (Array.isArray(getPath(member, 'userIds'))) return `${name}: ${(getPath(member, 'userIds') as unknown[]).length} users`;
    return name;
  });
  return parts.length ? parts.join('; ') : null;
}

export const cel = (obj: unknown, base = ''): string | null => {
  const found = celExpressions(obj, base);
  return found.length ? found.map((c) => `${c.path}: ${c.expression}`).join('\n') : null;
};

// ---------------------------------------------------------------------------------------------
// Sheets

export function sheet<T>(
  name: string,
  columns: ReportColumn<T>[],
  source: () => Iterable<T>,
  extra: { collection?: CollectionId; total?: number; about?: string; names?: Names; paper?: SheetSpec['paper'] } = {},
): ReportSheet {
  const { names, ...about } = extra;
  return {
    name,
    columns: columns.map(({ value: _value, ...spec }) => spec),
    rows: (function* rows() {
      names?.load(); // before the rows stream: the store's connection is busy while they do
      for (const item of source()) yield columns.map((c) => c.value(item));
    })(),
    ...about,
  };
}

export function objects(sources: ReportSources, params: ReportParams, id: CollectionId): () => Iterable<StoredObject> {
  return () => sources.store.iterateObjects(id, { ...viewOf(params, id), sort: params.sort?.[id] });
}

export function total(sources: ReportSources, params: ReportParams, id: CollectionId): number {
  return sources.store.countObjects(id, viewOf(params, id));
}

/** What of a collection a report reads: its snapshot, filters and text filter. */
export function viewOf(params: ReportParams, id: CollectionId): { asOfRun?: number; filters?: Filters; text?: string } {
  const text = params.text?.[id];
  return { asOfRun: params.asOfRun, filters: params.filters[id], ...(text ? { text } : {}) };
}

// ---------------------------------------------------------------------------------------------
// Members of the stored object, flat

/**
 * A member of the stored object as one flat column: a time as a UTC date cell, an integer (the API
 * writes large ones as text), a flag, or text in words (valueText: an enum value's label, a
 * duration in words; a list of plain values joined by ", ").
 */
export function field(
  header: string,
  path: string,
  type: 'text' | 'bool' | 'int' | 'date' = 'text',
  meta: ColumnMeta = {},
): ReportColumn<StoredObject> {
  const key = path.slice(path.lastIndexOf('.') + 1);
  const value = (o: StoredObject): CellValue => {
    const v = getPath(o.json, path);
    if (type === 'date') return isoDate(v);
    if (type === 'bool') return flag(v);
    if (type === 'int') return wholeNumber(v);
    if (!Array.isArray(v)) return valueText(key, v);
    const items = v.map((x) => valueText(key, x)).filter((x) => x !== null);
    return items.length ? items.join(', ') : null;
  };
  return { header: type === 'date' ? `${header} (UTC)` : header, type, value, source: path, ...meta };
}

/** A member of free-form JSON (annotations, bindings, a context): its JSON text in one cell, every member below it carried. */
export function jsonField(header: string, path: string, meta: ColumnMeta = {}, names?: Names): ReportColumn<StoredObject> {
  return col<StoredObject>(
    header,
    'text',
    (o) => {
      const v = getPath(o.json, path);
      if (v === null || v === undefined || (typeof v === 'object' && Object.keys(v).length === 0)) return null;
      return JSON.stringify(names ? labelIds(v, names.label) : v);
    },
    { width: 30, source: `${path}.*`, about: 'as JSON, exactly as the API wrote it', ...meta },
  );
}

/** Who may do what with the object (`objectPermissions`): "read, edit, delete" and any extra permission by name. */
export function permissionsField(path: string): ReportColumn<StoredObject> {
  return col<StoredObject>(
    'Permissions',
    'text',
    (o) => {
      const p = getPath(o.json, path);
      if (!isRecord(p)) return null;
      const granted = ['read', 'edit', 'delete'].filter((k) => p[k] === true);
      const extra = isRecord(p.extra)
        ? Object.keys(p.extra).filter((k) => p.extra && (p.extra as Record<string, unknown>)[k] === true)
        : [];
      return [...granted, ...extra].join(', ') || 'none';
    },
    {
      source: `${path}.*`,
      about: "what this workspace's account may do with it (read, edit, delete and any extra permission the API names)",
    },
  );
}
