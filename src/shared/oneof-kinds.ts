/**
 * The members this version knows of the oneofs whose kind a column holds (a routing rule's action):
 * the enumeration of such a column, named like those of enums.ts (and not as one of them). A column naming one reads a listed
 * kind in words ("Accept risk") and any other member the API sends as written, marked, in every front
 * (enum-words.ts).
 */
import { ROUTING_RULE_ACTION_KEYS } from './api-types/routing-rule';
import { TASK_TYPE_KEYS } from './api-types/task';

export const ONEOF_KINDS = {
  RoutingRuleAction: ROUTING_RULE_ACTION_KEYS,
  TaskKind: TASK_TYPE_KEYS,
} as const;

/** The name of a oneof's kinds in `ONEOF_KINDS`. */
export type KindsName = keyof typeof ONEOF_KINDS;

/** True when `name` names the kinds of a oneof in `ONEOF_KINDS`. */
export function isKindsName(name: string): name is KindsName {
  return Object.prototype.hasOwnProperty.call(ONEOF_KINDS, name);
}
