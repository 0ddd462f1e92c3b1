/**
 * Walks a LIST or SEARCH endpoint page by page, following `nextPageToken` until it is empty.
 * An empty page with a live token is not the end. Each page comes with the token that fetched it
 * and the token of the next, so a caller can store the page and its checkpoint together and later
 * resume from `startToken`.
 */
import { clampPageSize, type Page } from '../../shared/pagination';
import { ApiError } from './errors';
import type { ApiResponse } from './client';

export interface PageRequest {
  /** Already clamped to the API's 10..100. */
  pageSize: number;
  /** '' for the first page. */
  pageToken: string;
}

/** Anything with a `nextPageToken`: `{list, nextPageToken}` and the endpoints that name their rows otherwise. */
export interface PageLike {
  nextPageToken?: string | null;
}

export interface PageStep<P> {
  response: ApiResponse<P>;
  /** The token this page was fetched with ('' for the first). */
  pageToken: string;
  /** The token of the next page; '' when this was the last. */
  nextPageToken: string;
}

export interface PaginateOptions {
  pageSize: number;
  /** Resume here (a `nextPageToken` saved from an earlier walk). */
  startToken?: string | undefined;
  signal?: AbortSignal | undefined;
  /** Give up when the server hands back the same token this many times in a row (default 1000). */
  maxRepeats?: number | undefined;
}

export async function* paginate<T, P extends PageLike = Page<T>>(
  fetchPage: (req: PageRequest, signal?: AbortSignal) => Promise<ApiResponse<P>>,
  opts: PaginateOptions,
): AsyncGenerator<PageStep<P>, void, undefined> {
  const pageSize = clampPageSize(opts.pageSize);
  const maxRepeats = opts.maxRepeats ?? 1000;
  let pageToken = opts.startToken ?? '';
  let repeats = 0;
  for (;;) {
    if (opts.signal?.aborted) throw new ApiError('cancelled', 'The page walk was cancelled');
    const response = await fetchPage({ pageSize, pageToken }, opts.signal);
    const body = response.body as unknown;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new ApiError('bad_response', 'A list page was not a JSON object', { status: response.status });
    }
    const raw = (body as PageLike).nextPageToken;
    if (raw !== undefined && raw !== null && typeof raw !== 'string') {
      throw new ApiError('bad_response', 'A list page has a nextPageToken that is not a string', { status: response.status });
    }
    const nextPageToken = raw ?? '';
    yield { response, pageToken, nextPageToken };
    if (nextPageToken === '') return;
    // An empty page may hand back the same token ("try again here"): allowed, but not forever.
    repeats = nextPageToken === pageToken ? repeats + 1 : 0;
    if (repeats >= maxRepeats) {
      throw new ApiError('bad_response', `The server returned the same page token ${repeats} times in a row`, { status: response.status });
    }
    pageToken = nextPageToken;
  }
}

/** The rows of a page under its list key (`list` for most, `profiles` or `scopes` for some), or []. */
export function pageRows<T>(body: unknown, listKey = 'list'): T[] {
  if (typeof body !== 'object' || body === null) return [];
  const rows = (body as Record<string, unknown>)[listKey];
  return Array.isArray(rows) ? (rows as T[]) : [];
}
