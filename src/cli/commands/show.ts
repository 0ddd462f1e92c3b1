import { EXIT } from '../exit-codes';
import { parseCommandArgs, UsageError, type CommandModule } from '../io';
import { askedFormat, escapeControls, escapeJsonText, OUTPUT_OPTIONS, print, textLine } from '../output';
import { collectionArg, collectionsInWords, openForReading, positiveInt, STORE_OPTIONS, STORE_USAGE } from './store-option';

const usage = `Usage: attest show COLLECTION ID [--as-of RUN] [--history] [-o table|json|csv] [--connection NAME] [--data-dir DIR] [--store FILE]

Prints one object's JSON as the tenant sent it (campaigns: the wrapper of GET /access_review/{id}),
with any control character that JSON allows raw in a string (C1, bidi) written as its \\u escape:
the same JSON value, safe on a terminal. COLLECTION is one of
${collectionsInWords()}.
  --as-of RUN         the version in the snapshot of that sync run
  --history           its versions across sync runs instead (added, modified with fields, removed)
${STORE_USAGE}
  -o, --output F      table (its id, title, run, columns as FIELD and VALUE; --history: a row per version),
                      csv (the same as one row; --history: a row per version) or json (the stored
                      record exactly: ids, run, fetched at, columns, deleted, raw; --history: the versions)
  --json              the same as -o json`;

const command: CommandModule = {
  summary: 'one object as received (raw JSON), as of a run, or its history',
  usage,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(
      argv,
      { ...STORE_OPTIONS, ...OUTPUT_OPTIONS, 'as-of': { type: 'string' }, history: { type: 'boolean', default: false } },
      true,
    );
    const format = askedFormat(values);
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
          io.err(`No ${collection} object ${escapeControls(id)} in the local store.`);
          return EXIT.other;
        }
        if (format === undefined)
          for (const v of versions)
            textLine(io, `run ${v.runId}  ${v.at ?? ''}  ${v.change}${v.changedFields.length ? `  ${v.changedFields.join(', ')}` : ''}`);
        else
          print(io, format, {
            headers: ['Run', 'At', 'Change', 'Fields'],
            csvHeaders: ['run', 'at', 'change', 'fields'],
            rows: versions.map((v) => [v.runId, v.at, v.change, v.changedFields.join(', ')]),
            json: () => versions,
          });
        return EXIT.ok;
      }
      const object = store.getObject(collection, id, asOfRun === undefined ? {} : { asOfRun });
      if (!object) {
        io.err(`No ${collection} object ${escapeControls(id)} in the local store${asOfRun === undefined ? '' : ` as of run ${asOfRun}`}.`);
        return EXIT.other;
      }
      if (format === undefined) io.out(escapeJsonText(object.raw));
      else {
        const fields: [string, string | number | boolean | null][] = [
          ['id', object.id],
          ['title', object.title],
          ['runId', object.runId],
          ['fetchedAt', object.fetchedAt],
          ['deleted', object.deleted],
          ...Object.entries(object.columns),
        ];
        print(
          io,
          format,
          format === 'csv'
            ? { headers: fields.map(([k]) => k), rows: [fields.map(([, v]) => v)], json: () => object }
            : { headers: ['Field', 'Value'], rows: fields, json: () => object },
        );
      }
      if (object.deleted && format !== 'json')
        io.err(`(deleted: no longer on the tenant since a sync after run ${object.lastSeenRun}; this is its last version)`);
      return EXIT.ok;
    } finally {
      workspace.close();
    }
  },
};

export default command;
