/**
 * Search automations with every filter of the spec's `POST /search/automations` (query, appId,
 * appIds, isDraft, statuses, triggerTypes, refs): asked of the tenant (`live`), walking its pages
 * of at most 10, or answered from the store with the server's meaning of each filter, plus one
 * filter only the store has, "any trigger type" (any trigger, live or draft), named as such.
 */
import { searchAutomations } from '../api/endpoints';
import { ApiError } from '../api/errors';
import { tokenInWords } from '../sync/pages';
import { getPath, str } from '../collections';
import { AUTOMATION_STATUS_FILTER_VALUES, TRIGGER_TYPE_VALUES } from '../../shared/enums';
import type { SearchAutomationsRequest } from '../../shared/api-types';
import { AUTOMATIONS_PAGE_SIZE } from '../../shared/pagination';
import type { Workspace } from './workspace';

/** The statuses and trigger types a filter takes (UNSPECIFIED is no filter, so it is not one to give). */
export const AUTOMATION_STATUSES = AUTOMATION_STATUS_FILTER_VALUES.filter((v) => !v.endsWith('_UNSPECIFIED'));
export const AUTOMATION_TRIGGER_TYPES = TRIGGER_TYPE_VALUES.filter((v) => !v.endsWith('_UNSPECIFIED'));
/** The largest page the server answers for this search. */
export const AUTOMATION_SEARCH_PAGE_MAX = AUTOMATIONS_PAGE_SIZE;
/** Empty pages handing back their own token, in a row, before a live search gives up (as the paginator). */
const MAX_SAME_TOKEN = 1000;
/** Pages a live search walks at most before it stops and says more remain. */
export const AUTOMATION_SEARCH_PAGES_DEFAULT = 50;

/** The filters, as the spec names them. Empty lists and strings are no filter. */
export interface AutomationFilters {
  query?: string;
  appId?: string;
  appIds?: string[];
  /** Unset: drafts and published; true: drafts only; false: published only. */
  isDraft?: boolean;
  statuses?: string[];
  /** The server's filter: the automation's primary trigger type is one of these. */
  triggerTypes?: string[];
  /** Automation (template) ids: the spec's `refs: [{ id }]`. */
  refs?: string[];
  /** Offline only: any trigger of the automation, live or draft (or its primary type), is one of these. */
  anyTriggerTypes?: string[];
}

export interface AutomationHit {
  id: string;
  name: string;
  appId: string;
  /** The app's name as the store holds it ('' when it holds none). */
  appName: string;
  primaryTriggerType: string;
  enabled: boolean;
  isDraft: boolean;
  raw: string;
}

export interface AutomationSearchAnswer {
  /** `live`: the tenant answered now; `store`: the synced automations answered. */
  source: 'live' | 'store';
  /** The search's time (live), or when the store last synced the automations. */
  asOf: string | null;
  automations: AutomationHit[];
  /** Pages the tenant answered (0 from the store). */
  pages: number;
  /** False when a live search stopped at its page limit with more pages to come. */
  complete: boolean;
}

export class AutomationSearchError extends Error {
  override name = 'AutomationSearchError';
}

/**
 * A status or trigger type as given (`AUTOMATION_STATUS_FILTER_ON`, or just `on`; `schedule`,
 * `TRIGGER_TYPE_SCHEDULE`), or a clear error naming the value and the allowed ones.
 */
function enumValue(given: string, allowed: readonly string[], prefix: string, what: string): string {
  const name = given
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_');
  const found = allowed.find((v) => v === name || v === `${prefix}${name}`);
  if (!found)
    throw new AutomationSearchError(
      `unknown ${what} '${given}' (one of ${allowed.map((v) => v.slice(prefix.length).toLowerCase()).join(', ')})`,
    );
  return found;
}

const trimmedList = (values: readonly string[] | undefined): string[] => (values ?? []).map((v) => v.trim()).filter((v) => v !== '');

/** The filters checked and in their API spelling; a bad value is an AutomationSearchError naming it. */
export function checkAutomationFilters(given: AutomationFilters): AutomationFilters {
  const out: AutomationFilters = {};
  const query = given.query?.trim();
  if (query) out.query = query;
  const appId = given.appId?.trim();
  if (appId) out.appId = appId;
  const appIds = trimmedList(given.appIds);
  if (appIds.length > 0) out.appIds = appIds;
  if (given.isDraft !== undefined) out.isDraft = given.isDraft;
  const statuses = trimmedList(given.statuses).map((s) => enumValue(s, AUTOMATION_STATUSES, 'AUTOMATION_STATUS_FILTER_', 'status'));
  if (statuses.length > 0) out.statuses = statuses;
  const triggers = trimmedList(given.triggerTypes).map((t) => enumValue(t, AUTOMATION_TRIGGER_TYPES, 'TRIGGER_TYPE_', 'trigger type'));
  if (triggers.length > 0) out.triggerTypes = triggers;
  const anyTriggers = trimmedList(given.anyTriggerTypes).map((t) =>
    enumValue(t, AUTOMATION_TRIGGER_TYPES, 'TRIGGER_TYPE_', 'trigger type'),
  );
  if (anyTriggers.length > 0) out.anyTriggerTypes = anyTriggers;
  const refs = trimmedList(given.refs);
  if (refs.length > 0) out.refs = refs;
  return out;
}

/** The request body of a live search: each filter as the spec's member. */
export function automationSearchBody(f: AutomationFilters, pageSize: number): SearchAutomationsRequest {
  return {
    pageSize,
    ...(f.query ? { query: f.query } : {}),
    ...(f.appId ? { appId: f.appId } : {}),
    ...(f.appIds ? { appIds: f.appIds } : {}),
    ...(f.isDraft !== undefined ? { isDraft: f.isDraft } : {}),
    ...(f.statuses ? { statuses: f.statuses } : {}),
    ...(f.triggerTypes ? { triggerTypes: f.triggerTypes } : {}),
    ...(f.refs ? { refs: f.refs.map((id) => ({ id })) } : {}),
  };
}

function hitOf(workspace: Workspace, json: unknown, raw: string): AutomationHit {
  const appId = str(getPath(json, 'appId'));
  const app = appId ? workspace.store.getObject('apps', appId) : null;
  return {
    id: str(getPath(json, 'id')),
    name: str(getPath(json, 'displayName')),
    appId,
    appName: app && !app.deleted ? app.title : '',
    primaryTriggerType: str(getPath(json, 'primaryTriggerType')),
    enabled: getPath(json, 'enabled') === true,
    isDraft: getPath(json, 'isDraft') === true,
    raw,
  };
}

/** The tenant's answer, page by page (pages of `pageSize` ≤ 10), up to `maxPages` pages. */
export async function searchAutomationsLive(
  workspace: Workspace,
  given: AutomationFilters,
  opts: { pageSize?: number; maxPages?: number; signal?: AbortSignal; now?: () => Date } = {},
): Promise<AutomationSearchAnswer> {
  const filters = checkAutomationFilters(given);
  if (filters.anyTriggerTypes)
    throw new AutomationSearchError(
      'the "any trigger type" filter is the store\'s own: the server matches the primary trigger type only (use the trigger type filter live)',
    );
  const pageSize = opts.pageSize ?? AUTOMATION_SEARCH_PAGE_MAX;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > AUTOMATION_SEARCH_PAGE_MAX)
    throw new AutomationSearchError(
      `page size ${pageSize} is out of range: the server answers pages of 1 to ${AUTOMATION_SEARCH_PAGE_MAX} automations`,
    );
  const maxPages = opts.maxPages ?? AUTOMATION_SEARCH_PAGES_DEFAULT;
  const asOf = (opts.now ?? (() => new Date()))().toISOString();
  const api = workspace.api ?? (await workspace.requireApi());
  const body = automationSearchBody(filters, pageSize);
  const hits: AutomationHit[] = [];
  // Each token used, with the page it fetched: one handed back again would go round forever.
  const used = new Map<string, number>();
  let token = '';
  let pages = 0;
  let repeats = 0;
  for (;;) {
    const res = await searchAutomations(api, token ? { ...body, pageToken: token } : body, { signal: opts.signal });
    pages += 1;
    if (token) used.set(token, pages);
    const list: unknown[] = Array.isArray(res.body?.list) ? res.body.list : [];
    for (const row of list) hits.push(hitOf(workspace, row, JSON.stringify(row)));
    const next = typeof res.body?.nextPageToken === 'string' ? res.body.nextPageToken : '';
    if (next === '') {
      token = '';
      break;
    }
    // An empty page that hands back the token it was fetched with asks again at the same place.
    if (list.length === 0 && next === token) {
      repeats += 1;
      if (repeats >= MAX_SAME_TOKEN)
        throw new ApiError('bad_response', `search automations: the server returned the same page token ${repeats} times in a row`);
    } else {
      repeats = 0;
      const first = used.get(next);
      if (first !== undefined)
        throw new ApiError(
          'bad_response',
          `search automations: the tenant gave page token ${tokenInWords(next)} again after page ${pages}; it was first used for ` +
            `page ${first}. Following it would never end, so the search stopped`,
        );
    }
    token = next;
    if (pages >= maxPages) break;
  }
  return { source: 'live', asOf, automations: hits, pages, complete: token === '' };
}

/**
 * The store's answer with the server's meaning of each filter: `appIds` supersedes `appId`; the
 * statuses are enabled (ON) or not (OFF), drafts included, and both are no filter; `triggerTypes`
 * is the primary trigger type; `query` is a case-insensitive part of the name or description;
 * `refs` are automation ids.
 */
export function searchAutomationsInStore(workspace: Workspace, given: AutomationFilters): AutomationSearchAnswer {
  const f = checkAutomationFilters(given);
  const { store } = workspace;
  const filters: Record<string, string[]> = {};
  const apps = f.appIds ?? (f.appId ? [f.appId] : []);
  if (apps.length > 0) filters.appId = apps;
  if (f.isDraft !== undefined) filters.isDraft = [String(f.isDraft)];
  if (f.statuses) filters.enabled = f.statuses.map((s) => String(s === 'AUTOMATION_STATUS_FILTER_ON'));
  if (f.triggerTypes) filters.primaryTriggerType = f.triggerTypes;
  if (f.anyTriggerTypes) filters.triggerType = f.anyTriggerTypes;
  if (f.refs) filters.id = f.refs;
  const query = f.query?.toLowerCase();
  const hits: AutomationHit[] = [];
  const { rows } = store.listObjects('automations', { filters, sort: { column: 'displayName', dir: 'asc' } });
  for (const o of rows) {
    if (o.deleted) continue;
    if (query && ![getPath(o.json, 'displayName'), getPath(o.json, 'description')].some((t) => str(t).toLowerCase().includes(query)))
      continue;
    hits.push(hitOf(workspace, o.json, o.raw));
  }
  const status = store.collectionStatus().find((s) => s.collection === 'automations');
  return { source: 'store', asOf: status?.dataAsOf ?? null, automations: hits, pages: 0, complete: true };
}
