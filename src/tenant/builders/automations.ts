/** Automations: steps and triggers, drafts, circuit breakers. */
import type { Automation, AutomationTriggerKey } from '../../shared/api-types';
import { AUTOMATION_TRIGGER_KEYS, TRIGGER_TYPE_OF } from '../../shared/api-types';
import { CIRCUIT_BREAKER_PERIOD_VALUES } from '../../shared/enums';
import { isFuture, known, riskScoreV3, type BuildContext } from './context';
import { step, STEP_KEYS } from './automation-steps';
import { trigger } from './automation-triggers';

const AUTOMATION_PURPOSES = [
  'Onboard new hire',
  'Offboard leaver',
  'Revoke unused access',
  'Notify owners',
  'Rotate credentials',
  'Mover: update groups',
  'Escalate stale requests',
  'Quarterly review kickoff',
  'Provision contractor',
  'Clean up service accounts',
];

/** Automations needed to show every step action and every trigger once. */
export const MINIMUM_AUTOMATIONS = Math.max(STEP_KEYS.length, AUTOMATION_TRIGGER_KEYS.length);

export function automations(ctx: BuildContext, count: number): void {
  const r = ctx.stream('automations');
  const triggerKeys = AUTOMATION_TRIGGER_KEYS;
  for (let i = 0; i < count; i += 1) {
    const app = ctx.app(r);
    // Automation i < 21 starts with step action i and trigger i % 12: every member appears.
    const stepCount = r.range(1, 4);
    const keys = Array.from({ length: stepCount }, (_, n) =>
      n === 0 && i < STEP_KEYS.length ? (STEP_KEYS[i] as (typeof STEP_KEYS)[number]) : r.pick(STEP_KEYS),
    );
    const steps = keys.map((key, n) => step(ctx, r, key, n + 1));
    const triggerKey = i < MINIMUM_AUTOMATIONS ? (triggerKeys[i % triggerKeys.length] as AutomationTriggerKey) : r.pick(triggerKeys);
    const triggers = [trigger(ctx, r, triggerKey, app.id)];
    if (r.chance(0.1)) triggers.push(trigger(ctx, r, r.pick(triggerKeys), app.id));
    const isDraft = r.chance(0.1);
    const enabled = !isDraft && r.chance(0.75);
    const createdAt = ctx.past(r, 600, 5);
    const purpose = r.pick(AUTOMATION_PURPOSES);
    const tripped = r.chance(0.05);
    const period = r.pick(known(CIRCUIT_BREAKER_PERIOD_VALUES));
    const a: Automation & Record<string, unknown> = {
      id: r.id(),
      appId: app.id,
      currentVersion: String(r.range(1, 30)),
      description: `${purpose} for ${app.displayName}`,
      displayName: `${purpose} (${app.displayName})`,
      annotations: { team: r.pick(['it', 'security', 'grc']) },
      context: { context: { region: r.pick(['us', 'eu', 'apac']) } },
      enabled,
      isDraft,
      createdAt,
      lastExecutedAt: enabled ? ctx.after(r, createdAt, 30) : null,
      primaryTriggerType: TRIGGER_TYPE_OF[triggerKey],
      circuitBreaker: tripped ? { observedCount: 120, period, threshold: 100, trippedAt: ctx.past(r, 10) } : null,
      circuitBreakerMax: 100,
      circuitBreakerPeriod: period,
      automationSteps: steps,
      draftAutomationSteps: isDraft ? steps.map((s) => ({ ...s })) : [],
      triggers,
      draftTriggers: isDraft ? triggers.map((t) => ({ ...t })) : [],
    };
    if (isFuture(i)) {
      a.primaryTriggerType = 'TRIGGER_TYPE_AGENT_EVENT';
      a.riskScoreV3 = riskScoreV3(r);
      (a.automationSteps as Record<string, unknown>[]).push({
        stepName: 'agent',
        stepDisplayName: 'Ask the agent',
        skipIfTrueCel: '',
        invokeAgent: { agentId: r.id(), promptCel: '"Summarise the change"' },
      });
      (a.triggers as Record<string, unknown>[]).push({ agentEvent: { eventType: 'AGENT_EVENT_TYPE_TOOL_CALL' } });
    } else if (i % 50 === 33) {
      // Form-started automations have no trigger member: the type alone says how they start.
      a.primaryTriggerType = 'TRIGGER_TYPE_FORM';
      a.triggers = [];
    }
    ctx.data.automations.set(a.id as string, a);
  }
}
