import { textLine } from '../output';
import { EXIT } from '../exit-codes';
import { parseCommandArgs, type CommandModule } from '../io';
import { collectionArg, openForReading, positiveInt, STORE_OPTIONS, STORE_USAGE } from './store-option';

const usage = `Usage: attest diff [--from RUN] [--to RUN] [--collection C] [--connection NAME] [--data-dir DIR] [--store FILE] [--json]

What changed on the tenant between two sync runs: objects added (+), removed (-) and modified (~,
with the fields that differ). Every completed run is a snapshot.
  --to RUN            default: the last completed run
  --from RUN          default: the completed run before --to
  --collection C      only one collection
${STORE_USAGE}
  --json              print {from, to, changes: [{collection, id, title, change, changedFields}]} as JSON`;

const MARK = { added: '+', removed: '-', modified: '~' } as const;

const command: CommandModule = {
  summary: 'what changed between two sync runs',
  usage,
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, {
      ...STORE_OPTIONS,
      from: { type: 'string' },
      to: { type: 'string' },
      collection: { type: 'string' },
    });
    const workspace = await openForReading(values, io);
    const { store } = workspace;
    try {
      const completed = store
        .runs()
        .filter((r) => r.status === 'completed')
        .map((r) => r.id);
      const to = values.to ? positiveInt(values.to, '--to') : completed[0];
      const from = values.from ? positiveInt(values.from, '--from') : to === undefined ? undefined : completed.find((id) => id < to);
      if (to === undefined || from === undefined) {
        // Nothing to compare yet is not an error: say so.
        if (values.json) io.out(JSON.stringify({ from: from ?? null, to: to ?? null, changes: [] }, null, 2));
        io.err(
          to === undefined
            ? 'No completed sync run yet: run `attest sync`.'
            : `Run ${to} is the first completed sync run: nothing to compare it with yet.`,
        );
        return EXIT.ok;
      }
      const changes = store.diff(from, to, values.collection ? { collection: collectionArg(values.collection, '--collection') } : {});
      if (values.json) {
        io.out(JSON.stringify({ from, to, changes }, null, 2));
        return EXIT.ok;
      }
      for (const c of changes) {
        textLine(
          io,
          `${MARK[c.change]} ${c.collection.padEnd(13)} ${c.id}  ${c.title}${c.changedFields.length ? `  (${c.changedFields.join(', ')})` : ''}`,
        );
      }
      const count = (kind: keyof typeof MARK) => changes.filter((c) => c.change === kind).length;
      io.err(`run ${from} -> run ${to}: ${count('added')} added, ${count('removed')} removed, ${count('modified')} modified`);
      return EXIT.ok;
    } finally {
      workspace.close();
    }
  },
};

export default command;
