/**
 * `attest queue retry|resolve|discard` over a selection (ids, or every item matching a filter),
 * `attest queue batches`, and the filter options `list` shares with them.
 */
import {
  MUTATION_KINDS,
  OUTBOX_STATES,
  type BulkAction,
  type BulkResult,
  type MutationKind,
  type Outbox,
  type OutboxBatch,
  type OutboxFilter,
  type OutboxState,
} from '../../main/app/outbox';
import { EXIT, type ExitCode } from '../exit-codes';
import { UsageError, type CliIO } from '../io';
import { escapeControls, print, type OutputFormat } from '../output';

/** The options that select items. */
export interface SelectionValues {
  ids?: string | undefined;
  state?: string | undefined;
  kind?: string | undefined;
  batch?: string | undefined;
  error?: string | undefined;
}

export const KIND_ALIASES: Record<string, MutationKind> = { escalate: 'escalate-task' };

/** A batch given by its number, or by its name when one batch has it. */
export function batchOf(outbox: Outbox, given: string): number {
  const batches = outbox.batches();
  if (/^#?\d+$/.test(given)) {
    const id = Number(given.replace('#', ''));
    if (!batches.some((b) => b.id === id)) throw new UsageError(`no import batch ${id} (attest queue batches lists them)`);
    return id;
  }
  const named = batches.filter((b) => b.name === given);
  if (named.length === 0) throw new UsageError(`no import batch is named '${escapeControls(given)}' (attest queue batches lists them)`);
  if (named.length > 1)
    throw new UsageError(
      `${named.length} import batches are named '${escapeControls(given)}' (${named.map((b) => b.id).join(', ')}): give its number`,
    );
  return named[0]!.id;
}

/** The filter the options give (ids and a unique prefix of 4 or more characters resolved); `extraIds`: ids given as arguments. */
export function filterFrom(outbox: Outbox, values: SelectionValues, extraIds: string[] = []): OutboxFilter {
  const state = values.state as OutboxState | undefined;
  if (state !== undefined && !OUTBOX_STATES.includes(state)) throw new UsageError(`--state must be one of ${OUTBOX_STATES.join(', ')}`);
  const kind = values.kind ? ((KIND_ALIASES[values.kind] ?? values.kind) as MutationKind) : undefined;
  if (kind && !MUTATION_KINDS.includes(kind)) throw new UsageError(`--kind must be one of ${MUTATION_KINDS.join(', ')}`);
  if (values.error !== undefined && values.error.trim() === '') throw new UsageError('--error needs the text to look for');
  const given = [...extraIds, ...(values.ids ?? '').split(',')].map((id) => id.trim()).filter((id) => id !== '');
  if (values.ids !== undefined && given.length === 0) throw new UsageError('--ids needs item IDs, separated by commas');
  return {
    ids: given.length > 0 ? [...new Set(given.map((id) => outbox.resolveId(id)))] : undefined,
    state,
    kind,
    batch: values.batch !== undefined ? batchOf(outbox, values.batch) : undefined,
    error: values.error,
  };
}

export function hasCriteria(values: SelectionValues): boolean {
  return [values.ids, values.state, values.kind, values.batch, values.error].some((v) => v !== undefined);
}

const VERB: Record<BulkAction, string> = { retry: 'retried', resolve: 'marked resolved', discard: 'discarded' };

/** What a bulk action did, for a person: how many changed (and to what), then the refused ones by state and reason. */
export function bulkLines(r: BulkResult): string[] {
  const lines: string[] = [];
  if (r.matched === 0) return [`nothing to ${r.action}: no item matches`];
  lines.push(`${VERB[r.action]} ${r.changed} of ${r.matched} item(s)${r.changed ? `: now ${r.outcome}` : ''}`);
  for (const g of r.refused) lines.push(`refused ${g.count} ${g.state}: ${g.reason}`);
  if (r.refused.some((g) => g.reason.startsWith('only'))) lines.push('(--state selects only the items in one state)');
  return lines;
}

/** The items a bulk action names: ids, or filters (at least one is needed); `--note` goes with resolve only. */
export function selectionOf(
  action: BulkAction,
  outbox: Outbox,
  values: SelectionValues & { note?: string | undefined },
  ids: string[],
): OutboxFilter {
  if (!hasCriteria(values) && ids.length === 0)
    throw new UsageError(`${action} needs an item ID, --ids ID,ID…, or a filter: --state S, --kind K, --batch B, --error TEXT`);
  if (values.note !== undefined && action !== 'resolve') throw new UsageError('--note goes with resolve');
  return filterFrom(outbox, values, ids);
}

/** retry, resolve or discard over the selection: one transaction; exit 1 when some items were refused. */
export function bulkDecide(
  action: BulkAction,
  outbox: Outbox,
  values: SelectionValues & { note?: string | undefined; json: boolean },
  ids: string[],
  io: CliIO,
): ExitCode {
  const result = outbox.bulk(action, selectionOf(action, outbox, values, ids), values.note);
  if (values.json) io.out(JSON.stringify(result, null, 2));
  for (const text of bulkLines(result)) io.err(escapeControls(text));
  return result.refused.length > 0 ? EXIT.other : EXIT.ok;
}

const SHOWN_STATES: OutboxState[] = ['queued', 'sending', 'succeeded', 'failed', 'uncertain', 'resolved', 'discarded'];

/** The import batches, newest first, with their items per state. */
export function printBatches(outbox: Outbox, format: OutputFormat, io: CliIO): ExitCode {
  const batches: OutboxBatch[] = outbox.batches();
  print(io, format, {
    headers: ['Batch', 'Name', 'Kind', 'Rows', 'Imported', ...SHOWN_STATES.map((s) => s[0]!.toUpperCase() + s.slice(1))],
    csvHeaders: ['id', 'name', 'kind', 'rows', 'createdAt', ...SHOWN_STATES],
    rows: batches.map((b) => [b.id, b.name, b.kind, b.rows, b.createdAt, ...SHOWN_STATES.map((s) => b.counts[s])]),
    json: () => batches,
  });
  if (format === 'table') io.err(`${batches.length} batch(es)`);
  return EXIT.ok;
}
