/** MCP toolsets (access profiles), each linked to a synced role entitlement. */
import type { McpAccessProfile } from '../../shared/api-types';
import type { App } from '../model';
import { isFuture, riskScoreV3, type BuildContext } from './context';

export function toolsets(ctx: BuildContext, count: number): void {
  const r = ctx.stream('toolsets');
  const roles = ctx.entitlementList.filter((e) => e.kind === 'role');
  const chosen = r.sample(roles, Math.min(count, roles.length));
  chosen.forEach((e, i) => {
    const app = ctx.data.apps.get(e.appId) as App;
    const createdAt = ctx.past(r, 300, 2);
    const p: McpAccessProfile & Record<string, unknown> = {
      id: r.id(),
      appId: app.id,
      appEntitlementId: e.id,
      connectorId: r.pick(app.connectorIds),
      displayName: `${app.displayName} ${e.displayName} tools`,
      description: `MCP tools of ${app.displayName} granted with the ${e.displayName} role`,
      toolCount: r.range(1, 40),
      createdAt,
      updatedAt: ctx.after(r, createdAt, 40),
      deletedAt: null,
      connectorDisplayName: `${app.displayName} connector`,
      requestable: r.chance(0.8),
    };
    if (isFuture(i)) {
      p.riskScoreV3 = riskScoreV3(r);
      p.toolCategories = ['TOOL_CATEGORY_WRITE', 'TOOL_CATEGORY_EXFILTRATION'];
    }
    ctx.data.toolsets.set(p.id as string, p);
  });
}
