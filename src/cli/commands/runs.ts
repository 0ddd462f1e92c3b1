import { EXIT } from '../exit-codes';
import { parseCommandArgs, type CommandModule } from '../io';
import { openForReading, STORE_OPTIONS, STORE_USAGE, table } from './store-option';

const usage = `Usage: attest runs [--connection NAME] [--data-dir DIR] [--store FILE] [--json]

Lists the runs of a connection's local store, newest first (FROM: \`sync\`, a walk of the tenant;
\`outbox\`, the objects that sent changes returned, stored until the next sync), then the state of each
collection: its last completed run ("data as of"), whether the data is a complete snapshot,
whether a later walk was interrupted (the next \`attest sync\` resumes it), and its object count.
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
      const collections = store.collectionStatus();
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
          ['COLLECTION', 'OBJECTS', 'AS OF RUN', 'DATA AS OF', 'STATE'],
          ...collections.map((c) => [
            c.collection,
            String(c.objectCount),
            c.lastCompletedRunId === null ? '-' : String(c.lastCompletedRunId),
            c.dataAsOf ?? 'never synced',
            c.error ? `failed: ${c.error}` : c.interrupted ? 'interrupted (resumable)' : c.complete ? 'complete' : 'incomplete',
          ]),
        ]),
      );
      return EXIT.ok;
    } finally {
      workspace.close();
    }
  },
};

export default command;
