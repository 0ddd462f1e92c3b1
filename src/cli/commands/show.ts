import { EXIT } from '../exit-codes';
import { parseCommandArgs, UsageError, type CommandModule } from '../io';
import { collectionArg, openForReading, positiveInt, STORE_OPTIONS, STORE_USAGE } from './store-option';

const usage = `Usage: attest show COLLECTION ID [--as-of RUN] [--history] [--connection NAME] [--data-dir DIR] [--store FILE] [--json]

Prints one object's JSON exactly as the tenant sent it (campaigns: the wrapper of GET
/access_review/{id}). COLLECTION is campaigns, templates, automations, toolsets, routing-rules or scopes.
  --as-of RUN         the version in the snapshot of that sync run
  --history           its versions across sync runs instead (added, modified with fields, removed)
${STORE_USAGE}
  --json              print the stored record (ids, run, fetched at, columns, deleted, raw) as JSON`;

const command: CommandModule = {
  summary: 'one object as received (raw JSON), as of a run, or its history',
  usage,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(
      argv,
      { ...STORE_OPTIONS, 'as-of': { type: 'string' }, history: { type: 'boolean', default: false } },
      true,
    );
    if (positionals.length !== 2) throw new UsageError('give a COLLECTION and an ID');
    const collection = collectionArg(positionals[0]!, 'COLLECTION');
    const id = positionals[1]!;
    const asOfRun = values['as-of'] ? positiveInt(values['as-of'], '--as-of') : undefined;
    const workspace = await openForReading(values, io);
    const { store } = workspace;
    try {
      if (values.history) {
        const versions = store.history(collection, id);
        if (versions.length === 0) {
          io.err(`No ${collection} object ${id} in the local store.`);
          return EXIT.other;
        }
        if (values.json) io.out(JSON.stringify(versions, null, 2));
        else
          for (const v of versions)
            io.out(`run ${v.runId}  ${v.at ?? ''}  ${v.change}${v.changedFields.length ? `  ${v.changedFields.join(', ')}` : ''}`);
        return EXIT.ok;
      }
      const object = store.getObject(collection, id, asOfRun === undefined ? {} : { asOfRun });
      if (!object) {
        io.err(`No ${collection} object ${id} in the local store${asOfRun === undefined ? '' : ` as of run ${asOfRun}`}.`);
        return EXIT.other;
      }
      if (values.json) io.out(JSON.stringify(object, null, 2));
      else {
        io.out(object.raw);
        if (object.deleted)
          io.err(`(deleted: no longer on the tenant since a sync after run ${object.lastSeenRun}; this is its last version)`);
      }
      return EXIT.ok;
    } finally {
      workspace.close();
    }
  },
};

export default command;
