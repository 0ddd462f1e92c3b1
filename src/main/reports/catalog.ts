/**
 * The report catalog: one builder per report. A builder says which collections the report covers
 * and yields its data sheets (columns + a lazy row stream read straight from the store), so rows
 * flow from SQLite into the streaming writer without being gathered in memory.
 *
 * Columns come from the collection descriptors (src/main/collections/) where they fit. Cells read
 * as people read them (./cells.ts): a date is a real Excel date cell in UTC, an enum value its
 * label (an unknown one as written, marked), a duration and a oneof kind in words, and a name
 * follows each id of an object the store holds. Every object stays, exactly as the API sent it, on
 * the report's Raw sheet.
 */
import { AUTOMATION_STEP_ACTION_KEYS, AUTOMATION_TRIGGER_KEYS } from '../../shared/api-types/automation';
import { ROUTING_RULE_ACTION_KEYS } from '../../shared/api-types/routing-rule';
import type { JournalEntry } from '../outbox/types';
import type { CollectionStatus, DiffEntry, Filters, FilterValue, StoredObject, SyncRun } from '../store/types';
import {
  celExpressions,
  COLLECTIONS,
  collection as descriptorOf,
  getPath,
  isRecord,
  str,
  targets,
  type CollectionDescriptor,
  type CollectionId,
  type ColumnDef,
} from '../collections';
import type { CellValue } from './canonical';
import { durationText, enumList, enumText, isKnownEnumName, kindText, UNKNOWN_MARK } from './cells';
import { InvalidInputError } from './errors';
import type { ColumnSpec, ColumnType, SheetSpec } from './workbook';

/** What the reports read from the store: a subset of the Store interface. */
export interface ReportStore {
  runs(): SyncRun[];
  collectionStatus(): CollectionStatus[];
  iterateObjects(collection: CollectionId, opts?: { asOfRun?: number; filters?: Filters }): Iterable<StoredObject>;
  countObjects(collection: CollectionId, opts?: { asOfRun?: number; filters?: Filters }): number;
  diff(fromRun: number, toRun: number): DiffEntry[];
}

export const REPORT_KINDS = [
  'evidence',
  'campaigns',
  'templates',
  'automations',
  'toolsets',
  'routing-rules',
  'scopes',
  'access',
  'tasks',
  'changes',
  'diff',
] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export function isReportKind(value: string): value is ReportKind {
  return (REPORT_KINDS as readonly string[]).includes(value);
}

/** Parameters of one export, after validation. */
export interface ReportParams {
  /** Read the snapshot of this completed run instead of the current data. */
  asOfRun?: number;
  /** Per collection, the filters that apply to it. */
  filters: Partial<Record<CollectionId, Filters>>;
  /** Diff: the two runs compared. */
  fromRun?: number;
  toRun?: number;
}

export interface ReportSources {
  store: ReportStore;
  /** The outbox journal (the `changes` report); absent when the workspace has no outbox. */
  journal?: () => Iterable<JournalEntry>;
}

/** A data sheet of a report, plus the collection it shows (for the Evidence sheet's counts). */
export interface ReportSheet extends SheetSpec {
  collection?: CollectionId;
}

export interface ReportPlan {
  kind: ReportKind;
  title: string;
  /** Collections whose sync status the Evidence sheet states. */
  collections: CollectionId[];
  sheets: ReportSheet[];
  /** The journal is part of the report. */
  usesJournal: boolean;
  /** The runs a diff compares, once resolved. */
  diffRuns?: { from: number; to: number };
}

// ---------------------------------------------------------------------------------------------
// Columns

export interface ReportColumn<T> extends ColumnSpec {
  value(row: T): CellValue;
}

/** ISO text as the API sent it -> a Date (null when absent or unparseable). */
export function isoDate(text: unknown): Date | null {
  if (typeof text !== 'string' || text.trim() === '') return null;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A date: a real Excel date cell, in UTC (the header says so); the API's text stays on the Raw sheet. */
function dateColumns<T>(label: string, text: (row: T) => unknown, source?: string): ReportColumn<T>[] {
  return [{ header: `${label} (UTC)`, type: 'date', value: (row) => isoDate(text(row)), source, about: `${label}, in UTC` }];
}

/** Where a column's value comes from and what it means (the data dictionary), and its width. */
interface ColumnMeta {
  width?: number;
  source?: string;
  about?: string;
}

function col<T>(header: string, type: ColumnType, value: (row: T) => CellValue, meta?: number | ColumnMeta): ReportColumn<T> {
  const m = typeof meta === 'number' ? { width: meta } : (meta ?? {});
  return { header, type, value, ...m };
}

const cellOf = (value: unknown): CellValue => {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
};

/** Columns of the descriptors that hold a protobuf Duration ("1209600s"), shown in words. */
const DURATIONS = new Set(['accessReviewDuration']);

/** Columns of the descriptors that hold the id of an object of another collection: its name follows. */
const REFERENCES: Record<string, CollectionId> = {
  accessReviewTemplateId: 'templates',
  templateId: 'templates',
  appId: 'apps',
  parentAppId: 'apps',
  appEntitlementId: 'entitlements',
  appUserId: 'app-users',
};

/**
 * The names the store knows of objects, by collection and id, for the columns that show a name
 * beside an id. Read once per export (the same snapshot as the rows), before the first row of a
 * sheet that shows them: the store's connection is busy while a sheet's rows stream.
 */
export class Names {
  private readonly wanted = new Set<CollectionId>();
  private readonly loaded = new Map<CollectionId, Map<string, string>>();

  constructor(
    private readonly sources: ReportSources,
    private readonly params: ReportParams,
  ) {}

  /** A sheet will show names of `collection`. */
  want(collection: CollectionId): void {
    this.wanted.add(collection);
  }

  /** Reads the names wanted and not yet read (call it while no rows stream). */
  load(): void {
    for (const id of this.wanted) {
      if (this.loaded.has(id)) continue;
      const names = new Map<string, string>();
      for (const o of this.sources.store.iterateObjects(id, { asOfRun: this.params.asOfRun })) if (o.title) names.set(o.id, o.title);
      this.loaded.set(id, names);
    }
  }

  of(collection: CollectionId, id: unknown): string | null {
    return typeof id === 'string' && id ? (this.loaded.get(collection)?.get(id) ?? null) : null;
  }
}

/** One Names per export: every sheet of a report shares it. */
const namesOfExport = new WeakMap<ReportSources, Names>();

function namesFrom(sources: ReportSources, params: ReportParams): Names {
  let names = namesOfExport.get(sources);
  if (!names) namesOfExport.set(sources, (names = new Names(sources, params)));
  return names;
}

/** The singular of a collection's title, for the dictionary ("app", "entitlement", "app user"). */
const singular = (collection: CollectionId): string => descriptorOf(collection).title.toLowerCase().replace(/s$/, '');

/** The name beside an id of `collection`, when the store knows it. */
export function nameColumn<T>(header: string, collection: CollectionId, id: (row: T) => unknown, names: Names): ReportColumn<T> {
  names.want(collection);
  return col<T>(header, 'text', (row) => names.of(collection, id(row)), {
    about: `the name of that ${singular(collection)}, where this workbook's store holds it`,
  });
}

/** An enum column's value in words: labels of its enumeration (each of a list), a kind's name in words. */
function enumWords(c: ColumnDef, value: unknown): string | null {
  if (c.multi) return enumList(value, c.enumName);
  if (c.enumName) return enumText(value, c.enumName);
  return kindText(str(value));
}

/** The descriptor's columns as people read them (enum labels, dates, durations in words, names beside ids). */
function descriptorColumns(d: CollectionDescriptor, names: Names, skip: string[] = []): ReportColumn<StoredObject>[] {
  return d.columns
    .filter((c) => !skip.includes(c.name))
    .flatMap((c: ColumnDef): ReportColumn<StoredObject>[] => {
      const source = c.value ? `${c.path} (derived)` : c.path;
      const raw = (o: StoredObject): unknown => o.columns[c.name];
      if (c.type === 'date') return dateColumns<StoredObject>(c.label, raw, c.path);
      if (c.type === 'enum') return [col<StoredObject>(c.label, 'enum', (o) => enumWords(c, raw(o)), { source })];
      if (DURATIONS.has(c.name)) return [col<StoredObject>(c.label, 'text', (o) => durationText(raw(o)), { source })];
      const target = REFERENCES[c.name];
      if (!target) return [col<StoredObject>(c.label, c.type, (o) => cellOf(raw(o)), { source })];
      // An id of another collection: the id, then the name the store knows for it.
      return [
        col<StoredObject>(`${c.label} ID`, c.type, (o) => cellOf(raw(o)), { source }),
        nameColumn<StoredObject>(c.label, target, raw, names),
      ];
    });
}

const idColumn = col<StoredObject>('ID', 'text', (o) => o.id, { source: 'id', about: "the object's id on the tenant" });

const join = (values: unknown): string | null => {
  if (!Array.isArray(values) || values.length === 0) return null;
  return values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
};

const flag = (value: unknown): boolean => value === true || value === 'true';

/** The members present in an object (a oneof's kind, as written, unknown ones included). */
function membersOf(value: unknown, ignore: readonly string[] = []): string[] {
  if (!isRecord(value)) return [];
  return Object.keys(value).filter((k) => !ignore.includes(k) && value[k] !== null && value[k] !== undefined);
}

/** Members that hold a duration ("7776000s"), shown in words. */
const DURATION_MEMBER = /^(duration|ttl|expiry|timeout|timeoutDuration|accessReviewDuration|grantDuration)$/;

/** One member's value in words: an enum value as its label, a duration in words, others as written (objects as JSON). */
function memberText(key: string, value: unknown): string {
  if (typeof value !== 'string') return JSON.stringify(value);
  if (DURATION_MEMBER.test(key)) return durationText(value) ?? value;
  return isKnownEnumName(value) ? (enumText(value) ?? value) : value;
}

/** "key=value; ..." of the members of an object, each value in words (memberText). */
function parameters(value: unknown): string | null {
  if (!isRecord(value)) return null;
  const parts = Object.entries(value)
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([k, v]) => `${k}=${memberText(k, v)}`);
  return parts.length ? parts.join('; ') : null;
}

/** A one-line description of a scope selector: its members, with the CEL text where there is one. */
function scopeSummary(scope: unknown): string | null {
  if (!isRecord(scope)) return null;
  const parts = membersOf(scope).map((k) => {
    const member = scope[k];
    const expression = getPath(member, 'expression');
    if (typeof expression === 'string' && expression) return `${k}: ${expression}`;
    if (typeof member === 'string') return `${k}: ${isKnownEnumName(member) ? enumText(member) : member}`;
    if (Array.isArray(getPath(member, 'userIds'))) return `${k}: ${(getPath(member, 'userIds') as unknown[]).length} users`;
    return k;
  });
  return parts.length ? parts.join('; ') : null;
}

const cel = (obj: unknown, base = ''): string | null => {
  const found = celExpressions(obj, base);
  return found.length ? found.map((c) => `${c.path}: ${c.expression}`).join('\n') : null;
};

// ---------------------------------------------------------------------------------------------
// Sheets

function sheet<T>(
  name: string,
  columns: ReportColumn<T>[],
  source: () => Iterable<T>,
  extra: { collection?: CollectionId; total?: number; about?: string; names?: Names } = {},
): ReportSheet {
  const { names, ...about } = extra;
  return {
    name,
    columns: columns.map(({ value: _value, ...spec }) => spec),
    rows: (function* rows() {
      names?.load(); // before the rows stream: the store's connection is busy while they do
      for (const item of source()) yield columns.map((c) => c.value(item));
    })(),
    ...about,
  };
}

function objects(sources: ReportSources, params: ReportParams, id: CollectionId): () => Iterable<StoredObject> {
  return () => sources.store.iterateObjects(id, { asOfRun: params.asOfRun, filters: params.filters[id] });
}

function total(sources: ReportSources, params: ReportParams, id: CollectionId): number {
  return sources.store.countObjects(id, { asOfRun: params.asOfRun, filters: params.filters[id] });
}

/** Where the campaign sits in its stored AccessReviewView. */
const CAMPAIGN = 'accessReview';
const campaignField = (o: StoredObject, path: string): unknown => getPath(o.json, `${CAMPAIGN}.${path}`);

function campaignsSheet(sources: ReportSources, params: ReportParams): ReportSheet {
  const d = descriptorOf('campaigns');
  const names = namesFrom(sources, params);
  const f = campaignField;
  const columns: ReportColumn<StoredObject>[] = [
    idColumn,
    ...descriptorColumns(d, names),
    col('Owners', 'text', (o) => join(f(o, 'ownerIds')), { source: 'accessReview.ownerIds' }),
    col('Created by', 'text', (o) => cellOf(f(o, 'createdById')), { source: 'accessReview.createdById' }),
    ...dateColumns<StoredObject>('Scheduled start', (o) => f(o, 'scheduledStartDate')),
    col('Scope summary', 'text', (o) => scopeSummary(f(o, 'scopeV2')), { width: 40, source: 'accessReview.scopeV2' }),
    col('Single app', 'text', (o) => cellOf(f(o, 'singleApp.appId')), { source: 'accessReview.singleApp.appId' }),
    nameColumn<StoredObject>('Single app name', 'apps', (o) => f(o, 'singleApp.appId'), names),
    col('Included app user statuses', 'text', (o) => enumList(f(o, 'inclusionScope.appUserStatuses'), 'AppUserStatus'), {
      source: 'accessReview.inclusionScope.appUserStatuses',
    }),
    col('Scope app user types', 'text', (o) => enumList(f(o, 'scope.appUserTypes'), 'AppUserType'), {
      source: 'accessReview.scope.appUserTypes',
    }),
    col('Accuracy issue action', 'enum', (o) => enumText(f(o, 'accuracyIssueAction'), 'AccuracyIssueAction'), {
      source: 'accessReview.accuracyIssueAction',
    }),
    col('Auto-close decision', 'enum', (o) => enumText(f(o, 'autoCloseDecision'), 'CloseDecision'), {
      source: 'accessReview.autoCloseDecision',
    }),
    col('Default view', 'enum', (o) => enumText(f(o, 'defaultView'), 'AccessReviewViewType'), { source: 'accessReview.defaultView' }),
    col('Use policy override', 'bool', (o) => flag(f(o, 'usePolicyOverride')), { source: 'accessReview.usePolicyOverride' }),
    col('Notify kickoff', 'bool', (o) => flag(f(o, 'notificationConfig.sendKickoff')), {
      source: 'accessReview.notificationConfig.sendKickoff',
    }),
    col('Notify reminders', 'bool', (o) => flag(f(o, 'notificationConfig.sendReminders')), {
      source: 'accessReview.notificationConfig.sendReminders',
    }),
    col('Notify close', 'bool', (o) => flag(f(o, 'notificationConfig.sendClose')), { source: 'accessReview.notificationConfig.sendClose' }),
    col('Signature required', 'bool', (o) => flag(f(o, 'signatureConfig.requireSignature')), {
      source: 'accessReview.signatureConfig.requireSignature',
    }),
    col('Meaning of signature', 'text', (o) => cellOf(f(o, 'signatureConfig.meaningOfSignature')), {
      source: 'accessReview.signatureConfig.meaningOfSignature',
    }),
    col('Step-up provider', 'text', (o) => cellOf(f(o, 'signatureConfig.stepUpProviderId')), {
      source: 'accessReview.signatureConfig.stepUpProviderId',
    }),
    col('Policy path', 'text', (o) => cellOf(getPath(o.json, 'policyPath')), { source: 'policyPath' }),
    col('CEL expressions', 'text', (o) => cel(getPath(o.json, CAMPAIGN)), 40),
  ];
  return sheet('Campaigns', columns, objects(sources, params, 'campaigns'), {
    names,
    collection: 'campaigns',
    total: total(sources, params, 'campaigns'),
    about: 'one row per access review campaign',
  });
}

function templatesSheet(sources: ReportSources, params: ReportParams): ReportSheet {
  const names = namesFrom(sources, params);
  const d = descriptorOf('templates');
  const f = (o: StoredObject, path: string): unknown => getPath(o.json, path);
  const columns: ReportColumn<StoredObject>[] = [
    idColumn,
    ...descriptorColumns(d, names),
    col('Scope summary', 'text', (o) => scopeSummary(f(o, 'scope')), { width: 40, source: 'scope' }),
    col('Recurrence', 'text', (o) => parameters(f(o, 'recurrenceRule')), { source: 'recurrenceRule' }),
    col('Auto-close campaign', 'bool', (o) => flag(f(o, 'autoCloseCampaign')), { source: 'autoCloseCampaign' }),
    col('Auto-generate report', 'bool', (o) => flag(f(o, 'autoGenerateReport')), { source: 'autoGenerateReport' }),
    col('Notify kickoff', 'bool', (o) => flag(f(o, 'notificationConfig.sendKickoff')), { source: 'notificationConfig.sendKickoff' }),
    col('Notify reminders', 'bool', (o) => flag(f(o, 'notificationConfig.sendReminders')), { source: 'notificationConfig.sendReminders' }),
    col('Notify close', 'bool', (o) => flag(f(o, 'notificationConfig.sendClose')), { source: 'notificationConfig.sendClose' }),
    col('Signature required', 'bool', (o) => flag(f(o, 'signatureConfig.requireSignature')), {
      source: 'signatureConfig.requireSignature',
    }),
    col('Meaning of signature', 'text', (o) => cellOf(f(o, 'signatureConfig.meaningOfSignature')), {
      source: 'signatureConfig.meaningOfSignature',
    }),
    col('Review columns', 'text', (o) => enumList(f(o, 'columnConfig.columns'), 'AccessReviewTaskColumn'), {
      source: 'columnConfig.columns',
    }),
    col('CEL expressions', 'text', (o) => cel(o.json), 40),
  ];
  return sheet('Templates', columns, objects(sources, params, 'templates'), {
    names,
    collection: 'templates',
    total: total(sources, params, 'templates'),
    about: 'one row per access review template the store holds (only those campaigns and automations name: the API has no list)',
  });
}

function automationsSheet(sources: ReportSources, params: ReportParams): ReportSheet {
  const names = namesFrom(sources, params);
  const d = descriptorOf('automations');
  const columns: ReportColumn<StoredObject>[] = [
    idColumn,
    ...descriptorColumns(d, names, ['triggerKinds', 'stepKinds']),
    col('Triggers', 'text', (o) => membersList(getPath(o.json, 'triggers'), AUTOMATION_TRIGGER_KEYS), { source: 'triggers' }),
    col('Steps', 'text', (o) => membersList(getPath(o.json, 'automationSteps'), AUTOMATION_STEP_ACTION_KEYS, STEP_COMMON)),
    col('Description', 'text', (o) => cellOf(getPath(o.json, 'description')), { width: 40, source: 'description' }),
    col('Current version', 'text', (o) => cellOf(getPath(o.json, 'currentVersion')), { source: 'currentVersion' }),
    col('Circuit breaker', 'text', (o) => parameters(getPath(o.json, 'circuitBreaker')), { source: 'circuitBreaker' }),
  ];
  return sheet('Automations', columns, objects(sources, params, 'automations'), {
    names,
    collection: 'automations',
    total: total(sources, params, 'automations'),
    about: 'one row per automation',
  });
}

const STEP_COMMON = ['stepName', 'stepDisplayName', 'skipIfTrueCel'];

/** The kind of a trigger or step: the known member present, else the member the API wrote. */
function kindAsWritten(item: unknown, known: readonly string[], ignore: readonly string[] = []): string {
  const members = membersOf(item, ignore);
  return members.find((m) => known.includes(m)) ?? members[0] ?? '(none)';
}

/** A kind in words when it is a known one; as written, marked, when this version does not know it. */
function kindWords(kind: string | null, known: readonly string[]): string | null {
  if (kind === null || kind === '(none)') return kind;
  return known.includes(kind) ? kindText(kind) : `${kind}${UNKNOWN_MARK}`;
}

function membersList(items: unknown, known: readonly string[], ignore: readonly string[] = []): string | null {
  if (!Array.isArray(items) || items.length === 0) return null;
  return items.map((i) => kindWords(kindAsWritten(i, known, ignore), known)).join(', ');
}

interface AutomationPart {
  automation: StoredObject;
  section: string;
  index: number;
  item: unknown;
  trigger: boolean;
}

const SECTIONS: { key: string; label: string; trigger: boolean }[] = [
  { key: 'triggers', label: 'trigger', trigger: true },
  { key: 'automationSteps', label: 'step', trigger: false },
  { key: 'draftTriggers', label: 'draft trigger', trigger: true },
  { key: 'draftAutomationSteps', label: 'draft step', trigger: false },
];

function automationStepsSheet(sources: ReportSources, params: ReportParams): ReportSheet {
  const columns: ReportColumn<AutomationPart>[] = [
    col('Automation ID', 'text', (p) => p.automation.id),
    col('Automation', 'text', (p) => p.automation.title || str(getPath(p.automation.json, 'displayName'))),
    col('Section', 'enum', (p) => p.section),
    col('Index', 'int', (p) => p.index),
    col('Kind', 'enum', (p) =>
      p.trigger
        ? kindWords(kindAsWritten(p.item, AUTOMATION_TRIGGER_KEYS), AUTOMATION_TRIGGER_KEYS)
        : kindWords(kindAsWritten(p.item, AUTOMATION_STEP_ACTION_KEYS, STEP_COMMON), AUTOMATION_STEP_ACTION_KEYS),
    ),
    col('Name', 'text', (p) =>
      p.trigger
        ? kindWords(kindAsWritten(p.item, AUTOMATION_TRIGGER_KEYS), AUTOMATION_TRIGGER_KEYS)
        : str(getPath(p.item, 'stepDisplayName')) || str(getPath(p.item, 'stepName')) || null,
    ),
    col('CEL expressions', 'text', (p) => cel(p.item), 40),
    col(
      'Targets',
      'text',
      (p) => {
        const found = targets(p.item);
        return found.length ? found.join('\n') : null;
      },
      40,
    ),
  ];
  const source = function* parts(): Iterable<AutomationPart> {
    for (const automation of objects(sources, params, 'automations')()) {
      for (const s of SECTIONS) {
        const items = getPath(automation.json, s.key);
        if (!Array.isArray(items)) continue;
        for (const [index, item] of items.entries()) yield { automation, section: s.label, index, item, trigger: s.trigger };
      }
    }
  };
  return sheet('Automation steps', columns, source, { about: 'one row per trigger and step of every automation (drafts included)' });
}

function toolsetsSheet(sources: ReportSources, params: ReportParams): ReportSheet {
  const names = namesFrom(sources, params);
  const columns: ReportColumn<StoredObject>[] = [
    idColumn,
    ...descriptorColumns(descriptorOf('toolsets'), names),
    col('Description', 'text', (o) => cellOf(getPath(o.json, 'description')), { width: 40, source: 'description' }),
    ...dateColumns<StoredObject>('Deleted', (o) => getPath(o.json, 'deletedAt')),
  ];
  return sheet('MCP toolsets', columns, objects(sources, params, 'toolsets'), {
    names,
    collection: 'toolsets',
    total: total(sources, params, 'toolsets'),
    about: 'one row per MCP toolset (access profile)',
  });
}

function routingRulesSheet(sources: ReportSources, params: ReportParams): ReportSheet {
  const names = namesFrom(sources, params);
  const d = descriptorOf('routing-rules');
  const action = (o: StoredObject): { kind: string | null; body: unknown } => {
    const a = getPath(o.json, 'action');
    const kind = membersOf(a).find((m) => (ROUTING_RULE_ACTION_KEYS as readonly string[]).includes(m)) ?? membersOf(a)[0] ?? null;
    return { kind, body: kind && isRecord(a) ? a[kind] : null };
  };
  let order = 0; // rules apply in priority order: the sheet numbers them in that order
  const columns: ReportColumn<StoredObject>[] = [
    col('Order', 'int', () => (order += 1)),
    idColumn,
    ...descriptorColumns(d, names, ['actionKind']).flatMap((c) =>
      c.header === 'Enabled' ? [c, col<StoredObject>('Action', 'enum', (o) => kindWords(action(o).kind, ROUTING_RULE_ACTION_KEYS))] : [c],
    ),
    col('Action parameters', 'text', (o) => parameters(action(o).body), 40),
    col('Condition', 'text', (o) => cellOf(getPath(o.json, 'condition')), { width: 40, source: 'condition' }),
    col('Description', 'text', (o) => cellOf(getPath(o.json, 'description')), { width: 40, source: 'description' }),
  ];
  // Sorted here (rules are few): by priority, then id.
  const source = (): Iterable<StoredObject> => {
    const all = [...objects(sources, params, 'routing-rules')()];
    const priority = (o: StoredObject): number => {
      const p = Number(o.columns.priority ?? getPath(o.json, 'priority'));
      return Number.isFinite(p) ? p : Number.MAX_SAFE_INTEGER;
    };
    return all.sort((a, b) => priority(a) - priority(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  };
  return sheet('Routing rules', columns, source, {
    names,
    collection: 'routing-rules',
    total: total(sources, params, 'routing-rules'),
    about: 'one row per finding routing rule, in the order they apply (priority)',
  });
}

function scopesSheet(sources: ReportSources, params: ReportParams): ReportSheet {
  const names = namesFrom(sources, params);
  const columns: ReportColumn<StoredObject>[] = [idColumn, ...descriptorColumns(descriptorOf('scopes'), names)];
  return sheet('Scopes', columns, objects(sources, params, 'scopes'), {
    names,
    collection: 'scopes',
    total: total(sources, params, 'scopes'),
    about: 'one row per cross-app access scope',
  });
}

/** What the Access sheet shows of an entitlement and of an app, read once from the store (the same snapshot). */
interface EntitlementFacts {
  name: CellValue;
  type: CellValue;
  managed: boolean | null;
}

function entitlementFacts(sources: ReportSources, params: ReportParams): Map<string, EntitlementFacts> {
  const out = new Map<string, EntitlementFacts>();
  for (const o of sources.store.iterateObjects('entitlements', { asOfRun: params.asOfRun })) {
    const type = o.columns.entitlementType ?? null;
    out.set(o.id, { name: o.columns.displayName ?? null, type, managed: type === null ? null : o.columns.membershipsManaged === true });
  }
  return out;
}

function appNames(sources: ReportSources, params: ReportParams): Map<string, CellValue> {
  const out = new Map<string, CellValue>();
  for (const o of sources.store.iterateObjects('apps', { asOfRun: params.asOfRun })) out.set(o.id, o.columns.displayName ?? null);
  return out;
}

/** Who holds what: one row per membership, with its app, entitlement (name, type) and app user, how and since when. */
function accessSheet(sources: ReportSources, params: ReportParams): ReportSheet {
  let entitlements = new Map<string, EntitlementFacts>();
  let apps = new Map<string, CellValue>();
  const m = (o: StoredObject, name: string): CellValue => cellOf(o.columns[name]);
  const entitlement = (o: StoredObject): EntitlementFacts | undefined => entitlements.get(String(o.columns.appEntitlementId ?? ''));
  const columns: ReportColumn<StoredObject>[] = [
    col('App ID', 'text', (o) => m(o, 'appId'), { source: 'appId' }),
    col('App', 'text', (o) => apps.get(String(o.columns.appId ?? '')) ?? null, { width: 24, about: "the app's name (apps)" }),
    col('Entitlement ID', 'text', (o) => m(o, 'appEntitlementId'), { source: 'appEntitlementId' }),
    col('Entitlement', 'text', (o) => entitlement(o)?.name ?? null, { width: 30, about: "the entitlement's name (entitlements)" }),
    col('Entitlement type', 'enum', (o) => entitlement(o)?.type ?? null, {
      about: "the entitlement's app resource type (Access Profile, Group, Profile, Role, Permission, Scope); empty when unknown",
    }),
    col('Memberships managed', 'bool', (o) => entitlement(o)?.managed ?? null, {
      about: 'whether the service manages its memberships (catalog, group, profile): only those can be removed; empty when unknown',
    }),
    col('App user ID', 'text', (o) => m(o, 'appUserId'), { source: 'appUserId' }),
    col('App user', 'text', (o) => m(o, 'appUserName'), { width: 24, source: 'appUser.appUser.displayName' }),
    col('App user email', 'text', (o) => cellOf(getPath(o.json, 'appUser.appUser.email')), { width: 30, source: 'appUser.appUser.email' }),
    col('Granted', 'enum', (o) => m(o, 'grantedHow'), { source: 'grantSources', about: 'direct, or inherited through other entitlements' }),
    col('Granted through', 'text', (o) => m(o, 'grantSourceIds'), { width: 30, source: 'grantSources[].id' }),
    col('Granting task', 'text', (o) => m(o, 'originatingTicketId') || null, { source: 'originatingTicketId' }),
    ...dateColumns<StoredObject>('Since', (o) => o.columns.grantedAt, 'appEntitlementUserBindingCreatedAt'),
    ...dateColumns<StoredObject>('Until', (o) => o.columns.deprovisionAt, 'appEntitlementUserBindingDeprovisionAt'),
  ];
  const memberships = objects(sources, params, 'memberships');
  const source = function* (): Iterable<StoredObject> {
    // The lookups are read when the sheet is written, not when the report is planned.
    entitlements = entitlementFacts(sources, params);
    apps = appNames(sources, params);
    yield* memberships();
  };
  return sheet('Access', columns, source, {
    collection: 'memberships',
    total: total(sources, params, 'memberships'),
    about: 'who holds what: one row per membership (app user, entitlement, app), how it was granted and since when',
  });
}

/** The kind of a policy step instance (approval, provision, wait, form...). */
const stepKind = (step: unknown): string | null => membersOf(step, ['id', 'policyGenerationId', 'state'])[0] ?? null;

function tasksSheet(sources: ReportSources, params: ReportParams): ReportSheet {
  const names = namesFrom(sources, params);
  const t = (o: StoredObject, path: string): unknown => getPath(o.json, `task.${path}`);
  const columns: ReportColumn<StoredObject>[] = [
    idColumn,
    ...descriptorColumns(descriptorOf('tasks'), names),
    col('Current step kind', 'enum', (o) => kindText(stepKind(t(o, 'policy.current'))), { source: 'task.policy.current' }),
    col('Steps done', 'int', (o) => (Array.isArray(t(o, 'policy.history')) ? (t(o, 'policy.history') as unknown[]).length : 0), {
      source: 'task.policy.history',
    }),
    col('Form', 'text', (o) => cellOf(t(o, 'form.displayName')), { width: 30, source: 'task.form.displayName' }),
    col('Approvers', 'text', (o) => join(t(o, 'approverIds')), { width: 30, source: 'task.approverIds' }),
    col('Actions', 'text', (o) => enumList(t(o, 'actions'), 'TaskActionType'), { width: 40, source: 'task.actions' }),
    col('Description', 'text', (o) => cellOf(t(o, 'description')), { width: 40, source: 'task.description' }),
  ];
  return sheet('Tasks', columns, objects(sources, params, 'tasks'), {
    names,
    collection: 'tasks',
    total: total(sources, params, 'tasks'),
    about: 'one row per task: its type, state, current policy step, emergency access and what it allows',
  });
}

/** Text of one cell of the Raw sheet at most (below Excel's 32,767): longer JSON continues on the next row. */
const RAW_PART = 32_000;

export const RAW_SHEET = 'Raw API values';

interface RawPart {
  object: StoredObject;
  part: number;
  parts: number;
  text: string;
}

/** Splits a text into parts of at most RAW_PART characters, never inside a surrogate pair. */
export function rawParts(text: string): string[] {
  const parts: string[] = [];
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + RAW_PART);
    if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1] ?? '')) end -= 1;
    parts.push(text.slice(at, end));
    at = end;
  }
  return parts.length ? parts : [''];
}

/** Every object of the report's collections exactly as the API sent it (the JSON text the store keeps). */
function rawSheet(sources: ReportSources, params: ReportParams, collections: readonly CollectionId[]): ReportSheet {
  const columns: ReportColumn<RawPart>[] = [
    col('Collection', 'text', (r) => descriptorOf(r.object.collection).title, { about: 'the collection the object belongs to' }),
    col('ID', 'text', (r) => r.object.id, { source: 'id', about: "the object's id on the tenant" }),
    col('Part', 'text', (r) => (r.parts > 1 ? `${r.part} of ${r.parts}` : null), {
      about: 'JSON longer than a cell holds continues on the next rows: join the parts in order',
    }),
    {
      header: 'JSON as the API sent it',
      type: 'text',
      width: 100,
      wrap: false,
      value: (r) => r.text,
      source: '(the whole object)',
      about:
        'the object exactly as received (the GET answer a campaign is kept as, for campaigns): every value of the other sheets, raw; ' +
        'one line per cell, so on paper only its start shows',
    },
    // A filled cell to its right keeps the JSON inside its column, on screen and on paper.
    col('Characters', 'int', (r) => r.object.raw.length, {
      about: 'the length of the whole JSON text (all its parts): the parts joined must have as many characters',
    }),
  ];
  const source = function* raw(): Iterable<RawPart> {
    for (const id of collections)
      for (const object of objects(sources, params, id)()) {
        const parts = rawParts(object.raw);
        for (const [i, text] of parts.entries()) yield { object, part: i + 1, parts: parts.length, text };
      }
  };
  return sheet(RAW_SHEET, columns, source, {
    about: 'every object of the sheets above exactly as the API sent it (the values the other sheets show in words)',
  });
}

function changesSheet(sources: ReportSources): ReportSheet {
  const columns: ReportColumn<JournalEntry>[] = [
    col('Seq', 'int', (e) => e.seq),
    ...dateColumns<JournalEntry>('At', (e) => e.at),
    col('Item', 'text', (e) => e.itemId),
    col('Kind', 'enum', (e) => e.kind),
    col('Target', 'text', (e) => e.target, 36),
    col('Attempt', 'int', (e) => e.attempt),
    col('Event', 'enum', (e) => e.event),
    col('Method', 'text', (e) => e.method),
    col('Path', 'text', (e) => e.path, 40),
    col('Request digest', 'text', (e) => e.requestDigest, 30),
    col('HTTP status', 'int', (e) => e.httpStatus),
    col('Outcome', 'enum', (e) => e.outcome),
    col('Answer', 'text', (e) => e.answer, 40),
  ];
  return sheet('Outbox journal', columns, () => (sources.journal ? sources.journal() : []), {
    about: 'every attempt of every change sent from this workspace, in order',
  });
}

function diffSheet(sources: ReportSources, runs: { from: number; to: number } | undefined): ReportSheet {
  const columns: ReportColumn<DiffEntry>[] = [
    col('Collection', 'enum', (e) => descriptorOf(e.collection).title),
    col('ID', 'text', (e) => e.id),
    col('Title', 'text', (e) => e.title, 40),
    col('Change', 'enum', (e) => e.change),
    col('Changed fields', 'text', (e) => (e.changedFields.length ? e.changedFields.join(', ') : null), 40),
    col('From run', 'int', () => runs?.from ?? null),
    col('To run', 'int', () => runs?.to ?? null),
  ];
  return sheet('Diff', columns, () => (runs ? sources.store.diff(runs.from, runs.to) : []), {
    about: 'one row per object added, removed or modified between the two sync runs compared',
  });
}

// ---------------------------------------------------------------------------------------------
// Builders: one per report

type Builder = (sources: ReportSources, params: ReportParams) => ReportPlan;

const ALL: CollectionId[] = COLLECTIONS.map((c) => c.id);
/** The access report reads memberships, and names their entitlements and apps: the Evidence sheet states all three. */
const ACCESS_COLLECTIONS: CollectionId[] = ['memberships', 'entitlements', 'apps'];

/** The two completed runs a diff compares: given, or the last two completed. */
export function resolveDiffRuns(store: ReportStore, params: ReportParams): { from: number; to: number } | undefined {
  const completed = store
    .runs()
    .filter((r) => r.status === 'completed')
    .map((r) => r.id)
    .sort((a, b) => a - b);
  const to = params.toRun ?? params.asOfRun ?? completed.at(-1);
  if (to === undefined) return undefined;
  const from = params.fromRun ?? completed.filter((id) => id < to).at(-1);
  if (from === undefined) return undefined;
  for (const id of [from, to]) {
    if (!completed.includes(id))
      throw new InvalidInputError(`run ${id} is not a completed sync run (completed: ${completed.join(', ') || 'none'})`);
  }
  if (from >= to) throw new InvalidInputError(`run ${from} must come before run ${to}: compare an earlier run with a later one`);
  return { from, to };
}

export const REPORTS: Record<ReportKind, { title: string; build: Builder }> = {
  evidence: {
    title: 'Evidence: the whole tenant',
    build: (s, p) => {
      const diffRuns = resolveDiffRuns(s.store, { ...p, fromRun: undefined, toRun: undefined });
      return {
        kind: 'evidence',
        title: 'Evidence: the whole tenant',
        collections: ALL,
        usesJournal: true,
        diffRuns,
        sheets: [
          campaignsSheet(s, p),
          templatesSheet(s, p),
          automationsSheet(s, p),
          automationStepsSheet(s, p),
          toolsetsSheet(s, p),
          routingRulesSheet(s, p),
          scopesSheet(s, p),
          accessSheet(s, p),
          tasksSheet(s, p),
          changesSheet(s),
          diffSheet(s, diffRuns),
          rawSheet(s, p, ALL),
        ],
      };
    },
  },
  campaigns: {
    title: 'Access review campaigns',
    build: (s, p) => single('campaigns', 'Access review campaigns', [campaignsSheet(s, p)], s, p),
  },
  templates: {
    title: 'Access review templates',
    build: (s, p) => single('templates', 'Access review templates', [templatesSheet(s, p)], s, p),
  },
  automations: {
    title: 'Automations, their triggers and steps',
    build: (s, p) =>
      single('automations', 'Automations, their triggers and steps', [automationsSheet(s, p), automationStepsSheet(s, p)], s, p),
  },
  toolsets: { title: 'MCP toolsets', build: (s, p) => single('toolsets', 'MCP toolsets', [toolsetsSheet(s, p)], s, p) },
  'routing-rules': {
    title: 'Finding routing rules',
    build: (s, p) => single('routing-rules', 'Finding routing rules', [routingRulesSheet(s, p)], s, p),
  },
  scopes: { title: 'Cross-app scopes', build: (s, p) => single('scopes', 'Cross-app scopes', [scopesSheet(s, p)], s, p) },
  access: {
    title: 'Access: who holds what',
    build: (s, p) => ({
      kind: 'access',
      title: 'Access: who holds what',
      collections: ACCESS_COLLECTIONS,
      usesJournal: false,
      sheets: [accessSheet(s, p), rawSheet(s, p, ACCESS_COLLECTIONS)],
    }),
  },
  tasks: { title: 'Tasks', build: (s, p) => single('tasks', 'Tasks', [tasksSheet(s, p)], s, p) },
  changes: {
    title: 'Change log (outbox journal)',
    build: (s) => ({
      kind: 'changes',
      title: 'Change log (outbox journal)',
      collections: [],
      usesJournal: true,
      sheets: [changesSheet(s)],
    }),
  },
  diff: {
    title: 'What changed between two sync runs',
    build: (s, p) => {
      const diffRuns = resolveDiffRuns(s.store, p);
      if (!diffRuns) throw new InvalidInputError('a diff needs two completed sync runs: sync again to have two to compare');
      return {
        kind: 'diff',
        title: 'What changed between two sync runs',
        collections: ALL,
        usesJournal: false,
        diffRuns,
        sheets: [diffSheet(s, diffRuns)],
      };
    },
  },
};

function single(
  kind: Extract<ReportKind, CollectionId>,
  title: string,
  sheets: ReportSheet[],
  s: ReportSources,
  p: ReportParams,
): ReportPlan {
  return { kind, title, collections: [kind], usesJournal: false, sheets: [...sheets, rawSheet(s, p, [kind])] };
}

// ---------------------------------------------------------------------------------------------
// Filters

/** Filter keys offered per collection: its descriptor's columns, plus `id` and `app` (= appId). */
export function filterKeys(id: CollectionId): string[] {
  return ['id', 'app', ...descriptorOf(id).columns.map((c) => c.name)];
}

/**
 * Parses `--filter` arguments (`key=value`, or `collection.key=value` to aim at one collection)
 * into per-collection filters for the collections of a report. A repeated key means any of the
 * values. A key that no collection of the report has is an error.
 */
export function parseFilters(args: readonly string[], collections: readonly CollectionId[]): Partial<Record<CollectionId, Filters>> {
  const out: Partial<Record<CollectionId, Record<string, FilterValue[]>>> = {};
  for (const arg of args) {
    const eq = arg.indexOf('=');
    if (eq <= 0) throw new InvalidInputError(`a filter is key=value, not '${arg}'`);
    let key = arg.slice(0, eq).trim();
    const raw = arg.slice(eq + 1);
    let targetsOf = [...collections];
    const dot = key.indexOf('.');
    if (dot > 0 && descriptorOrNull(key.slice(0, dot))) {
      const only = key.slice(0, dot) as CollectionId;
      if (!collections.includes(only)) throw new InvalidInputError(`this report does not cover '${only}'`);
      targetsOf = [only];
      key = key.slice(dot + 1);
    }
    let matched = false;
    for (const id of targetsOf) {
      const d = descriptorOf(id);
      const name = key === 'app' ? 'appId' : key;
      const column = d.columns.find((c) => c.name === name);
      if (!column && name !== 'id') continue;
      matched = true;
      const value: FilterValue = column?.type === 'bool' ? parseBool(raw, key) : column?.type === 'int' ? parseInt(raw, key) : raw;
      const filters = (out[id] ??= {});
      (filters[name] ??= []).push(value);
    }
    if (!matched) {
      const offered = [...new Set(collections.flatMap(filterKeys))].sort().join(', ');
      throw new InvalidInputError(`no collection of this report has a column '${key}' (filters: ${offered})`);
    }
  }
  const result: Partial<Record<CollectionId, Filters>> = {};
  for (const [id, filters] of Object.entries(out) as [CollectionId, Record<string, FilterValue[]>][]) {
    result[id] = Object.fromEntries(Object.entries(filters).map(([k, v]) => [k, v.length === 1 ? (v[0] as FilterValue) : v]));
  }
  return result;
}

function descriptorOrNull(id: string): CollectionDescriptor | null {
  return COLLECTIONS.find((c) => c.id === id) ?? null;
}

function parseBool(raw: string, key: string): boolean {
  if (/^(true|yes|1)$/i.test(raw)) return true;
  if (/^(false|no|0)$/i.test(raw)) return false;
  throw new InvalidInputError(`filter ${key} takes true or false, not '${raw}'`);
}

function parseInt(raw: string, key: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n)) throw new InvalidInputError(`filter ${key} takes an integer, not '${raw}'`);
  return n;
}

/** The collections a report of this kind reads (for filter parsing before the plan is built). */
export function collectionsOf(kind: ReportKind): CollectionId[] {
  switch (kind) {
    case 'evidence':
      return ALL;
    case 'changes':
    case 'diff':
      return [];
    case 'access':
      // Filters aim at the memberships (the rows); the entitlements and apps are only named.
      return ['memberships'];
    default:
      return [kind];
  }
}
