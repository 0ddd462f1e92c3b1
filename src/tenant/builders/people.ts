/** The tenant's people (owners, approvers, requesters): ids referenced by other objects, not served. */
import type { BuildContext } from './context';

export function identityUsers(ctx: BuildContext, count: number): string[] {
  const r = ctx.stream('identityUsers');
  return Array.from({ length: count }, () => r.id());
}
