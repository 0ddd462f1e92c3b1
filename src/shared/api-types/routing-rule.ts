/** Finding routing rules (spec "Finding routing rule", "List finding routing rules"). */
import type { FindingDispatchTier, FindingNotifyDetailLevel, FindingType } from '../enums';
import type { Duration, Page, PageQuery, Timestamp } from './common';

/** Action `acceptRisk`. */
export interface AcceptRiskRoutingAction {
  duration?: Duration;
  reason?: string;
}

/** Action `createTask`. */
export interface CreateTaskRoutingAction {
  policyId?: string;
}

/** Action `snooze`. */
export interface SnoozeRoutingAction {
  duration?: Duration;
  reason?: string;
}

/** Action `suppress`. */
export interface SuppressRoutingAction {
  reason?: string;
}

/** What a routing rule does with a matching finding: one of the four members. */
export interface FindingRoutingRuleAction {
  acceptRisk?: AcceptRiskRoutingAction | null;
  createTask?: CreateTaskRoutingAction | null;
  snooze?: SnoozeRoutingAction | null;
  suppress?: SuppressRoutingAction | null;
}

/** The action variants; `kindOf(rule.action, ROUTING_RULE_ACTION_KEYS)` names one. */
export const ROUTING_RULE_ACTION_KEYS = [
  'acceptRisk',
  'createTask',
  'snooze',
  'suppress',
] as const satisfies readonly (keyof FindingRoutingRuleAction)[];

/** The kind of a routing rule's action. */
export type RoutingRuleActionKey = (typeof ROUTING_RULE_ACTION_KEYS)[number];

/** A dispatcher of a routing rule (vendor field): one of its target members. */
export interface FindingDispatcher {
  key?: string;
  displayName?: string;
  enabled?: boolean;
  tierOverride?: FindingDispatchTier;
  invokeFunction?: { args?: Record<string, string>; functionCommitId?: string; functionId?: string } | null;
  notify?: {
    audience?: { users?: { userIds?: string[] | null } | null } | null;
    batchWindowSeconds?: number;
    detailLevel?: FindingNotifyDetailLevel;
    slackChannel?: { channelId?: string; channelName?: string } | null;
  } | null;
  notifyOnOutcome?: { onDone?: boolean; onError?: boolean; recipients?: string[] | null } | null;
  triggerAutomation?: { automationId?: string; inputMapping?: Record<string, string> } | null;
  webhook?: { payloadTemplate?: string; webhookId?: string } | null;
}

/** A finding routing rule. */
export interface FindingRoutingRule {
  id?: string;
  appId?: string;
  templateId?: string;
  displayName?: string;
  description?: string;
  /** An expression. */
  condition?: string;
  enabled?: boolean;
  priority?: number;
  createdAt?: Timestamp;
  updatedAt?: Timestamp;
  action?: FindingRoutingRuleAction | null;
  /** Vendor fields. */
  findingType?: FindingType;
  dispatchers?: FindingDispatcher[] | null;
}

/** The routing rule fields of the spec's table. */
export const FINDING_ROUTING_RULE_FIELDS = [
  'id',
  'appId',
  'templateId',
  'displayName',
  'description',
  'condition',
  'enabled',
  'priority',
  'createdAt',
  'updatedAt',
  'action',
] as const satisfies readonly (keyof FindingRoutingRule)[];

/** Query of `GET /api/v1/findings/routing-rules`. The name of the app filter is not shown by the spec. */
export type ListRoutingRulesQuery = PageQuery;

/** Answer of list routing rules. */
export type ListRoutingRulesResponse = Page<FindingRoutingRule>;
