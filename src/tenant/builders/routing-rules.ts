/** Finding routing rules. */
import type { FindingRoutingRule, FindingRoutingRuleAction, RoutingRuleActionKey } from '../../shared/api-types';
import { ROUTING_RULE_ACTION_KEYS } from '../../shared/api-types';
import { FINDING_TYPE_VALUES } from '../../shared/enums';
import type { Random } from '../random';
import { isFuture, known, riskScoreV3, seconds, type BuildContext } from './context';

/** The verb a rule's display name starts with, per action. */
const ACTION_VERB: Record<RoutingRuleActionKey, string> = {
  createTask: 'Route',
  suppress: 'Suppress',
  snooze: 'Snooze',
  acceptRisk: 'Accept',
};

export function routingAction(ctx: BuildContext, r: Random, key: RoutingRuleActionKey): FindingRoutingRuleAction {
  switch (key) {
    case 'acceptRisk':
      return { acceptRisk: { duration: seconds(90 * 86400), reason: 'Compensating control in place' } };
    case 'createTask':
      return { createTask: { policyId: r.pick(ctx.policyIds) } };
    case 'snooze':
      return { snooze: { duration: seconds(7 * 86400), reason: 'Owner on leave' } };
    case 'suppress':
      return { suppress: { reason: 'Known test account' } };
  }
}

export function routingRules(ctx: BuildContext, count: number): void {
  const r = ctx.stream('routingRules');
  const findingTypes = known(FINDING_TYPE_VALUES);
  for (let i = 0; i < count; i += 1) {
    const app = ctx.app(r);
    const key =
      i < ROUTING_RULE_ACTION_KEYS.length ? (ROUTING_RULE_ACTION_KEYS[i] as RoutingRuleActionKey) : r.pick(ROUTING_RULE_ACTION_KEYS);
    const findingType = r.pick(findingTypes);
    const createdAt = ctx.past(r, 300, 3);
    const rule: FindingRoutingRule & Record<string, unknown> = {
      id: r.id(),
      appId: app.id,
      templateId: r.id(),
      displayName: `${ACTION_VERB[key]} ${findingType.slice('FINDING_TYPE_'.length).toLowerCase().replace(/_/g, ' ')} in ${app.displayName}`,
      description: 'Routes matching findings automatically',
      condition: r.pick(['finding.severity >= 3', 'finding.account.type == "service"', 'finding.app.name.startsWith("AWS")', 'true']),
      enabled: r.chance(0.8),
      priority: i + 1,
      createdAt,
      updatedAt: ctx.after(r, createdAt, 30),
      action: routingAction(ctx, r, key),
      findingType,
      dispatchers: r.chance(0.3)
        ? [
            {
              key: 'notify-owner',
              displayName: 'Notify owner',
              enabled: true,
              tierOverride: 'FINDING_DISPATCH_TIER_AUTO',
              notify: {
                audience: { users: { userIds: ctx.users(r, 1, 2) } },
                batchWindowSeconds: 300,
                detailLevel: 'FINDING_NOTIFY_DETAIL_LEVEL_SUMMARY',
                slackChannel: null,
              },
            },
          ]
        : [],
    };
    if (isFuture(i)) {
      rule.findingType = 'FINDING_TYPE_AGENT_DRIFT';
      rule.riskScoreV3 = riskScoreV3(r);
    }
    ctx.data.routingRules.set(rule.id as string, rule);
  }
}
