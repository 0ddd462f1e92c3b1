/**
 * Pagination of every LIST and SEARCH endpoint (spec "Pagination"): page sizes clamped by the
 * shared rule, opaque page tokens that a client cannot forge, and a keyset walk.
 *
 * A token carries the listing it belongs to, a digest of the request's filters and the keyset of
 * the last object served (its sort key and insertion number), signed with HMAC-SHA256. A token
 * that was altered, comes from another tenant, another listing or other filters is refused with
 * INVALID_ARGUMENT. Resuming never counts an offset: it finds the first object after the keyset
 * by binary search, so adds and deletes between pages neither repeat nor skip the objects that
 * stayed, and a page costs the same at the end of a large collection as at its start.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Collection } from './collection';
import { badField } from './errors';

export type SortValue = string | number;

/** A sort order other than insertion order: a key per object, ties broken by insertion order. */
export interface SortOrder<T> {
  name: string;
  key(item: T): SortValue;
  descending: boolean;
}

interface Cursor {
  seq: number;
  key?: SortValue;
}

interface TokenPayload {
  /** Listing the token belongs to, e.g. `POST /api/v1/search/automations`. */
  l: string;
  /** Digest of the filters of the walk. */
  f: string;
  /** Sort order name ('' for insertion order). */
  o: string;
  s: number;
  k?: SortValue;
  /** With the cycleTokens fault: the page number this token fetches, and the cursor of the walk's first token. */
  n?: number;
  c?: Cursor;
}

export interface PageRequest<T extends object> {
  collection: Collection<T>;
  listing: string;
  /** The request's filters, in a fixed key order: a token is only good for the same filters. */
  filter: unknown;
  pageSize: number;
  pageToken: string | undefined;
  /** Name of the token field in this request (`page_token` in a query, `pageToken` in a body). */
  tokenField: string;
  match?: (item: T) => boolean;
  order?: SortOrder<T>;
  /**
   * With `order`: walk only the objects whose sort key is this value, found by binary search in
   * the sorted view (the members of one entitlement among all memberships, say).
   */
  only?: SortValue;
  /** Fault injection: answer no rows but a live token that resumes at the same place. */
  emptyPage?: boolean;
  /** Fault injection: list the page's first row twice (as a broken backend might). */
  repeatRow?: boolean;
  /** Fault injection: the page fetched with a walk's N-th token hands back its first token. */
  cycleTokens?: number | undefined;
}

export interface PageResult<T> {
  items: T[];
  nextPageToken: string;
}

export class PageTokens {
  constructor(private readonly secret: Buffer) {}

  private mac(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest().subarray(0, 18).toString('base64url');
  }

  sign(payload: TokenPayload): string {
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  /** The payload of a token this tenant signed, or an INVALID_ARGUMENT naming the field. */
  verify(token: string, field: string): TokenPayload {
    const bad = (why: string) => badField(field, `${why}; start the walk again without a page token`);
    const dot = token.indexOf('.');
    if (dot <= 0 || token.length > 2048) throw bad('the page token is malformed');
    const body = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), 'base64url');
    const expected = Buffer.from(this.mac(body), 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      throw bad('the page token was not issued by this tenant or was altered');
    let payload: unknown;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      throw bad('the page token is malformed');
    }
    const p = payload as Partial<TokenPayload>;
    if (
      typeof p !== 'object' ||
      p === null ||
      typeof p.l !== 'string' ||
      typeof p.f !== 'string' ||
      typeof p.o !== 'string' ||
      typeof p.s !== 'number'
    ) {
      throw bad('the page token is malformed');
    }
    return p as TokenPayload;
  }
}

/** A short digest of the filters: binds a token to the query it continues. */
export function filterDigest(filter: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(filter ?? null))
    .digest('base64url')
    .slice(0, 16);
}

interface SortedEntry {
  key: SortValue;
  seq: number;
  id: string;
}

interface SortedView {
  layout: number;
  entries: SortedEntry[];
}

/** Per collection (by identity), per order name. */
const sortedViews = new WeakMap<object, Map<string, SortedView>>();

function compareKeys(a: SortValue, b: SortValue): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** (key, seq) order with the key's direction; seq always ascending so ties keep insertion order. */
function compareEntries(order: { descending: boolean }, aKey: SortValue, aSeq: number, bKey: SortValue, bSeq: number): number {
  const byKey = compareKeys(aKey, bKey);
  if (byKey !== 0) return order.descending ? -byKey : byKey;
  return aSeq - bSeq;
}

/**
 * The collection sorted by `order`, rebuilt only after an object was added or changed (not per
 * request, nor after a delete: the walk skips entries deleted since the view was built).
 */
function sortedView<T extends object>(collection: Collection<T>, order: SortOrder<T>): SortedView {
  let views = sortedViews.get(collection);
  if (!views) {
    views = new Map();
    sortedViews.set(collection, views);
  }
  const cached = views.get(order.name);
  if (cached && cached.layout === collection.layout) return cached;
  const entries: SortedEntry[] = [];
  for (const [seq, id, value] of collection.after(0)) entries.push({ key: order.key(value), seq, id });
  entries.sort((a, b) => compareEntries(order, a.key, a.seq, b.key, b.seq));
  const view = { layout: collection.layout, entries };
  views.set(order.name, view);
  return view;
}

function* walkSorted<T extends object>(
  collection: Collection<T>,
  order: SortOrder<T>,
  cursor: Cursor,
  only: SortValue | undefined,
): Generator<[number, T, SortValue]> {
  const { entries } = sortedView(collection, order);
  // The first entry after the cursor's (key, seq); no key means the start of the walk (or of
  // the `only` range: seq 0 sorts before every entry of that key).
  let lo = 0;
  let hi = entries.length;
  const from = cursor.key !== undefined ? { key: cursor.key, seq: cursor.seq } : only !== undefined ? { key: only, seq: 0 } : undefined;
  while (from !== undefined && lo < hi) {
    const mid = (lo + hi) >>> 1;
    const e = entries[mid] as SortedEntry;
    if (compareEntries(order, e.key, e.seq, from.key, from.seq) <= 0) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < entries.length; i += 1) {
    const e = entries[i] as SortedEntry;
    if (only !== undefined && compareKeys(e.key, only) !== 0) return;
    if (collection.seq(e.id) !== e.seq) continue; // deleted since the view was built
    const value = collection.get(e.id);
    if (value !== undefined) yield [e.seq, value, e.key];
  }
}

function* walkInserted<T extends object>(collection: Collection<T>, cursor: Cursor): Generator<[number, T, SortValue]> {
  for (const [seq, , value] of collection.after(cursor.seq)) yield [seq, value, seq];
}

/** One page of a listing: rows after the token's keyset that pass `match`, and the next token. */
export function paginate<T extends object>(tokens: PageTokens, request: PageRequest<T>): PageResult<T> {
  const orderName = request.order?.name ?? '';
  const digest = filterDigest(request.filter);
  let cursor: Cursor = { seq: 0 };
  let payload: TokenPayload | undefined;
  if (request.pageToken) {
    payload = tokens.verify(request.pageToken, request.tokenField);
    if (payload.l !== request.listing)
      throw badField(request.tokenField, 'the page token belongs to another listing; start the walk again without a page token');
    if (payload.f !== digest || payload.o !== orderName) {
      throw badField(
        request.tokenField,
        'the page token was issued for other filters or another order; start the walk again without a page token',
      );
    }
    cursor = payload.k === undefined ? { seq: payload.s } : { seq: payload.s, key: payload.k };
  }
  const sign = (c: Cursor, cycle: { n: number; c: Cursor } | object = {}) =>
    tokens.sign({ l: request.listing, f: digest, o: orderName, s: c.seq, ...(c.key === undefined ? {} : { k: c.key }), ...cycle });

  const walk = request.order
    ? walkSorted(request.collection, request.order, cursor, request.only)
    : walkInserted(request.collection, cursor);
  const items: T[] = [];
  let last: Cursor | undefined;
  let more = false;
  for (const [seq, value, key] of walk) {
    if (request.match && !request.match(value)) continue;
    if (items.length === request.pageSize) {
      more = true;
      break;
    }
    items.push(value);
    last = request.order ? { seq, key } : { seq };
  }
  if (request.emptyPage && items.length > 0) {
    // The same place again: the client must follow the token even though the page is empty.
    return { items: [], nextPageToken: sign(cursor) };
  }
  if (request.repeatRow && items.length > 0) items.push(items[0]!);
  if (!more || !last) return { items, nextPageToken: '' };
  if (request.cycleTokens) return { items, nextPageToken: cyclingToken(request.cycleTokens, payload, last, sign) };
  return { items, nextPageToken: sign(last) };
}

/**
 * The next token under the cycleTokens fault: each token carries the page it fetches and the
 * cursor of the walk's first token, so the page fetched with the N-th token can hand back the
 * first one (the same text it was: a cycle of N tokens).
 */
function cyclingToken(
  length: number,
  payload: TokenPayload | undefined,
  next: Cursor,
  sign: (c: Cursor, cycle: { n: number; c: Cursor }) => string,
): string {
  const page = payload?.n ?? 1;
  const first = payload?.c ?? next;
  return page === length + 1 ? sign(first, { n: 2, c: first }) : sign(next, { n: page + 1, c: first });
}
