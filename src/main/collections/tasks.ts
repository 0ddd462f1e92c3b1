import { TASK_TYPE_KEYS } from '../../shared/api-types/task';
import { kindAsWritten, kindOf } from '../../shared/api-types/common';
import { getTask, walks } from '../api/endpoints';
import { bool, date, enumCol, int, text, under, valueCol, type CollectionDescriptor, type ColumnDef } from './descriptor';
import { asArray, getPath, lines, str } from './extract';

const TASK = 'task';
const taskOf = (view: unknown): unknown => getPath(view, TASK);

/** The type member of a task (grant, revoke, certify...), which names its app, entitlement and app user. */
const typeDetails = (view: unknown): unknown => {
  const type = getPath(taskOf(view), 'type');
  const kind = kindOf(type, TASK_TYPE_KEYS);
  return kind === 'unknown' ? undefined : getPath(type, kind);
};

/** The action that escalates a task to emergency access, as the task lists it while it is allowed. */
export const ESCALATE_ACTION = 'TASK_ACTION_TYPE_ESCALATE_TO_EMERGENCY_ACCESS';

/** Whether the task says it can be escalated now (its `actions` offer it). */
export const canEscalate = (view: unknown): boolean => asArray(getPath(taskOf(view), 'actions')).includes(ESCALATE_ACTION);

const fromType = (name: string, label: string, filter = false): ColumnDef => ({
  ...text(name, label, ''),
  // Offered by the app's name where the apps are synced.
  ...(filter ? { filter: true, refersTo: 'apps' as const } : {}),
  value: (v) => str(getPath(typeDetails(v), name)) || null,
});

/**
 * Tasks (`POST /search/tasks`): each row is the TaskView (the task with its form, its policy with
 * the current step instance and the history, `emergencyAccess`), stored as received.
 */
export const tasks: CollectionDescriptor = {
  id: 'tasks',
  title: 'Tasks',
  pageSize: walks.tasks.pageSize,
  listKey: walks.tasks.listKey,
  fetchPage: (api, req, signal) => walks.tasks.fetchPage(api)(req, signal),
  readOne: { fetch: (api, id, signal) => getTask(api, id, { signal }), member: 'taskView' },
  idOf: (view) => str(getPath(taskOf(view), 'id')),
  diffRoot: TASK,
  columns: [
    ...under(TASK, [text('numericId', 'Number'), text('displayName', 'Name'), enumCol('state', 'State', 'TaskState')]),
    {
      ...valueCol('taskType', 'Type', ''),
      // The member as sent, one this version does not know included: every front marks it the same way.
      enumName: 'TaskKind',
      value: (v) => kindAsWritten(getPath(taskOf(v), 'type'), TASK_TYPE_KEYS),
    },
    ...under(TASK, [bool('emergencyAccess', 'Emergency access'), enumCol('origin', 'Origin', 'TaskOrigin')]),
    { ...bool('escalatable', 'Can escalate', ''), value: canEscalate },
    // The app is a filter of the Tasks list, like the state, the type and emergency access.
    fromType('appId', 'App', true),
    fromType('appEntitlementId', 'Entitlement'),
    fromType('appUserId', 'App user'),
    ...under(TASK, [
      text('currentStepId', 'Current step', 'policy.current.id'),
      enumCol('currentStepState', 'Step state', 'PolicyStepState', 'policy.current.state'),
      int('commentCount', 'Comments'),
      date('createdAt', 'Created'),
      date('updatedAt', 'Updated'),
      date('deletedAt', 'Deleted'),
    ]),
  ],
  defaultSort: { column: 'createdAt', dir: 'desc' },
  searchText: (view) => {
    const t = taskOf(view);
    return {
      title: str(getPath(t, 'displayName')),
      body: lines(str(getPath(t, 'description')), str(getPath(t, 'numericId')), str(getPath(t, 'id'))),
    };
  },
};
