/**
 * What changed between two sync runs, as people read it: each changed value with its field's label
 * ("Name", "Automation steps 3 › Send email › Subject"), its old and new value in words (a time as
 * "yyyy-mm-dd hh:mm:ss UTC", an enum value as its label), and the app and entitlement an object is
 * of named where the store holds them. The diff report and `attest diff` both read it.
 */
import { collection as descriptorOf, type CollectionId } from '../collections';
import type { DiffEntry } from '../store/types';
import type { CellValue } from './canonical';
import { kindText } from './cells';
import type { ReportStore } from './columns';
import { valueText } from './settings';

export interface ValueChange {
  /** The path of the value below the object (as `changedFields` names it). */
  field: string;
  label: string;
  before: CellValue;
  after: CellValue;
}

export interface ChangeInWords {
  collection: CollectionId;
  id: string;
  title: string;
  change: DiffEntry['change'];
  appId: string | null;
  app: string | null;
  entitlementId: string | null;
  entitlement: string | null;
  values: ValueChange[];
  /** Values that differ beyond those listed. */
  valuesNotListed: number;
}

/** Longest text of one old or new value (a whole list or object that changed reads as JSON). */
const VALUE_MAX = 2000;

/** A field's label: its descriptor column's label where one shows it, else its path in words. */
export function fieldLabel(collection: CollectionId, field: string): string {
  const d = descriptorOf(collection);
  const prefix = d.diffRoot ? `${d.diffRoot}.` : '';
  const column = d.columns.find((c) => !c.value && c.path === `${prefix}${field}`);
  if (column) return column.label;
  return field
    .split('.')
    .map((part) => part.replace(/\[(\d+)\]/g, (_, i: string) => ` ${Number(i) + 1}`))
    .map((part) => {
      const [name = '', ...index] = part.split(' ');
      return [kindText(name) ?? name, ...index].join(' ');
    })
    .join(' › ');
}

/** A value in words: absent as empty, a time in UTC, an enum value as its label, a list or object as JSON. */
export function valueWords(field: string, value: unknown): CellValue {
  if (value === undefined || value === null) return null;
  const key = field.slice(field.lastIndexOf('.') + 1).replace(/\[\d+\]$/, '');
  if (typeof value === 'object') {
    const text = JSON.stringify(value);
    return text.length > VALUE_MAX ? `${text.slice(0, VALUE_MAX - 1)}…` : text;
  }
  return valueText(key, value);
}

/** The names of apps and entitlements the changes point at: as of the later run, else the earlier. */
function namesOf(store: ReportStore, collection: CollectionId, ids: ReadonlySet<string>, runs: readonly number[]): Map<string, string> {
  const names = new Map<string, string>();
  if (ids.size === 0) return names;
  for (const run of runs)
    for (const o of store.iterateObjects(collection, { asOfRun: run }))
      if (ids.has(o.id) && o.title && !names.has(o.id)) names.set(o.id, o.title);
  return names;
}

/** Every change from run `from` to run `to` (one collection, or all), in words. */
export function changesInWords(store: ReportStore, from: number, to: number, opts: { collection?: CollectionId } = {}): ChangeInWords[] {
  const entries = store.diff(from, to, opts);
  const apps = namesOf(store, 'apps', new Set(entries.flatMap((e) => (e.appId ? [e.appId] : []))), [to, from]);
  const entitlements = namesOf(store, 'entitlements', new Set(entries.flatMap((e) => (e.appEntitlementId ? [e.appEntitlementId] : []))), [
    to,
    from,
  ]);
  return entries.map((e) => ({
    collection: e.collection,
    id: e.id,
    title: e.title,
    change: e.change,
    appId: e.appId,
    app: e.appId ? (apps.get(e.appId) ?? null) : null,
    entitlementId: e.appEntitlementId,
    entitlement: e.appEntitlementId ? (entitlements.get(e.appEntitlementId) ?? null) : null,
    values: e.fieldChanges.map((f) => ({
      field: f.field,
      label: fieldLabel(e.collection, f.field),
      before: valueWords(f.field, f.before),
      after: valueWords(f.field, f.after),
    })),
    valuesNotListed: e.fieldCount - e.fieldChanges.length,
  }));
}
