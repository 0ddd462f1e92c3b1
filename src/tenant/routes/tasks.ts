/** Tasks: escalate to emergency access (spec), get and search (vendor document, for sync). */
import type { AnyMessage, Task, TaskTypeDetails, TaskView } from '../../shared/api-types';
import { TASK_TYPE_KEYS } from '../../shared/api-types';
import { EMERGENCY_STATUS_FILTER_VALUES, TASK_STATE_VALUES } from '../../shared/enums';
import { badField, failedPrecondition, notFound } from '../errors';
import {
  isObject,
  optBoolean,
  optEnum,
  optEnumArray,
  optExpandMask,
  optRefIds,
  optString,
  optStringArray,
  optTimestamp,
  textMatcher,
} from '../input';
import { appUserView, appView, entitlementView, servedTaskView } from '../views';
import { FULL_PERMISSIONS, listPage, param, type RequestContext, type Route } from './common';

/** Expand paths the vendor document lists for tasks. */
const EXPAND_PATHS = new Set([
  '*',
  'access_review_id',
  'user_id',
  'created_by_user_id',
  'app_id',
  'app_user_id',
  'app_entitlement_ids',
  'step_approver_ids',
  'approver_ids',
  'identity_user_id',
  'insight_ids',
  'app_user_last_usage',
  'entitlement_scope_bindings',
  'scope_role_resources',
  'resource',
]);

/** The type member that holds a task's app, entitlement and app user, if any. */
function target(task: Task): { appId?: string; appEntitlementId?: string; appUserId?: string; accessReviewId?: string } {
  const type = task.type;
  return (type?.grant ?? type?.revoke ?? type?.certify ?? {}) as ReturnType<typeof target>;
}

function checkExpandPaths(paths: string[] | undefined): string[] {
  for (const [i, path] of (paths ?? []).entries()) {
    if (!EXPAND_PATHS.has(path))
      throw badField(`expandMask.paths[${i}]`, `'${path}' is not an expandable path (${[...EXPAND_PATHS].join(', ')})`);
  }
  return paths ?? [];
}

/**
 * The task view, with the related objects the mask asks for appended to `expanded` (each the whole
 * message of its `@type`, as the other expanding searches serve them) and their JSONPath set in the
 * view. Only app, app user, entitlement and access review are materialised.
 */
function taskView(ctx: RequestContext, task: Task, paths: string[], expanded: AnyMessage[]): TaskView {
  const view: TaskView = {
    accessReviewPath: '',
    appPath: '',
    appUserLastUsagePath: '',
    appUserPath: '',
    approversPath: '',
    createdByUserPath: '',
    entitlementsPath: '',
    identityUserPath: '',
    insightsPath: '',
    principalResourcePath: '',
    resourceBindingsPath: '',
    roleResourcePath: '',
    scopeResourcePath: '',
    stepApproversPath: '',
    objectPermissions: FULL_PERMISSIONS,
    task,
  };
  const wants = (path: string) => paths.includes('*') || paths.includes(path);
  const add = (message: AnyMessage) => `expanded[${expanded.push(message) - 1}]`;
  const t = target(task);
  const app = t.appId ? ctx.data.apps.get(t.appId) : undefined;
  if (app && wants('app_id')) view.appPath = add({ '@type': 'type.googleapis.com/c1.api.app.v1.App', ...appView(ctx.data, app) });
  const user = t.appUserId ? ctx.data.appUsers.get(t.appUserId) : undefined;
  if (user && wants('app_user_id'))
    view.appUserPath = add({ '@type': 'type.googleapis.com/c1.api.app.v1.AppUser', ...(appUserView(ctx.data, user).appUser as object) });
  const entitlement = t.appEntitlementId ? ctx.data.entitlements.get(t.appEntitlementId) : undefined;
  if (entitlement && wants('app_entitlement_ids'))
    view.entitlementsPath = add({ '@type': 'type.googleapis.com/c1.api.app.v1.AppEntitlement', ...entitlementView(ctx.data, entitlement) });
  const campaign = t.accessReviewId ? ctx.data.campaigns.get(t.accessReviewId) : undefined;
  if (campaign && wants('access_review_id'))
    view.accessReviewPath = add({ '@type': 'type.googleapis.com/c1.api.accessreview.v1.AccessReview', ...campaign });
  return servedTaskView(ctx.data, view);
}

function liveTask(ctx: RequestContext, id: string): Task {
  const task = ctx.data.tasks.get(id);
  if (!task || task.deletedAt) throw notFound('task', id);
  return task;
}

function getTask(ctx: RequestContext) {
  const task = liveTask(ctx, param(ctx, 'id'));
  const expanded: AnyMessage[] = [];
  return { taskView: taskView(ctx, task, [], expanded), expanded };
}

function escalateTask(ctx: RequestContext) {
  const id = param(ctx, 'task_id');
  const task = liveTask(ctx, id);
  const comment = optString(ctx.body, 'comment') ?? '';
  const policyStepId = optString(ctx.body, 'policyStepId');
  const paths = checkExpandPaths(optExpandMask(ctx.body));
  const subject = `task/${id}`;
  if (!task.type?.grant)
    throw failedPrecondition(
      'TASK_NOT_GRANT',
      subject,
      `task '${id}' is not a grant (access request) task; only grant tasks can be escalated to emergency access`,
    );
  if (task.state === 'TASK_STATE_CLOSED') throw failedPrecondition('TASK_CLOSED', subject, `task '${id}' is closed`);
  if (task.emergencyAccess)
    throw failedPrecondition('TASK_ALREADY_ESCALATED', subject, `task '${id}' is already escalated to emergency access`);
  const current = task.policy?.current;
  if (policyStepId && policyStepId !== current?.id) {
    throw failedPrecondition('POLICY_STEP_NOT_CURRENT', subject, `policy step '${policyStepId}' is not the current step of task '${id}'`);
  }
  const now = new Date().toISOString();
  task.emergencyAccess = true;
  task.updatedAt = now;
  if (comment) task.commentCount = (task.commentCount ?? 0) + 1;
  task.actions = (task.actions ?? []).filter((a) => a !== 'TASK_ACTION_TYPE_ESCALATE_TO_EMERGENCY_ACCESS');
  if (current?.approval) current.approval.escalationInstance = { alreadyEscalated: true, escalationComment: comment, expiresAt: null };
  ctx.data.tasks.changed();
  ctx.record(id);
  const expanded: AnyMessage[] = [];
  return { taskView: taskView(ctx, task, paths, expanded), expanded, ticketActionId: ctx.data.newId() };
}

function searchTasks(ctx: RequestContext) {
  const body = ctx.body;
  const typeFilter = body.taskTypes;
  if (typeFilter !== undefined && typeFilter !== null && (!Array.isArray(typeFilter) || !typeFilter.every(isObject))) {
    throw badField('taskTypes', 'must be a list of task type objects such as { "grant": {} }');
  }
  const filter = {
    query: optString(body, 'query') ?? '',
    refs: optRefIds(body, 'refs') ?? [],
    taskTypes: ((typeFilter ?? []) as TaskTypeDetails[]).flatMap((t) => TASK_TYPE_KEYS.filter((k) => t[k] !== undefined && t[k] !== null)),
    taskStates: (optEnumArray(body, 'taskStates', TASK_STATE_VALUES) ?? []).filter((s) => s !== 'TASK_STATE_UNSPECIFIED'),
    emergencyStatus: optEnum(body, 'emergencyStatus', EMERGENCY_STATUS_FILTER_VALUES) ?? 'UNSPECIFIED',
    accessReviewIds: optStringArray(body, 'accessReviewIds') ?? [],
    appEntitlementIds: optStringArray(body, 'appEntitlementIds') ?? [],
    applicationIds: optStringArray(body, 'applicationIds') ?? [],
    appUserSubjectIds: optStringArray(body, 'appUserSubjectIds') ?? [],
    excludeIds: optStringArray(body, 'excludeIds') ?? [],
    includeDeleted: optBoolean(body, 'includeDeleted') ?? false,
    createdAfter: optTimestamp(body, 'createdAfter') ?? '',
    createdBefore: optTimestamp(body, 'createdBefore') ?? '',
  };
  const paths = checkExpandPaths(optExpandMask(body));
  const text = textMatcher(filter.query);
  const within = (list: string[], value: string | undefined) => list.length === 0 || list.includes(value ?? '');
  const page = listPage(ctx, {
    collection: ctx.data.tasks,
    filter: { ...filter, paths },
    match: (task) => {
      const t = target(task);
      const created = task.createdAt ?? '';
      return (
        (filter.includeDeleted || !task.deletedAt) &&
        within(filter.refs, task.id) &&
        !filter.excludeIds.includes(task.id ?? '') &&
        (filter.taskTypes.length === 0 || filter.taskTypes.some((k) => task.type?.[k])) &&
        within(filter.taskStates, task.state) &&
        (filter.emergencyStatus === 'EMERGENCY'
          ? Boolean(task.emergencyAccess)
          : filter.emergencyStatus === 'NON_EMERGENCY'
            ? !task.emergencyAccess
            : true) &&
        within(filter.accessReviewIds, t.accessReviewId) &&
        within(filter.appEntitlementIds, t.appEntitlementId) &&
        within(filter.applicationIds, t.appId) &&
        within(filter.appUserSubjectIds, t.appUserId) &&
        (!filter.createdAfter || created > filter.createdAfter) &&
        (!filter.createdBefore || created < filter.createdBefore) &&
        (!text || text(task.displayName, task.description, task.numericId))
      );
    },
  });
  const expanded: AnyMessage[] = [];
  return { list: page.items.map((task) => taskView(ctx, task, paths, expanded)), nextPageToken: page.nextPageToken, expanded };
}

export const taskRoutes: Route[] = [
  { method: 'POST', path: '/api/v1/tasks/{task_id}/action/escalate', operation: 'escalateTask', handle: escalateTask },
  { method: 'GET', path: '/api/v1/tasks/{id}', handle: getTask },
  { method: 'POST', path: '/api/v1/search/tasks', handle: searchTasks },
];
