import { completenessOf } from '../../main/app/collections';
import { EXIT } from '../exit-codes';
import { parseCommandArgs, type CommandModule } from '../io';
import { OUTPUT_OPTIONS, outputFormat, print, textLine } from '../output';
import { openForReading, STORE_OPTIONS, STORE_USAGE } from './store-option';

const usage = `Usage: attest runs [-o table|json|csv] [--connection NAME] [--data-dir DIR] [--store FILE]

Lists the runs of a connection's local store, newest first (FROM: \`sync\`, a walk of the tenant;
\`outbox\`, the objects that sent changes returned, stored until the next sync; \`live\`, objects read
one by one on request: templates added by id, \`attest show --live\`), then the state of each
collection: its last completed run ("data as of"), how it is gathered (a full walk of the API's list,
or "referenced or added" where the API has no list: then it is partial by nature), whether the data is a
complete snapshot, whether a later walk was interrupted (the next \`attest sync\` resumes it), and its
object count; in the words of the Evidence sheet of an export.
${STORE_USAGE}
  -o, --output F      table (default: the runs, then the collections), csv (the collections, one row each:
                      their state, for a spreadsheet) or json ({runs, collections})
  --json              the same as -o json`;

const command: CommandModule = {
  summary: 'sync runs and the state of each collection',
  usage,
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, { ...STORE_OPTIONS, ...OUTPUT_OPTIONS });
    const format = outputFormat(values);
    const workspace = await openForReading(values, io);
    const { store } = workspace;
    try {
      const runs = store.runs();
      const collections = store.collectionStatus().map((c) => ({ ...c, completeness: completenessOf(c.collection, c) }));
      const state = {
        headers: ['Collection', 'Objects', 'As of run', 'Data as of', 'Gathered', 'State'],
        csvHeaders: ['collection', 'objects', 'asOfRun', 'dataAsOf', 'gathered', 'state'],
        rows: collections.map((c) => [
          c.collection,
          c.objectCount,
          c.lastCompletedRunId ?? (format === 'csv' ? null : '-'),
          c.dataAsOf ?? (format === 'csv' ? null : 'never synced'),
          c.completeness.gathering,
          c.error && !c.interrupted ? `failed: ${c.error}` : c.completeness.note,
        ]),
        json: () => ({ runs, collections }),
      };
      if (format !== 'table') {
        print(io, format, state);
        return EXIT.ok;
      }
      if (runs.length === 0) io.err('No sync run yet.');
      print(io, 'table', {
        headers: ['Run', 'From', 'Status', 'Started', 'Finished', 'Collections'],
        rows: runs.map((r) => [r.id, r.origin, r.status, r.startedAt, r.finishedAt, r.collections.join(',')]),
        json: () => runs,
      });
      io.out('');
      print(io, 'table', state);
      for (const c of collections.filter((x) => x.completeness.gathering !== 'full walk'))
        textLine(io, `${c.collection}: ${c.completeness.gathered}`);
      return EXIT.ok;
    } finally {
      workspace.close();
    }
  },
};

export default command;
