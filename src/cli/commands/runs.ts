import { completenessOf } from '../../main/collections';
import { EXIT } from '../exit-codes';
import { parseCommandArgs, type CommandModule } from '../io';
import { openForReading, STORE_OPTIONS, STORE_USAGE, table } from './store-option';

const usage = `Usage: attest runs [--connection NAME] [--data-dir DIR] [--store FILE] [--json]

Lists the runs of a connection's local store, newest first (FROM: \`sync\`, a walk of the tenant;
\`outbox\`, the objects that sent changes returned, stored until the next sync), then the state of each
collection: its last completed run ("data as of"), how it is gathered (a full walk of the API's list,
or "referenced only" where the API has no list: then it is partial by nature), whether the data is a
complete snapshot, whether a later walk was interrupted (the next \`attest sync\` resumes it), and its
object count; in the words of the Evidence sheet of an export.
${STORE_USAGE}
  --json              print {runs, collections} as JSON on stdout`;

const command: CommandModule = {
  summary: 'sync runs and the state of each collection',
  usage,
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, STORE_OPTIONS);
    const workspace = await openForReading(values, io);
    const { store } = workspace;
    try {
      const runs = store.runs();
      const collections = store.collectionStatus().map((c) => ({ ...c, completeness: completenessOf(c.collection, c) }));
      if (values.json) {
        io.out(JSON.stringify({ runs, collections }, null, 2));
        return EXIT.ok;
      }
      if (runs.length === 0) io.err('No sync run yet.');
      else
        io.out(
          table([
            ['RUN', 'FROM', 'STATUS', 'STARTED', 'FINISHED', 'COLLECTIONS'],
            ...runs.map((r) => [String(r.id), r.origin, r.status, r.startedAt, r.finishedAt ?? '', r.collections.join(',')]),
          ]),
        );
      io.out('');
      io.out(
        table([
          ['COLLECTION', 'OBJECTS', 'AS OF RUN', 'DATA AS OF', 'GATHERED', 'STATE'],
          ...collections.map((c) => [
            c.collection,
            String(c.objectCount),
            c.lastCompletedRunId === null ? '-' : String(c.lastCompletedRunId),
            c.dataAsOf ?? 'never synced',
            c.completeness.gathering,
            c.error && !c.interrupted ? `failed: ${c.error}` : c.completeness.note,
          ]),
        ]),
      );
      for (const c of collections.filter((x) => x.completeness.gathering !== 'full walk'))
        io.out(`${c.collection}: ${c.completeness.gathered}`);
      return EXIT.ok;
    } finally {
      workspace.close();
    }
  },
};

export default command;
