import { MUTATION_KINDS, type JournalEntry, type MutationKind } from '../../main/outbox/queue';
import { EXIT } from '../exit-codes';
import { parseCommandArgs, UsageError, type CommandModule } from '../io';
import { openWorkspaceFor, positiveInt } from './store-option';

const usage = `Usage: attest journal [--connection NAME] [--data-dir DIR] [--store FILE] [--item ID] [--kind KIND] [--since ISO] [--limit N] [--json]

Prints the outbox journal: every attempt to send a change and every decision about it (kind,
target, SHA-256 of the canonical request, HTTP status, the tenant's answer, time). It is only ever
appended to: the change-log evidence.`;

function line(e: JournalEntry): string {
  const http = e.httpStatus ? ` HTTP ${e.httpStatus}` : '';
  const digest = e.requestDigest ? ` sha256:${e.requestDigest.slice(0, 16)}` : '';
  const answer = e.answer && e.outcome !== 'succeeded' ? `  ${e.answer.slice(0, 200)}` : '';
  return `${e.at}  ${e.itemId.slice(0, 8)}  ${e.kind.padEnd(17)} ${e.event.padEnd(11)} ${e.outcome.padEnd(10)}${http}${digest}  ${e.target}${answer}`;
}

const command: CommandModule = {
  summary: 'the outbox journal: every attempt, its request digest and the answer',
  usage,
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, {
      json: { type: 'boolean', default: false },
      store: { type: 'string' },
      connection: { type: 'string' },
      'data-dir': { type: 'string' },
      item: { type: 'string' },
      kind: { type: 'string' },
      since: { type: 'string' },
      limit: { type: 'string' },
    });
    if (values.kind && !MUTATION_KINDS.includes(values.kind as MutationKind))
      throw new UsageError(`--kind must be one of ${MUTATION_KINDS.join(', ')}`);
    const limit = values.limit ? positiveInt(values.limit, '--limit') : undefined;
    const workspace = await openWorkspaceFor(values, io);
    try {
      const { outbox } = workspace;
      const entries = outbox.journal({
        itemId: values.item ? outbox.resolveId(values.item) : undefined,
        kind: values.kind as MutationKind | undefined,
        since: values.since,
        limit,
      });
      if (values.json) io.out(JSON.stringify(entries, null, 2));
      else {
        for (const entry of entries) io.out(line(entry));
        io.err(`${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}`);
      }
      return EXIT.ok;
    } finally {
      workspace.close();
    }
  },
};

export default command;
