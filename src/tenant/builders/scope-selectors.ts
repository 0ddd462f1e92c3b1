/** The scope selector and review columns that templates and campaigns share. */
import type { ScopeSelector } from '../../shared/api-types';
import { ACCESS_REVIEW_TASK_COLUMN_VALUES, GRANT_FILTER_TYPE_VALUES, GRANT_SOURCE_FILTER_VALUES } from '../../shared/enums';
import type { Random } from '../random';
import { known, seconds, type BuildContext } from './context';

export function scopeSelector(ctx: BuildContext, r: Random, variant: number): ScopeSelector {
  const principal = r.pick([
    'PRINCIPAL_TYPE_FILTER_USERS',
    'PRINCIPAL_TYPE_FILTER_RESOURCES',
    'PRINCIPAL_TYPE_FILTER_USERS_AND_RESOURCES',
  ] as const);
  switch (variant % 6) {
    case 0:
      return { allUsers: {}, allGrants: {}, appAccess: {}, principalTypeFilter: principal };
    case 1:
      return {
        selectedUsers: { userIds: ctx.users(r, 1, 4) },
        grantsByCriteria: {
          accessProfileFilter: {
            excludedAccessProfileIds: [],
            includedAccessProfileIds: [ctx.entitlementRef(r).id],
            filterType: 'ACCESS_PROFILE_FILTER_TYPE_INCLUDE_SPECIFIC',
          },
          daysSinceAdded: seconds(90 * 86400),
          daysSinceLastUsed: seconds(30 * 86400),
          daysSinceReviewed: seconds(180 * 86400),
          grantsAddedBetween: { startDate: ctx.past(r, 400, 200), endDate: ctx.past(r, 100) },
          sourceFilter: r.pick(known(GRANT_SOURCE_FILTER_VALUES)),
          typeFilter: r.pick(known(GRANT_FILTER_TYPE_VALUES)),
        },
        principalTypeFilter: principal,
      };
    case 2:
      return {
        userCriteria: {
          groupAppEntitlementsRef: [ctx.entitlementRef(r)],
          managerUserIds: ctx.users(r, 1, 2),
          multiUserProfileAttributes: { department: { values: [{ value: 'Engineering' }, { value: 'Finance' }] } },
          userStatus: ['ENABLED'],
        },
        appSelectionCriteria: { complianceFrameworkAttributeValueIds: [r.id()], riskLevelAttributeValueIds: [r.id()] },
        accountCriteria: {
          accountDomain: 'APP_USER_DOMAIN_TRUSTED',
          accountTypes: ['APP_USER_TYPE_USER'],
          appUserStatuses: ['APP_USER_STATUS_ENABLED'],
          noAccountOwner: false,
        },
      };
    case 3:
      return {
        celExpression: { expression: 'subject.department == "Engineering"' },
        accountCelExpression: { expression: 'account.type == "service"' },
        allAccounts: {},
      };
    case 4:
      return { allAccessConflicts: {}, specificAccessConflicts: {} };
    default:
      return {
        resourceSelection: {},
        resourceTypeSelections: {},
        excludedResourceTypeSelections: {},
        specificResources: {},
        excludedSpecificResources: {},
        scopeRoleSelection: {},
      };
  }
}

export function columns(ctx: BuildContext, r: Random) {
  return r.sample(known(ACCESS_REVIEW_TASK_COLUMN_VALUES), r.range(4, 8));
}
