/**
 * The `facets` text of the search index: one token per value of a filterable column (`filter: true`
 * in the descriptors: states, classifications, trigger types, action kinds, enabled) and one for
 * the collection. Facet tokens start with a private-use character that typed queries never carry,
 * so no word or prefix a person types can match them; search filters on them as index lookups.
 *
 * The same text then holds the words a person searches those values by: an enum value's label
 * ('Dangerous', 'Pending review', 'Schedule app user'), its raw name as one word
 * ('xaascopeclassificationdangerous', what `XAA_SCOPE_CLASSIFICATION_DANGEROUS` is searched as),
 * and a true boolean's column label ('Enabled', 'Draft'). The column weighs nothing in the ranking,
 * so names and descriptions that match come first.
 */
import type { CollectionId } from '../../shared/contract';
import { ENUMS, enumLabel, enumPrefix, isEnumName } from '../../shared/enums';
import { columnValues, type ColumnDef, type ColumnValue } from './descriptor';
import { collection as descriptorOf, COLLECTIONS } from './registry';

const FACET_MARK = '\uE000';

/** The facet token of a column value: a private-use mark, then name and value lowercased, letters and digits only. */
export function facetToken(name: string, value: string | number | boolean): string {
  return `${FACET_MARK}${`${name}${String(value)}`.toLowerCase().replace(/[^a-z0-9]/g, '')}`;
}

/** The names of the columns that have facet tokens (filterable in some collection). */
export const FACET_COLUMNS: ReadonlySet<string> = new Set(COLLECTIONS.flatMap((d) => d.columns.filter((c) => c.filter).map((c) => c.name)));

/** A raw enum name as one searchable word: letters and digits only, lowercased ('XAA_SCOPE_STATE_ENABLED' -> 'xaascopestateenabled'). */
export function compactWord(value: string): string {
  return value
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * The words an enum or boolean value is searched by: an enum value's label and its raw name as one
 * word (an unknown value: its name past the enumeration's prefix, and its raw name); a oneof kind
 * with no enumeration ('acceptRisk'): its words and itself; a true boolean: the column's label.
 */
export function valueWords(column: ColumnDef, value: ColumnValue): string[] {
  if (value === null || value === '') return [];
  if (column.type === 'bool') return value === true || value === 1 || value === 'true' ? [column.label] : [];
  if (column.type !== 'enum') return [];
  const raw = String(value);
  if (column.enumName && isEnumName(column.enumName)) {
    const values = ENUMS[column.enumName];
    const { label, known } = enumLabel(values, raw);
    const prefix = enumPrefix(values);
    const words = known ? label : raw.startsWith(prefix) ? raw.slice(prefix.length).replace(/_/g, ' ') : raw.replace(/_/g, ' ');
    return [words, compactWord(raw)];
  }
  return [raw.replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2').replace(/_/g, ' '), compactWord(raw)];
}

/** The token and the words of a column value, by collection, column and value: a sync meets the same few values again and again. */
const FRAGMENTS = new Map<string, { token: string; words: string }>();
const FRAGMENTS_MAX = 20_000;

function fragment(collection: CollectionId, column: ColumnDef, value: string | number | boolean): { token: string; words: string } {
  const key = `${collection}\u0000${column.name}\u0000${typeof value}\u0000${String(value)}`;
  let found = FRAGMENTS.get(key);
  if (!found) {
    if (FRAGMENTS.size >= FRAGMENTS_MAX) FRAGMENTS.clear();
    found = { token: facetToken(column.name, value), words: valueWords(column, value).join(' ') };
    FRAGMENTS.set(key, found);
  }
  return found;
}

/** The `facets` text of an object: its collection and the values of its filterable columns, then the words those values are searched by. */
export function facetsText(collection: CollectionId, columns: Record<string, ColumnValue>): string {
  const d = descriptorOf(collection);
  let tokens = facetToken('collection', collection);
  let words = '';
  for (const c of d.columns) {
    if (!c.filter) continue;
    for (const value of columnValues(c, columns[c.name])) {
      const f = fragment(collection, c, value);
      tokens += ` ${f.token}`;
      if (f.words !== '') words += ` ${f.words}`;
    }
  }
  return tokens + words;
}
