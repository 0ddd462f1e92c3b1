/**
 * An entitlement's MCP toolset, through the spec's own lookup
 * (`GET /apps/{app_id}/mcp_toolsets/by_app_entitlement_id/{app_entitlement_id}`) while the tenant
 * answers, and from the synced toolsets in the store otherwise, saying which it is and why.
 */
import { getMcpToolsetByEntitlement } from '../api/endpoints';
import { ApiError } from '../api/errors';
import { firstLineOf } from '../errors';
import type { Workspace } from './workspace';

/** The longest the live lookup may take before the store answers instead. */
const LIVE_TIMEOUT_MS = 10_000;

export interface EntitlementToolset {
  /** `live`: the tenant answered the lookup now; `store`: the synced toolsets answered. */
  source: 'live' | 'store';
  /** The toolset (its name and JSON), or null when none is linked to the entitlement. */
  toolset: { id: string; title: string; raw: string } | null;
  /** When the answer was true: the lookup's time, or when the store last synced the toolsets. */
  asOf: string | null;
  /** Why the store answered (offline, or the lookup failed), in words; null for a live answer. */
  reason: string | null;
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

function fromStore(workspace: Workspace, appId: string, appEntitlementId: string, reason: string): EntitlementToolset {
  const { store } = workspace;
  const [row] = store.listObjects('toolsets', { filters: { appId: [appId], appEntitlementId: [appEntitlementId] }, limit: 1 }).rows;
  const status = store.collectionStatus().find((s) => s.collection === 'toolsets');
  return {
    source: 'store',
    toolset: row && !row.deleted ? { id: row.id, title: row.title, raw: row.raw } : null,
    asOf: status?.dataAsOf ?? null,
    reason,
  };
}

/**
 * The toolset linked to an entitlement: asked of the tenant when the connection is online (a 404
 * is a live "none"), else read from the store; a lookup that fails (the tenant went away, the
 * credential was refused) falls back to the store and says why.
 */
export async function entitlementToolset(
  workspace: Workspace,
  opts: { online: boolean; appId: string; appEntitlementId: string; now?: () => Date },
): Promise<EntitlementToolset> {
  const { appId, appEntitlementId } = opts;
  if (!opts.online) return fromStore(workspace, appId, appEntitlementId, 'offline: the tenant is not reachable now');
  const asOf = (opts.now ?? (() => new Date()))().toISOString();
  try {
    const api = workspace.api ?? (await workspace.requireApi());
    const res = await getMcpToolsetByEntitlement(api, appId, appEntitlementId, { signal: AbortSignal.timeout(LIVE_TIMEOUT_MS) });
    const profile = res.body?.profile;
    if (!profile || typeof profile !== 'object') return { source: 'live', toolset: null, asOf, reason: null };
    return {
      source: 'live',
      toolset: { id: str(profile.id), title: str(profile.displayName) || str(profile.id), raw: JSON.stringify(profile) },
      asOf,
      reason: null,
    };
  } catch (error) {
    if (error instanceof ApiError && error.kind === 'not_found') return { source: 'live', toolset: null, asOf, reason: null };
    const why = firstLineOf(error, 'the lookup failed');
    return fromStore(workspace, appId, appEntitlementId, `the tenant did not answer the lookup: ${why}`);
  }
}
