/** The resource servers a new scope can be put on, as the synced scopes know them (the API lists none). */
import { resourceServers, type ResourceServerRow } from '../store/resource-servers';
import type { Workspace } from './workspace';

export type { ResourceServerRow };

/** Up to `limit` resource servers matching the typed words (of one app when given), and how many match in all. */
export function findResourceServers(
  workspace: Workspace,
  opts: { appId?: string; text?: string; limit: number },
): { rows: ResourceServerRow[]; total: number } {
  return resourceServers(workspace.store, opts);
}
