/** The values a column's filter offers for typed text, from the whole store (the list it opens with holds the most frequent only). */
import { collection as descriptorOf, type CollectionId } from '../collections';
import { matchingColumnValues } from '../store/filter-choices';
import type { Workspace } from './workspace';

export interface FilterChoice {
  value: string;
  count: number;
  /** The name of the synced object an id points at, where the store holds it. */
  name: string | null;
}

/** Up to `limit` values of the column holding the typed text, most frequent first, each id with its name; and how many match. */
export function findFilterChoices(
  workspace: Workspace,
  opts: { collection: CollectionId; column: string; text: string; limit: number },
): { choices: FilterChoice[]; total: number } {
  const store = workspace.store;
  const found = matchingColumnValues(store, opts.collection, opts.column, opts.text, opts.limit);
  const refersTo = descriptorOf(opts.collection).columns.find((c) => c.name === opts.column)?.refersTo;
  const nameOf = (id: string): string | null => (refersTo ? store.getObject(refersTo, id)?.title || null : null);
  return { choices: found.values.map((v) => ({ ...v, name: nameOf(v.value) })), total: found.total };
}
