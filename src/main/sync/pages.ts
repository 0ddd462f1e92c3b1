import { createHash } from 'node:crypto';
import type { ApiClient, ApiResponse } from '../api/client';
import { ApiError, isApiError } from '../api/errors';
import { paginate } from '../api/paginate';
import {
  arrayElementMemberSlices,
  arrayMemberSlices,
  checkObject,
  isRecord,
  memberSlice,
  RawJsonError,
  type CollectionDescriptor,
  type ReceivedObject,
} from '../collections';

/** One page of a walk: its objects and the checkpoint to resume after it ('' = it was the last). */
export interface FetchedPage {
  objects: ReceivedObject[];
  next: string;
}

function badPage(message: string): ApiError {
  return new ApiError('bad_response', message);
}

/** At most `max` tasks at a time, started in the order they asked. */
export class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly max: number) {}
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active += 1;
    try {
      return await fn();
    } finally {
      this.active -= 1;
      this.waiting.shift()?.();
    }
  }
}

/** Runs `fn` over `items` with at most `limit` in flight, keeping the order of the results. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let nextIndex = 0;
  const worker = async (): Promise<void> => {
    while (nextIndex < items.length) {
      const i = nextIndex++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

function textOf(res: ApiResponse<unknown>, what: string): string {
  if (typeof res.text !== 'string' || res.text.length === 0) throw badPage(`${what}: empty answer`);
  return res.text;
}

function unreadable(what: string, error: unknown): never {
  if (error instanceof RawJsonError) throw badPage(`${what}: unreadable JSON (${error.message})`);
  throw error;
}

/** The rows of one list page, each sliced byte-exact out of the answer's text. */
export function pageObjects(descriptor: CollectionDescriptor, res: ApiResponse<unknown>): ReceivedObject[] {
  const what = `${descriptor.id} page`;
  const text = textOf(res, what);
  const body = res.body;
  if (!isRecord(body)) throw badPage(`${what}: the answer is not a JSON object`);
  const list = body[descriptor.listKey];
  if (list !== undefined && list !== null && !Array.isArray(list)) throw badPage(`${what}: '${descriptor.listKey}' is not an array`);
  const parsed = (list ?? []) as unknown[];
  /** The rows as `cut` slices them out of the text, as many as were parsed. */
  const sliced = <T>(cut: () => T[]): T[] => {
    let slices: T[];
    try {
      slices = cut();
    } catch (error) {
      unreadable(what, error);
    }
    if (slices.length !== parsed.length) throw badPage(`${what}: ${slices.length} rows in the text but ${parsed.length} parsed`);
    return slices;
  };
  const member = descriptor.rowMember;
  // A row kept as one of its members is cut to that member in the same pass over the page.
  if (member !== undefined)
    return sliced(() => arrayElementMemberSlices(text, descriptor.listKey, member)).map((raw, i) =>
      rowMember(raw, parsed[i], member, `${what} row ${i}`),
    );
  const rows = sliced(() => arrayMemberSlices(text, descriptor.listKey)).map((raw, i) => ({ raw, json: parsed[i] }));
  if (descriptor.withExpanded) return withExpanded(rows, text, body, descriptor.withExpanded, what);
  return rows;
}

/** The member `member` of a row, as cut out of the page (`raw`) and as parsed (of `row`). */
function rowMember(raw: string | null, row: unknown, member: string, what: string): ReceivedObject {
  const json = isRecord(row) ? row[member] : undefined;
  if (raw === null || !isRecord(json)) throw badPage(`${what}: no '${member}' object`);
  return { raw, json };
}

const EXPANDED_PATH = /^expanded\[(\d+)\]$/;

/** Each row beside the objects of the page's `expanded` list its path members point at (see `withExpanded`). */
function withExpanded(
  rows: ReceivedObject[],
  text: string,
  body: Record<string, unknown>,
  spec: NonNullable<CollectionDescriptor['withExpanded']>,
  what: string,
): ReceivedObject[] {
  const parsed = Array.isArray(body.expanded) ? (body.expanded as unknown[]) : [];
  let slices: string[];
  try {
    slices = arrayMemberSlices(text, 'expanded');
  } catch (error) {
    unreadable(what, error);
  }
  if (slices.length !== parsed.length) throw badPage(`${what}: ${slices.length} expanded objects in the text but ${parsed.length} parsed`);
  return rows.map((row, i) => {
    let raw = `{${JSON.stringify(spec.rowAs)}:${row.raw}`;
    const json: Record<string, unknown> = { [spec.rowAs]: row.json };
    for (const [pathMember, name] of Object.entries(spec.members)) {
      const path = isRecord(row.json) ? row.json[pathMember] : undefined;
      const match = typeof path === 'string' ? EXPANDED_PATH.exec(path) : null;
      const index = match ? Number(match[1]) : -1;
      if (typeof path === 'string' && path !== '' && (index < 0 || index >= slices.length))
        throw badPage(`${what} row ${i}: ${pathMember} '${path}' points at no expanded object`);
      raw += `,${JSON.stringify(name)}:${index >= 0 ? slices[index] : 'null'}`;
      json[name] = index >= 0 ? parsed[index] : null;
    }
    return { raw: `${raw}}`, json };
  });
}

/** One object read by id: the whole answer, or its member `member`; null when the tenant does not have it. */
export async function fetchOne(
  fetch: (api: ApiClient, id: string, signal?: AbortSignal) => Promise<ApiResponse<unknown>>,
  api: ApiClient,
  id: string,
  member: string | null,
  what: string,
  signal?: AbortSignal,
): Promise<ReceivedObject | null> {
  let res: ApiResponse<unknown>;
  try {
    res = await fetch(api, id, signal);
  } catch (error) {
    // Gone between the list and the read, or a reference to nothing: it is simply not there.
    if (isApiError(error, 'not_found')) return null;
    throw error;
  }
  const where = `${what} ${id}`;
  const text = textOf(res, where);
  if (!isRecord(res.body)) throw badPage(`${where}: the answer is not a JSON object`);
  try {
    if (member === null) {
      checkObject(text);
      return { raw: text, json: res.body };
    }
    const raw = memberSlice(text, member);
    const json = res.body[member];
    if (raw === null || !isRecord(json)) return null;
    return { raw, json };
  } catch (error) {
    unreadable(where, error);
  }
}

/** One object read by id through a list filtered to it: its row of that id on the page, or null when none is. */
export async function fetchRow(
  descriptor: CollectionDescriptor,
  fetch: (api: ApiClient, id: string, signal?: AbortSignal) => Promise<ApiResponse<unknown>>,
  api: ApiClient,
  id: string,
  signal?: AbortSignal,
): Promise<ReceivedObject | null> {
  const rows = pageObjects(descriptor, await fetch(api, id, signal));
  return rows.find((row) => descriptor.idOf(row.json) === id) ?? null;
}

/** Objects read by id at the same time, per walk. */
export const DETAIL_CONCURRENCY = 8;

/**
 * The page tokens one chain of a walk has used (a list, or one part of a split list), from where
 * this read of it started: a token the tenant hands back again would make the walk go round
 * forever. Each is kept as a short hash with the page it fetched, so a long walk costs little.
 */
class TokenChain {
  private readonly used = new Map<string, number>();
  private page = 0;

  constructor(
    private readonly part: string,
    private readonly resumed: boolean,
  ) {}

  /** A page fetched with `token` arrived: it is page `page` of this read. */
  fetched(token: string): void {
    this.page += 1;
    if (token !== '') this.used.set(digest(token), this.page);
  }

  /**
   * Throws when `next` was used before. An empty page that hands back the very token it was
   * fetched with asks again at the same place: the paginator bounds those retries.
   */
  check(token: string, next: string, empty: boolean): void {
    if (next === '' || (empty && next === token)) return;
    const first = this.used.get(digest(next));
    if (first === undefined) return;
    const where = this.part ? `part ${this.part}: ` : '';
    const counted = this.resumed ? ' (pages counted from where this sync resumed the walk)' : '';
    throw new ApiError(
      'bad_response',
      `${where}the tenant gave page token ${tokenInWords(next)} again after page ${this.page}; it was first used for page ${first}` +
        `${counted}. Following it would never end, so the walk stopped`,
    );
  }
}

function digest(token: string): string {
  return createHash('sha256').update(token).digest('base64').slice(0, 22);
}

/** A page token as an error names it: its start and end, anything but printable ASCII as a \uXXXX escape. */
export function tokenInWords(token: string): string {
  const printable = (text: string) => text.replace(/[^\x20-\x7e]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `'${token.length > 24 ? `${printable(token.slice(0, 10))}…${printable(token.slice(-10))}` : printable(token)}'`;
}

/**
 * The pages of a listed collection (or of its part `part`) from checkpoint `startToken` on (the
 * API client's paginator: every page until an empty `nextPageToken`, empty pages included), until
 * a token comes back that this read used before (see TokenChain). For a collection whose rows
 * are summaries, each row's object is read by id as part of its page, so reading ahead one page
 * also reads its objects ahead.
 */
export async function* listPages(
  descriptor: CollectionDescriptor,
  api: ApiClient,
  startToken: string,
  signal?: AbortSignal,
  fetchPage = descriptor.fetchPage,
  part = '',
): AsyncGenerator<FetchedPage> {
  if (!fetchPage) throw new Error(`${descriptor.id} has no list`);
  const steps = paginate<unknown, { nextPageToken?: string | null }>(
    (req, s) => fetchPage(api, req, s) as Promise<ApiResponse<{ nextPageToken?: string | null }>>,
    { pageSize: descriptor.pageSize, startToken, signal },
  );
  const chain = new TokenChain(part, startToken !== '');
  for await (const step of steps) {
    const rows = pageObjects(descriptor, step.response);
    chain.fetched(step.pageToken);
    chain.check(step.pageToken, step.nextPageToken, rows.length === 0);
    const detail = descriptor.detail;
    if (!detail) {
      yield { objects: rows, next: step.nextPageToken };
      continue;
    }
    const ids = rows.map((row) => detail.idOfListItem(row.json));
    const missing = ids.indexOf('');
    if (missing >= 0) throw badPage(`${descriptor.id} page: row ${missing} has no id`);
    const objects = await mapLimit(ids, DETAIL_CONCURRENCY, (id) => fetchOne(detail.fetch, api, id, null, descriptor.id, signal));
    yield { objects: objects.filter((o): o is ReceivedObject => o !== null), next: step.nextPageToken };
  }
}

/**
 * The pages of a by-id collection: batches of `pageSize` ids of `plan`, from offset `startToken`
 * ('' = 0). Each object is the `listKey` member of its GET answer.
 */
export async function* idPages(
  descriptor: CollectionDescriptor,
  api: ApiClient,
  plan: readonly string[],
  startToken: string,
  signal?: AbortSignal,
  readEarly?: (id: string) => Promise<ReceivedObject | null> | undefined,
): AsyncGenerator<FetchedPage> {
  const byIds = descriptor.byIds;
  if (!byIds) throw new Error(`${descriptor.id} is not read by id`);
  let offset = startToken === '' ? 0 : Number(startToken);
  if (!Number.isInteger(offset) || offset < 0) throw new Error(`${descriptor.id}: bad checkpoint '${startToken}'`);
  do {
    const ids = plan.slice(offset, offset + descriptor.pageSize);
    const read = (id: string) => fetchOne(byIds.fetch, api, id, descriptor.listKey, descriptor.id, signal);
    // A read started early (see early-reads.ts) serves when it succeeded; otherwise the id is read now.
    const objects = await mapLimit(ids, DETAIL_CONCURRENCY, (id) => readEarly?.(id)?.catch(() => read(id)) ?? read(id));
    offset += ids.length;
    yield { objects: objects.filter((o): o is ReceivedObject => o !== null), next: offset < plan.length ? String(offset) : '' };
  } while (offset < plan.length);
}
