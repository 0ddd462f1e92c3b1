/** Building a kind's request and reading the server's answers: path segments, members of answers, list search. */
import type { OutboxApi } from '../api-shape';
import type { RefreshedObject } from './descriptor';

export function seg(id: string): string {
  return encodeURIComponent(id);
}

export function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function get(obj: unknown, ...path: string[]): unknown {
  let cur = obj;
  for (const key of path) {
    if (!cur || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/** The rows, on every page (bounded) of a list or search endpoint answering `{list, nextPageToken}`, that `keep` accepts. */
export async function findInList(
  api: OutboxApi,
  requestFor: (pageToken: string) => Parameters<OutboxApi['request']>[0],
  keep: (row: unknown) => boolean,
  maxPages = 500,
): Promise<unknown[]> {
  const kept: unknown[] = [];
  let token = '';
  for (let page = 0; page < maxPages; page += 1) {
    const res = await api.request<{ list?: unknown[]; nextPageToken?: string }>(requestFor(token));
    for (const row of res.body?.list ?? []) if (keep(row)) kept.push(row);
    token = res.body?.nextPageToken ?? '';
    if (!token) break;
  }
  return kept;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

export function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? (value as unknown[]) : [];
}

/** A task read back (`GET /tasks/{id}`), as the tasks collection stores it: its task view. */
export async function readTask(api: OutboxApi, id: string, signal?: AbortSignal): Promise<RefreshedObject[]> {
  const res = await api.request({ method: 'GET', path: `/tasks/${seg(id)}`, signal });
  const view = get(res.body, 'taskView');
  return isRecord(view) && text(get(view, 'task', 'id')) === id ? [{ collection: 'tasks', id, json: view }] : [];
}
