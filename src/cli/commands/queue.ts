import { resolve } from 'node:path';
import { readInputFile } from '../../main/app/input-files';
import { refuseExisting, writeOutputFile } from '../../main/app/output-file';
import { parseClientId, parseClientSecret } from '../../main/app/saved-connections';
import { runSend } from '../../main/app/tasks/send';
import {
  batchLimiter,
  openApiForConnection,
  type ApiClient,
  type Credentials,
  type RateLimiter,
  type Workspace,
} from '../../main/app/workspace';
import {
  OutboxStateError,
  OutboxValidationError,
  MUTATION_KINDS,
  IMPORT_KINDS,
  type ImportKind,
  type BulkAction,
  type MutationKind,
  type Outbox,
  type OutboxItem,
  type QueuedItem,
  type SendSummary,
  type ImportResult,
} from '../../main/app/outbox';
import { CSV_IMPORT_MAX_BYTES, JSON_INPUT_MAX_BYTES } from '../../shared/input-limits';
import { completionDateOf } from '../../shared/campaign-setup';
import { DURATION_EXAMPLES } from '../../shared/durations';
import { namedSummary } from '../../shared/named-summary';
import { EXIT, type ExitCode } from '../exit-codes';
import { asInput, parseCommandArgs, UsageError, type CliIO, type CommandModule } from '../io';
import { escapeControls, OUTPUT_OPTIONS, outputFormat, print } from '../output';
import { bulkDecide, bulkLines, filterFrom, hasCriteria, KIND_ALIASES, printBatches, selectionOf } from './queue-bulk';
import { dataDirOf, openWorkspaceFor, positiveInt } from './store-option';

const usage = `Usage: attest queue <action> [options]

Queue changes offline, alone or from a CSV, and send them later through the durable outbox.

Actions:
  add create-scope      --app ID --resource-server ID --scope-value VALUE [--display-name T] [--description T]
                        [--classification C] [--state S]
  add remove-membership --app ID --entitlement ID --user APP_USER_ID
  add escalate          --task ID [--policy-step ID] [--comment T] [--expand PATH,…]
                        (without --policy-step: the task's current step as last synced, else none:
                        the tenant escalates at the task's current step; --expand app_id,app_user_id…:
                        the related objects the answer carries)
  add update-template   --template ID --file CHANGES.json   (the fields to set; the mask is derived)
  add create-campaign   --file CAMPAIGN.json | --name T --owner ID [--owner ID…] [--policy ID]
                        [--description T] [--completion-date DATE|21d] [--duplicate-from CAMPAIGN_ID]
                        [--template ID]   (the template it was set up from: checked and named, never sent)
  add KIND … --reason T                              (why: kept with the item and in its journal entry;
                                                     an escalation without --comment sends it as its comment)
  edit ID [the flags of its kind]                    (a queued item: the flags given replace those values,
                                                     the rest is kept; validated again, update-template's
                                                     mask derived again)
  import FILE.csv --kind remove-membership|create-scope|escalate|update-template [--dry-run]
         [--partial] [--rejects OUT.csv [--force]]   (checked against the store: a row it is sure the
                                                     tenant refuses is an error, an id a complete
                                                     collection does not hold too, an unknown id of a
                                                     partial one a warning; without --partial any
                                                     refused row queues nothing; --partial queues the
                                                     valid rows as one batch; --rejects writes the
                                                     refused rows with their line and reason, to fix
                                                     and import again; --dry-run lists the rows with
                                                     the names of their ids; columns per kind:
                                                     docs/outbox.md "CSV import")
  list [SELECTION] [-o table|json|csv]
  batches [-o table|json|csv]                       (the CSV imports: name, time, items per state)
  show ID
  send [--ids ID,ID…] [--concurrency N] [--rps N]   (recovers interrupted items and reconciles first)
  reconcile                                         (settle uncertain items by reading the tenant)
  retry ID | discard ID | resolve ID [--note T]     (one item)
  retry | discard | resolve [--note T] SELECTION    (every item selected, in one transaction: items in a
                                                     state the action does not apply to are refused and
                                                     counted; prints what changed, exit 1 if any refused)
                                                     retry queues failed items again; an uncertain one is
                                                     read from the tenant first (the connection's
                                                     credentials) and queued again only if not applied

Selection (all given must hold):
  --ids ID,ID…  --state S  --kind K  --batch N|NAME (see batches)  --error TEXT (in the reason shown, any case)

Where:   --connection NAME [--data-dir DIR] (default: the last used connection), or --store FILE
Tenant:  the connection's credentials (keychain), or --client-id ID [--server-url URL] with the
         client secret on standard input (send, reconcile); --rps N caps requests per second
Output:  --json prints machine-readable results on stdout; list takes -o table|json|csv (table by default,
         cut to the terminal's width on a terminal).
Exit:    0 ok, 2 usage or invalid change, 3 credentials refused, 4 tenant unreachable,
         5 some items failed or are uncertain, 6 import --partial queued the valid rows and refused others.`;

const options = {
  ...OUTPUT_OPTIONS,
  store: { type: 'string' },
  connection: { type: 'string' },
  'data-dir': { type: 'string' },
  'client-id': { type: 'string' },
  'server-url': { type: 'string' },
  auth: { type: 'string' },
  app: { type: 'string' },
  'resource-server': { type: 'string' },
  'scope-value': { type: 'string' },
  'display-name': { type: 'string' },
  description: { type: 'string' },
  classification: { type: 'string' },
  state: { type: 'string' },
  entitlement: { type: 'string' },
  user: { type: 'string' },
  task: { type: 'string' },
  'policy-step': { type: 'string' },
  expand: { type: 'string' },
  comment: { type: 'string' },
  template: { type: 'string' },
  file: { type: 'string' },
  name: { type: 'string' },
  owner: { type: 'string', multiple: true },
  policy: { type: 'string' },
  'completion-date': { type: 'string' },
  'duplicate-from': { type: 'string' },
  kind: { type: 'string' },
  'dry-run': { type: 'boolean', default: false },
  partial: { type: 'boolean', default: false },
  reason: { type: 'string' },
  rejects: { type: 'string' },
  force: { type: 'boolean', default: false },
  ids: { type: 'string' },
  batch: { type: 'string' },
  error: { type: 'string' },
  concurrency: { type: 'string' },
  rps: { type: 'string' },
  note: { type: 'string' },
} as const;

type Values = ReturnType<typeof parseCommandArgs<typeof options>>['values'];

/** One limiter for the whole batch: a Retry-After pauses every sender; --rps paces them. */
function limiterFrom(values: Values): RateLimiter {
  return batchLimiter(values.rps ? positiveInt(values.rps, '--rps') : undefined);
}

/** Credentials given as --client-id ID [--server-url URL] [--auth secret], with the client secret on standard input. */
async function credentialsFromStdin(clientId: string, values: Values, io: CliIO): Promise<Credentials> {
  await asInput(() => parseClientId(clientId, values['server-url']));
  const secret = (await io.readStdin()).trim();
  if (!secret) throw new UsageError('give the client secret on standard input (it is never taken as an argument)');
  await asInput(() => parseClientSecret(secret));
  return { clientId, clientSecret: secret, serverUrl: values['server-url'], auth: values.auth === 'secret' ? 'secret' : 'assertion' };
}

/**
 * The workspace of the command. Sending and reconciling need the tenant: what was in flight when
 * Attest last stopped is recovered at open (it becomes uncertain, and is checked with the tenant).
 */
async function openFor(action: string, values: Values, io: CliIO): Promise<Workspace> {
  if (action !== 'send' && action !== 'reconcile') return openWorkspaceFor(values, io);
  const clientId = values['client-id'];
  if (values.store && !values.connection && !clientId)
    throw new UsageError('with --store, sending needs --client-id ID (and the client secret on standard input)');
  const credentials = clientId ? await credentialsFromStdin(clientId, values, io) : undefined;
  return openWorkspaceFor(values, io, { recover: true, credentials, client: { limiter: limiterFrom(values) } });
}

/** The tenant: the workspace's (its connection's, or the credentials given), or with --store, the credentials of --connection. */
async function apiFrom(values: Values, io: CliIO, workspace: Workspace): Promise<ApiClient> {
  if (!values.store || values['client-id']) return workspace.requireApi();
  const client = { limiter: limiterFrom(values) };
  return (await openApiForConnection(dataDirOf(values, io), values.connection, { env: io.env, onNotice: (m) => io.err(m), client })).api;
}

/** A JSON file given with --file: a regular file within the limit, UTF-8, valid JSON; errors name where, never what. */
function readJsonFile(file: string): unknown {
  const path = resolve(file);
  const bytes = readInputFile(path, 'the JSON file', JSON_INPUT_MAX_BYTES);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UsageError(`the JSON file ${path} is not UTF-8 text`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    // The parser's message may quote the file: keep only where it stopped.
    const at = /\(line (\d+) column (\d+)\)/.exec((error as Error).message);
    const where = at
      ? ` (line ${at[1]}, column ${at[2]})`
      : /end of JSON input/.test((error as Error).message)
        ? ' (it ends too early)'
        : '';
    throw new UsageError(`the JSON file ${path} is not valid JSON${where}`);
  }
}

function defined(obj: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined));
}

/** --completion-date: a date, a date-time, or a length from now (`21d`). */
function completionDateFlag(text: string): string {
  const date = completionDateOf(text, new Date());
  if (date === null)
    throw new UsageError(
      `--completion-date '${text}' is neither a date (2026-12-31, 2026-12-31T17:00:00Z) nor a duration from now (${DURATION_EXAMPLES})`,
    );
  return date;
}

function inputFor(kind: MutationKind, v: Values): unknown {
  switch (kind) {
    case 'create-scope':
      return defined({
        appId: v.app,
        xaaResourceServerId: v['resource-server'],
        scopeValue: v['scope-value'],
        displayName: v['display-name'],
        description: v.description,
        classification: v.classification,
        state: v.state,
      });
    case 'remove-membership':
      return defined({ appId: v.app, appEntitlementId: v.entitlement, appUserId: v.user });
    case 'escalate-task':
      return defined({
        taskId: v.task,
        policyStepId: v['policy-step'],
        comment: v.comment,
        expandMask: v.expand?.split(',').map((path) => path.trim()),
      });
    case 'update-template':
      if (!v.file) throw new UsageError('update-template needs --file CHANGES.json');
      return { templateId: v.template, changes: readJsonFile(v.file) };
    case 'create-campaign': {
      const fromFile = v.file ? (readJsonFile(v.file) as Record<string, unknown>) : {};
      return defined({
        ...fromFile,
        displayName: v.name ?? fromFile.displayName,
        ownerIds: v.owner ?? fromFile.ownerIds,
        policyId: v.policy ?? fromFile.policyId,
        description: v.description ?? fromFile.description,
        completionDate: v['completion-date'] === undefined ? fromFile.completionDate : completionDateFlag(v['completion-date']),
        duplicateFrom: v['duplicate-from'] ?? fromFile.duplicateFrom,
        templateId: v.template ?? fromFile.templateId,
      });
    }
  }
}

/** Why an item failed or is uncertain, or null. */
function whyOf(item: OutboxItem): string | null {
  return item.state === 'failed' || item.state === 'uncertain' ? (item.lastError ?? item.note ?? '') : null;
}

/** One item on a line, for a person (escaped), its change in words. */
function line(outbox: Outbox, item: OutboxItem): string {
  const why = whyOf(item);
  const change = outbox.summariesInWords([item]).get(item.id) ?? item.summary;
  return escapeControls(
    `${item.id.slice(0, 8)}  ${item.state.padEnd(10)} ${item.kind.padEnd(17)} ${change}${why === null ? '' : ` — ${why}`}`,
  );
}

/**
 * One line for a send: only items that got an outcome (succeeded, failed, uncertain) count as
 * sent; one handed back to the queue by a pause (a refused token, an unreachable tenant) was not.
 */
function printSummary(io: CliIO, s: SendSummary): void {
  const sent = s.succeeded + s.failed + s.uncertain;
  const notSent = s.total - sent;
  const seconds = (s.elapsedMs / 1000).toFixed(1);
  if (sent === 0) {
    io.err(`nothing was sent: ${s.total} item(s) stay queued (${seconds} s)`);
  } else {
    const rate = s.elapsedMs > 0 ? (sent / (s.elapsedMs / 1000)).toFixed(1) : '-';
    const outcomes = `${s.succeeded} succeeded, ${s.failed} failed, ${s.uncertain} uncertain, ${notSent} not sent`;
    io.err(`sent ${sent} of ${s.total}: ${outcomes} (${seconds} s, ${rate}/s)`);
  }
  if (s.blocked.length)
    io.err(`${s.blocked.length} item(s) wait behind an uncertain change to the same object: reconcile or decide it first`);
  if (s.paused) io.err(escapeControls(`paused: ${s.paused.message}`));
  if (s.cancelled) io.err('cancelled: the remaining items stay queued');
  if (s.refreshed.runId !== null)
    io.err(`stored ${s.refreshed.stored} changed object(s) of ${s.touched.join(', ')} from the answers (run ${s.refreshed.runId})`);
  else if (s.touched.length) io.err(`changed on the tenant: ${s.touched.join(', ')} (a sync brings them into the views)`);
}

function outboxLine(counts: Record<string, number>): string {
  const states = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${n} ${state}`);
  return `outbox: ${states.join(', ') || 'empty'}`;
}

/** Sends the queue, reconciling uncertain items first and sending again while some stay uncertain. */
async function sendAll(workspace: Workspace, api: ApiClient, values: Values, io: CliIO): Promise<ExitCode> {
  const { outbox, recovered } = workspace;
  if (recovered) io.err(`${recovered} item(s) were in flight when Attest last stopped: now uncertain, checking them with the tenant`);
  const controller = new AbortController();
  const onSignal = () => {
    io.err('stopping: waiting for the requests in flight (Ctrl-C again to force)');
    controller.abort();
    process.off('SIGINT', onSignal);
  };
  process.on('SIGINT', onSignal);
  let lastPrint = 0;
  let result;
  try {
    result = await runSend(workspace, api, {
      ids: values.ids ? values.ids.split(',').map((id) => outbox.resolveId(id.trim())) : undefined,
      concurrency: values.concurrency ? positiveInt(values.concurrency, '--concurrency') : 8,
      signal: controller.signal,
      settle: true,
      onReconciled: (rec) =>
        io.err(
          `reconciled ${rec.examined}: ${rec.applied} found applied, ${rec.requeued} not applied (queued again), ${rec.unknown} still uncertain`,
        ),
      onSent: (summary) => printSummary(io, summary),
      onProgress: (e) => {
        if (e.phase === 'started') io.err(`sending ${e.total} item(s)`);
        const now = Date.now();
        if (e.phase === 'finished' || (e.phase === 'item' && now - lastPrint < 1000)) return;
        lastPrint = now;
        const rate = e.ratePerSecond ? ` ${e.ratePerSecond.toFixed(0)}/s` : '';
        if (e.phase === 'item') io.err(`  ${e.done}/${e.total} (${e.succeeded} ok, ${e.failed} failed, ${e.uncertain} uncertain)${rate}`);
      },
    });
  } finally {
    process.off('SIGINT', onSignal);
  }
  const { last, totals, reconcilePaused } = result;
  if (reconcilePaused) {
    io.err(escapeControls(`paused: ${reconcilePaused.message}`));
    return reconcilePaused.reason === 'auth' ? EXIT.auth : EXIT.network;
  }
  const counts = outbox.counts();
  if (values.json) io.out(JSON.stringify({ last, totals, counts }, null, 2));
  else io.err(outboxLine(counts));
  if (last?.paused?.reason === 'auth') return EXIT.auth;
  if (last?.paused?.reason === 'network') return EXIT.network;
  return counts.failed > 0 || counts.uncertain > 0 || counts.queued > 0 ? EXIT.outboxIncomplete : EXIT.ok;
}

interface ActionCall {
  action: string;
  rest: string[];
  values: Values;
  io: CliIO;
  workspace: Workspace;
  outbox: Outbox;
}

/** The one item ID an action names (a prefix of at least 4 characters will do). */
function oneId({ action, rest, outbox }: ActionCall): string {
  if (rest.length !== 1) throw new UsageError(`${action} needs exactly one item ID`);
  return outbox.resolveId(rest[0]!);
}

function add({ rest, values, io, outbox }: ActionCall): ExitCode {
  const kindArg = rest[0];
  const kind = (kindArg && (KIND_ALIASES[kindArg] ?? kindArg)) as MutationKind;
  if (!kind || !MUTATION_KINDS.includes(kind)) throw new UsageError(`add needs a kind: ${MUTATION_KINDS.join(', ')} (or escalate)`);
  const input =
    kind === 'escalate-task' ? withStoredStep(inputFor(kind, values) as Record<string, unknown>, outbox, io) : inputFor(kind, values);
  // Why: kept with the item and in the journal (an escalation without --comment sends it as its comment).
  const item = outbox.enqueue(kind, values.reason === undefined ? input : { ...(input as object), reason: values.reason }, {
    source: 'cli',
  });
  if (values.json) io.out(JSON.stringify(item, null, 2));
  io.err(escapeControls(`queued ${item.id}: ${outbox.summariesInWords([item]).get(item.id) ?? item.summary}`));
  printWarnings(io, item);
  return EXIT.ok;
}

/** An escalation without a step takes the task's current step from the store, as the app does, and says so; else it goes without one. */
function withStoredStep(input: Record<string, unknown>, outbox: Outbox, io: CliIO): Record<string, unknown> {
  if (input.policyStepId !== undefined || typeof input.taskId !== 'string' || input.taskId.trim() === '') return input;
  const taskId = input.taskId.trim();
  const step = outbox.currentPolicyStep(taskId);
  if (step) io.err(escapeControls(`policy step ${step}: the current step of task ${taskId} as of the last sync`));
  else
    io.err(escapeControls(`no policy step: the store knows no current step of task ${taskId}; the tenant escalates at its current step`));
  return step ? { ...input, policyStepId: step } : input;
}

/** The store's warnings about a queued change: what it does not know, named. */
function printWarnings(io: CliIO, item: QueuedItem): void {
  for (const w of item.warnings) io.err(`warning: ${w.field}: ${w.message}`);
}

function edit(call: ActionCall): ExitCode {
  const { values, io, outbox } = call;
  const id = oneId(call);
  const item = outbox.get(id)!;
  // Only the flags given change; an update-template edit without --file keeps its changes.
  const given =
    item.kind === 'update-template' && !values.file
      ? defined({ templateId: values.template })
      : (inputFor(item.kind, values) as Record<string, unknown>);
  if (Object.keys(given).length === 0)
    throw new UsageError(`edit needs at least one flag of a ${item.kind} change (see \`add ${item.kind}\`)`);
  const edited = outbox.edit(id, { ...item.input, ...given });
  if (values.json) io.out(JSON.stringify(edited, null, 2));
  io.err(escapeControls(`edited ${edited.id}: ${outbox.summariesInWords([edited]).get(edited.id) ?? edited.summary}`));
  printWarnings(io, edited);
  return EXIT.ok;
}

const PARTIAL_HINT = ' (--partial queues the valid rows; --rejects OUT.csv writes the refused ones)';

function importCsv({ rest, values, io, outbox }: ActionCall): ExitCode {
  if (rest.length !== 1) throw new UsageError('import needs one FILE.csv');
  const kind = (values.kind ? (KIND_ALIASES[values.kind] ?? values.kind) : '') as ImportKind;
  if (!IMPORT_KINDS.includes(kind)) throw new UsageError(`import needs --kind with one of ${IMPORT_KINDS.join(', ')}`);
  const file = resolve(rest[0]!);
  const rejects = values.rejects === undefined ? null : resolve(values.rejects);
  if (rejects === file) throw new UsageError('--rejects names the file being imported: give another file');
  // Refused before anything is queued: the rejects file must be writable where the user said.
  if (rejects && !values.force) refuseExisting(rejects);
  const bytes = readInputFile(file, 'the CSV file', CSV_IMPORT_MAX_BYTES);
  const result = outbox.importCsv(bytes, kind, { dryRun: values['dry-run'], partial: values.partial, source: `csv:${file}` });
  if (values.json) io.out(JSON.stringify({ ...result, valid: result.valid.length, rejectsCsv: undefined, rejects }, null, 2));
  printImportFindings(io, file, result, values.json === true);
  const dups = result.duplicatesInFile.length + result.duplicatesInQueue.length;
  const fileErrors = result.errors.length - result.refused;
  const written = rejects !== null && result.rejectsCsv !== null && fileErrors === 0;
  if (written) {
    writeOutputFile(rejects, result.rejectsCsv!, { force: values.force });
    io.err(`${result.refused} refused row(s) written to ${escapeControls(rejects)}: fix them there and import that file again`);
  }
  if (fileErrors > 0 || (result.errors.length > 0 && !result.partial)) {
    io.err(
      fileErrors > 0
        ? `nothing imported: the file itself has ${fileErrors} error(s)`
        : `nothing imported: ${result.errors.length} row(s) with errors out of ${result.rows}${written ? '' : PARTIAL_HINT}`,
    );
    return EXIT.usage;
  }
  const warned = new Set(result.rowWarnings.map((w) => w.line)).size;
  const skipped = [
    result.refused ? `, ${result.refused} refused` : '',
    dups ? `, ${dups} duplicate(s) skipped` : '',
    warned ? `, ${warned} with warnings` : '',
  ].join('');
  io.err(
    result.dryRun
      ? `dry run: ${result.valid.length} of ${result.rows} rows would be queued${skipped}`
      : `queued ${result.queued} of ${result.rows} rows${skipped}${result.batch ? ` as batch ${result.batch.id} (${escapeControls(result.batch.name)})` : ''}`,
  );
  return result.refused > 0 ? EXIT.importPartial : EXIT.ok;
}

/** Errors, warnings, the dry run's rows and the duplicates of an import, each by the file's line. */
function printImportFindings(io: CliIO, file: string, result: ImportResult, json: boolean): void {
  for (const e of result.errors.slice(0, 200))
    io.err(escapeControls(`${file}:${e.line}${e.column ? `:${e.column}` : ''}: ${e.field}: ${e.message}`));
  if (result.errors.length > 200) io.err(`… and ${result.errors.length - 200} more errors`);
  for (const w of result.warnings) io.err(escapeControls(`warning: ${w}`));
  for (const w of result.rowWarnings.slice(0, 200))
    io.err(escapeControls(`${file}:${w.line}${w.column ? `:${w.column}` : ''}: warning: ${w.field}: ${w.message}`));
  if (result.rowWarnings.length > 200) io.err(`… and ${result.rowWarnings.length - 200} more warnings`);
  if (result.dryRun && !json)
    for (const row of result.valid) io.out(escapeControls(`line ${row.line}: ${namedSummary(row.summary, row.input, row.names)}`));
  for (const d of result.duplicatesInFile.slice(0, 50)) io.err(`line ${d.line}: duplicate of line ${d.firstLine} (skipped)`);
  for (const d of result.duplicatesInQueue.slice(0, 50))
    io.err(`line ${d.line}: already in the outbox as ${d.itemId?.slice(0, 8)} (${d.itemState}) (skipped)`);
}

function list({ values, io, outbox }: ActionCall): ExitCode {
  const items = outbox.list(filterFrom(outbox, values));
  const format = outputFormat(values);
  const whole = format === 'csv';
  const words = format === 'json' ? new Map<string, string>() : outbox.summariesInWords(items);
  const change = (i: OutboxItem) => words.get(i.id) ?? i.summary;
  print(io, format, {
    headers: ['ID', 'State', 'Kind', 'Change', 'Why', 'Attempts', 'Updated'],
    // The CSV keeps the summary with ids only (for scripts) beside the change in words.
    csvHeaders: ['id', 'state', 'kind', 'summary', 'change', 'why', 'attempts', 'updatedAt'],
    rows: items.map((i) => [whole ? i.id : i.id.slice(0, 8), i.state, i.kind, change(i), whyOf(i), i.attempts, i.updatedAt]),
    csvRows: () => items.map((i) => [i.id, i.state, i.kind, i.summary, change(i), whyOf(i), i.attempts, i.updatedAt]),
    json: () => items,
  });
  if (format === 'table') io.err(`${items.length} item(s)`);
  return EXIT.ok;
}

function show(call: ActionCall): ExitCode {
  const item = call.outbox.get(oneId(call));
  call.io.out(JSON.stringify({ item, journal: call.outbox.journal({ itemId: item?.id }) }, null, 2));
  return EXIT.ok;
}

/** retry, discard or resolve: a decision about one item, or about every item selected. */
function decide(call: ActionCall): ExitCode {
  const { action, rest, values, io, outbox } = call;
  if (rest.length !== 1 || hasCriteria(values)) return bulkDecide(action as BulkAction, outbox, values, rest, io);
  const id = oneId(call);
  if (action === 'discard') outbox.discard(id);
  else outbox.resolve(id, values.note);
  const item = outbox.get(id)!;
  if (values.json) io.out(JSON.stringify(item, null, 2));
  io.err(line(outbox, item));
  return EXIT.ok;
}

/**
 * Retries one item or a selection: failed items are queued again; uncertain ones are read from the
 * tenant first (with the connection's credentials) and queued again only when not applied.
 */
async function retry(call: ActionCall): Promise<ExitCode> {
  const { rest, values, io, outbox, workspace } = call;
  const single = rest.length === 1 && !hasCriteria(values);
  const filter = single ? { ids: [oneId(call)] } : selectionOf('retry', outbox, values, rest);
  const needsRead = outbox.list(filter).some((i) => i.state === 'uncertain');
  const api = needsRead ? await apiFrom(values, io, workspace) : null;
  const { bulk, reconciled } = await outbox.retryChecked(api, filter);
  if (values.json) io.out(JSON.stringify(single ? { ...outbox.get(filter.ids![0]!), reconciled } : { ...bulk, reconciled }, null, 2));
  if (reconciled) {
    const { examined, applied, requeued, unknown } = reconciled;
    io.err(
      `read ${examined} uncertain item(s) from the tenant first: ${applied} found applied (now succeeded), ` +
        `${requeued} not applied (queued again), ${unknown} still uncertain`,
    );
    if (reconciled.paused) io.err(escapeControls(`paused: ${reconciled.paused.message}`));
  }
  if (single) io.err(line(outbox, outbox.get(filter.ids![0]!)!));
  else for (const text of bulkLines(bulk)) io.err(escapeControls(text));
  if (reconciled?.paused) return reconciled.paused.reason === 'auth' ? EXIT.auth : EXIT.network;
  return bulk.refused.length > 0 || (reconciled?.unknown ?? 0) > 0 ? EXIT.other : EXIT.ok;
}

async function send({ values, io, workspace }: ActionCall): Promise<ExitCode> {
  return sendAll(workspace, await apiFrom(values, io, workspace), values, io);
}

async function reconcile({ values, io, workspace, outbox }: ActionCall): Promise<ExitCode> {
  const rec = await outbox.reconcile(await apiFrom(values, io, workspace));
  if (values.json) io.out(JSON.stringify(rec, null, 2));
  for (const d of rec.details) io.err(escapeControls(`${d.itemId.slice(0, 8)}  ${d.outcome.padEnd(12)} ${d.note}`));
  io.err(`reconciled ${rec.examined}: ${rec.applied} applied, ${rec.requeued} queued again, ${rec.unknown} still uncertain`);
  if (rec.paused) return rec.paused.reason === 'auth' ? EXIT.auth : EXIT.network;
  return rec.unknown > 0 ? EXIT.outboxIncomplete : EXIT.ok;
}

const ACTIONS: Record<string, (call: ActionCall) => ExitCode | Promise<ExitCode>> = {
  add,
  edit,
  import: importCsv,
  list,
  batches: ({ values, io, outbox }) => printBatches(outbox, outputFormat(values), io),
  show,
  retry,
  discard: decide,
  resolve: decide,
  send,
  reconcile,
};

const command: CommandModule = {
  summary: 'queue changes (alone or from CSV) and send them through the durable outbox',
  usage,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, options, true);
    const [action, ...rest] = positionals;
    if (!action) throw new UsageError('give an action: add, edit, import, list, batches, show, send, reconcile, retry, discard or resolve');
    const format = outputFormat(values);
    if (action !== 'list' && action !== 'batches' && values.output !== undefined && format !== 'json')
      throw new UsageError(`-o ${format} is for queue list and batches; the other actions print JSON with -o json (or --json)`);
    values.json = format === 'json';
    const workspace = await openFor(action, values, io);
    try {
      const run = Object.hasOwn(ACTIONS, action) ? ACTIONS[action] : undefined;
      if (!run) throw new UsageError(`unknown action '${action}'`);
      return await run({ action, rest, values, io, workspace, outbox: workspace.outbox });
    } catch (error) {
      if (error instanceof OutboxValidationError) {
        io.err(escapeControls(`attest queue: ${error.field}: ${error.message}; nothing was queued`));
        return EXIT.usage;
      }
      if (error instanceof OutboxStateError) {
        io.err(escapeControls(`attest queue: ${error.message}`));
        return EXIT.other;
      }
      throw error;
    } finally {
      workspace.close();
    }
  },
};

export default command;
