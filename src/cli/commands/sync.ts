import type { CollectionId } from '../../main/app/collections';
import { runSync, type SyncSummary } from '../../main/app/tasks/sync';
import type { SyncProgress } from '../../shared/contract';
import { EXIT, type ExitCode } from '../exit-codes';
import { parseCommandArgs, UsageError, type CliIO, type CommandModule } from '../io';
import { escapeControls } from '../terminal-text';
import { collectionArg, openWorkspaceFor, positiveInt } from './store-option';

const usage = `Usage: attest sync [--connection NAME] [--only LIST] [--concurrency N] [--data-dir DIR] [--json]

Copies the tenant into the connection's local store: campaigns, templates, automations, toolsets,
routing-rules, scopes, apps, entitlements, app-users, memberships, tasks, users, policies. Each page
is stored with its checkpoint; an interrupted or failed sync is resumed by the next one from where
it stopped. Objects no longer on the tenant are marked deleted
only when a collection was walked to its end.
  --connection NAME   the connection to sync (default: the one used last)
  --only LIST         comma-separated collections, e.g. --only scopes,automations
  --concurrency N     collections walked at the same time (default 3)
  --data-dir DIR      where connections are recorded (default: the OS app-data folder; ATTEST_DATA_DIR)
  --json              print the summary as JSON on stdout: runId, status, resumed, ms, and per
                      collection fetched, pages, upserted, deleted, complete, ms (and error;
                      gone: templates added by id that the tenant answered 404 for)
Progress goes to standard error (one line per collection on a terminal).
Exit codes: 0 every collection complete, 3 authentication, 4 network, 1 otherwise.`;

/** One status line per collection, redrawn in place on a terminal (at most ten times a second); the tenant's words in it escaped. */
class ProgressLines {
  private readonly rows = new Map<string, SyncProgress>();
  private drawn = 0;
  private last = 0;

  constructor(private readonly write: (text: string) => void) {}

  update(event: SyncProgress): void {
    if (event.phase !== 'collection' || !event.collection) return;
    this.rows.set(event.collection, event);
    const now = Date.now();
    if (event.state === 'running' && now - this.last < 100) return;
    this.last = now;
    this.draw();
  }

  draw(): void {
    const lines = [...this.rows.values()].map((e) => {
      const rate = e.ratePerSecond ? `${Math.round(e.ratePerSecond).toLocaleString('en-US')}/s` : '';
      const mark = e.state === 'done' ? '✔' : e.state === 'failed' ? '✖' : e.state === 'cancelled' ? '■' : e.state === 'queued' ? '·' : '›';
      const counts = `${String(e.pages).padStart(6)} pages ${e.items.toLocaleString('en-US').padStart(9)} objects`;
      return escapeControls(
        `${mark} ${e.collection!.padEnd(14)} ${e.state.padEnd(9)} ${counts}  ${rate.padStart(8)}${e.error ? `  ${e.error}` : ''}`,
      );
    });
    const up = this.drawn > 0 ? `\u001b[${this.drawn}A` : '';
    this.write(`${up}${lines.map((l) => `\u001b[2K${l}`).join('\n')}\n`);
    this.drawn = lines.length;
  }
}

function parseOnly(value: string | undefined): CollectionId[] | undefined {
  if (value === undefined) return undefined;
  const ids = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => collectionArg(s, '--only'));
  if (ids.length === 0) throw new UsageError('--only needs at least one collection');
  return ids;
}

function exitCodeOf(summary: SyncSummary): ExitCode {
  if (summary.status === 'completed') return EXIT.ok;
  const kinds = summary.collections.map((c) => c.errorKind).filter((k): k is string => k !== undefined);
  if (kinds.includes('auth')) return EXIT.auth;
  if (kinds.some((k) => k === 'network' || k === 'timeout')) return EXIT.network;
  return EXIT.other;
}

/** The summary table (the output module loaded only now: a sync that is stopped never needs it). */
async function printSummary(io: CliIO, summary: SyncSummary): Promise<void> {
  const { print } = await import('../output');
  print(io, 'table', {
    headers: ['Collection', 'Fetched', 'Pages', 'Upserted', 'Deleted', 'Complete', 'ms', 'Error'],
    rows: summary.collections.map((c) => [
      c.collection,
      c.fetched,
      c.pages,
      c.upserted,
      c.deleted,
      c.complete ? 'yes' : 'no',
      c.ms,
      c.error,
    ]),
    json: () => summary,
  });
  io.err(`run ${summary.runId}${summary.resumed ? ' (resumed)' : ''}: ${summary.status} in ${(summary.ms / 1000).toFixed(1)} s`);
  for (const c of summary.collections) if (c.gone) io.err(goneInWords(c.collection, c.gone, summary.runId));
}

/** Ids added by id that the tenant answered 404 for: what happened to them, and how to stop reading them. */
function goneInWords(collection: CollectionId, ids: readonly string[], runId: number): string {
  const list = ids.map((id) => escapeControls(id)).join(', ');
  return (
    `${collection}: ${ids.length === 1 ? '1 id' : `${ids.length} ids`} added by id no longer on the tenant (404): ${list}. ` +
    `Gone from the store as of run ${runId}; still added, so every sync reads ${ids.length === 1 ? 'it' : 'them'} again ` +
    `(\`attest template remove ID\` stops that).`
  );
}

const command: CommandModule = {
  summary: 'copy the tenant into the local store (resumable, page by page)',
  usage,
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, {
      connection: { type: 'string' },
      'data-dir': { type: 'string' },
      only: { type: 'string' },
      concurrency: { type: 'string' },
      json: { type: 'boolean', default: false },
    });
    const only = parseOnly(values.only);
    const concurrency = values.concurrency ? positiveInt(values.concurrency, '--concurrency') : undefined;
    const workspace = await openWorkspaceFor(values, io, { secret: 'required' });
    const controller = new AbortController();
    const onSignal = (): void => {
      io.err('Stopping at the next page boundary (the next `attest sync` resumes)…');
      controller.abort(new Error('cancelled'));
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    const lines = io.isTTY && io.redraw && !values.json ? new ProgressLines(io.redraw) : null;
    try {
      const summary = await runSync(workspace, {
        only,
        concurrency,
        signal: controller.signal,
        onProgress: (e) => lines?.update(e),
      });
      lines?.draw();
      if (values.json) {
        io.out(JSON.stringify(summary, null, 2));
        // The table is not printed: the reasons go to stderr, for people and for the JSON's error.
        const failed = summary.collections.flatMap((c) => [
          ...(c.error ? [c.error] : []),
          ...(c.gone ? [goneInWords(c.collection, c.gone, summary.runId)] : []),
        ]);
        if (failed.length > 0) io.err(failed.join('\n'));
      } else await printSummary(io, summary);
      return exitCodeOf(summary);
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      workspace.close();
    }
  },
};

export default command;
