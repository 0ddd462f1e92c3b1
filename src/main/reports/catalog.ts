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
import { kindAsWritten } from '../../shared/api-types/common';
import { ROUTING_RULE_ACTION_KEYS } from '../../shared/api-types/routing-rule';
import type { Filters, FilterValue, StoredObject } from '../store/types';
import { COLLECTIONS, collection as descriptorOf, getPath, isRecord, type CollectionDescriptor, type CollectionId } from '../collections';
import type { CellValue } from './canonical';
import {
  cellOf,
  col,
  dateColumns,
  descriptorColumns,
  field,
  idColumn,
  namesFrom,
  objects,
  parameters,
  sheet,
  total,
  viewOf,
  type ReportColumn,
  type ReportJournalEntry,
  type ReportParams,
  type ReportSheet,
  type ReportSort,
  type ReportSources,
  type ReportStore,
} from './columns';
import { changesInWords, type ChangeInWords, type ValueChange } from './diff-values';
import { InvalidInputError } from './errors';
import { EVIDENCE_HEADER_ROW_ONLY } from './workbook';
import { campaignSettingsSheet, campaignsSheet, templateSettingsSheet, templatesSheet } from './sheets-access-review';
import { automationsSheet, automationStepsSheet, stepSettingsSheet } from './sheets-automations';
import { reviewDecisionsSheet, reviewTotalsSheet } from './sheets-reviews';
import { certificationSheet, certificationSummarySheet } from './sheets-certification';
import { taskDetailsSheet, tasksSheet } from './sheets-tasks';

export {
  isoDate,
  type ReportColumn,
  type ReportParams,
  type ReportSheet,
  type ReportSort,
  type ReportSources,
  type ReportStore,
} from './columns';

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
  'certification',
  'apps',
  'entitlements',
  'app-users',
  'users',
  'policies',
  'changes',
  'review-decisions',
  'diff',
] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export function isReportKind(value: string): value is ReportKind {
  return (REPORT_KINDS as readonly string[]).includes(value);
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

function toolsetsSheet(sources: ReportSources, params: ReportParams): ReportSheet {
  const names = namesFrom(sources, params);
  const columns: ReportColumn<StoredObject>[] = [
    idColumn,
    ...descriptorColumns(descriptorOf('toolsets'), names),
    field('Description', 'description', 'text', { width: 40 }),
    field('Deleted', 'deletedAt', 'date'),
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
    const kind = kindAsWritten(a, ROUTING_RULE_ACTION_KEYS);
    return { kind, body: kind && isRecord(a) ? a[kind] : null };
  };
  let order = 0; // rules apply in priority order: the sheet numbers them in that order
  const columns: ReportColumn<StoredObject>[] = [
    col('Order', 'int', () => (order += 1)),
    idColumn,
    // The action's kind is the descriptor's column: it reads as in the app and the CLI's tables.
    ...descriptorColumns(d, names),
    col('Action parameters', 'text', (o) => parameters(action(o).body, names.wantPeopleAndPolicies()), {
      width: 40,
      source: 'action.*',
      about: 'the members of the action, "name=value; ..." (values in words)',
    }),
    col('Condition', 'text', (o) => cellOf(getPath(o.json, 'condition')), { width: 40, source: 'condition' }),
    field('Description', 'description', 'text', { width: 40 }),
  ];
  // Sorted here (rules are few): by priority, then id; or as the report's sort says.
  const source = (): Iterable<StoredObject> => {
    const all = [...objects(sources, params, 'routing-rules')()];
    if (params.sort?.['routing-rules']) return all;
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
  const columns: ReportColumn<StoredObject>[] = [
    idColumn,
    ...descriptorColumns(descriptorOf('scopes'), names),
    field('Description', 'description', 'text', { width: 40 }),
    field('Deleted', 'deletedAt', 'date'),
  ];
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

/** A collection's sheet of its descriptor's columns, as people read them (the whole objects: the Raw sheet). */
const usersSheet = (s: ReportSources, p: ReportParams): ReportSheet =>
  collectionSheet(s, p, 'users', 'one row per identity user of the tenant');
const policiesSheet = (s: ReportSources, p: ReportParams): ReportSheet =>
  collectionSheet(s, p, 'policies', 'one row per policy of the tenant');

function collectionSheet(sources: ReportSources, params: ReportParams, id: CollectionId, about: string): ReportSheet {
  const names = namesFrom(sources, params);
  const d = descriptorOf(id);
  return sheet(d.title, [idColumn, ...descriptorColumns(d, names)], objects(sources, params, id), {
    names,
    collection: id,
    total: total(sources, params, id),
    about,
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

/**
 * Splits a text into parts of at most RAW_PART characters, never inside a surrogate pair nor
 * beside a space or line end (a cell's text is written without its outer white space: see cellText).
 */
export function rawParts(text: string): string[] {
  const parts: string[] = [];
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + RAW_PART);
    while (end < text.length && end > at + 1 && (/[\uD800-\uDBFF]/.test(text[end - 1]!) || /[ \t\r\n]/.test(text[end - 1]! + text[end]!)))
      end -= 1;
    parts.push(text.slice(at, end));
    at = end;
  }
  return parts.length ? parts : [''];
}

/**
 * Every object of the report's collections exactly as the API sent it (the JSON text the store
 * keeps); `only`, read when the sheet is written: per collection, the ids of the objects to carry
 * (the others are not rows of the report).
 */
function rawSheet(
  sources: ReportSources,
  params: ReportParams,
  collections: readonly CollectionId[],
  only?: () => Partial<Record<CollectionId, ReadonlySet<string>>>,
): ReportSheet {
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
    const carried = only?.() ?? {};
    for (const id of collections)
      for (const object of objects(sources, params, id)()) {
        if (carried[id] && !carried[id].has(object.id)) continue;
        const parts = rawParts(object.raw);
        for (const [i, text] of parts.entries()) yield { object, part: i + 1, parts: parts.length, text };
      }
  };
  return sheet(RAW_SHEET, columns, source, {
    paper: 'header row',
    about: 'every object of the sheets above exactly as the API sent it (the values the other sheets show in words)',
  });
}

function changesSheet(sources: ReportSources): ReportSheet {
  const columns: ReportColumn<ReportJournalEntry>[] = [
    col('Seq', 'int', (e) => e.seq),
    ...dateColumns<ReportJournalEntry>('At', (e) => e.at),
    col('Item', 'text', (e) => e.itemId),
    col('Kind', 'enum', (e) => e.kind),
    col('Change', 'text', (e) => e.change ?? null, {
      width: 48,
      about: 'the change in words: each id it names given with the name the store has for it (a removal: user, entitlement and app)',
    }),
    col('Import', 'int', (e) => e.batchId ?? null, { about: 'the CSV import (attest queue batches) the change came from' }),
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

/** A row of the Diff sheet: one changed value of a modified object, or the object added or removed. */
interface DiffRow {
  change: ChangeInWords;
  value: ValueChange | null;
  /** The row that says how many more values changed than are listed. */
  more: number;
}

function diffSheet(sources: ReportSources, runs: { from: number; to: number } | undefined): ReportSheet {
  const columns: ReportColumn<DiffRow>[] = [
    col('Collection', 'enum', (r) => descriptorOf(r.change.collection).title),
    col('ID', 'text', (r) => r.change.id),
    col('Title', 'text', (r) => r.change.title, 40),
    col('Change', 'enum', (r) => r.change.change),
    col('App', 'text', (r) => r.change.app ?? r.change.appId, { width: 24, about: 'the app the object is of: its name, else its id' }),
    col('Entitlement', 'text', (r) => r.change.entitlement ?? r.change.entitlementId, {
      width: 30,
      about: 'the entitlement the object is of (a membership, a task): its name, else its id',
    }),
    col('Field', 'text', (r) => (r.value ? r.value.label : r.more ? `${r.more} more values changed (not listed)` : null), {
      width: 30,
      about: 'the changed value, by the label its column has (else its path in words); one row per changed value',
    }),
    col('Field path', 'text', (r) => r.value?.field ?? null, {
      width: 30,
      about: 'where the value sits in the object, as the API names it',
    }),
    col('Old value', 'text', (r) => r.value?.before ?? null, {
      width: 40,
      about: 'the value in the earlier run, in words (times in UTC, enum values as labels); empty when absent',
    }),
    col('New value', 'text', (r) => r.value?.after ?? null, {
      width: 40,
      about: 'the value in the later run, in words; empty when absent',
    }),
    col('From run', 'int', () => runs?.from ?? null),
    col('To run', 'int', () => runs?.to ?? null),
  ];
  const source = function* (): Iterable<DiffRow> {
    if (!runs) return;
    for (const change of changesInWords(sources.store, runs.from, runs.to)) {
      if (change.values.length === 0) yield { change, value: null, more: 0 };
      for (const value of change.values) yield { change, value, more: 0 };
      if (change.valuesNotListed > 0) yield { change, value: null, more: change.valuesNotListed };
    }
  };
  return sheet('Diff', columns, source, {
    about: 'what changed between the two sync runs compared: one row per changed value (old and new), or per object added or removed',
  });
}

// ---------------------------------------------------------------------------------------------
// Builders: one per report

type Builder = (sources: ReportSources, params: ReportParams) => ReportPlan;

const ALL: CollectionId[] = COLLECTIONS.map((c) => c.id);
/** The access report reads memberships, and names their entitlements and apps: the Evidence sheet states all three. */
const ACCESS_COLLECTIONS: CollectionId[] = ['memberships', 'entitlements', 'apps'];

/**
 * The certification report reads the certify and revoke tasks, names them from the campaigns, apps,
 * entitlements and app users, and checks remediation against the memberships.
 */
const CERTIFICATION_COLLECTIONS: CollectionId[] = ['tasks', 'campaigns', 'memberships', 'apps', 'entitlements', 'app-users'];

/**
 * The two completed runs a diff compares: given, or by default the two latest completed syncs.
 * The runs of fresh copies a send read back and of live reads are not compared by default: what
 * they stored falls between two syncs, so it shows in the comparison of those.
 */
export function resolveDiffRuns(store: ReportStore, params: ReportParams): { from: number; to: number } | undefined {
  const runs = store.runs().filter((r) => r.status === 'completed');
  const completed = runs.map((r) => r.id).sort((a, b) => a - b);
  const syncs = runs
    .filter((r) => r.origin === 'sync')
    .map((r) => r.id)
    .sort((a, b) => a - b);
  const to = params.toRun ?? params.asOfRun ?? syncs.at(-1);
  if (to === undefined) return undefined;
  const from = params.fromRun ?? syncs.filter((id) => id < to).at(-1);
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
          campaignSettingsSheet(s, p),
          templatesSheet(s, p),
          templateSettingsSheet(s, p),
          automationsSheet(s, p),
          automationStepsSheet(s, p),
          stepSettingsSheet(s, p),
          toolsetsSheet(s, p),
          routingRulesSheet(s, p),
          scopesSheet(s, p),
          accessSheet(s, p),
          tasksSheet(s, p),
          taskDetailsSheet(s, p),
          certificationSummarySheet(s, p),
          certificationSheet(s, p),
          usersSheet(s, p),
          policiesSheet(s, p),
          changesSheet(s),
          reviewDecisionsSheet(s),
          reviewTotalsSheet(s),
          diffSheet(s, diffRuns),
          rawSheet(s, p, ALL),
        ].map((sheet) =>
          sheet.paper ? sheet : { ...sheet, paper: EVIDENCE_HEADER_ROW_ONLY.has(sheet.name) ? 'header row' : 'first page wide' },
        ),
      };
    },
  },
  campaigns: {
    title: 'Access review campaigns',
    build: (s, p) => single('campaigns', 'Access review campaigns', [campaignsSheet(s, p), campaignSettingsSheet(s, p)], s, p),
  },
  templates: {
    title: 'Access review templates',
    build: (s, p) => single('templates', 'Access review templates', [templatesSheet(s, p), templateSettingsSheet(s, p)], s, p),
  },
  automations: {
    title: 'Automations, their triggers and steps',
    build: (s, p) =>
      single(
        'automations',
        'Automations, their triggers and steps',
        [automationsSheet(s, p), automationStepsSheet(s, p), stepSettingsSheet(s, p)],
        s,
        p,
      ),
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
      // A view of the memberships (filters, text) carries the entitlements and apps its rows name, not all of them.
      sheets: [accessSheet(s, p), rawSheet(s, p, ACCESS_COLLECTIONS, scoped(p, 'memberships') ? namedByMemberships(s, p) : undefined)],
    }),
  },
  apps: { title: 'Apps', build: (s, p) => single('apps', 'Apps', [collectionSheet(s, p, 'apps', 'one row per app')], s, p) },
  entitlements: {
    title: 'Entitlements',
    build: (s, p) =>
      single('entitlements', 'Entitlements', [collectionSheet(s, p, 'entitlements', 'one row per entitlement of every app')], s, p),
  },
  'app-users': {
    title: 'App users',
    build: (s, p) => single('app-users', 'App users', [collectionSheet(s, p, 'app-users', 'one row per account of every app')], s, p),
  },
  certification: {
    title: 'Certification: access review decisions',
    build: (s, p) => ({
      kind: 'certification',
      title: 'Certification: access review decisions',
      collections: CERTIFICATION_COLLECTIONS,
      usesJournal: false,
      sheets: [certificationSummarySheet(s, p), certificationSheet(s, p)],
    }),
  },
  users: {
    title: 'Users',
    build: (s, p) => single('users', 'Users', [usersSheet(s, p)], s, p),
  },
  policies: {
    title: 'Policies',
    build: (s, p) => single('policies', 'Policies', [policiesSheet(s, p)], s, p),
  },
  tasks: { title: 'Tasks', build: (s, p) => single('tasks', 'Tasks', [tasksSheet(s, p), taskDetailsSheet(s, p)], s, p) },
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
  'review-decisions': {
    title: 'Review decisions and their proof',
    build: (s) => ({
      kind: 'review-decisions',
      title: 'Review decisions and their proof',
      collections: ['memberships'],
      usesJournal: false,
      sheets: [reviewDecisionsSheet(s), reviewTotalsSheet(s)],
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

/** Whether a report reads a part of a collection (filters or a text filter), not all of it. */
function scoped(params: ReportParams, id: CollectionId): boolean {
  const view = viewOf(params, id);
  return Boolean(view.text) || Object.keys(view.filters ?? {}).length > 0;
}

/** The entitlements and apps the memberships of the view name: the objects a scoped access report carries raw. */
function namedByMemberships(sources: ReportSources, params: ReportParams): () => Partial<Record<CollectionId, ReadonlySet<string>>> {
  return () => {
    const entitlements = new Set<string>();
    const apps = new Set<string>();
    for (const o of objects(sources, params, 'memberships')()) {
      entitlements.add(String(o.columns.appEntitlementId ?? ''));
      apps.add(String(o.columns.appId ?? ''));
    }
    return { entitlements, apps };
  };
}

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
    const { key, targetsOf } = targetsOfKey(arg.slice(0, eq).trim(), collections);
    const raw = arg.slice(eq + 1);
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

/** A filter or sort key, `[collection.]column`: the column, and the collections of the report it is for (one named: that one only). */
function targetsOfKey(spec: string, collections: readonly CollectionId[]): { key: string; targetsOf: CollectionId[] } {
  const dot = spec.indexOf('.');
  if (dot <= 0 || !descriptorOrNull(spec.slice(0, dot))) return { key: spec, targetsOf: [...collections] };
  const only = spec.slice(0, dot) as CollectionId;
  if (!collections.includes(only)) throw new InvalidInputError(`this report does not cover '${only}'`);
  return { key: spec.slice(dot + 1), targetsOf: [only] };
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

/**
 * Parses a `--sort` argument, `[collection.]column[:asc|desc]`, into the order of each collection
 * of the report that has that column (one named: that one only). Unknown columns are an error.
 */
export function parseSort(arg: string | undefined, collections: readonly CollectionId[]): Partial<Record<CollectionId, ReportSort>> {
  if (arg === undefined || arg.trim() === '') return {};
  const [spec = '', dir = 'asc', ...rest] = arg.trim().split(':');
  if (!spec || rest.length > 0 || (dir !== 'asc' && dir !== 'desc'))
    throw new InvalidInputError(`a sort is COLUMN, COLUMN:asc or COLUMN:desc, not '${arg}'`);
  const { key: column, targetsOf } = targetsOfKey(spec, collections);
  const name = column === 'app' ? 'appId' : column;
  const out: Partial<Record<CollectionId, ReportSort>> = {};
  for (const id of targetsOf)
    if (name === 'id' || name === 'title' || descriptorOf(id).columns.some((c) => c.name === name))
      out[id] = { column: name, dir: dir as ReportSort['dir'] };
  if (Object.keys(out).length === 0) {
    const offered = [...new Set(targetsOf.flatMap((id) => ['id', 'title', ...descriptorOf(id).columns.map((c) => c.name)]))]
      .sort()
      .join(', ');
    throw new InvalidInputError(`no collection of this report has a column '${column}' to sort by (columns: ${offered || 'none'})`);
  }
  return out;
}

/** The longest text filter taken (a search query is shorter). */
const TEXT_MAX = 500;

/** A text filter (the words of a list's filter box, a search's query) for every collection of the report. */
export function parseText(text: string | undefined, collections: readonly CollectionId[]): Partial<Record<CollectionId, string>> {
  const words = text?.trim() ?? '';
  if (words === '') return {};
  // eslint-disable-next-line no-control-regex
  if (words.length > TEXT_MAX || /[\x00-\x1f\x7f]/.test(words))
    throw new InvalidInputError(`a text filter is 1 to ${TEXT_MAX} characters without control characters`);
  if (collections.length === 0) throw new InvalidInputError('this report reads no collection: a text filter does not apply');
  return Object.fromEntries(collections.map((id) => [id, words]));
}

/** The collections a report of this kind reads (for filter parsing before the plan is built). */
export function collectionsOf(kind: ReportKind): CollectionId[] {
  switch (kind) {
    case 'evidence':
      return ALL;
    case 'changes':
    case 'review-decisions':
    case 'diff':
    case 'certification':
      // The certification report is scoped by campaign (--campaign), not by filters.
      return [];
    case 'access':
      // Filters aim at the memberships (the rows); the entitlements and apps are only named.
      return ['memberships'];
    default:
      return [kind];
  }
}
