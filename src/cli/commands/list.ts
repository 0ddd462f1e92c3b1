import {
  collection as descriptorOf,
  MULTI_SEPARATOR,
  resolveFilter,
  type CollectionDescriptor,
  type CollectionId,
  type ColumnDef,
  type Filters,
  type StoredObject,
} from '../../main/app/collections';
import { enumCell } from '../enum-cells';
import { EXIT } from '../exit-codes';
import { parseCommandArgs, UsageError, type CommandModule } from '../io';
import { OUTPUT_OPTIONS, OUTPUT_USAGE, outputFormat, print, type Cell } from '../output';
import { collectionArg, collectionsInWords, intOption, openForReading, positiveInt, STORE_OPTIONS, STORE_USAGE } from './store-option';

const synopsis = 'attest list COLLECTION [--filter KEY=VALUE]... [--sort FIELD[:desc]] [--limit N] [--offset N] [--as-of RUN]';
const usage = `Usage: ${synopsis} [--columns A,B…] [-o table|json|csv] [--connection NAME] [--data-dir DIR] [--store FILE]

Lists a collection of the local store, offline, without a search query. COLLECTION is one of
${collectionsInWords()}.
  --filter KEY=VALUE  only objects whose column KEY is VALUE; repeat a key for any of several values,
                      different keys must all match. Any column of the collection (and id, title), e.g.
                        automations:  triggerTypes=TRIGGER_TYPE_SCHEDULE (the primary trigger type, as
                                      the server's filter; primaryTriggerType=…), anyTriggerTypes=…
                                      (any trigger, live or draft; triggerType=…),
                                      statuses=AUTOMATION_STATUS_FILTER_ON (enabled=true),
                                      isDraft=true, appId=APP (appIds)
                        scopes:       state=XAA_SCOPE_STATE_ENABLED, classification=…, appId=APP
                        routing-rules, toolsets: appId=APP; routing-rules: actionKind=suppress
  --sort FIELD[:desc] order by a column (default: the collection's own order, e.g. by name)
  --limit N           at most N objects (default: all)
  --offset N          skip the first N
  --as-of RUN         the collection as the snapshot of that sync run holds it
  --columns A,B…      the columns of the table or CSV (default: id and every column)
${OUTPUT_USAGE}
                      (json: {collection, total, rows: [the stored record: id, title, columns, raw, …]})
${STORE_USAGE}`;

/**
 * `--filter KEY=VALUE` options as store filters: the spec's names of filters (`triggerTypes`,
 * `statuses`, `appIds`) resolved by the descriptors of `collections` (the first that knows the key).
 */
export function parseFilters(given: string[], collections: readonly CollectionDescriptor[]): Filters {
  const filters: Record<string, string[]> = {};
  for (const f of given) {
    const eq = f.indexOf('=');
    if (eq <= 0) throw new UsageError(`--filter '${f}' is not KEY=VALUE`);
    const [key, given] = [f.slice(0, eq), f.slice(eq + 1)];
    const owner = collections.find((d) => d.filterAliases && Object.hasOwn(d.filterAliases, key));
    const known = owner?.filterAliases?.[key]?.values;
    if (known && !Object.hasOwn(known, given))
      throw new UsageError(`--filter ${key} takes ${Object.keys(known).join(' or ')}, not '${given}'`);
    const { column, value } = owner ? resolveFilter(owner, key, given) : { column: key, value: given };
    (filters[column] ??= []).push(value);
  }
  return filters;
}

function sortArg(value: string, d: CollectionDescriptor): { column: string; dir: 'asc' | 'desc' } {
  const [column = '', dir = 'asc', ...rest] = value.split(':');
  if (!column || rest.length > 0 || (dir !== 'asc' && dir !== 'desc'))
    throw new UsageError(`--sort '${value}' is not FIELD, FIELD:asc or FIELD:desc`);
  if (!columnNames(d).includes(column))
    throw new UsageError(`--sort: ${d.id} has no column '${column}' (known: ${columnNames(d).join(', ')})`);
  return { column, dir };
}

function columnNames(d: CollectionDescriptor): string[] {
  return ['id', 'title', ...d.columns.map((c) => c.name)];
}

function chosenColumns(value: string | undefined, d: CollectionDescriptor): string[] {
  if (value === undefined) return ['id', ...d.columns.map((c) => c.name)];
  const names = value
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  const unknown = names.filter((n) => !columnNames(d).includes(n));
  if (names.length === 0 || unknown.length > 0)
    throw new UsageError(
      `--columns: ${d.id} has no column ${unknown.map((n) => `'${n}'`).join(', ') || "''"} (known: ${columnNames(d).join(', ')})`,
    );
  return names;
}

function cellOf(o: StoredObject, name: string): Cell {
  return name === 'id' ? o.id : name === 'title' ? o.title : o.columns[name];
}

/**
 * A table cell of a column that names objects of another collection (an owner, a policy, an app):
 * each id as "Name (id)" where the store holds that object, so a person reads who and what.
 */
function namedCell(value: Cell, column: ColumnDef | undefined, nameOf: (collection: CollectionId, id: string) => string | null): Cell {
  if (!column?.refersTo || typeof value !== 'string' || value === '') return value;
  const ids = column.multi ? value.split(MULTI_SEPARATOR) : [value];
  return ids
    .map((id) => {
      const name = nameOf(column.refersTo!, id);
      return name ? `${name} (${id})` : id;
    })
    .join(MULTI_SEPARATOR);
}

const command: CommandModule = {
  summary: 'a collection of the local store, filtered and sorted, without a search query',
  usage,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(
      argv,
      {
        ...STORE_OPTIONS,
        ...OUTPUT_OPTIONS,
        filter: { type: 'string', multiple: true },
        sort: { type: 'string' },
        limit: { type: 'string' },
        offset: { type: 'string' },
        'as-of': { type: 'string' },
        columns: { type: 'string' },
      },
      true,
    );
    if (positionals.length !== 1) throw new UsageError('give one COLLECTION');
    const format = outputFormat(values);
    const d = descriptorOf(collectionArg(positionals[0]!, 'COLLECTION'));
    const filters = parseFilters(values.filter ?? [], [d]);
    const sort = values.sort ? sortArg(values.sort, d) : undefined;
    const columns = chosenColumns(values.columns, d);
    const limit = values.limit ? positiveInt(values.limit, '--limit') : undefined;
    const offset = values.offset === undefined ? 0 : intOption(values.offset, '--offset', 0);
    const asOfRun = values['as-of'] ? positiveInt(values['as-of'], '--as-of') : undefined;
    const workspace = await openForReading(values, io);
    try {
      const { rows, total } = workspace.store.listObjects(d.id, { filters, sort, limit, offset, asOfRun });
      const labels = new Map(d.columns.map((c) => [c.name, c.label]));
      const defs = new Map(d.columns.map((c) => [c.name, c]));
      const names = new Map<string, string | null>();
      const nameOf = (collection: CollectionId, id: string): string | null => {
        const key = `${collection}\u0000${id}`;
        if (!names.has(key)) names.set(key, workspace.store.getObject(collection, id, { asOfRun })?.title || null);
        return names.get(key)!;
      };
      print(io, format, {
        headers: columns.map((n) => (n === 'id' ? 'ID' : n === 'title' ? 'Title' : (labels.get(n) ?? n))),
        csvHeaders: columns,
        // The table names the objects an id column points at and writes enum values in words; CSV and JSON keep them as stored.
        rows: rows.map((o) =>
          columns.map((n) => (format === 'table' ? enumCell(namedCell(cellOf(o, n), defs.get(n), nameOf), defs.get(n)) : cellOf(o, n))),
        ),
        json: () => ({ collection: d.id, total, offset, rows }),
      });
      io.err(`${total.toLocaleString('en-US')} ${d.id}${rows.length < total ? `, ${rows.length} shown` : ''}`);
      return EXIT.ok;
    } finally {
      workspace.close();
    }
  },
};

export default command;
