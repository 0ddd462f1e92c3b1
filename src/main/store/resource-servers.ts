/**
 * The resource servers the store knows of. The API has no list of them: a resource server is known
 * by the synced scopes that are on it, so this groups the current scopes by app and resource server.
 */
import { collection as descriptorOf } from '../collections';
import type { Store } from './db';
import { columnRef } from './query';

export interface ResourceServerRow {
  id: string;
  appId: string;
  /** The app's name where the store holds the app, else ''. */
  appName: string;
  /** How many current scopes are on it, and their values (sorted). */
  scopeCount: number;
  scopeValues: string[];
}

/**
 * The resource servers of the current scopes (of one app when `appId` is given) whose id, app name
 * or scope values hold every typed word (any case), ordered by app name then id: `limit` of them,
 * and how many match in all.
 */
export function resourceServers(
  store: Store,
  opts: { appId?: string; text?: string; limit: number },
): { rows: ResourceServerRow[]; total: number } {
  const d = descriptorOf('scopes');
  const [app, server, value] = ['appId', 'xaaResourceServerId', 'scopeValue'].map((c) => columnRef(d, c).sql);
  const params: unknown[] = ['scopes'];
  const where = ['o.collection = ?', `coalesce(${server}, '') <> ''`];
  if (opts.appId) {
    where.push(`${app} = ?`);
    params.push(opts.appId);
  }
  const groups = store.db
    .prepare(
      `SELECT ${app} AS appId, ${server} AS id, count(*) AS scopes, json_group_array(${value}) AS scopeValues
       FROM objects o JOIN object_versions v ON v.vid = o.current_vid
       WHERE ${where.join(' AND ')} GROUP BY ${app}, ${server}`,
    )
    .all(...params) as { appId: string | null; id: string; scopes: number; scopeValues: string }[];
  const appNames = new Map<string, string>();
  const appName = (id: string) => {
    if (!appNames.has(id)) appNames.set(id, id ? (store.getObject('apps', id)?.title ?? '') : '');
    return appNames.get(id)!;
  };
  const words = (opts.text ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const rows = groups
    .map((g): ResourceServerRow => {
      const appId = g.appId ?? '';
      const scopeValues = (JSON.parse(g.scopeValues) as (string | null)[]).filter((v): v is string => Boolean(v)).sort();
      return { id: g.id, appId, appName: appName(appId), scopeCount: g.scopes, scopeValues };
    })
    .filter((r) => {
      const haystack = [r.id, r.appName, r.appId, ...r.scopeValues].join('\n').toLowerCase();
      return words.every((w) => haystack.includes(w));
    })
    .sort((a, b) => a.appName.localeCompare(b.appName) || a.appId.localeCompare(b.appId) || a.id.localeCompare(b.id));
  return { rows: rows.slice(0, opts.limit), total: rows.length };
}
