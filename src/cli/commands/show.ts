import { collection as descriptorOf } from '../../main/app/collections';
import { liveReadableCollections, readLive, type LiveRead } from '../../main/app/live-read';
import { enumCell } from '../enum-cells';
import { EXIT } from '../exit-codes';
import { parseCommandArgs, UsageError, type CliIO, type CommandModule } from '../io';
import { askedFormat, escapeControls, escapeJsonText, OUTPUT_OPTIONS, print, textLine } from '../output';
import { collectionArg, collectionsInWords, openForReading, positiveInt, STORE_OPTIONS, STORE_USAGE } from './store-option';

const usage = `Usage: attest show COLLECTION ID [--as-of RUN | --history | --live] [-o table|json|csv] [--connection NAME] [--data-dir DIR] [--store FILE]

Prints one object's JSON as the store holds it, exactly as the tenant sent it (campaigns: the
campaign's view, the row of GET /access_reviews, which is also the \`accessReview\` member of the
wrapper GET /access_review/{id} answers), with any control character that JSON allows raw in a
string (C1, bidi) written as its \\u escape: the same JSON value, safe on a terminal. COLLECTION is one of
${collectionsInWords()}.
  --as-of RUN         the version in the snapshot of that sync run
  --history           its versions across sync runs instead (added, modified with fields, removed)
  --live              read it from the tenant now, through its GET (campaigns: the spec's GET /access_review/{id}
                      wrapper; only ${liveReadableCollections().join(', ')}), store it as a fresh copy (a new
                      version, in a run of origin \`live\`, when it changed) and print it; what changed since the
                      version the store held goes to stderr (-o table/csv: those changes as rows; --json:
                      {collection, id, title, readAt, before, runId, changes, changeCount, note, json}). It needs
                      the tenant; offline, a failed read or a 404 is an error and the store is left as it was
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
      {
        ...STORE_OPTIONS,
        ...OUTPUT_OPTIONS,
        'as-of': { type: 'string' },
        history: { type: 'boolean', default: false },
        live: { type: 'boolean', default: false },
      },
      true,
    );
    const format = askedFormat(values);
    if (positionals.length !== 2) throw new UsageError('give a COLLECTION and an ID');
    const collection = collectionArg(positionals[0]!, 'COLLECTION');
    const id = positionals[1]!;
    const asOfRun = values['as-of'] ? positiveInt(values['as-of'], '--as-of') : undefined;
    if (values.live && (values.history || asOfRun !== undefined))
      throw new UsageError('--live reads the object now: give it without --as-of and --history');
    if (values.live && !liveReadableCollections().includes(collection))
      throw new UsageError(
        `--live: the API has no read of one ${collection} object (only ${liveReadableCollections().join(', ')}); \`attest sync\` refreshes it`,
      );
    const workspace = await openForReading(values, io);
    const { store } = workspace;
    try {
      if (values.live) {
        printLive(io, format, await readLive(workspace, collection, id));
        return EXIT.ok;
      }
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
      const columnsByName = new Map(descriptorOf(collection).columns.map((c) => [c.name, c]));
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
          // The table writes enum values in words, as the app and the workbooks do; CSV keeps them as stored.
          ...Object.entries(object.columns).map(([name, value]): [string, string | number | boolean | null] => [
            name,
            format === 'table' ? ((enumCell(value, columnsByName.get(name)) ?? null) as string | number | boolean | null) : value,
          ]),
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

/** A value as a change line shows it: JSON, cut short; "(none)" where the field was not there. */
function shown(value: unknown): string {
  if (value === undefined) return '(none)';
  const text = JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

/** A live read: the object (stdout), what changed since the stored version (stderr); or those changes as rows, or all as JSON. */
function printLive(io: CliIO, format: 'table' | 'json' | 'csv' | undefined, read: LiveRead): void {
  const since = read.before
    ? `since the version of run ${read.before.runId}${read.before.deleted ? ' (marked deleted)' : ''}`
    : 'the store did not hold it before';
  if (format === 'json') {
    const { raw, ...rest } = read;
    io.out(JSON.stringify({ ...rest, json: JSON.parse(raw) as unknown }, null, 2));
  } else if (format === undefined) io.out(escapeJsonText(read.raw));
  else
    print(io, format, {
      headers: ['Field', 'Before', 'After'],
      csvHeaders: ['field', 'before', 'after'],
      rows: read.changes.map((c) => [c.field, shown(c.before), shown(c.after)]),
      json: () => read.changes,
    });
  if (format === 'json') return;
  io.err(`${read.collection} ${read.id} read from the tenant at ${read.readAt}; ${since}:`);
  if (!read.before) io.err('  (new in the store)');
  else if (read.changeCount === 0) io.err('  no change');
  else if (format === undefined) for (const c of read.changes) io.err(`  ${c.field}: ${shown(c.before)} → ${shown(c.after)}`);
  if (read.changeCount > read.changes.length) io.err(`  …and ${read.changeCount - read.changes.length} more values`);
  io.err(read.note ?? (read.runId === null ? 'The store already held this version.' : `Stored as a fresh copy in run ${read.runId}.`));
}

export default command;
