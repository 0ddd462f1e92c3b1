/**
 * The `facets` text of the search index: one token per value of a filterable column (`filter: true`
 * in the descriptors: states, classifications, trigger types, action kinds, enabled) and one for
 * the collection. Facet tokens start with a private-use character that typed queries never carry,
 * so no word or prefix a person types can match them; search filters on them as index lookups.
 */
import type { CollectionId } from '../../shared/contract';
import { columnValues, type ColumnValue } from './descriptor';
import { collection as descriptorOf, COLLECTIONS } from './registry';

const FACET_MARK = '\uE000';

/** The facet token of a column value: a private-use mark, then name and value lowercased, letters and digits only. */
export function facetToken(name: string, value: string | number | boolean): string {
  return `${FACET_MARK}${`${name}${String(value)}`.toLowerCase().replace(/[^a-z0-9]/g, '')}`;
}

/** The names of the columns that have facet tokens (filterable in some collection). */
export const FACET_COLUMNS: ReadonlySet<string> = new Set(COLLECTIONS.flatMap((d) => d.columns.filter((c) => c.filter).map((c) => c.name)));

/** The `facets` text of an object: its collection and the values of its filterable columns. */
export function facetsText(collection: CollectionId, columns: Record<string, ColumnValue>): string {
  const d = descriptorOf(collection);
  const tokens = [facetToken('collection', collection)];
  for (const c of d.columns) if (c.filter) for (const value of columnValues(c, columns[c.name])) tokens.push(facetToken(c.name, value));
  return tokens.join(' ');
}
