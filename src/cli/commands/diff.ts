import { describeDiff, type ChangeInWords, type ValueChange } from '../../main/app/diff';
import { textLine } from '../output';
import { EXIT } from '../exit-codes';
import { parseCommandArgs, type CommandModule } from '../io';
import { collectionArg, openForReading, positiveInt, STORE_OPTIONS, STORE_USAGE } from './store-option';

const usage = `Usage: attest diff [--from RUN] [--to RUN] [--collection C] [--connection NAME] [--data-dir DIR] [--store FILE] [--json]

What changed on the tenant between two sync runs: objects added (+), removed (-) and modified (~),
each changed value below it with its label, old and new value (times in UTC, enum values in
words), and the app and entitlement of a membership, entitlement, app user or task. Every
completed run is a snapshot; by default the two latest completed syncs are compared (what a send
read back or a live read stored in between is part of the later one).
  --to RUN            default: the latest completed sync
  --from RUN          default: the completed sync before --to
  --collection C      only one collection
${STORE_USAGE}
  --json              print {from, to, changes: [{collection, id, title, change, appId, app, entitlementId,
                      entitlement, values: [{field, label, before, after}], valuesNotListed}]} as JSON`;

const MARK = { added: '+', removed: '-', modified: '~' } as const;

/** An old or new value on one line: empty as "(none)", text quoted, long text cut. */
function shown(value: ValueChange['before']): string {
  if (value === null || value === undefined) return '(none)';
  if (typeof value !== 'string') return String(value);
  const line = value.replace(/\s+/g, ' ');
  return JSON.stringify(line.length > 120 ? `${line.slice(0, 119)}…` : line);
}

function printChange(io: Parameters<CommandModule['run']>[1], c: ChangeInWords): void {
  const of = [c.app ?? c.appId, c.entitlement ?? c.entitlementId].filter(Boolean);
  const where = c.collection === 'apps' || of.length === 0 ? '' : `  (${c.entitlementId ? `${of.at(-1)} in ${of[0]}` : of[0]})`;
  textLine(io, `${MARK[c.change]} ${c.collection.padEnd(13)} ${c.id}  ${c.title}${where}`);
  for (const v of c.values) textLine(io, `    ${v.label}: ${shown(v.before)} -> ${shown(v.after)}`);
  if (c.valuesNotListed > 0) textLine(io, `    … ${c.valuesNotListed} more values changed`);
}

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
    try {
      const { from, to, changes } = describeDiff(workspace.store, {
        fromRun: values.from ? positiveInt(values.from, '--from') : undefined,
        toRun: values.to ? positiveInt(values.to, '--to') : undefined,
        collection: values.collection ? collectionArg(values.collection, '--collection') : undefined,
      });
      if (to === null || from === null) {
        // Nothing to compare yet is not an error: say so.
        if (values.json) io.out(JSON.stringify({ from, to, changes: [] }, null, 2));
        io.err(
          to === null
            ? 'No completed sync run yet: run `attest sync`.'
            : `Run ${to} is the first completed sync: nothing to compare it with yet.`,
        );
        return EXIT.ok;
      }
      if (values.json) {
        io.out(JSON.stringify({ from, to, changes }, null, 2));
        return EXIT.ok;
      }
      for (const c of changes) printChange(io, c);
      const count = (kind: keyof typeof MARK) => changes.filter((c) => c.change === kind).length;
      io.err(`run ${from} -> run ${to}: ${count('added')} added, ${count('removed')} removed, ${count('modified')} modified`);
      return EXIT.ok;
    } finally {
      workspace.close();
    }
  },
};

export default command;
