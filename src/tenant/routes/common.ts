/** The route table's types and the helpers every resource family shares. */
import type { IncomingMessage } from 'node:http';
import { clampPageSize } from '../../shared/pagination';
import type { Principal } from '../auth';
import type { Collection } from '../collection';
import type { TenantData } from '../dataset';
import { badField, notFound } from '../errors';
import type { Faults } from '../faults';
import { optInt, optString, type Body } from '../input';
import { paginate, type PageTokens, type SortOrder } from '../pagination';

export type Method = 'GET' | 'POST' | 'DELETE';

/** The mutations the journal records (one per spec operation that changes the tenant). */
export type Operation = 'createScope' | 'removeMembership' | 'updateTemplate' | 'createCampaign' | 'escalateTask';

export interface RequestContext {
  method: Method;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: Body;
  principal: Principal;
  data: TenantData;
  tokens: PageTokens;
  faults: Faults;
  req: IncomingMessage;
  /** Journals the mutation this request applied (call it once the change is made). */
  record(objectId: string): void;
}

export interface Route {
  method: Method;
  /** Path template with `{name}` segments, e.g. `/api/v1/apps/{app_id}/xaa/scopes`. */
  path: string;
  /** Set on mutations: the journal's name for it; also what `dropAfterApply` applies to. */
  operation?: Operation;
  handle(ctx: RequestContext): unknown;
}

/** A path parameter, percent-decoded by the router. */
export function param(ctx: RequestContext, name: string): string {
  return ctx.params[name] ?? '';
}

export function getOr404<T extends object>(collection: Collection<T>, id: string, resourceType: string): T {
  const value = collection.get(id);
  if (!value) throw notFound(resourceType, id);
  return value;
}

interface ListOptions<T extends object> {
  collection: Collection<T>;
  /** The request's filters, in a fixed key order (page tokens are bound to them). */
  filter?: unknown;
  match?: (item: T) => boolean;
  order?: SortOrder<T>;
  /** With `order`: only the objects whose sort key is this value. */
  only?: string;
}

/**
 * One page of a LIST or SEARCH: `page_size`/`page_token` from the query of a GET, `pageSize`/
 * `pageToken` from the body of a POST, clamped and verified by the spec's rules.
 */
export function listPage<T extends object>(ctx: RequestContext, options: ListOptions<T>): { items: T[]; nextPageToken: string } {
  let pageSize: number | undefined;
  let pageToken: string | undefined;
  let tokenField: string;
  if (ctx.method === 'GET') {
    // The gateway takes the proto name and the JSON name of a query parameter alike.
    const sizeName = ctx.query.has('page_size') ? 'page_size' : 'pageSize';
    const tokenName = ctx.query.has('page_token') ? 'page_token' : 'pageToken';
    const rawSize = ctx.query.get(sizeName);
    if (rawSize !== null && rawSize !== '') {
      if (!/^-?\d+$/.test(rawSize.trim())) throw badField(sizeName, `'${rawSize}' is not a whole number`);
      pageSize = Number(rawSize);
    }
    pageToken = ctx.query.get(tokenName) ?? undefined;
    tokenField = tokenName;
  } else {
    pageSize = optInt(ctx.body, 'pageSize');
    pageToken = optString(ctx.body, 'pageToken');
    tokenField = 'pageToken';
  }
  return paginate(ctx.tokens, {
    collection: options.collection,
    listing: `${ctx.method} ${ctx.path}`,
    filter: options.filter ?? null,
    pageSize: clampPageSize(pageSize),
    pageToken,
    tokenField,
    match: options.match,
    order: options.order,
    only: options.only,
    emptyPage: ctx.faults.roll('emptyPages'),
    repeatRow: ctx.faults.roll('repeatRow'),
    cycleTokens: ctx.faults.tokenCycle(),
  });
}

/** The caller's permissions on every object: the reference tenant's credentials are full-permission ones. */
export const FULL_PERMISSIONS = { delete: true, edit: true, read: true, extra: {} };
