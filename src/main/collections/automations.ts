import { AUTOMATION_STEP_ACTION_KEYS, AUTOMATION_TRIGGER_KEYS, TRIGGER_TYPE_OF } from '../../shared/api-types/automation';
import { kindOf } from '../../shared/api-types/common';
import { automationsWhere, getAutomation, walks } from '../api/endpoints';
import { appCol, bool, date, enumCol, enumList, text, type CollectionDescriptor } from './descriptor';
import { asArray, celText, getPath, lines, str, unique } from './extract';

/**
 * Every trigger type of an automation (the offline "any trigger" filter, wider than the server's
 * `triggerTypes`, which matches the primary type only): its primary type and the type of each of
 * its triggers, live and draft (an unknown trigger member adds nothing; a form-started automation
 * has only its primary type).
 */
function triggerTypes(a: unknown): string[] {
  const triggers = [...asArray(getPath(a, 'triggers')), ...asArray(getPath(a, 'draftTriggers'))];
  const kinds = triggers.map((t) => kindOf(t, AUTOMATION_TRIGGER_KEYS)).filter((k) => k !== 'unknown');
  return [str(getPath(a, 'primaryTriggerType')), ...kinds.map((k) => TRIGGER_TYPE_OF[k])];
}

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
  readOne: { fetch: (api, id, signal) => getAutomation(api, id, { signal }), member: 'automation' },
  idOf: (a) => str(getPath(a, 'id')),
  columns: [
    text('displayName', 'Name'),
    bool('enabled', 'Enabled'),
    bool('isDraft', 'Draft'),
    enumCol('primaryTriggerType', 'Trigger type', 'TriggerType'),
    enumList('triggerType', 'Any trigger type', 'TriggerType', 'triggers', triggerTypes),
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
    appCol(),
    date('createdAt', 'Created'),
    date('lastExecutedAt', 'Last run'),
  ],
  defaultSort: { column: 'displayName', dir: 'asc' },
  filterAliases: {
    // The server's `triggerTypes` matches the primary trigger type only; any trigger, live or
    // draft, is a filter of its own, named as such.
    triggerTypes: { column: 'primaryTriggerType' },
    anyTriggerTypes: { column: 'triggerType' },
    // Enabled is ON; "empty or both ON and OFF applies no status filter", as any of true and false does.
    statuses: { column: 'enabled', values: { AUTOMATION_STATUS_FILTER_ON: 'true', AUTOMATION_STATUS_FILTER_OFF: 'false' } },
    appIds: { column: 'appId' },
  },
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
