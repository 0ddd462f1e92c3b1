/**
 * The access review sheets: campaigns and templates, one row each with their members that are one
 * value, and a settings sheet each, one row per setting of their scope selectors (who and what is
 * reviewed) and of their other structured members (notifications, signature, health...).
 */
import type { StoredObject } from '../store/types';
import { collection as descriptorOf, getPath, isRecord } from '../collections';
import type { CellValue } from './canonical';
import { kindText } from './cells';
import {
  cel,
  col,
  descriptorColumns,
  field,
  idColumn,
  idColumnAt,
  nameColumn,
  namedIdsField,
  namesFrom,
  objects,
  scopeSummary,
  sheet,
  total,
  type ReportColumn,
  type ReportParams,
  type ReportSheet,
  type ReportSources,
} from './columns';
import type { Labeler } from './references';
import { settingsOf, type Setting } from './settings';

/** Where the campaign sits in its stored AccessReviewView. */
const CAMPAIGN = 'accessReview';

/** The members a campaign and a template share that are one value each, under `base` ('' for a template, 'accessReview.' for a campaign). */
function reviewColumns(base: string): ReportColumn<StoredObject>[] {
  const at = (path: string): string => `${base}${path}`;
  return [
    field('Description', at('description'), 'text', { width: 40 }),
    field('Review instructions', at('reviewInstructions'), 'text', { width: 40 }),
    col('Scope summary', 'text', (o) => scopeSummary(getPath(o.json, at(base ? 'scopeV2' : 'scope'))), {
      width: 40,
      source: at(base ? 'scopeV2' : 'scope'),
      about: 'the scope selector in one line (every setting: the settings sheet)',
    }),
    field('Auto-generate report', at('autoGenerateReport'), 'bool'),
    field('Exempt certified access conflicts', at('exemptCertifiedAccessConflicts'), 'bool'),
    field('Use policy override', at('usePolicyOverride'), 'bool'),
    field('Accuracy issue action', at('accuracyIssueAction')),
    field('Auto-close decision', at('autoCloseDecision')),
    field('Default view', at('defaultView')),
  ];
}

export function campaignsSheet(sources: ReportSources, params: ReportParams): ReportSheet {
  const names = namesFrom(sources, params);
  const at = (path: string): string => `${CAMPAIGN}.${path}`;
  const columns: ReportColumn<StoredObject>[] = [
    idColumnAt(`${CAMPAIGN}.id`),
    ...descriptorColumns(descriptorOf('campaigns'), names),
    namedIdsField('Owners', at('ownerIds'), 'users', names),
    field('Scheduled start', at('scheduledStartDate'), 'date'),
    field('Connector sources frozen', at('connectorSourcesFrozenAt'), 'date'),
    field('Scoping version', at('scopingVersion'), 'int'),
    field('Single app ID', at('singleApp.appId')),
    nameColumn<StoredObject>('Single app', 'apps', (o) => getPath(o.json, at('singleApp.appId')), names),
    field('Auto-resolve', at('autoResolve'), 'bool'),
    field('Auto-start', at('autoStartCampaign'), 'bool'),
    field('Has accuracy support', at('hasAccuracySupport'), 'bool'),
    ...reviewColumns(`${CAMPAIGN}.`),
    col('CEL expressions', 'text', (o) => cel(getPath(o.json, CAMPAIGN)), 40),
  ];
  return sheet('Campaigns', columns, objects(sources, params, 'campaigns'), {
    names,
    collection: 'campaigns',
    total: total(sources, params, 'campaigns'),
    about: 'one row per access review campaign',
  });
}

export function templatesSheet(sources: ReportSources, params: ReportParams): ReportSheet {
  const names = namesFrom(sources, params);
  const columns: ReportColumn<StoredObject>[] = [
    idColumn,
    ...descriptorColumns(descriptorOf('templates'), names),
    field('Deleted', 'deletedAt', 'date'),
    field('Auto-close campaign', 'autoCloseCampaign', 'bool'),
    field('Occurrences', 'occurrences', 'int'),
    ...reviewColumns(''),
    col('CEL expressions', 'text', (o) => cel(o.json), 40),
  ];
  return sheet('Templates', columns, objects(sources, params, 'templates'), {
    names,
    collection: 'templates',
    total: total(sources, params, 'templates'),
    about: 'one row per access review template the store holds (only those campaigns and automations name: the API has no list)',
  });
}

// ---------------------------------------------------------------------------------------------
// Settings: selectors and the other structured members, one row per setting

interface GroupSetting {
  object: StoredObject;
  group: string;
  member: string | null;
  setting: Setting;
}

/** The structured members of an object shown setting by setting: its path and what the sheet calls it. */
type Groups = readonly { path: string; label: string }[];

const TEMPLATE_GROUPS: Groups = [
  { path: 'scope', label: 'Scope' },
  { path: 'inclusionScope', label: 'Inclusion scope' },
  { path: 'recurrenceRule', label: 'Recurrence' },
  { path: 'notificationConfig', label: 'Notifications' },
  { path: 'signatureConfig', label: 'Signature' },
  { path: 'columnConfig', label: 'Review columns' },
  { path: 'reviewerAttributeConfig', label: 'Reviewer attributes' },
  { path: 'chatChannel', label: 'Chat channel' },
  { path: 'annotations', label: 'Annotations' },
];

const CAMPAIGN_GROUPS: Groups = [
  { path: `${CAMPAIGN}.scopeV2`, label: 'Scope' },
  { path: `${CAMPAIGN}.inclusionScope`, label: 'Inclusion scope' },
  { path: `${CAMPAIGN}.exclusionScope`, label: 'Exclusion scope' },
  { path: `${CAMPAIGN}.scope`, label: 'App user scope' },
  { path: `${CAMPAIGN}.notificationConfig`, label: 'Notifications' },
  { path: `${CAMPAIGN}.signatureConfig`, label: 'Signature' },
  { path: `${CAMPAIGN}.columnConfig`, label: 'Review columns' },
  { path: `${CAMPAIGN}.reviewerAttributeConfig`, label: 'Reviewer attributes' },
  { path: `${CAMPAIGN}.campaignHealth`, label: 'Health' },
  { path: `${CAMPAIGN}.campaignInsights`, label: 'Insights' },
  { path: `${CAMPAIGN}.bindings`, label: 'Bindings' },
  { path: `${CAMPAIGN}.multiApp`, label: 'Multi-app' },
  { path: 'objectPermissions', label: 'Permissions' },
  { path: 'createdByUserPath', label: 'View paths' },
  { path: 'policyPath', label: 'View paths' },
];

/** Each setting of each member of each group (a marker member such as `allUsers` is one setting, "set"). */
function* groupSettings(object: StoredObject, groups: Groups, label: Labeler): Iterable<GroupSetting> {
  for (const g of groups) {
    const value = getPath(object.json, g.path);
    const name = g.path.split('.').at(-1) ?? g.path;
    if (!isRecord(value)) {
      for (const setting of settingsOf(name, value, label)) yield { object, group: g.label, member: kindText(name), setting };
      continue;
    }
    for (const [member, v] of Object.entries(value))
      for (const setting of settingsOf(member, v, label)) yield { object, group: g.label, member: kindText(member), setting };
  }
}

function settingsSheet(
  name: string,
  collection: 'campaigns' | 'templates',
  groups: Groups,
  sources: ReportSources,
  params: ReportParams,
): ReportSheet {
  const names = namesFrom(sources, params).wantPeopleAndPolicies();
  const what = collection === 'campaigns' ? 'Campaign' : 'Template';
  const columns: ReportColumn<GroupSetting>[] = [
    col(`${what} ID`, 'text', (r) => r.object.id, { source: collection === 'campaigns' ? `${CAMPAIGN}.id` : 'id' }),
    col(what, 'text', (r) => r.object.title || null, { width: 30, about: `the ${what.toLowerCase()}'s name` }),
    col('Group', 'enum', (r) => r.group, {
      source: [...new Set(groups.map((g) => g.path))].join(', '),
      about: 'the member of the object: a scope selector (who and what is in scope), notifications, signature...',
    }),
    col('Member', 'text', (r) => r.member, { about: 'its member, in words (a criterion of a selector, or a marker such as All users)' }),
    col('Setting', 'text', (r) => r.setting.path || null, {
      width: 30,
      source: groups.map((g) => `${g.path}.*`).join(', '),
      about: 'the member below, as the API names it (items of a list numbered from 1); empty: the member itself',
    }),
    col('Value', 'text', (r): CellValue => r.setting.value, {
      width: 40,
      about: 'its value in words: enum labels, durations in words, times in UTC; "set" for a marker, "none" for an empty map',
    }),
  ];
  const source = function* (): Iterable<GroupSetting> {
    for (const object of objects(sources, params, collection)()) yield* groupSettings(object, groups, names.label);
  };
  return sheet(name, columns, source, {
    names,
    about:
      `one row per setting of each ${what.toLowerCase()}'s scope selectors and other structured members: ` +
      'who and what is in scope, how it notifies and is signed',
  });
}

export const templateSettingsSheet = (sources: ReportSources, params: ReportParams): ReportSheet =>
  settingsSheet('Template settings', 'templates', TEMPLATE_GROUPS, sources, params);

export const campaignSettingsSheet = (sources: ReportSources, params: ReportParams): ReportSheet =>
  settingsSheet('Campaign settings', 'campaigns', CAMPAIGN_GROUPS, sources, params);
