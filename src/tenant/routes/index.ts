/** Every /api/v1 route of the reference tenant, one table per resource family. */
import { appUserRoutes } from './app-users';
import { appRoutes } from './apps';
import { automationRoutes } from './automations';
import { campaignRoutes } from './campaigns';
import type { Route } from './common';
import { entitlementRoutes } from './entitlements';
import { grantRoutes } from './grants';
import { identityRoutes } from './identity';
import { routingRuleRoutes } from './routing-rules';
import { scopeRoutes } from './scopes';
import { taskRoutes } from './tasks';
import { templateRoutes } from './templates';
import { toolsetRoutes } from './toolsets';

export const apiRoutes: Route[] = [
  ...appRoutes,
  ...appUserRoutes,
  ...grantRoutes,
  ...scopeRoutes,
  ...entitlementRoutes,
  ...templateRoutes,
  ...campaignRoutes,
  ...automationRoutes,
  ...taskRoutes,
  ...toolsetRoutes,
  ...routingRuleRoutes,
  ...identityRoutes,
];

export type { Method, Operation, RequestContext, Route } from './common';
