/**
 * The task sheets: one row per task with every member that is one value, and its details (form,
 * policy steps, type, external references, annotations, data, the view's paths and permissions)
 * as a child sheet, one row per setting.
 */
import { TASK_VIEW_FIELDS } from '../../shared/api-types/task';
import type { StoredObject } from '../store/types';
import { collection as descriptorOf, getPath } from '../collections';
import type { CellValue } from './canonical';
import { kindText } from './cells';
import {
  col,
  descriptorColumns,
  field,
  idColumnAt,
  jsonField,
  membersOf,
  namedIdsField,
  namesFrom,
  objects,
  permissionsField,
  sheet,
  total,
  type ReportColumn,
  type ReportParams,
  type ReportSheet,
  type ReportSources,
} from './columns';
import { settings, settingsOf, type Setting } from './settings';

/** Where the task sits in its stored TaskView. */
const TASK = 'task';

/** The kind of a policy step instance (approval, provision, wait, form...). */
const stepKind = (step: unknown): string | null => membersOf(step, ['id', 'policyGenerationId', 'state'])[0] ?? null;

export function tasksSheet(sources: ReportSources, params: ReportParams): ReportSheet {
  const names = namesFrom(sources, params);
  const t = (o: StoredObject, path: string): unknown => getPath(o.json, `${TASK}.${path}`);
  const at = (path: string): string => `${TASK}.${path}`;
  const columns: ReportColumn<StoredObject>[] = [
    idColumnAt(`${TASK}.id`),
    ...descriptorColumns(descriptorOf('tasks'), names),
    col('Current step kind', 'enum', (o) => kindText(stepKind(t(o, 'policy.current'))), { source: 'task.policy.current' }),
    col('Steps done', 'int', (o) => (Array.isArray(t(o, 'policy.history')) ? (t(o, 'policy.history') as unknown[]).length : 0), {
      source: 'task.policy.history',
    }),
    field('Form', at('form.displayName'), 'text', { width: 30 }),
    namedIdsField('Approvers', at('approverIds'), 'users', names, { width: 30 }),
    field('Actions', at('actions'), 'text', { width: 40 }),
    field('Description', at('description'), 'text', { width: 40 }),
    namedIdsField('Created by', at('createdByUserId'), 'users', names, { width: 30 }),
    field('Analysis', at('analysisId')),
    field('Insights', at('insightIds')),
    jsonField('Data', at('data'), {}, names.wantPeopleAndPolicies()),
    permissionsField('objectPermissions'),
  ];
  return sheet('Tasks', columns, objects(sources, params, 'tasks'), {
    names,
    collection: 'tasks',
    total: total(sources, params, 'tasks'),
    about: 'one row per task: its type, state, current policy step, emergency access and what it allows',
  });
}

/** The members of a task shown setting by setting on the Task details sheet, and what the sheet calls them. */
const DETAILS: readonly { path: string; label: string }[] = [
  { path: `${TASK}.type`, label: 'Type' },
  { path: `${TASK}.form`, label: 'Form' },
  { path: `${TASK}.policy`, label: 'Policy' },
  { path: `${TASK}.externalRefs`, label: 'External references' },
  { path: `${TASK}.annotations`, label: 'Annotations' },
  // The view's JSONPaths into the answer's `expanded` list (which the sync does not ask for).
  ...TASK_VIEW_FIELDS.filter((f) => f.endsWith('Path')).map((f) => ({ path: f, label: 'View paths' })),
];

interface TaskSetting {
  task: StoredObject;
  member: string;
  setting: Setting;
}

export function taskDetailsSheet(sources: ReportSources, params: ReportParams): ReportSheet {
  const names = namesFrom(sources, params).wantPeopleAndPolicies();
  const columns: ReportColumn<TaskSetting>[] = [
    col('Task ID', 'text', (r) => r.task.id, { source: 'task.id' }),
    col('Task', 'text', (r) => r.task.title || null, { width: 30, about: "the task's name" }),
    col('Member', 'enum', (r) => r.member, { source: DETAILS.map((d) => d.path).join(', ') }),
    col('Setting', 'text', (r) => r.setting.path || null, {
      width: 40,
      source: DETAILS.map((d) => (d.path.endsWith('Path') ? d.path : `${d.path}.*`)).join(', '),
      about: 'the member below it, as the API names it (items of a list numbered from 1)',
    }),
    col('Value', 'text', (r): CellValue => r.setting.value, {
      width: 40,
      about: 'its value in words: enum labels, durations in words, times in UTC; "set" for a marker',
    }),
  ];
  const source = function* (): Iterable<TaskSetting> {
    for (const task of objects(sources, params, 'tasks')()) {
      for (const d of DETAILS) {
        const name = d.path.split('.').at(-1) ?? d.path;
        const found = d.path.endsWith('Path')
          ? settings(getPath(task.json, d.path), name)
          : settingsOf(name, getPath(task.json, d.path), names.label);
        for (const setting of found) yield { task, member: d.label, setting };
      }
    }
  };
  return sheet('Task details', columns, source, {
    names,
    about: "one row per setting of each task's type, form, policy steps, external references and annotations, and the view's paths",
  });
}
