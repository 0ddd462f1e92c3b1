import type { Filters } from '../../main/store/db';
import { EXIT } from '../exit-codes';
import { parseCommandArgs, UsageError, type CommandModule } from '../io';
import { SEARCH_COUNT_CAP } from '../../shared/search-limits';
import { collectionArg, intOption, openForReading, positiveInt, STORE_OPTIONS, STORE_USAGE, table } from './store-option';

const synopsis = 'attest search QUERY [--collection C] [--filter COLUMN=VALUE]... [--limit N] [--offset N]';
const usage = `Usage: ${synopsis} [--connection NAME] [--data-dir DIR] [--store FILE] [--json]

Searches the local store offline: names, descriptions, scope values, conditions and every CEL
expression, and states, classifications and trigger types by their labels ("dangerous", "pending
review", "schedule") or raw names (XAA_SCOPE_CLASSIFICATION_DANGEROUS). Each word matches as a prefix
("adm" finds "admin"); "quoted words" match as a phrase.
Best matches first (bm25); for very broad queries, matches in names first, then the newest.
  --collection C      only campaigns, templates, automations, toolsets, routing-rules or scopes
  --filter COL=VALUE  only objects whose column equals the value (repeat for more columns; e.g.
                      state=XAA_SCOPE_STATE_ENABLED, classification=..., primaryTriggerType=...,
                      actionKind=suppress, enabled=true)
  --limit N           at most N hits (default 20)
  --offset N          skip the first N hits
${STORE_USAGE}
  --json              print {total, capped, order, hits: [{collection, id, title, snippet, rank, columns}]}
                      as JSON (matches are counted up to 10,000: capped says there were more)`;

const command: CommandModule = {
  summary: 'offline full-text search across the synced collections',
  usage,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(
      argv,
      {
        ...STORE_OPTIONS,
        collection: { type: 'string' },
        filter: { type: 'string', multiple: true },
        limit: { type: 'string' },
        offset: { type: 'string' },
      },
      true,
    );
    const query = positionals.join(' ').trim();
    if (!query) throw new UsageError('give something to search for');
    const filters: Filters = {};
    for (const f of values.filter ?? []) {
      const eq = f.indexOf('=');
      if (eq <= 0) throw new UsageError(`--filter '${f}' is not COLUMN=VALUE`);
      const [column, value] = [f.slice(0, eq), f.slice(eq + 1)];
      const previous = filters[column];
      filters[column] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
    }
    const workspace = await openForReading(values, io);
    const { store } = workspace;
    try {
      const started = performance.now();
      const result = store.search(query, {
        ...(values.collection ? { collection: collectionArg(values.collection, '--collection') } : {}),
        filters,
        limit: values.limit ? positiveInt(values.limit, '--limit', SEARCH_COUNT_CAP) : 20,
        offset: values.offset ? intOption(values.offset, '--offset', 0, SEARCH_COUNT_CAP) : 0,
        ...(values.json ? {} : { highlight: io.isTTY ? ['\u001b[1m', '\u001b[22m'] : ['[', ']'] }),
      });
      const ms = performance.now() - started;
      if (values.json) {
        io.out(JSON.stringify({ total: result.total, capped: result.capped, order: result.order, hits: result.hits }, null, 2));
        return EXIT.ok;
      }
      if (result.hits.length > 0) {
        io.out(
          table([
            ['COLLECTION', 'ID', 'TITLE', 'MATCH'],
            ...result.hits.map((h) => [h.collection, h.id, h.title, h.snippet.replace(/\s+/g, ' ')]),
          ]),
        );
      }
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
