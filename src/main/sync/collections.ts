/**
 * One descriptor per synced collection. Each entry says where the collection comes from (a paged
 * list, a paged list plus one GET per row, or ids referenced by other collections), how to find an
 * object's id, which columns to extract for lists, filters, sorting and reports, and which text the
 * offline search indexes. The sync engine, the store, search, the CLI and the reports all read
 * these entries; adding a collection is one entry here.
 */
import { COLLECTION_IDS, type CollectionId } from '../../shared/contract';
import { kindOf } from '../../shared/api-types/common';
import { AUTOMATION_STEP_ACTION_KEYS, AUTOMATION_TRIGGER_KEYS } from '../../shared/api-types/automation';
import { ROUTING_RULE_ACTION_KEYS } from '../../shared/api-types/routing-rule';
import type { ApiClient, ApiResponse } from '../api/client';
import { getAccessReview, getAccessReviewTemplate, walks } from '../api/endpoints';
import type { PageRequest } from '../api/paginate';
import { PAGE_SIZE_MAX } from '../../shared/pagination';
import { celExpressions, getPath, isRecord, lines, str } from './extract';

export { COLLECTION_IDS, type CollectionId };

export type ColumnType = 'text' | 'enum' | 'bool' | 'int' | 'date';

export interface ColumnDef {
  /** Key in StoredObject.columns, in filters and in sorts. */
  name: string;
  label: string;
  /** Dotted path in the stored object the value is read from. */
  path: string;
  type: ColumnType;
  /** Offered as a filter (the main enum and boolean columns). */
  filter?: boolean;
  /** A computed value instead of the value at `path` (e.g. the kind of a oneof). */
  value?(obj: unknown): string | number | boolean | null;
}

export interface SearchText {
  title: string;
  body: string;
}

/** Ids this object refers to in other collections (templates gather theirs from these). */
export type References = Partial<Record<CollectionId, string[]>>;

export interface CollectionDescriptor {
  id: CollectionId;
  title: string;
  /** The page size asked for (the largest the endpoint allows), or the ids per batch for `byIds`. */
  pageSize: number;
  /** A paged list: one page of the collection. */
  fetchPage?(api: ApiClient, req: PageRequest, signal?: AbortSignal): Promise<ApiResponse<unknown>>;
  /** The member of a page that holds its rows (for `byIds`: the member of the GET answer that is the object). */
  listKey: string;
  /**
   * Rows of the list are summaries: each object is then fetched by id and stored exactly as that
   * GET returns it (campaigns: the `GET /access_review/{id}` wrapper).
   */
  detail?: {
    idOfListItem(item: unknown): string;
    fetch(api: ApiClient, id: string, signal?: AbortSignal): Promise<ApiResponse<unknown>>;
  };
  /** No list exists: the ids are those the current objects of `referencedBy` point at, fetched one by one. */
  byIds?: {
    referencedBy: CollectionId[];
    fetch(api: ApiClient, id: string, signal?: AbortSignal): Promise<ApiResponse<unknown>>;
  };
  idOf(obj: unknown): string;
  /** Where the object itself sits inside what is stored, when that is a wrapper ('' or absent: the top). */
  diffRoot?: string;
  columns: ColumnDef[];
  defaultSort: { column: string; dir: 'asc' | 'desc' };
  searchText(obj: unknown): SearchText;
  references?(obj: unknown): References;
}

const text = (name: string, label: string, path = name): ColumnDef => ({ name, label, path, type: 'text' });
const date = (name: string, label: string, path = name): ColumnDef => ({ name, label, path, type: 'date' });
const int = (name: string, label: string, path = name): ColumnDef => ({ name, label, path, type: 'int' });
const enumCol = (name: string, label: string, path = name): ColumnDef => ({ name, label, path, type: 'enum', filter: true });
const bool = (name: string, label: string, path = name): ColumnDef => ({ name, label, path, type: 'bool', filter: true });

/** Prefixes every column path (campaign fields live at `accessReview.accessReview.*` of the wrapper). */
const under = (prefix: string, columns: ColumnDef[]): ColumnDef[] => columns.map((c) => ({ ...c, path: `${prefix}.${c.path}` }));

const celText = (obj: unknown): string =>
  celExpressions(obj)
    .map((c) => c.expression)
    .join('\n');

const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

const CAMPAIGN = 'accessReview.accessReview';
const campaignOf = (wrapper: unknown): unknown => getPath(wrapper, CAMPAIGN);

function automationSteps(obj: unknown): unknown[] {
  return [...asArray(getPath(obj, 'automationSteps')), ...asArray(getPath(obj, 'draftAutomationSteps'))];
}

const unique = (values: string[]): string[] => [...new Set(values.filter((v) => v !== ''))];

export const COLLECTIONS: readonly CollectionDescriptor[] = [
  {
    id: 'campaigns',
    title: 'Access review campaigns',
    pageSize: walks.accessReviews.pageSize,
    listKey: walks.accessReviews.listKey,
    fetchPage: (api, req, signal) => walks.accessReviews.fetchPage(api)(req, signal),
    detail: {
      idOfListItem: (item) => str(getPath(item, 'accessReview.id')),
      fetch: (api, id, signal) => getAccessReview(api, id, { signal }),
    },
    idOf: (wrapper) => str(getPath(campaignOf(wrapper), 'id')),
    diffRoot: CAMPAIGN,
    columns: under(CAMPAIGN, [
      text('displayName', 'Name'),
      enumCol('state', 'State'),
      enumCol('errorState', 'Error state'),
      enumCol('scopeType', 'Scope type'),
      text('accessReviewTemplateId', 'Template'),
      text('policyId', 'Policy'),
      int('expectedTicketCount', 'Expected tickets'),
      bool('autoCloseCampaign', 'Auto-close'),
      date('createdAt', 'Created'),
      date('startedAt', 'Started'),
      date('completionDate', 'Due'),
      date('closedAt', 'Closed'),
      date('updatedAt', 'Updated'),
    ]),
    defaultSort: { column: 'createdAt', dir: 'desc' },
    searchText: (wrapper) => {
      const c = campaignOf(wrapper);
      return {
        title: str(getPath(c, 'displayName')),
        body: lines(
          str(getPath(c, 'description')),
          str(getPath(c, 'reviewInstructions')),
          str(getPath(c, 'campaignInsights.markdown')),
          str(getPath(c, 'id')),
          celText(c),
        ),
      };
    },
    references: (wrapper) => ({ templates: unique([str(getPath(campaignOf(wrapper), 'accessReviewTemplateId'))]) }),
  },
  {
    id: 'templates',
    title: 'Access review templates',
    pageSize: PAGE_SIZE_MAX,
    listKey: 'accessReviewTemplate',
    byIds: {
      referencedBy: ['campaigns', 'automations'],
      fetch: (api, id, signal) => getAccessReviewTemplate(api, id, { signal }),
    },
    idOf: (t) => str(getPath(t, 'id')),
    columns: [
      text('displayName', 'Name'),
      enumCol('scopeType', 'Scope type'),
      text('accessReviewDuration', 'Duration'),
      bool('isCampaignScheduleEnabled', 'Scheduled'),
      bool('autoStartCampaign', 'Auto-start'),
      text('policyId', 'Policy'),
      date('nextScheduledCampaignAt', 'Next campaign'),
      date('createdAt', 'Created'),
      date('updatedAt', 'Updated'),
    ],
    defaultSort: { column: 'displayName', dir: 'asc' },
    searchText: (t) => ({
      title: str(getPath(t, 'displayName')),
      body: lines(str(getPath(t, 'description')), str(getPath(t, 'reviewInstructions')), str(getPath(t, 'id')), celText(t)),
    }),
  },
  {
    id: 'automations',
    title: 'Automations',
    pageSize: walks.automations.pageSize,
    listKey: walks.automations.listKey,
    fetchPage: (api, req, signal) => walks.automations.fetchPage(api)(req, signal),
    idOf: (a) => str(getPath(a, 'id')),
    columns: [
      text('displayName', 'Name'),
      bool('enabled', 'Enabled'),
      bool('isDraft', 'Draft'),
      enumCol('primaryTriggerType', 'Trigger type'),
      {
        name: 'triggerKinds',
        label: 'Triggers',
        path: 'triggers',
        type: 'text',
        value: (a) => unique(asArray(getPath(a, 'triggers')).map((t) => kindOf(t, AUTOMATION_TRIGGER_KEYS))).join(', '),
      },
      {
        name: 'stepKinds',
        label: 'Steps',
        path: 'automationSteps',
        type: 'text',
        value: (a) =>
          asArray(getPath(a, 'automationSteps'))
            .map((s) => kindOf(s, AUTOMATION_STEP_ACTION_KEYS))
            .join(', '),
      },
      {
        name: 'stepCount',
        label: 'Step count',
        path: 'automationSteps',
        type: 'int',
        value: (a) => asArray(getPath(a, 'automationSteps')).length,
      },
      text('appId', 'App'),
      date('createdAt', 'Created'),
      date('lastExecutedAt', 'Last run'),
    ],
    defaultSort: { column: 'displayName', dir: 'asc' },
    searchText: (a) => ({
      title: str(getPath(a, 'displayName')),
      body: lines(
        str(getPath(a, 'description')),
        str(getPath(a, 'id')),
        ...automationSteps(a).flatMap((s) => [str(getPath(s, 'stepDisplayName')), str(getPath(s, 'stepName'))]),
        celText(a),
      ),
    }),
    references: (a) => ({
      templates: unique(automationSteps(a).map((s) => str(getPath(s, 'createAccessReview.accessReviewTemplateId')))),
    }),
  },
  {
    id: 'toolsets',
    title: 'MCP toolsets',
    pageSize: walks.mcpToolsets.pageSize,
    // The vendor's SearchAccessProfiles answer carries its rows under `profiles`.
    listKey: walks.mcpToolsets.listKey,
    fetchPage: (api, req, signal) => walks.mcpToolsets.fetchPage(api)(req, signal),
    idOf: (t) => str(getPath(t, 'id')),
    columns: [
      text('displayName', 'Name'),
      int('toolCount', 'Tools'),
      text('appId', 'App'),
      text('connectorId', 'Connector'),
      text('appEntitlementId', 'Entitlement'),
      date('createdAt', 'Created'),
      date('updatedAt', 'Updated'),
    ],
    defaultSort: { column: 'displayName', dir: 'asc' },
    searchText: (t) => ({
      title: str(getPath(t, 'displayName')),
      body: lines(str(getPath(t, 'description')), str(getPath(t, 'id')), str(getPath(t, 'appEntitlementId'))),
    }),
  },
  {
    id: 'routing-rules',
    title: 'Finding routing rules',
    pageSize: walks.routingRules.pageSize,
    listKey: walks.routingRules.listKey,
    fetchPage: (api, req, signal) => walks.routingRules.fetchPage(api)(req, signal),
    idOf: (r) => str(getPath(r, 'id')),
    columns: [
      int('priority', 'Priority'),
      text('displayName', 'Name'),
      bool('enabled', 'Enabled'),
      {
        name: 'actionKind',
        label: 'Action',
        path: 'action',
        type: 'enum',
        filter: true,
        value: (r) => {
          const action = getPath(r, 'action');
          return isRecord(action) ? kindOf(action, ROUTING_RULE_ACTION_KEYS) : null;
        },
      },
      enumCol('findingType', 'Finding type'),
      text('appId', 'App'),
      text('templateId', 'Template'),
      date('createdAt', 'Created'),
      date('updatedAt', 'Updated'),
    ],
    defaultSort: { column: 'priority', dir: 'asc' },
    searchText: (r) => ({
      title: str(getPath(r, 'displayName')),
      body: lines(
        str(getPath(r, 'description')),
        str(getPath(r, 'id')),
        ...ROUTING_RULE_ACTION_KEYS.map((k) => str(getPath(r, `action.${k}.reason`))),
        celText(r),
      ),
    }),
  },
  {
    id: 'scopes',
    title: 'Cross-app scopes',
    pageSize: walks.scopes.pageSize,
    listKey: walks.scopes.listKey,
    fetchPage: (api, req, signal) => walks.scopes.fetchPage(api)(req, signal),
    idOf: (s) => str(getPath(s, 'id')),
    columns: [
      text('scopeValue', 'Scope'),
      text('displayName', 'Name'),
      enumCol('state', 'State'),
      enumCol('classification', 'Classification'),
      enumCol('source', 'Source'),
      text('appId', 'App'),
      text('xaaResourceServerId', 'Resource server'),
      text('appEntitlementId', 'Entitlement'),
      date('createdAt', 'Created'),
      date('updatedAt', 'Updated'),
      date('lastDiscoveredAt', 'Last discovered'),
    ],
    defaultSort: { column: 'scopeValue', dir: 'asc' },
    searchText: (s) => ({
      title: str(getPath(s, 'displayName')) || str(getPath(s, 'scopeValue')),
      body: lines(str(getPath(s, 'scopeValue')), str(getPath(s, 'description')), str(getPath(s, 'id'))),
    }),
  },
];

const BY_ID = new Map(COLLECTIONS.map((c) => [c.id, c]));

export function isCollectionId(value: string): value is CollectionId {
  return BY_ID.has(value as CollectionId);
}

export function collection(id: string): CollectionDescriptor {
  const found = BY_ID.get(id as CollectionId);
  if (!found) throw new Error(`unknown collection '${id}' (one of: ${COLLECTION_IDS.join(', ')})`);
  return found;
}

/** The extracted columns of one object (absent values are null; enum values kept as written). */
export function extractColumns(descriptor: CollectionDescriptor, obj: unknown): Record<string, string | number | boolean | null> {
  const out: Record<string, string | number | boolean | null> = {};
  for (const c of descriptor.columns) {
    const raw = c.value ? c.value(obj) : getPath(obj, c.path);
    out[c.name] = normalize(c.type, raw);
  }
  return out;
}

function normalize(type: ColumnType, value: unknown): string | number | boolean | null {
  // The service omits fields holding their zero value (proto3 JSON): absent booleans are false,
  // absent integers 0.
  if ((value === undefined || value === null) && type === 'bool') return false;
  if ((value === undefined || value === null) && type === 'int') return 0;
  if (value === undefined || value === null) return null;
  switch (type) {
    case 'bool':
      return typeof value === 'boolean' ? value : value === 'true' ? true : value === 'false' ? false : null;
    case 'int': {
      // Large integers may come as strings (int64 in JSON).
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      return Number.isFinite(n) ? n : null;
    }
    default:
      return typeof value === 'string'
        ? value
        : typeof value === 'number' || typeof value === 'boolean'
          ? String(value)
          : JSON.stringify(value);
  }
}

/**
 * Bumped whenever a descriptor changes what `searchText` indexes: the store then rebuilds the
 * search index from the stored raw JSON on its next writable open.
 */
export const SEARCH_TEXT_REVISION = 1;
