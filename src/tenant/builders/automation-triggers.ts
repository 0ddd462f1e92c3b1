/** Automation triggers: one body per trigger of the spec. */
import type { AutomationTrigger, AutomationTriggerKey } from '../../shared/api-types';
import {
  APP_USER_TYPE_VALUES,
  GRANT_FILTER_TYPE_VALUES,
  GRANT_JUSTIFICATION_TYPE_VALUES,
  GRANT_SOURCE_FILTER_VALUES,
} from '../../shared/enums';
import type { Random } from '../random';
import { known, type BuildContext } from './context';

const TIMEZONES = ['UTC', 'America/New_York', 'Europe/Berlin', 'Asia/Tokyo', 'America/Los_Angeles'];

export function grantFilter(ctx: BuildContext, r: Random) {
  return {
    grantTriggerFilter: {
      accountFilter: { accountType: r.pick(known(APP_USER_TYPE_VALUES)) },
      grantFilter: {
        grantFilterType: r.pick(known(GRANT_FILTER_TYPE_VALUES)),
        grantJustificationType: r.pick(known(GRANT_JUSTIFICATION_TYPE_VALUES)),
        grantSourceFilter: r.pick(known(GRANT_SOURCE_FILTER_VALUES)),
      },
      ...(r.chance(0.5) ? { inclusionAll: {} } : { inclusionList: { appEntitlementRefs: ctx.entitlementRefs(r, 2) } }),
    },
  };
}

export function trigger(ctx: BuildContext, r: Random, key: AutomationTriggerKey, appId: string): AutomationTrigger {
  const start = ctx.past(r, 300);
  const cron = r.pick(['0 9 * * 1', '0 0 1 * *', '*/30 * * * *', '0 6 * * *']);
  switch (key) {
    case 'accessConflict':
      return {
        accessConflict: r.chance(0.5)
          ? { allConflictMonitors: true, conflictMonitorRefs: null }
          : { allConflictMonitors: false, conflictMonitorRefs: { conflictMonitorRefs: [{ id: r.id() }] } },
      };
    case 'appUserCreated':
      return { appUserCreated: { appId, appIdCel: null, condition: 'appUser.type == "user"' } };
    case 'appUserUpdated':
      return { appUserUpdated: { appId, appIdCel: null, condition: 'appUser.status != previous.status' } };
    case 'grantFound':
      return { grantFound: grantFilter(ctx, r) };
    case 'grantDeleted':
      return { grantDeleted: grantFilter(ctx, r) };
    case 'schedule':
      return { schedule: { advanced: false, condition: '', cronSpec: cron, skipIfTrueCel: '', start, timezone: r.pick(TIMEZONES) } };
    case 'scheduleAppUser':
      return {
        scheduleAppUser: {
          appId,
          condition: 'appUser.lastLogin < now - duration("2160h")',
          cronSpec: cron,
          start,
          timezone: r.pick(TIMEZONES),
        },
      };
    case 'scheduleNoUser':
      return { scheduleNoUser: { advanced: r.chance(0.3), cronSpec: cron, start, timezone: r.pick(TIMEZONES) } };
    case 'usageBasedRevocation':
      return {
        usageBasedRevocation: {
          appId,
          enabledAt: start,
          excludedGroupRefs: [],
          excludedUserRefs: [{ id: ctx.user(r) }],
          includeUsersWithNoActivity: r.chance(0.5),
          ...(r.chance(0.5) ? { runDelayed: { coldStartDelayDays: 7 } } : { runImmediately: {} }),
          targetedAppUserTypes: ['APP_USER_TYPE_USER'],
          targetedEntitlementRefs: ctx.entitlementRefs(r, 2),
          unusedForDays: r.pick([30, 60, 90]),
        },
      };
    case 'userCreated':
      return { userCreated: { condition: 'subject.department == "Engineering"' } };
    case 'userProfileChange':
      return { userProfileChange: { condition: 'subject.title != previous.title' } };
    case 'webhook': {
      const auth = r.int(3);
      return {
        webhook: {
          ...(auth === 0
            ? { capabilityUrl: {} }
            : auth === 1
              ? { hmac: {} }
              : { jwt: { jwksUrl: 'https://idp.example.com/.well-known/jwks.json' } }),
          listenerId: r.id(),
        },
      };
    }
  }
}
