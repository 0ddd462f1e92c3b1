/** Automations: search (spec), list and get (vendor document). */
import type { Automation } from '../../shared/api-types';
import {
  type AutomationSortField,
  AUTOMATION_SORT_FIELD_VALUES,
  AUTOMATION_STATUS_FILTER_VALUES,
  SORT_DIRECTION_VALUES,
  TRIGGER_TYPE_VALUES,
} from '../../shared/enums';
import { optBoolean, optEnum, optEnumArray, optRefIds, optString, optStringArray, textMatcher } from '../input';
import type { SortOrder, SortValue } from '../pagination';
import { getOr404, listPage, param, type RequestContext, type Route } from './common';

const SORT_KEYS: Partial<Record<AutomationSortField, (a: Automation) => SortValue>> = {
  AUTOMATION_SORT_FIELD_DISPLAY_NAME: (a) => (a.displayName ?? '').toLowerCase(),
  AUTOMATION_SORT_FIELD_CREATED_AT: (a) => a.createdAt ?? '',
  AUTOMATION_SORT_FIELD_LAST_EXECUTED_AT: (a) => a.lastExecutedAt ?? '',
  AUTOMATION_SORT_FIELD_ENABLED: (a) => (a.enabled ? 1 : 0),
  AUTOMATION_SORT_FIELD_PRIMARY_TRIGGER_TYPE: (a) => a.primaryTriggerType ?? '',
};

const orders = new Map<string, SortOrder<Automation>>();

/** The sort order of a search; unset field means insertion order (the stable sync walk). */
function sortOrder(field: AutomationSortField | undefined, descending: boolean): SortOrder<Automation> | undefined {
  const key = field ? SORT_KEYS[field] : undefined;
  if (!key) return undefined;
  const name = `${field}:${descending ? 'desc' : 'asc'}`;
  let order = orders.get(name);
  if (!order) {
    order = { name, key, descending };
    orders.set(name, order);
  }
  return order;
}

function searchAutomations(ctx: RequestContext) {
  const body = ctx.body;
  const filter = {
    appId: optString(body, 'appId') ?? '',
    appIds: optStringArray(body, 'appIds') ?? [],
    isDraft: optBoolean(body, 'isDraft') ?? null,
    query: optString(body, 'query') ?? '',
    refs: optRefIds(body, 'refs') ?? [],
    statuses: (optEnumArray(body, 'statuses', AUTOMATION_STATUS_FILTER_VALUES) ?? []).filter(
      (s) => s !== 'AUTOMATION_STATUS_FILTER_UNSPECIFIED',
    ),
    triggerTypes: (optEnumArray(body, 'triggerTypes', TRIGGER_TYPE_VALUES) ?? []).filter((t) => t !== 'TRIGGER_TYPE_UNSPECIFIED'),
  };
  const sortField = optEnum(body, 'sortField', AUTOMATION_SORT_FIELD_VALUES);
  const direction = optEnum(body, 'direction', SORT_DIRECTION_VALUES);
  const text = textMatcher(filter.query);
  // `appIds` supersedes `appId` when not empty; an empty `appIds` falls back to `appId`.
  const apps = filter.appIds.length > 0 ? filter.appIds : filter.appId ? [filter.appId] : [];
  const page = listPage(ctx, {
    collection: ctx.data.automations,
    filter,
    order: sortOrder(sortField, direction === 'SORT_DIRECTION_DESC'),
    match: (a) =>
      (apps.length === 0 || apps.includes(a.appId ?? '')) &&
      (filter.isDraft === null || Boolean(a.isDraft) === filter.isDraft) &&
      (filter.refs.length === 0 || filter.refs.includes(a.id ?? '')) &&
      (filter.statuses.length === 0 ||
        filter.statuses.includes(a.enabled ? 'AUTOMATION_STATUS_FILTER_ON' : 'AUTOMATION_STATUS_FILTER_OFF')) &&
      (filter.triggerTypes.length === 0 || filter.triggerTypes.includes(a.primaryTriggerType as (typeof filter.triggerTypes)[number])) &&
      (!text || text(a.displayName, a.description)),
  });
  return { list: page.items, nextPageToken: page.nextPageToken };
}

function listAutomations(ctx: RequestContext) {
  const page = listPage(ctx, { collection: ctx.data.automations });
  return { list: page.items, nextPageToken: page.nextPageToken };
}

function getAutomation(ctx: RequestContext) {
  return { automation: getOr404(ctx.data.automations, param(ctx, 'id'), 'automation') };
}

export const automationRoutes: Route[] = [
  { method: 'POST', path: '/api/v1/search/automations', handle: searchAutomations },
  { method: 'GET', path: '/api/v1/automations', handle: listAutomations },
  { method: 'GET', path: '/api/v1/automations/{id}', handle: getAutomation },
];
