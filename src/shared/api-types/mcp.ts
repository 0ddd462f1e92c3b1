/** MCP toolsets, also called MCP access profiles (spec "MCP access profile (toolset)"). */
import type { PageQuery, Timestamp } from './common';

/** An admin-curated grouping of MCP tools, linked to a synced role entitlement. */
export interface McpAccessProfile {
  id?: string;
  appId?: string;
  appEntitlementId?: string;
  connectorId?: string;
  displayName?: string;
  description?: string;
  toolCount?: number;
  createdAt?: Timestamp;
  updatedAt?: Timestamp;
  deletedAt?: Timestamp;
  /** Vendor fields. */
  connectorDisplayName?: string;
  requestable?: boolean;
}

/** The MCP access profile fields of the spec's table. */
export const MCP_ACCESS_PROFILE_FIELDS = [
  'id',
  'appId',
  'appEntitlementId',
  'connectorId',
  'displayName',
  'description',
  'toolCount',
  'createdAt',
  'updatedAt',
  'deletedAt',
] as const satisfies readonly (keyof McpAccessProfile)[];

/** Answer of `GET /api/v1/apps/{app_id}/mcp_toolsets/by_app_entitlement_id/{app_entitlement_id}`. */
export interface GetMcpToolsetResponse {
  profile?: McpAccessProfile | null;
}

/** Query of `GET /api/v1/mcp_toolsets/search`. */
export interface SearchMcpToolsetsQuery extends PageQuery {
  query?: string;
}

/** Answer of search MCP toolsets (the sync walk). Its rows are under `profiles`, not `list`. */
export interface SearchMcpToolsetsResponse {
  profiles?: McpAccessProfile[] | null;
  nextPageToken?: string;
}
