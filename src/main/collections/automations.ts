import { AUTOMATION_STEP_ACTION_KEYS, AUTOMATION_TRIGGER_KEYS } from '../../shared/api-types/automation';
import { kindOf } from '../../shared/api-types/common';
import { walks } from '../api/endpoints';
import { bool, date, enumCol, text, type CollectionDescriptor } from './descriptor';
import { asArray, celText, getPath, lines, str, unique } from './extract';

/** Live and draft steps together (both are searched, and both may name templates). */
function automationSteps(obj: unknown): unknown[] {
  return [...asArray(getPath(obj, 'automationSteps')), ...asArray(getPath(obj, 'draftAutomationSteps'))];
}

export const automations: CollectionDescriptor = {
  id: 'automations',
  title: 'Automations',
  pageSize: walks.automations.pageSize,
  listKey: walks.automations.listKey,
  fetchPage: (api, req, signal) => walks.automations.fetchPage(api)(req, signal),
  idOf: (a) => str(getPath(a, 'id')),
  columns: [
    text('displayName', 'Name'),
    bool('enabled', 'Enabled'),
    bool('isDraft', 'Draft'),
    enumCol('primaryTriggerType', 'Trigger type', 'TriggerType'),
    {
      name: 'triggerKinds',
      label: 'Triggers',
      path: 'triggers',
      type: 'text',
      value: (a) => unique(asArray(getPath(a, 'triggers')).map((t) => kindOf(t, AUTOMATION_TRIGGER_KEYS))).join(', '),
    },
    {
      name: 'stepKinds',
      label: 'Steps',
      path: 'automationSteps',
      type: 'text',
      value: (a) =>
        asArray(getPath(a, 'automationSteps'))
          .map((s) => kindOf(s, AUTOMATION_STEP_ACTION_KEYS))
          .join(', '),
    },
    {
      name: 'stepCount',
      label: 'Step count',
      path: 'automationSteps',
      type: 'int',
      value: (a) => asArray(getPath(a, 'automationSteps')).length,
    },
    text('appId', 'App'),
    date('createdAt', 'Created'),
    date('lastExecutedAt', 'Last run'),
  ],
  defaultSort: { column: 'displayName', dir: 'asc' },
  searchText: (a) => ({
    title: str(getPath(a, 'displayName')),
    body: lines(
      str(getPath(a, 'description')),
      str(getPath(a, 'id')),
      ...automationSteps(a).flatMap((s) => [str(getPath(s, 'stepDisplayName')), str(getPath(s, 'stepName'))]),
      celText(a),
    ),
  }),
  references: (a) => ({
    templates: unique(automationSteps(a).map((s) => str(getPath(s, 'createAccessReview.accessReviewTemplateId')))),
  }),
};
