import { AUTOMATION_STEP_ACTION_KEYS, AUTOMATION_TRIGGER_KEYS } from '../../shared/api-types/automation';
import { kindOf } from '../../shared/api-types/common';
import { automationsWhere, getAutomation, walks } from '../api/endpoints';
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
  // Pages of 10 through one cursor are the slowest walk of a tenant: three walks at once instead.
  // `isDraft` is tri-state (unset: both; true: drafts only; false: published only) and a status
  // filter of ON and OFF together is no filter at all, so drafts, published ON and published OFF
  // are together every automation.
  split: {
    parts: [
      { key: 'drafts', fetchPage: (api, req, signal) => automationsWhere(api, { isDraft: true })(req, signal) },
      {
        key: 'on',
        fetchPage: (api, req, signal) => automationsWhere(api, { isDraft: false, statuses: ['AUTOMATION_STATUS_FILTER_ON'] })(req, signal),
      },
      {
        key: 'off',
        fetchPage: (api, req, signal) => automationsWhere(api, { isDraft: false, statuses: ['AUTOMATION_STATUS_FILTER_OFF'] })(req, signal),
      },
    ],
    fetchOne: (api, id, signal) => getAutomation(api, id, { signal }),
    member: 'automation',
  },
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
