import { MUTATION_KINDS, OUTBOX_STATES, type JournalEntryInWords, type MutationKind } from '../../main/app/outbox';
import { EXIT } from '../exit-codes';
import { parseCommandArgs, UsageError, type CommandModule } from '../io';
import { OUTPUT_OPTIONS, OUTPUT_USAGE, outputFormat, print } from '../output';
import { batchOf } from './queue-bulk';
import { openWorkspaceFor, positiveInt } from './store-option';

const usage = `Usage: attest journal [--connection NAME] [--data-dir DIR] [--store FILE] [--item ID] [--kind KIND] [--state OUTCOME]
                      [--batch N|NAME] [--since ISO] [--until ISO] [--newest-first] [--limit N] [-o table|json|csv]

Prints the outbox journal: every attempt to send a change and every decision about it (kind,
the change in words, with the names the store has for the objects it names, target, SHA-256 of the
canonical request, HTTP status, the tenant's answer, time). It is only ever appended to: the
change-log evidence. --state keeps the entries with that outcome (succeeded, failed, uncertain,
queued, resolved, discarded); --batch those of one import (attest queue batches); --since and
--until a time range (until: before that time).
${OUTPUT_USAGE}
                      (table: the tenant's answer cut to 200 characters; csv and json: whole)`;

const HEADERS = ['At', 'Item', 'Kind', 'Event', 'Outcome', 'HTTP', 'Request SHA-256', 'Change', 'Answer'];
const CSV_HEADERS = ['at', 'itemId', 'kind', 'event', 'outcome', 'httpStatus', 'requestDigest', 'target', 'change', 'answer'];

function row(e: JournalEntryInWords, whole: boolean): (string | number | null)[] {
  const answer = e.answer && (whole || e.outcome !== 'succeeded') ? (whole ? e.answer : e.answer.slice(0, 200)) : null;
  const digest = whole ? e.requestDigest : e.requestDigest ? e.requestDigest.slice(0, 16) : null;
  const head = [e.at, whole ? e.itemId : e.itemId.slice(0, 8), e.kind, e.event, e.outcome, e.httpStatus, digest];
  return whole ? [...head, e.target, e.change, answer] : [...head, e.change, answer];
}

const command: CommandModule = {
  summary: 'the outbox journal: every attempt, its request digest and the answer',
  usage,
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, {
      ...OUTPUT_OPTIONS,
      store: { type: 'string' },
      connection: { type: 'string' },
      'data-dir': { type: 'string' },
      item: { type: 'string' },
      kind: { type: 'string' },
      state: { type: 'string' },
      batch: { type: 'string' },
      since: { type: 'string' },
      until: { type: 'string' },
      'newest-first': { type: 'boolean', default: false },
      limit: { type: 'string' },
    });
    const format = outputFormat(values);
    if (values.kind && !MUTATION_KINDS.includes(values.kind as MutationKind))
      throw new UsageError(`--kind must be one of ${MUTATION_KINDS.join(', ')}`);
    if (values.state && !(OUTBOX_STATES as readonly string[]).includes(values.state))
      throw new UsageError(`--state must be one of ${OUTBOX_STATES.join(', ')}`);
    const limit = values.limit ? positiveInt(values.limit, '--limit') : undefined;
    const workspace = await openWorkspaceFor(values, io);
    try {
      const { outbox } = workspace;
      const { entries } = outbox.journalInWords({
        itemId: values.item ? outbox.resolveId(values.item) : undefined,
        kind: values.kind as MutationKind | undefined,
        outcome: values.state,
        batch: values.batch !== undefined ? batchOf(outbox, values.batch) : undefined,
        since: values.since,
        until: values.until,
        newestFirst: values['newest-first'],
        limit,
      });
      print(io, format, {
        headers: HEADERS,
        csvHeaders: CSV_HEADERS,
        rows: entries.map((e) => row(e, format === 'csv')),
        json: () => entries,
      });
      if (format === 'table') io.err(`${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}`);
      return EXIT.ok;
    } finally {
      workspace.close();
    }
  },
};

export default command;
