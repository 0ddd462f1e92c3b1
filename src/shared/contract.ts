import { z } from 'zod';
import { CHANNEL_NAMES, EVENT_NAMES, type ChannelName, type EventName, type SubscriberName } from './contract-names';
import { CSV_IMPORT_MAX_BYTES } from './input-limits';
import { QUERY_MAX_CHARS } from './search-limits';

export { API_NAMES, CHANNEL_NAMES, EVENT_NAMES, IPC_PREFIX, ipcChannel, ipcEvent, subscriberName } from './contract-names';
export type { ChannelName, EventName, SubscriberName } from './contract-names';

/**
 * The one contract between the renderer and the core: every channel with the zod schema of its
 * arguments and of its result, and every event the core pushes. Electron IPC (src/main/shell/ipc.ts)
 * and the browser host (src/main/browser-host/) register the same handlers through the same checked
 * dispatcher; the preload and the browser bridge expose one named function per channel on
 * `window.attest`. Adding a feature is one entry here plus its handler.
 *
 * Every call answers a `Reply`: `{ ok: true, value }` or `{ ok: false, error: { code, message } }`.
 * Errors never carry stack traces, secrets or keys.
 */

// ---------------------------------------------------------------------------------------------
// Shared shapes

export const COLLECTION_IDS = [
  'campaigns',
  'templates',
  'automations',
  'toolsets',
  'routing-rules',
  'scopes',
  'apps',
  'entitlements',
  'app-users',
  'memberships',
  'tasks',
  'users',
  'policies',
] as const;
export const CollectionId = z.enum(COLLECTION_IDS);
export type CollectionId = z.infer<typeof CollectionId>;

const Name = z.string().trim().min(1).max(200);
const Id = z.string().min(1).max(512);
const IsoTime = z.string().max(64);
const Cell = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const AuthMethod = z.enum(['assertion', 'secret']);
/** Where a client secret is kept: the OS keychain, or the main process's memory for this run only (never on disk). */
export const SecretKeeping = z.enum(['keychain', 'this-run']);
export type AuthMethod = z.infer<typeof AuthMethod>;

export const ConnectionInfo = z.object({
  name: z.string(),
  clientId: z.string(),
  hostname: z.string(),
  tokenUrl: z.string(),
  apiRoot: z.string(),
  authMethod: AuthMethod,
  serverUrl: z.string().nullable(),
  demo: z.boolean(),
  createdAt: IsoTime.nullable(),
  /** What the connection runs on its own (off by default). */
  autoRun: z
    .object({ sendWhenOnline: z.boolean(), syncEveryMinutes: z.number().int().nullable() })
    .default({ sendWhenOnline: false, syncEveryMinutes: null }),
});
export type ConnectionInfo = z.infer<typeof ConnectionInfo>;

/**
 * `online`: the tenant minted a token with this connection's credential; `credentials-refused`: it
 * answered and refused them (401, invalid_client: replace the credential); `offline`: no answer
 * (or no secret to ask with).
 */
export const ConnectionStatus = z.enum(['online', 'credentials-refused', 'offline']);
export type ConnectionStatus = z.infer<typeof ConnectionStatus>;

export const ConnectionState = z.object({
  /** The open connection, or null before one is opened. */
  connection: z.string().nullable(),
  /** True when `status` is `online`. */
  online: z.boolean(),
  status: ConnectionStatus,
  checkedAt: IsoTime.nullable(),
  /** Why the tenant is not reachable (a sentence, never a secret). */
  reason: z.string().nullable(),
  /** The open connection has no secret (none in the keychain, or no keychain to keep one): pasting it connects (provideSecret). */
  needsSecret: z.boolean(),
});
export type ConnectionState = z.infer<typeof ConnectionState>;

/**
 * What the open connection runs on its own, and when: the main process sends its queued changes
 * when it goes online (`sendWhenOnline`) and syncs every `syncEveryMinutes` while online; a run
 * never starts while a send or a sync runs (a sync that falls due then is skipped, not queued).
 */
export const AutoRunStatus = z.object({
  connection: z.string().nullable(),
  sendWhenOnline: z.boolean(),
  syncEveryMinutes: z.number().int().nullable(),
  /** When the next sync on its own is due (null: none is: off, or not online). */
  nextSyncAt: IsoTime.nullable(),
  /** Queued changes wait for the tenant: they send when it is reachable again. */
  waitingToSend: z.boolean(),
  /** The last run it started or skipped on its own. */
  last: z
    .object({
      kind: z.enum(['send', 'sync']),
      at: IsoTime,
      outcome: z.enum(['started', 'skipped']),
      /** Why it was skipped (another run was running). */
      reason: z.string().nullable(),
    })
    .nullable(),
});
export type AutoRunStatus = z.infer<typeof AutoRunStatus>;

export const ColumnKind = z.enum(['text', 'enum', 'date', 'bool', 'number', 'id']);
export const ColumnInfo = z.object({
  key: z.string(),
  label: z.string(),
  kind: ColumnKind,
  /** For enum columns: the enum's name in src/shared/enums.ts, for labels and filter choices. */
  enumName: z.string().nullable(),
  sortable: z.boolean(),
  filterable: z.boolean(),
});
export type ColumnInfo = z.infer<typeof ColumnInfo>;

/** At most this many choices of one column's filter are listed (the most frequent). */
export const FILTER_CHOICES_MAX = 500;

/** At most this many values matching the text typed in a filter's box are listed (the most frequent). */
export const FILTER_MATCHES_MAX = 200;

export const CollectionInfo = z.object({
  id: CollectionId,
  label: z.string(),
  columns: z.array(ColumnInfo),
  /** Filter choices seen in the store per filterable column (known and unknown enum values). */
  filterValues: z.record(z.string(), z.array(z.string())),
  /**
   * How many distinct values a filterable column holds, by column, where `filterValues` lists fewer
   * (the most frequent FILTER_CHOICES_MAX): the app says "N of M shown" instead of cutting silently.
   */
  filterTotals: z.record(z.string(), z.number().int().nonnegative()).optional(),
  /** The names of the filter choices that are ids of synced objects (an app, a template), by column then id. */
  filterLabels: z.record(z.string(), z.record(z.string(), z.string())),
  /** The API can read one object of it (its page offers "Refresh from the tenant"). */
  liveRead: z.boolean(),
});
export type CollectionInfo = z.infer<typeof CollectionInfo>;

export const CollectionStatus = z.object({
  id: CollectionId,
  count: z.number().int().nonnegative(),
  /** When the data of the last completed sync of this collection was fetched; null if never. */
  asOf: IsoTime.nullable(),
  complete: z.boolean(),
  lastRunId: z.number().int().nullable(),
  /** The last run's error for this collection, if it failed. */
  error: z.string().nullable(),
});
export type CollectionStatus = z.infer<typeof CollectionStatus>;

export const SyncRun = z.object({
  id: z.number().int(),
  startedAt: IsoTime,
  finishedAt: IsoTime.nullable(),
  status: z.string(),
  collections: z.array(z.string()),
  /**
   * `sync`: a walk of the tenant; `outbox`: the objects that sent changes returned, stored at once;
   * `live`: objects read one by one on request (a template added by id, a refresh from the tenant).
   */
  origin: z.enum(['sync', 'outbox', 'live']),
});
export type SyncRun = z.infer<typeof SyncRun>;

export const ObjectRow = z.object({
  collection: CollectionId,
  id: z.string(),
  title: z.string(),
  cells: z.record(z.string(), Cell),
  deleted: z.boolean(),
  pending: z.boolean(),
  /**
   * The names of what the row's id cells point at (an owner, a policy, an app), by column key, where
   * the store holds them: shown in place of the ids, the ids kept beside them.
   */
  names: z.record(z.string(), z.string().max(4000)).optional(),
});
export type ObjectRow = z.infer<typeof ObjectRow>;

export const ObjectDetail = ObjectRow.extend({
  /** The JSON exactly as the tenant sent it. */
  raw: z.string(),
  runId: z.number().int().nullable(),
  fetchedAt: IsoTime.nullable(),
  /** The names of the synced objects named by id anywhere inside the object (nested members too), by id. */
  idNames: z.record(z.string(), z.string().max(4000)).optional(),
});
export type ObjectDetail = z.infer<typeof ObjectDetail>;

/**
 * One value that differs between two versions of an object: where it is (`state`,
 * `automationSteps[2].sendEmail.subject`), and its JSON text before and after (null: the field was
 * not there). Long values are cut, ending in '…'.
 */
export const FieldChange = z.object({ field: z.string(), before: z.string().nullable(), after: z.string().nullable() });
export type FieldChange = z.infer<typeof FieldChange>;

export const HistoryEntry = z.object({
  runId: z.number().int(),
  at: IsoTime.nullable(),
  change: z.enum(['added', 'modified', 'removed', 'unchanged']),
  changedFields: z.array(z.string()),
  /** Each changed value with its old and new value (the first ones; `fieldCount` counts them all). */
  fields: z.array(FieldChange),
  fieldCount: z.number().int().nonnegative(),
  raw: z.string().nullable(),
});
export type HistoryEntry = z.infer<typeof HistoryEntry>;

export const ChangeKind = z.enum(['added', 'removed', 'modified']);
export type ChangeKind = z.infer<typeof ChangeKind>;

/** A reviewed item of an access review campaign (a certify task), as the certification report lists it. */
export const CertificationItem = z.object({
  campaignId: z.string(),
  taskId: z.string(),
  taskNumber: z.string().nullable(),
  subject: z.string().nullable(),
  subjectEmail: z.string().nullable(),
  appUserId: z.string().nullable(),
  app: z.string().nullable(),
  entitlement: z.string().nullable(),
  entitlementId: z.string().nullable(),
  reviewers: z.array(z.string()),
  decidedBy: z.string().nullable(),
  decision: z.enum(['certified', 'revoked', 'outstanding', 'other']),
  outcomeLabel: z.string().nullable(),
  decidedAt: z.string().nullable(),
  comments: z.number().int().nullable(),
  stateLabel: z.string().nullable(),
  revokeTaskId: z.string().nullable(),
  revokeTaskState: z.string().nullable(),
  accessGone: z.boolean().nullable(),
});

export const CampaignSummary = z.object({
  population: z.number().int(),
  decided: z.number().int(),
  certified: z.number().int(),
  revoked: z.number().int(),
  outstanding: z.number().int(),
  overdue: z.number().int(),
  revokesWithTask: z.number().int(),
  revokesGone: z.number().int(),
});

export const ChangedObject = z.object({
  collection: CollectionId,
  id: z.string(),
  title: z.string(),
  change: ChangeKind,
  fields: z.array(FieldChange),
  fieldCount: z.number().int().nonnegative(),
});
export type ChangedObject = z.infer<typeof ChangedObject>;

export const SearchHit = z.object({
  collection: CollectionId,
  id: z.string(),
  title: z.string(),
  snippet: z.string(),
  cells: z.record(z.string(), Cell),
});
export type SearchHit = z.infer<typeof SearchHit>;

const Filters = z.record(z.string().max(100), z.array(z.string().max(300)).max(50)).default({});
const Sort = z
  .object({ key: z.string().max(100), dir: z.enum(['asc', 'desc']) })
  .nullable()
  .default(null);

export const ChartDatum = z.object({ key: z.string(), count: z.number().int().nonnegative() });
export type ChartDatum = z.infer<typeof ChartDatum>;

export const MUTATION_KINDS = ['create-scope', 'remove-membership', 'escalate-task', 'update-template', 'create-campaign'] as const;
export const MutationKind = z.enum(MUTATION_KINDS);
export type MutationKind = z.infer<typeof MutationKind>;
export const OUTBOX_STATES = ['queued', 'sending', 'succeeded', 'failed', 'uncertain', 'resolved', 'discarded'] as const;
export const OutboxState = z.enum(OUTBOX_STATES);
export type OutboxState = z.infer<typeof OutboxState>;
export const ImportKind = z.enum(['remove-membership', 'create-scope', 'escalate-task', 'update-template']);

const JsonRecord = z.record(z.string(), z.unknown());

export const OutboxItemView = z.object({
  id: z.string(),
  seq: z.number().int(),
  kind: MutationKind,
  state: OutboxState,
  summary: z.string(),
  /** The summary in words: the names the store has for its ids, name first, the id beside it. */
  change: z.string(),
  target: z.string(),
  input: JsonRecord,
  request: z.object({ method: z.string(), path: z.string(), body: JsonRecord }),
  requestDigest: z.string(),
  attempts: z.number().int(),
  lastStatus: z.number().int().nullable(),
  /** The server's reason, or what went wrong. */
  lastError: z.string().nullable(),
  result: JsonRecord.nullable(),
  note: z.string().nullable(),
  source: z.string().nullable(),
  /** The import (CSV) it came from. */
  batchId: z.number().int().nullable(),
  createdAt: IsoTime,
  updatedAt: IsoTime,
  lastSentAt: IsoTime.nullable(),
});
export type OutboxItemView = z.infer<typeof OutboxItemView>;

/** Which items (all criteria given must hold); `error`: text in the reason shown, any case. */
export const OutboxFilter = z
  .object({
    state: OutboxState.nullable().default(null),
    kind: MutationKind.nullable().default(null),
    batch: z.number().int().nullable().default(null),
    error: z.string().max(500).nullable().default(null),
  })
  .strict();
export type OutboxFilter = z.infer<typeof OutboxFilter>;

const StateCounts = z.record(z.string(), z.number().int());

export const OutboxBatchView = z.object({
  id: z.number().int(),
  /** The file's name. */
  name: z.string(),
  kind: MutationKind,
  rows: z.number().int(),
  createdAt: IsoTime,
  counts: StateCounts,
});
export type OutboxBatchView = z.infer<typeof OutboxBatchView>;

export const BulkAction = z.enum(['retry', 'resolve', 'discard']);
export type BulkAction = z.infer<typeof BulkAction>;

export const BulkResultView = z.object({
  action: BulkAction,
  outcome: OutboxState,
  matched: z.number().int(),
  changed: z.number().int(),
  /** Items left as they were, by state and reason. */
  refused: z.array(z.object({ state: OutboxState, reason: z.string(), count: z.number().int() })),
  /** A retry's read of the uncertain items first: found applied (succeeded), not applied (queued again), still unknown; why it stopped. */
  reconciled: z
    .object({
      examined: z.number().int(),
      applied: z.number().int(),
      requeued: z.number().int(),
      unknown: z.number().int(),
      paused: z.string().nullable(),
    })
    .nullable()
    .default(null),
});
export type BulkResultView = z.infer<typeof BulkResultView>;

/** What the store does not know about a change (an unknown id, a user who was not a member): queued all the same. */
export const ChangeWarning = z.object({ field: z.string(), message: z.string() });
export type ChangeWarning = z.infer<typeof ChangeWarning>;
/** The names the store has for the ids of a change's input, by input field. */
const Names = z.record(z.string(), z.string());

export const ChangePreview = OutboxItemView.pick({ kind: true, input: true, request: true, summary: true, target: true }).extend({
  warnings: z.array(ChangeWarning),
  names: Names,
});
export type ChangePreview = z.infer<typeof ChangePreview>;

const ImportRowError = z.object({ line: z.number().int(), column: z.number().int(), field: z.string(), message: z.string() });
const ImportDuplicate = z.object({
  line: z.number().int(),
  firstLine: z.number().int().optional(),
  itemId: z.string().optional(),
  itemState: z.string().optional(),
  key: z.string(),
});
export const ImportPreview = z.object({
  kind: MutationKind,
  rows: z.number().int(),
  valid: z.array(z.object({ line: z.number().int(), input: JsonRecord, summary: z.string(), names: Names })),
  errors: z.array(ImportRowError),
  duplicatesInFile: z.array(ImportDuplicate),
  duplicatesInQueue: z.array(ImportDuplicate),
  warnings: z.array(z.string()),
  /** The store's warnings about rows queued all the same (an unknown id, not a member), by line and column. */
  rowWarnings: z.array(ImportRowError),
  /** The data rows refused (each is one of `errors`); any other error is about the file and stops every import. */
  refused: z.number().int(),
  /** The refused rows as a CSV (their own columns, then rejected_line and rejected_reason), to fix and import again; null: none. */
  rejectsCsv: z.string().nullable(),
});
export type ImportPreview = z.infer<typeof ImportPreview>;

export const OutboxJournalEntry = z.object({
  seq: z.number().int(),
  itemId: z.string(),
  kind: MutationKind,
  target: z.string(),
  attempt: z.number().int(),
  event: z.string(),
  requestDigest: z.string().nullable(),
  method: z.string().nullable(),
  path: z.string().nullable(),
  httpStatus: z.number().int().nullable(),
  outcome: z.string(),
  answer: z.string().nullable(),
  at: IsoTime,
  /** The change it is about, in words: the ids the store knows given with their names. */
  change: z.string(),
  batchId: z.number().int().nullable(),
});
export type OutboxJournalEntry = z.infer<typeof OutboxJournalEntry>;

const CSV_MAX = CSV_IMPORT_MAX_BYTES;

/** A person's name as a cover shows it: 1 to 200 characters, none of them a control character. */
const PersonName = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .refine((name) => ![...name].some((ch) => ch.charCodeAt(0) < 32 || ch.charCodeAt(0) === 127), 'a name without control characters');

const DialogFilter = z.object({ name: z.string().max(100), extensions: z.array(z.string().max(20)).max(20) });

// ---------------------------------------------------------------------------------------------
// Channels

export interface ChannelDef {
  args: z.ZodType;
  result: z.ZodType;
  summary: string;
}
const channel = <A extends z.ZodType, R extends z.ZodType>(args: A, result: R, summary: string) => ({ args, result, summary });
const none = z.object({}).strict().default({});
const done = z.object({});

export const CHANNELS = {
  // --- app and settings
  appInfo: channel(
    none,
    z.object({
      version: z.string(),
      host: z.enum(['electron', 'browser']),
      platform: z.string(),
      dataDir: z.string(),
      keychainAvailable: z.boolean(),
    }),
    'About the running app: version, host, data folder, keychain availability.',
  ),
  aboutApp: channel(
    none,
    z.object({
      /** Attest's version, from its package.json. */
      version: z.string(),
      host: z.enum(['electron', 'browser']),
      /** What runs the app, where known: Electron, Chromium and Node in the desktop app; Node in the browser host. */
      runtime: z.array(z.object({ name: z.string(), version: z.string() })),
      platform: z.string(),
      dataDir: z.string(),
      /** The third-party licence notices generated at build time; null when this build has none (a development run). */
      notices: z
        .object({
          generatedAt: z.string(),
          packages: z.array(
            z.object({ name: z.string(), version: z.string(), licenses: z.string(), repository: z.string(), text: z.string() }),
          ),
        })
        .nullable(),
    }),
    'About Attest: its version, what runs it, its data folder, and the third-party licence notices of this build.',
  ),

  // --- connections
  listConnections: channel(
    none,
    z.object({ connections: z.array(ConnectionInfo), active: z.string().nullable(), lastUsed: z.string().nullable() }),
    'The saved connections (never their secrets), the open one and the one used last.',
  ),
  inspectCredentials: channel(
    z
      .object({
        clientId: z.string().max(2000),
        serverUrl: z.string().max(2000).nullable().default(null),
        clientSecret: z.string().max(8000).nullable().default(null),
      })
      .strict(),
    z.object({
      hostname: z.string().nullable(),
      tokenUrl: z.string().nullable(),
      apiRoot: z.string().nullable(),
      loopback: z.boolean(),
      clientIdError: z.string().nullable(),
      /** The secret's domain when it parses (never the key); null when not given or malformed. */
      secretDomain: z.string().nullable(),
      clientSecretError: z.string().nullable(),
    }),
    'Parses a pasted client id (and secret) and shows what would be used, before anything is saved.',
  ),
  testConnection: channel(
    z
      .object({
        clientId: z.string().min(1).max(2000),
        clientSecret: z.string().min(1).max(8000),
        serverUrl: z.string().max(2000).nullable().default(null),
        authMethod: AuthMethod.default('assertion'),
      })
      .strict(),
    z.object({ ok: z.literal(true), latencyMs: z.number(), expiresIn: z.number().nullable() }),
    'Gets a token with the pasted credentials, without saving anything.',
  ),
  saveConnection: channel(
    z
      .object({
        name: Name.nullable().default(null),
        clientId: z.string().min(1).max(2000),
        clientSecret: z.string().min(1).max(8000),
        serverUrl: z.string().max(2000).nullable().default(null),
        authMethod: AuthMethod.default('assertion'),
        /** `this-run`: held in the main process's memory until the app quits (asked again at the next start), never on disk. */
        keep: SecretKeeping.default('keychain'),
      })
      .strict(),
    z.object({ connection: ConnectionInfo }),
    'Checks the credentials, stores the secret in the OS keychain and records the connection.',
  ),
  provideSecret: channel(
    z.object({ clientSecret: z.string().min(1).max(8000), keep: SecretKeeping.default('keychain') }).strict(),
    z.object({ connection: ConnectionInfo, state: ConnectionState }),
    'The secret of the open connection, pasted again: checked by getting a token, kept as asked, and the connection opened with it.',
  ),
  replaceCredential: channel(
    z
      .object({
        name: Name,
        clientId: z.string().min(1).max(2000),
        clientSecret: z.string().min(1).max(8000),
        /** Null: the connection's own server URL is kept. */
        serverUrl: z.string().max(2000).nullable().default(null),
        /** Null: the connection's own auth method is kept. */
        authMethod: AuthMethod.nullable().default(null),
        keep: SecretKeeping.default('keychain'),
      })
      .strict(),
    z.object({ connection: ConnectionInfo, state: ConnectionState }),
    "Replaces a saved connection's credential (a rotated one): checked by getting a token, the new secret kept as asked and the old " +
      'keychain entry deleted; the name, the local store and the outbox stay.',
  ),
  removeConnection: channel(z.object({ name: Name }).strict(), done, 'Forgets a connection and deletes its keychain entry.'),
  openWorkspace: channel(
    z.object({ name: Name }).strict(),
    z.object({ connection: ConnectionInfo, state: ConnectionState }),
    'Opens a connection: its local store, its API client, its jobs.',
  ),
  openDemoTenant: channel(
    none,
    z.object({ connection: ConnectionInfo, state: ConnectionState }),
    'Starts the reference tenant with demo data on loopback, saves and opens it.',
  ),
  setAutoRun: channel(
    z
      .object({
        name: Name,
        sendWhenOnline: z.boolean(),
        /** Null: no sync on its own. Checked in the core (5 to 1440), which names the problem. */
        syncEveryMinutes: z.number().nullable(),
      })
      .strict(),
    z.object({ connection: ConnectionInfo, status: AutoRunStatus }),
    'Saves what a connection runs on its own: send its queued changes when online, sync every N minutes while online.',
  ),
  autoRunStatus: channel(none, AutoRunStatus, 'What the open connection runs on its own, and when the next run is due.'),
  connectionState: channel(
    z
      .object({ recheck: z.boolean().default(false) })
      .strict()
      .default({ recheck: false }),
    ConnectionState,
    'Whether the open tenant is reachable; `recheck` probes it now.',
  ),

  // --- sync
  startSync: channel(
    z
      .object({ only: z.array(CollectionId).max(COLLECTION_IDS.length).nullable().default(null) })
      .strict()
      .default({ only: null }),
    z.object({ started: z.boolean() }),
    'Starts a sync of the open connection off the main thread; progress comes as syncProgress events.',
  ),
  cancelSync: channel(none, z.object({ cancelled: z.boolean() }), 'Cancels the running sync (the store stays consistent and resumable).'),
  collections: channel(
    none,
    z.object({ collections: z.array(CollectionInfo), status: z.array(CollectionStatus), syncing: z.boolean() }),
    'Collection descriptors (columns, filter values) and their sync status ("data as of").',
  ),
  listRuns: channel(none, z.object({ runs: z.array(SyncRun) }), 'Sync runs, newest first.'),

  // --- data
  listObjects: channel(
    z
      .object({
        collection: CollectionId,
        filters: Filters,
        /** The list's text filter: words the objects' indexed text must match, as search matches them. */
        text: z.string().max(500).default(''),
        sort: Sort,
        offset: z.number().int().nonnegative().default(0),
        limit: z.number().int().min(1).max(1000).default(200),
        asOfRun: z.number().int().nullable().default(null),
      })
      .strict(),
    z.object({ rows: z.array(ObjectRow), total: z.number().int().nonnegative() }),
    'A window of one collection, filtered and sorted, for virtualized tables.',
  ),
  getObject: channel(
    z.object({ collection: CollectionId, id: Id, asOfRun: z.number().int().nullable().default(null) }).strict(),
    z.object({ object: ObjectDetail.nullable() }),
    'One object with its raw JSON as received.',
  ),
  entitlementToolset: channel(
    z.object({ appId: Id, appEntitlementId: Id }).strict(),
    z.object({
      source: z.enum(['live', 'store']),
      toolset: z.object({ id: z.string(), title: z.string(), raw: z.string() }).nullable(),
      asOf: z.string().nullable(),
      reason: z.string().nullable(),
    }),
    "An entitlement's MCP toolset: the tenant's own lookup while online, the synced toolsets otherwise (saying which, and why).",
  ),
  refreshObject: channel(
    z.object({ collection: CollectionId, id: Id }).strict(),
    z.object({
      title: z.string(),
      readAt: IsoTime,
      /** The version the store held before (deleted: its last one), or null when it held none. */
      before: z.object({ runId: z.number().int(), fetchedAt: z.string(), deleted: z.boolean() }).nullable(),
      /** The run that holds the fresh copy (origin `live`); null when nothing changed, or see `note`. */
      runId: z.number().int().nullable(),
      fields: z.array(FieldChange),
      fieldCount: z.number().int().nonnegative(),
      note: z.string().nullable(),
    }),
    'Reads one object from the tenant now through its GET (campaigns: GET /access_review/{id}), stores it as a fresh copy, ' +
      'and says what changed since the stored version.',
  ),
  addTemplates: channel(
    z.object({ ids: z.array(Id).min(1).max(100) }).strict(),
    z.object({
      added: z.array(z.object({ id: z.string(), title: z.string(), newlyAdded: z.boolean() })),
      notFound: z.array(z.string()),
      failed: z.array(z.object({ id: z.string(), error: z.string() })),
      runId: z.number().int().nullable(),
      note: z.string().nullable(),
    }),
    'Reads templates by id from the tenant (the API has no template list), stores them, and has every later sync read them.',
  ),
  addedTemplates: channel(
    none,
    z.object({
      templates: z.array(z.object({ id: z.string(), title: z.string(), stored: z.boolean(), referenced: z.boolean() })),
    }),
    'The templates added by id: their stored names, and whether the store holds them now.',
  ),
  filterChoices: channel(
    z
      .object({
        collection: CollectionId,
        /** A filterable column of the collection. */
        column: z.string().min(1).max(200),
        text: z.string().max(500).default(''),
        limit: z.number().int().min(1).max(1000).default(FILTER_MATCHES_MAX),
        /** As you type: of the calls naming the same key, one not started when a newer one arrives is not run (answered 'busy'). */
        latest: z.string().max(40).optional(),
      })
      .strict(),
    z.object({
      choices: z.array(
        z.object({
          value: z.string(),
          /** How many current objects hold it. */
          count: z.number().int().nonnegative(),
          /** The name of the synced object an id points at, where the store holds it. */
          name: z.string().nullable(),
        }),
      ),
      /** How many distinct values match in all. */
      total: z.number().int().nonnegative(),
    }),
    "The values of a column's filter that hold the typed text (by value, by the name of the object an id points at, by an " +
      "enum value's label), among every current object of the collection: the most frequent first, and how many match.",
  ),
  resourceServers: channel(
    z
      .object({
        /** Those of one app; empty: of every app. */
        appId: z.string().max(1000).default(''),
        text: z.string().max(500).default(''),
        limit: z.number().int().min(1).max(1000).default(20),
      })
      .strict(),
    z.object({
      rows: z.array(
        z.object({
          id: z.string(),
          appId: z.string(),
          appName: z.string(),
          scopeCount: z.number().int().nonnegative(),
          scopeValues: z.array(z.string()),
        }),
      ),
      total: z.number().int().nonnegative(),
    }),
    'The resource servers the synced scopes are on (the API lists none), matching the typed words, by app name: a window and how many match.',
  ),
  searchAutomations: channel(
    z
      .object({
        /** Ask the tenant (the spec's POST /search/automations) instead of the store. */
        live: z.boolean(),
        query: z.string().max(1000).optional(),
        appId: z.string().max(1000).optional(),
        appIds: z.array(z.string().max(1000)).max(1000).optional(),
        isDraft: z.boolean().optional(),
        statuses: z.array(z.string().max(100)).max(10).optional(),
        triggerTypes: z.array(z.string().max(100)).max(100).optional(),
        /** The store's own filter: any trigger, live or draft (refused live). */
        anyTriggerTypes: z.array(z.string().max(100)).max(100).optional(),
        refs: z.array(z.string().max(1000)).max(1000).optional(),
      })
      .strict(),
    z.object({
      source: z.enum(['live', 'store']),
      asOf: z.string().nullable(),
      pages: z.number().int().nonnegative(),
      complete: z.boolean(),
      automations: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          appId: z.string(),
          appName: z.string(),
          primaryTriggerType: z.string(),
          enabled: z.boolean(),
          isDraft: z.boolean(),
        }),
      ),
    }),
    "The spec's automation search with each of its filters: asked of the tenant (live), or answered by the store " +
      "with the server's meaning of each filter, saying which answered and as of when.",
  ),
  objectHistory: channel(
    z.object({ collection: CollectionId, id: Id }).strict(),
    z.object({ entries: z.array(HistoryEntry) }),
    "An object's versions across sync runs.",
  ),
  campaignItems: channel(
    z.object({ campaignId: Id }).strict(),
    z.object({ items: z.array(CertificationItem), summary: CampaignSummary.nullable(), asOf: z.string().nullable() }),
    "A campaign's reviewed items (its certify tasks) with reviewers, decisions and remediation, and their counts.",
  ),
  compareRuns: channel(
    z
      .object({
        /** Null: the completed run before `toRun`. */
        fromRun: z.number().int().nullable().default(null),
        /** Null: the last completed run. */
        toRun: z.number().int().nullable().default(null),
        collection: CollectionId.nullable().default(null),
        change: ChangeKind.nullable().default(null),
        offset: z.number().int().nonnegative().default(0),
        limit: z.number().int().min(1).max(500).default(100),
      })
      .strict(),
    z.object({
      /** The completed runs that can be compared, newest first. */
      runs: z.array(SyncRun),
      /** The runs compared; null when fewer than two runs have completed. */
      fromRun: z.number().int().nullable(),
      toRun: z.number().int().nullable(),
      counts: z.array(
        z.object({ collection: CollectionId, added: z.number().int(), removed: z.number().int(), modified: z.number().int() }),
      ),
      /** The changes of the chosen collection and kind (all of them when none is chosen). */
      total: z.number().int().nonnegative(),
      changes: z.array(ChangedObject),
    }),
    'What changed between two completed runs: counts per collection, and a page of objects with each changed value before and after.',
  ),
  search: channel(
    z
      .object({
        /** The core refuses more than QUERY_MAX_CHARS characters or QUERY_MAX_WORDS words, with its reason; this bounds the payload. */
        query: z
          .string()
          .max(
            2 * QUERY_MAX_CHARS,
            `The search is over ${QUERY_MAX_CHARS} characters long; at most ${QUERY_MAX_CHARS} are searched: shorten it.`,
          ),
        collection: CollectionId.nullable().default(null),
        filters: Filters,
        limit: z.number().int().min(1).max(500).default(50),
        offset: z.number().int().nonnegative().default(0),
        /** Also count the hits per collection (a second pass over the matches; ask for it separately to show hits first). */
        facets: z.boolean().default(false),
        /** As you type: of the calls naming the same key, one not started when a newer one arrives is not run (answered 'busy'). */
        latest: z.string().max(40).optional(),
      })
      .strict(),
    z.object({
      hits: z.array(SearchHit),
      total: z.number().int().nonnegative(),
      facets: z.record(z.string(), z.number().int().nonnegative()).nullable(),
      tookMs: z.number(),
    }),
    'Offline full-text search across collections, with per-collection facets.',
  ),
  overview: channel(
    none,
    z.object({
      counts: z.record(z.string(), z.number().int().nonnegative()),
      charts: z.object({
        campaignsByState: z.array(ChartDatum),
        automationsByTrigger: z.array(ChartDatum),
        routingRulesByAction: z.array(ChartDatum),
        scopesByClassification: z.array(ChartDatum),
        scopesByState: z.array(ChartDatum),
      }),
      runs: z.array(SyncRun),
      status: z.array(CollectionStatus),
    }),
    'Counts, charts and sync history for the Overview screen.',
  ),

  // --- outbox (changes queued offline, sent later)
  outboxList: channel(
    OutboxFilter.extend({
      limit: z.number().int().min(1).max(5000).default(500),
      offset: z.number().int().min(0).default(0),
    }).default({ state: null, kind: null, batch: null, error: null, limit: 500, offset: 0 }),
    z.object({
      items: z.array(OutboxItemView),
      /** How many items the filter matches (the page is `items`). */
      matching: z.number().int(),
      /** Items per state among those the filter's other criteria (kind, batch, error) match. */
      matchingCounts: StateCounts,
      /** Items per state in the whole outbox. */
      counts: StateCounts,
      pending: z.number().int(),
      sending: z.boolean(),
    }),
    'A page of the outbox items a filter matches (queue order), how many match, counts per state, and whether a send is running.',
  ),
  outboxBatches: channel(
    none,
    z.object({ batches: z.array(OutboxBatchView) }),
    'The CSV imports, newest first: name, kind, rows, time and their items per state now.',
  ),
  outboxBulk: channel(
    z
      .object({
        action: BulkAction,
        /** The items chosen (null: every item `filter` matches). */
        ids: z.array(Id).min(1).max(100_000).nullable().default(null),
        filter: OutboxFilter.nullable().default(null),
        /** resolve: the one note for all. */
        note: z.string().max(2000).nullable().default(null),
      })
      .strict()
      .refine((a) => a.ids !== null || a.filter !== null, { message: 'give ids or a filter' }),
    BulkResultView,
    'Retries, resolves (one note) or discards the items chosen, or every item a filter matches, in one transaction; ' +
      'items whose state does not allow it are left as they were and counted. A retry reads uncertain items from the tenant first.',
  ),
  outboxEnqueue: channel(
    z.object({ kind: MutationKind, input: JsonRecord }).strict(),
    z.object({ item: OutboxItemView, warnings: z.array(ChangeWarning) }),
    "Validates a change by the spec rules and against the store, and queues it (refused with the field named when invalid; the store's warnings come back).",
  ),
  outboxCheck: channel(
    z.object({ kind: MutationKind, input: JsonRecord, editing: Id.nullable().default(null) }).strict(),
    ChangePreview,
    'Validates a change exactly as queuing (or editing item `editing`) would and returns what would be sent, updateMask included; queues nothing.',
  ),
  outboxEdit: channel(
    z.object({ id: Id, input: JsonRecord }).strict(),
    z.object({ item: OutboxItemView, warnings: z.array(ChangeWarning) }),
    'Edits a queued item (validated again).',
  ),
  outboxDiscard: channel(z.object({ id: Id }).strict(), done, 'Discards a queued, failed or uncertain item.'),
  outboxRetry: channel(
    z.object({ id: Id }).strict(),
    BulkResultView,
    'Queues a failed item again; an uncertain one is read from the tenant first and queued again only if it was not applied.',
  ),
  outboxResolve: channel(
    z.object({ id: Id, note: z.string().max(2000).nullable().default(null) }).strict(),
    done,
    'Marks a failed or uncertain item resolved by hand.',
  ),
  outboxPreviewImport: channel(
    z.object({ kind: ImportKind, csv: z.string().max(CSV_MAX) }).strict(),
    ImportPreview,
    'Validates a whole CSV: valid rows, line-numbered errors, duplicates; queues nothing.',
  ),
  outboxImport: channel(
    z
      .object({
        kind: ImportKind,
        csv: z.string().max(CSV_MAX),
        source: z.string().max(300).nullable().default(null),
        partial: z.boolean().default(false),
      })
      .strict(),
    ImportPreview.extend({ queued: z.number().int(), itemIds: z.array(z.string()) }),
    'Queues every valid row of a CSV in one transaction, or nothing when any row has an error (partial: the valid rows all the same).',
  ),
  outboxSend: channel(
    z
      .object({ ids: z.array(Id).max(100_000).nullable().default(null) })
      .strict()
      .default({ ids: null }),
    z.object({ started: z.boolean() }),
    'Sends the queued items (or the given ones); progress comes as sendProgress events.',
  ),
  outboxCancelSend: channel(
    none,
    z.object({ cancelled: z.boolean() }),
    'Stops starting new requests; those in flight finish and are recorded.',
  ),
  outboxReconcile: channel(
    none,
    z.object({ examined: z.number().int(), applied: z.number().int(), requeued: z.number().int(), unknown: z.number().int() }),
    'Settles uncertain items by reading the server where a read exists.',
  ),
  outboxJournal: channel(
    z
      .object({
        itemId: Id.nullable().default(null),
        kind: MutationKind.nullable().default(null),
        /** The entry's outcome: succeeded, failed, uncertain, queued, resolved, discarded. */
        outcome: z.string().max(40).nullable().default(null),
        batch: z.number().int().nullable().default(null),
        since: IsoTime.nullable().default(null),
        until: IsoTime.nullable().default(null),
        limit: z.number().int().min(1).max(10_000).default(500),
        offset: z.number().int().min(0).default(0),
      })
      .strict()
      .default({ itemId: null, kind: null, outcome: null, batch: null, since: null, until: null, limit: 500, offset: 0 }),
    z.object({ entries: z.array(OutboxJournalEntry), total: z.number().int() }),
    'A page of the journal, newest first: every attempt and decision, its change in words, request digest, status and answer.',
  ),

  // --- reports (Excel evidence)
  reportCatalog: channel(
    none,
    z.object({
      reports: z.array(
        z.object({ kind: z.string(), title: z.string(), collections: z.array(z.string()), filterKeys: z.array(z.string()) }),
      ),
    }),
    'The reports that can be exported, with the filters each accepts.',
  ),
  exportReport: channel(
    z
      .object({
        kind: z.string().max(40),
        /** A path the user chose in this session's save dialog (no other path is written). */
        path: z.string().min(1).max(4096),
        asOfRun: z.number().int().nullable().default(null),
        filters: z.array(z.string().max(500)).max(50).default([]),
        /** `[collection.]column[:asc|desc]`: the order of the rows (null: by id). */
        sort: z.string().max(200).nullable().default(null),
        /** Words every object's text must hold: a list's filter box, a search's query (null: none). */
        text: z.string().max(500).nullable().default(null),
        /** The view of the app the parameters came from ("the Cross-app scopes list"), named on the cover. */
        view: z.string().max(200).nullable().default(null),
        fromRun: z.number().int().nullable().default(null),
        toRun: z.number().int().nullable().default(null),
        /** The certification report: the one campaign (its id) reported; null: every campaign. */
        campaign: z.string().max(200).nullable().default(null),
        /** Sign with this machine's evidence signing key (in the OS keychain, created on first use). */
        sign: z.boolean().default(false),
        /** Who prepared the workbook, as its cover names them (null: the OS account's full name). */
        preparedBy: z
          .string()
          .max(200)
          .refine((name) => ![...name].some((ch) => ch.charCodeAt(0) < 32 || ch.charCodeAt(0) === 127), 'a name without control characters')
          .nullable()
          .default(null),
      })
      .strict(),
    z.object({
      file: z.string(),
      kind: z.string(),
      sheets: z.array(z.object({ name: z.string(), rows: z.number().int(), sha256: z.string() })),
      overallSha256: z.string(),
      /** Fingerprint of the signing key (SHA256:<hex>), or null when not signed. */
      signedBy: z.string().nullable(),
      bytes: z.number().int(),
      complete: z.boolean(),
      generatedAt: IsoTime,
      /** Wall time from the request to the file being ready at its path. */
      ms: z.number(),
    }),
    'Writes a report workbook with its Evidence sheet; progress comes as exportProgress events.',
  ),
  cancelExport: channel(none, z.object({ cancelled: z.boolean() }), 'Cancels the running export (no partial file is left).'),
  verifyWorkbook: channel(
    z
      .object({
        path: z.string().min(1).max(4096),
        /** The fingerprint of the exporter's signing key: the workbook must be signed by it. */
        key: z.string().max(200).nullable().default(null),
      })
      .strict(),
    z.object({
      file: z.string(),
      status: z.enum(['intact', 'altered', 'not-attest']),
      reason: z.string().nullable(),
      /** Every check asked for passed: intact, and signed by the given key when one was given. */
      ok: z.boolean(),
      /** What the result shows about who exported the workbook, in plain words. */
      notice: z.string(),
      /** What Attest never writes, found in the file. */
      problems: z.array(z.string()),
      warnings: z.array(z.string()),
      signature: z.object({
        status: z.enum(['not-signed', 'valid', 'invalid', 'other-key']),
        fingerprint: z.string().nullable(),
        expected: z.string().nullable(),
      }),
      sheets: z.array(
        z.object({
          name: z.string(),
          status: z.string(),
          expectedRows: z.number().int().nullable(),
          actualRows: z.number().int().nullable(),
        }),
      ),
      manifest: z.record(z.string(), z.string()),
      /** Another program saved the file after export (intact then means data intact); null: as written. */
      resaved: z
        .object({ application: z.string().nullable(), modifiedBy: z.string().nullable(), modified: z.string().nullable() })
        .nullable()
        .default(null),
      /** Each change located to its cell or row, old and new values as canonical JSON (null: empty). */
      changes: z
        .array(
          z.object({
            sheet: z.string(),
            where: z.string(),
            kind: z.enum(['changed', 'added', 'removed', 'moved']),
            /** Absent: the value as exported is not at hand (the change was located by the workbook's digests). */
            old: z.string().nullable().optional(),
            new: z.string().nullable(),
          }),
        )
        .default([]),
      /** How the changes were located, or why their cells could not be. */
      located: z.string().nullable().default(null),
    }),
    'Recomputes every hash of a workbook the user chose and says whether it is intact.',
  ),

  // --- spreadsheet access reviews
  exportReviewWorksheet: channel(
    z
      .object({
        /** A path the user chose in this session's save dialog (no other path is written). */
        path: z.string().min(1).max(4096),
        /** Whose memberships: an entitlement's, an app's, or what a campaign reviews. */
        scope: z.enum(['entitlement', 'app', 'campaign']),
        id: Id,
        /** Who reviews it, as the Cover and every decision record it (null: not named). */
        reviewer: PersonName.nullable().default(null),
      })
      .strict(),
    z.object({
      file: z.string(),
      worksheetId: z.string(),
      rows: z.number().int(),
      sha256: z.string(),
      /** The scope in words, each id with its name. */
      scope: z.string(),
      signedBy: z.string().nullable(),
    }),
    'Writes a review worksheet (offline): one row per membership in scope, a Decision (Keep / Revoke) and a Comment to fill.',
  ),
  importReviewDecisions: channel(
    z
      .object({
        /** A returned worksheet the user chose in this session's open dialog. */
        path: z.string().min(1).max(4096),
        /** Check and say what would be queued; queue and record nothing. */
        dryRun: z.boolean().default(true),
      })
      .strict(),
    z.object({
      file: z.string(),
      fileSha256: z.string(),
      worksheet: z
        .object({ id: z.string(), name: z.string(), sha256: z.string(), reviewer: z.string().nullable(), scope: z.string() })
        .nullable(),
      /** Why the worksheet is refused, each change named by cell or row; empty: accepted. */
      refused: z.array(z.string()),
      decisions: z.array(
        z.object({
          row: z.number().int(),
          appId: z.string(),
          entitlementId: z.string(),
          appUserId: z.string(),
          subject: z.string().nullable(),
          removable: z.string(),
          decision: z.enum(['Keep', 'Revoke']),
          comment: z.string().nullable(),
          /** The outbox item a Revoke queued (null: a Keep, a dry run, or skipped). */
          itemId: z.string().nullable(),
          /** Why a Revoke queues nothing (cannot be removed, gone already, queued already). */
          skipped: z.string().nullable(),
        }),
      ),
      /** Rows without a decision. */
      undecided: z.array(z.number().int()),
      batch: z.object({ id: z.number().int(), name: z.string() }).nullable(),
      dryRun: z.boolean(),
    }),
    'Reads a returned review worksheet, checked cell by cell against what was exported; unless refused or a dry run, ' +
      'queues its Revokes as one batch and records every decision.',
  ),

  // --- desktop integration
  openExternal: channel(
    z.object({ url: z.string().url().max(2000) }).strict(),
    z.object({ opened: z.boolean() }),
    'Opens an external https link in the default browser (validated first).',
  ),
  showOpenDialog: channel(
    z
      .object({
        title: z.string().max(200).optional(),
        filters: z.array(DialogFilter).max(10).optional(),
        directory: z.boolean().default(false),
      })
      .strict(),
    z.object({ path: z.string().nullable() }),
    'A native open dialog; null when cancelled.',
  ),
  showSaveDialog: channel(
    z
      .object({
        title: z.string().max(200).optional(),
        defaultName: z.string().max(300).optional(),
        filters: z.array(DialogFilter).max(10).optional(),
      })
      .strict(),
    z.object({ path: z.string().nullable() }),
    'A native save dialog; null when cancelled.',
  ),
  showInFolder: channel(
    z.object({ path: z.string().min(1).max(4096) }).strict(),
    z.object({ shown: z.boolean() }),
    'Shows a file the app wrote (or the user chose) in the file manager.',
  ),
} as const satisfies { [C in ChannelName]: ChannelDef };

export type Channels = typeof CHANNELS;

/** What the renderer passes (defaults may be left out). */
export type ChannelArgs<C extends ChannelName> = z.input<Channels[C]['args']>;
/** What a handler receives, after parsing (defaults filled in). */
export type ParsedArgs<C extends ChannelName> = z.output<Channels[C]['args']>;
export type ChannelResult<C extends ChannelName> = z.output<Channels[C]['result']>;

// ---------------------------------------------------------------------------------------------
// Events (core -> renderer)

export const SyncProgress = z.object({
  phase: z.enum(['started', 'collection', 'finished']),
  runId: z.number().int().nullable(),
  collection: CollectionId.nullable(),
  state: z.enum(['queued', 'running', 'done', 'failed', 'cancelled']),
  pages: z.number().int().nonnegative(),
  items: z.number().int().nonnegative(),
  ratePerSecond: z.number().nonnegative().nullable(),
  error: z.string().nullable(),
  /**
   * Pages and objects this walk is expected to fetch, where that can be known: the ids a walk by
   * id reads, or what the last completed walk of the same collection fetched (less what a resumed
   * walk had fetched already). Null: not known (a first sync).
   */
  expectedPages: z.number().int().nonnegative().nullable().default(null),
  expectedItems: z.number().int().nonnegative().nullable().default(null),
  /** Seconds left at this walk's pace so far against the pages expected; null when not known. */
  etaSeconds: z.number().nonnegative().nullable().default(null),
});
export type SyncProgress = z.infer<typeof SyncProgress>;

export const SendProgress = z.object({
  phase: z.enum(['started', 'item', 'paused', 'finished']),
  itemId: z.string().nullable(),
  state: OutboxState.nullable(),
  message: z.string().nullable(),
  done: z.number().int(),
  total: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  uncertain: z.number().int(),
  ratePerSecond: z.number().nullable(),
});
export type SendProgress = z.infer<typeof SendProgress>;

export const ExportProgress = z.object({
  phase: z.enum(['started', 'sheet', 'finished']),
  sheet: z.string().nullable(),
  sheetIndex: z.number().int(),
  sheetCount: z.number().int(),
  rows: z.number().int(),
  total: z.number().int().nullable(),
  error: z.string().nullable(),
  /**
   * Rows written so far in the whole workbook, against the rows to export: those of the sheets that
   * know their size (one per collection) plus what the derived sheets (steps, journal, diff) wrote
   * so far (null: not known yet).
   */
  rowsWritten: z.number().int().nonnegative().default(0),
  rowsTotal: z.number().int().nonnegative().nullable().default(null),
  /** Wall time since the export was asked for, and the seconds left at its pace so far (null: not known). */
  elapsedMs: z.number().nonnegative().default(0),
  etaSeconds: z.number().nonnegative().nullable().default(null),
});
export type ExportProgress = z.infer<typeof ExportProgress>;

/** A command of the desktop app's menu for the renderer (Help → Documentation, Help → About Attest). */
export const MenuCommand = z.object({ command: z.enum(['documentation', 'about']) });
export type MenuCommand = z.infer<typeof MenuCommand>;

/** A run on its own ended with failures: a desktop notification in the desktop app, a toast in the browser host. */
export const Notice = z.object({
  kind: z.enum(['send', 'sync']),
  connection: z.string(),
  title: z.string(),
  body: z.string(),
  /** The changes that failed or are uncertain after a send (0 for a sync). */
  failures: z.number().int().nonnegative(),
  at: IsoTime,
});
export type Notice = z.infer<typeof Notice>;

/**
 * Another process (the CLI) changed the open store or the saved connections: the views refetch
 * (outbox counts and lists, collection data, runs, the connections and their state).
 */
export const StoreChanged = z.object({
  connection: z.string().nullable(),
  /** The store file: its outbox, its objects, its runs. */
  store: z.boolean(),
  /** The saved connections file. */
  connections: z.boolean(),
  at: IsoTime,
});
export type StoreChanged = z.infer<typeof StoreChanged>;

export const EVENTS = {
  syncProgress: SyncProgress,
  connectionState: ConnectionState,
  sendProgress: SendProgress,
  exportProgress: ExportProgress,
  menuCommand: MenuCommand,
  autoRun: AutoRunStatus,
  notice: Notice,
  storeChanged: StoreChanged,
} as const satisfies { [E in EventName]: z.ZodType };

export type Events = typeof EVENTS;
export type EventPayload<E extends EventName> = z.output<Events[E]>;

// ---------------------------------------------------------------------------------------------
// Replies and errors

export const ERROR_CODES = [
  'bad_request', // the payload failed its schema
  'forbidden', // the sender is not ours
  'unknown_channel',
  'not_found',
  'no_workspace', // no connection is open
  'auth', // the tenant refused the credentials
  'offline', // the tenant cannot be reached
  'invalid_credentials', // a malformed client id or secret
  'keychain', // the OS keychain is not available
  'conflict',
  'busy',
  'unsupported', // not available in this host
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const ReplyError = z.object({ code: z.enum(ERROR_CODES), message: z.string(), field: z.string().optional() });
export type ReplyError = z.infer<typeof ReplyError>;
export type Reply<T> = { ok: true; value: T } | { ok: false; error: ReplyError };

/** `window.attest`: one named function per channel, one subscription per event. */
export type AttestApi = {
  [C in ChannelName]: (args?: ChannelArgs<C>) => Promise<Reply<ChannelResult<C>>>;
} & {
  [E in EventName as SubscriberName<E>]: (callback: (payload: EventPayload<E>) => void) => () => void;
};

/** Checks at load time that the name lists and the schema tables agree (the types check it too). */
export function contractMismatches(): string[] {
  const problems: string[] = [];
  const channelKeys = Object.keys(CHANNELS);
  for (const name of CHANNEL_NAMES) if (!channelKeys.includes(name)) problems.push(`channel ${name} has no schema`);
  for (const key of channelKeys)
    if (!(CHANNEL_NAMES as readonly string[]).includes(key)) problems.push(`schema ${key} has no channel name`);
  const eventKeys = Object.keys(EVENTS);
  for (const name of EVENT_NAMES) if (!eventKeys.includes(name)) problems.push(`event ${name} has no schema`);
  for (const key of eventKeys) if (!(EVENT_NAMES as readonly string[]).includes(key)) problems.push(`event schema ${key} has no name`);
  return problems;
}
