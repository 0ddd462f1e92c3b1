/** escalate-task: a task escalated to emergency access; read back after a success, and reconciled by reading the task. */
import { TASK_TYPE_KEYS } from '../../../shared/api-types/task';
import { kindOf } from '../../../shared/api-types/common';
import { canEscalate, getPath, str, type CollectionId } from '../../collections';
import type { KindDescriptor, StoreCheck, ValidationContext } from './descriptor';
import { get, isRecord, readTask, seg, text } from './server';
import { StoreChecker } from './store-checks';
import { asObject, checkStringArray, optionalString, requiredId } from './validation';
import { OutboxValidationError } from '../types';

export interface EscalateTaskInput extends Record<string, unknown> {
  taskId: string;
  /** Optional (as in the vendor API): without it the tenant escalates at the task's current step. */
  policyStepId?: string;
  comment?: string;
  /** Related objects the answer is to carry in `expanded` (the vendor's expandable paths: `app_id`, `app_user_id`…). */
  expandMask?: string[];
}

function emergencyAccessOf(body: unknown): boolean | null {
  const value = get(body, 'taskView', 'task', 'emergencyAccess') ?? get(body, 'task', 'emergencyAccess');
  return typeof value === 'boolean' ? value : value === undefined ? null : Boolean(value);
}

/**
 * The store's view of an escalation: refused when the task can never be escalated (not a grant
 * task, closed, or escalated already: none of these changes back); a warning when the task is
 * unknown, does not offer escalation at the last sync, or the policy step is not its current one.
 */
function checkEscalation(i: EscalateTaskInput, ctx: ValidationContext): StoreCheck {
  const c = new StoreChecker(ctx);
  const view = c.find('taskId', 'tasks', i.taskId);
  if (!view) return c.result();
  const task = c.label('taskId', i.taskId);
  const type = kindOf(getPath(view, 'task.type'), TASK_TYPE_KEYS);
  const current = str(getPath(view, 'task.policy.current.id'));
  if (type !== 'unknown' && type !== 'grant')
    c.refuse('taskId', `task ${task} is a ${type} task: only grant (access request) tasks can be escalated to emergency access`);
  else if (getPath(view, 'task.state') === 'TASK_STATE_CLOSED') c.refuse('taskId', `task ${task} is closed`);
  else if (getPath(view, 'task.emergencyAccess') === true) c.refuse('taskId', `task ${task} is in emergency access already`);
  else if (!canEscalate(view))
    c.warn('taskId', `task ${task} did not offer escalation at the last sync (${c.asOf('tasks')}): its current step may not allow it`);
  else if (current && i.policyStepId && current !== i.policyStepId)
    c.warn(
      'policyStepId',
      `policy step ${i.policyStepId} is not the current step of task ${task} as of the last sync (${c.asOf('tasks')}): that is ${current}`,
    );
  return c.result();
}

/**
 * The task's current policy step as the store holds it (what the app's escalation offers), or null
 * when the store does not hold the task, holds it as gone, or holds it without a current step.
 */
export function currentPolicyStep(taskId: string, ctx: ValidationContext): string | null {
  const found = ctx.stored('tasks', taskId);
  if (!found || found.deleted) return null;
  return str(getPath(found.json, 'task.policy.current.id')) || null;
}

/** A CSV row's escalation: without a step, the task's current step in the store when it knows one (the tenant's otherwise). */
function rowEscalation(cells: Record<string, unknown>, ctx: ValidationContext): Record<string, unknown> {
  const taskId = typeof cells.taskId === 'string' ? cells.taskId.trim() : '';
  if (!taskId || cells.policyStepId) return cells;
  const step = currentPolicyStep(taskId, ctx);
  return step ? { ...cells, policyStepId: step } : cells;
}

/**
 * The `@type`s of expanded messages whose collection stores each object as that message itself (an
 * app is stored as the apps search's row: the App). App users, entitlements and campaigns are
 * stored as views that wrap the message with members of their own (paths into a page's `expanded`,
 * the resource type, permissions): an expanded message alone is no version of those, so it stays
 * with the item.
 */
const STORED_AS_MESSAGE: Record<string, CollectionId> = { 'type.googleapis.com/c1.api.app.v1.App': 'apps' };

interface ExpandedObject {
  /** The message's type, its last name (`App`, `AppUser`). */
  type: string;
  id: string;
  name: string;
  /** The collection it is stored in as a fresh copy when whole, or null: kept with the item only. */
  collection: CollectionId | null;
  /** The message as the answer carried it, without its `@type`. */
  json: Record<string, unknown>;
}

/** The related objects the answer carried in `expanded` (asked for with the expand mask). */
function expandedObjects(body: unknown): ExpandedObject[] {
  const list = get(body, 'expanded');
  if (!Array.isArray(list)) return [];
  return list.filter(isRecord).map((message) => {
    const { '@type': type, ...json } = message;
    const typeName = typeof type === 'string' ? type : '';
    return {
      type: typeName.slice(typeName.lastIndexOf('.') + 1) || 'unknown',
      id: text(json.id),
      name: text(json.displayName),
      collection: STORED_AS_MESSAGE[typeName] ?? null,
      json,
    };
  });
}

export const escalateTask: KindDescriptor<EscalateTaskInput> = {
  kind: 'escalate-task',
  version: 1,
  label: 'Escalate task to emergency access',
  endpoint: 'POST /api/v1/tasks/{task_id}/action/escalate',
  validate(raw) {
    const obj = asObject(raw, 'escalate-task');
    const out: EscalateTaskInput = { taskId: requiredId(obj, 'taskId') };
    if (obj.policyStepId !== undefined && obj.policyStepId !== null && obj.policyStepId !== '')
      out.policyStepId = requiredId(obj, 'policyStepId');
    const comment = optionalString(obj, 'comment', 8192);
    if (comment !== undefined && comment !== '') out.comment = comment;
    if (obj.expandMask !== undefined && obj.expandMask !== null) {
      const paths = checkStringArray(obj.expandMask, 'expandMask');
      paths.forEach((path, i) => {
        if (!/^[a-z_*]+$/.test(path))
          throw new OutboxValidationError(`expandMask[${i}]`, `expandMask[${i}] '${path}' is not a path such as app_id`);
      });
      if (paths.length > 0) out.expandMask = paths;
    }
    return out;
  },
  checkStore: checkEscalation,
  csv: {
    columns: [
      { name: 'task_id', field: 'taskId', required: true },
      { name: 'comment', field: 'comment', required: false },
      { name: 'policy_step_id', field: 'policyStepId', required: false },
    ],
    input: rowEscalation,
  },
  request: (i) => ({
    method: 'POST',
    path: `/tasks/${seg(i.taskId)}/action/escalate`,
    body: {
      ...(i.policyStepId !== undefined ? { policyStepId: i.policyStepId } : {}),
      ...(i.comment !== undefined ? { comment: i.comment } : {}),
      ...(i.expandMask ? { expandMask: { paths: i.expandMask } } : {}),
    },
  }),
  target: (i) => `task:${i.taskId}`,
  dedupeKey: (i) => `${i.taskId}\u0000${i.policyStepId ?? ''}`,
  summary: (i) =>
    `escalate task ${i.taskId} (${i.policyStepId ? `policy step ${i.policyStepId}` : 'its current policy step'}) to emergency access`,
  overlay: (i) => [{ collection: 'tasks', objectId: i.taskId, effect: 'pending-escalation', data: { ...i } }],
  result: (body, i) => ({
    taskId: text(get(body, 'taskView', 'task', 'id')) || i.taskId,
    emergencyAccess: emergencyAccessOf(body) ?? false,
    // The ticket the tenant opened for the escalation, when it opened one.
    ...(text(get(body, 'ticketActionId')) ? { ticketActionId: text(get(body, 'ticketActionId')) } : {}),
    // What the expand mask brought, each object kept with the item as the answer carried it.
    ...(expandedObjects(body).length > 0 ? { expanded: expandedObjects(body) } : {}),
  }),
  /**
   * The expanded objects a collection stores as the message itself, as fresh copies of them; each
   * only when whole (the store's copy tells: an expand may bring a projection), see storeFreshCopies.
   */
  refresh: (body) =>
    expandedObjects(body)
      .filter((o) => o.collection !== null && o.id !== '')
      .map((o) => ({ collection: o.collection!, id: o.id, json: o.json, related: true })),
  /** The task as it is now (its emergencyAccess, its steps), read back and stored. */
  readBack: ({ api, input, signal }) => readTask(api, input.taskId, signal),
  reconcileHow: 'reads the task: emergencyAccess set means the escalation was applied',
  async reconcile({ api, input, signal }) {
    const res = await api.request({ method: 'GET', path: `/tasks/${seg(input.taskId)}`, signal });
    const emergency = emergencyAccessOf(res.body);
    const view = get(res.body, 'taskView');
    if (emergency === true)
      return {
        outcome: 'applied',
        result: { taskId: input.taskId, emergencyAccess: true },
        note: 'the task is in emergency access: the escalation was applied',
        httpStatus: res.status,
        refresh:
          isRecord(view) && text(get(view, 'task', 'id')) === input.taskId ? [{ collection: 'tasks', id: input.taskId, json: view }] : [],
      };
    if (emergency === false || emergency === null)
      return {
        outcome: 'not-applied',
        note: 'the task is not in emergency access: the escalation was not applied',
        httpStatus: res.status,
      };
    return { outcome: 'unknown', note: 'the task does not say whether it is in emergency access' };
  },
};
