import { COLLECTIONS, collection as descriptorOf } from '../../main/app/collections';
import { EXIT } from '../exit-codes';
import { parseCommandArgs, UsageError, type CommandModule } from '../io';
import { SEARCH_COUNT_CAP } from '../../shared/search-limits';
import { MARK_CLOSE, MARK_OPEN, OUTPUT_OPTIONS, OUTPUT_USAGE, outputFormat, print } from '../output';
import { parseFilters } from './list';
import { searchAutomationsCommand, searchAutomationsUsage } from './search-automations';
import { collectionArg, collectionsInWords, intOption, openForReading, positiveInt, STORE_OPTIONS, STORE_USAGE } from './store-option';

const synopsis = 'attest search QUERY [--collection C] [--filter COLUMN=VALUE]... [--limit N] [--offset N]';
const usage = `Usage: ${synopsis} [-o table|json|csv] [--connection NAME] [--data-dir DIR] [--store FILE]
       attest search automations [--live] [filters of the spec's automation search…]   (see below)

Searches the local store offline: names, descriptions, scope values, conditions and every CEL
expression, and states, classifications and trigger types by their labels ("dangerous", "pending
review", "schedule") or raw names (XAA_SCOPE_CLASSIFICATION_DANGEROUS). Each word matches as a prefix
("adm" finds "admin"); "quoted words" match as a phrase.
A name equal to the query (case aside) first, then names starting with it, then the best matches
(bm25); for very broad queries, matches in names first, then the newest.
  --collection C      only that collection, one of
${collectionsInWords('                      ')}
  --filter COL=VALUE  only objects whose column equals the value (repeat for more columns; e.g.
                      state=XAA_SCOPE_STATE_ENABLED, classification=..., primaryTriggerType=...,
                      actionKind=suppress, enabled=true)
  --limit N           at most N hits (default 20)
  --offset N          skip the first N hits
${STORE_USAGE}
${OUTPUT_USAGE}
                      (json: {total, capped, order, hits: [{collection, id, title, snippet, rank, columns}]};
                      matches are counted up to 10,000: capped says there were more)
(To search the store's text for the word "automations" itself: attest search -- automations.)

${searchAutomationsUsage}`;

const command: CommandModule = {
  summary: 'offline full-text search across the synced collections',
  usage,
  async run(argv, io) {
    if (argv[0] === 'automations') return searchAutomationsCommand(argv.slice(1), io);
    const { values, positionals } = parseCommandArgs(
      argv,
      {
        ...STORE_OPTIONS,
        ...OUTPUT_OPTIONS,
        collection: { type: 'string' },
        filter: { type: 'string', multiple: true },
        limit: { type: 'string' },
        offset: { type: 'string' },
      },
      true,
    );
    const format = outputFormat(values);
    const query = positionals.join(' ').trim();
    if (!query) throw new UsageError('give something to search for');
    const only = values.collection ? collectionArg(values.collection, '--collection') : undefined;
    const filters = parseFilters(values.filter ?? [], only ? [descriptorOf(only)] : COLLECTIONS);
    const workspace = await openForReading(values, io);
    const { store } = workspace;
    try {
      const started = performance.now();
      const result = store.search(query, {
        ...(only ? { collection: only } : {}),
        filters,
        limit: values.limit ? positiveInt(values.limit, '--limit', SEARCH_COUNT_CAP) : 20,
        offset: values.offset ? intOption(values.offset, '--offset', 0, SEARCH_COUNT_CAP) : 0,
        ...(format === 'json' ? {} : { highlight: [MARK_OPEN, MARK_CLOSE] }),
      });
      const ms = performance.now() - started;
      print(io, format, {
        headers: ['Collection', 'ID', 'Title', 'Match'],
        csvHeaders: ['collection', 'id', 'title', 'match'],
        rows: result.hits.map((h) => [h.collection, h.id, h.title, h.snippet.replace(/\s+/g, ' ')]),
        json: () => ({ total: result.total, capped: result.capped, order: result.order, hits: result.hits }),
      });
      const total = `${result.total.toLocaleString('en-US')}${result.capped ? '+' : ''}`;
      const matches = `${total} match${result.total === 1 && !result.capped ? '' : 'es'}`;
      io.err(`${matches}${result.total > result.hits.length ? `, ${result.hits.length} shown` : ''} (${ms.toFixed(1)} ms)`);
      return EXIT.ok;
    } finally {
      workspace.close();
    }
  },
};

export default command;
