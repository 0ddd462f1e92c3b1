import type { ChangeWarning, ObjectRow } from '../../shared/contract';
import { call } from '../api';

/** The input of an escalate-task change. */
export interface EscalationInput {
  taskId: string;
  /** The task's current step when the store names one; without it the tenant escalates at the current step. */
  policyStepId?: string;
  /** Why: sent as the escalation's comment, and kept in the outbox's journal. */
  comment?: string;
}

/**
 * Whether a stored task can be escalated to emergency access now, and with which policy step: the
 * task's current step (its `currentStepId` column, when it names one), while the task offers the
 * escalation there (its `escalatable` column). Otherwise the reason, in words.
 */
export function escalationOf(
  task: Pick<ObjectRow, 'id' | 'cells' | 'pending' | 'deleted'>,
): { input: EscalationInput } | { reason: string } {
  const stepId = typeof task.cells.currentStepId === 'string' ? task.cells.currentStepId : '';
  if (task.deleted) return { reason: 'deleted in the tenant' };
  if (task.pending) return { reason: 'a change to it is already waiting in the outbox' };
  if (task.cells.emergencyAccess === true) return { reason: 'already in emergency access' };
  if (task.cells.escalatable !== true) return { reason: 'its current step does not offer escalation' };
  return { input: stepId ? { taskId: task.id, policyStepId: stepId } : { taskId: task.id } };
}

/** Queues the escalation of a task (through the outbox's checks), with its reason as the comment; answers the store's warnings. */
export async function queueEscalation(input: EscalationInput, reason = ''): Promise<ChangeWarning[]> {
  const { warnings } = await call('outboxEnqueue', { kind: 'escalate-task', input: { ...input, ...(reason ? { comment: reason } : {}) } });
  return warnings;
}

/** What is asked at the moment of escalating: break-glass needs a justification. */
export const ESCALATION_REASON = { label: 'Why (sent with the escalation as its comment)', required: true } as const;
