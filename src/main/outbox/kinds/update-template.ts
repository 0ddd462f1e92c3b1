/** update-template: fields of an access review template changed, compared with the synced copy; reconciled by reading the template. */
import { DURATION_EXAMPLES, toApiDuration } from '../../../shared/durations';
import type { TemplateUpdatableField } from '../../../shared/template-fields';
import { ENUMS } from '../../../shared/enums';
import { readOnlyMembersOf, TEMPLATE_READ_ONLY, withoutMembers } from '../../../shared/read-only-members';
import { sameValue } from '../canonical';
import { OutboxValidationError } from '../types';
import type { CsvCellType, KindDescriptor } from './descriptor';
import { get, seg, text } from './server';
import { StoreChecker } from './store-checks';
import {
  asObject,
  bool,
  checkEnum,
  dateTime,
  enumList,
  freeObject,
  int,
  isPlainObject,
  message,
  notificationConfig,
  requiredId,
  scopeSelector,
  str,
  stringList,
  type FieldCheck,
} from './validation';

const COLUMN_REF_EXAMPLE = '[{ "builtin": "ACCESS_REVIEW_TASK_COLUMN_ACCOUNT" }, { "appUserAttributeKey": "department" }]';

/**
 * `columnConfig.orderedColumns`: the columns in the order reviewers see them, each a built-in column
 * or an account attribute, exactly one of the two (a oneof in the vendor schema). A built-in value
 * the app does not know is kept when the template holds it already (in any place: reordering it is fine).
 */
const orderedColumns: FieldCheck = (v, p, stored) => {
  if (!Array.isArray(v)) throw new OutboxValidationError(p, `${p} must be a list of columns such as ${COLUMN_REF_EXAMPLE}`);
  const storedBuiltins = Array.isArray(stored) ? stored.map((column) => get(column, 'builtin')) : [];
  const columnRef = message({
    builtin: (value, path) => void checkEnum(ENUMS.AccessReviewTaskColumn, value, path, storedBuiltins),
    appUserAttributeKey: str,
  });
  v.forEach((item, i) => {
    const path = `${p}[${i}]`;
    columnRef(item, path, undefined);
    const set = Object.values(item as Record<string, unknown>).filter((value) => value !== null && value !== undefined);
    if (set.length !== 1) throw new OutboxValidationError(path, `${path} must set exactly one of builtin or appUserAttributeKey`);
  });
};

/** How each updatable field's value is checked (the list of fields is shared with the editor). */
export const TEMPLATE_FIELDS: Record<TemplateUpdatableField, FieldCheck> = {
  displayName: str,
  description: str,
  reviewInstructions: str,
  accessReviewDuration: (v, p) => {
    // Written by people as 21d or 36h too: read into the API's form before the checks (readableChanges).
    if (typeof v !== 'string' || toApiDuration(v) !== v)
      throw new OutboxValidationError(p, `${p} must be a duration: ${DURATION_EXAMPLES}`);
  },
  annotations: freeObject,
  autoCloseCampaign: bool,
  autoGenerateReport: bool,
  autoStartCampaign: bool,
  exemptCertifiedAccessConflicts: bool,
  isCampaignScheduleEnabled: bool,
  usePolicyOverride: bool,
  columnConfig: message({ columns: enumList(ENUMS.AccessReviewTaskColumn), orderedColumns }),
  inclusionScope: message({
    appUserStatuses: enumList(ENUMS.AppUserStatus),
    appUserTypes: enumList(ENUMS.AppUserType),
    managerIds: stringList,
    multiUserProfileAttributes: freeObject,
    noAccountOwners: bool,
    userIds: stringList,
    userStatuses: enumList(ENUMS.InclusionUserStatus),
  }),
  nextScheduledCampaignAt: dateTime,
  notificationConfig,
  occurrences: int,
  policyId: str,
  recurrenceRule: message({ startDate: dateTime, endDate: dateTime, interval: int, occurrences: int }),
  reviewerAttributeConfig: message({
    bindings: (v, p) => {
      if (!Array.isArray(v)) throw new OutboxValidationError(p, `${p} must be a list of { appId, attributeKey }`);
      v.forEach((b, i) => message({ appId: str, attributeKey: str })(b, `${p}[${i}]`, undefined));
    },
  }),
  scope: scopeSelector,
  signatureConfig: message({ meaningOfSignature: str, requireSignature: bool, stepUpProviderId: str, tspUrl: str }),
  chatChannel: message({ channelId: str, description: str, name: str, isChannelId: bool }),
};

/**
 * Fields that are messages: an update names the members that change (`recurrenceRule.endDate`),
 * as the API's field mask takes them, and sends only those. The other fields are set whole: a
 * scope selector names one way to scope, annotations are a map, and the rest are single values.
 */
const SET_BY_MEMBER = [
  'columnConfig',
  'inclusionScope',
  'notificationConfig',
  'recurrenceRule',
  'reviewerAttributeConfig',
  'signatureConfig',
  'chatChannel',
];

/**
 * The template fields a CSV row may set, by leaf path (as the update's mask names them), with how
 * each cell is read. Fields holding free objects (scope, annotations, reviewer bindings, ordered
 * columns) are not single cells: they are changed in the template editor or with `attest queue add`.
 */
const CSV_FIELDS: [path: string, type: CsvCellType, enumValues?: readonly string[]][] = [
  ['displayName', 'text'],
  ['description', 'text'],
  ['reviewInstructions', 'text'],
  ['policyId', 'text'],
  ['accessReviewDuration', 'duration'],
  ['nextScheduledCampaignAt', 'date-time'],
  ['occurrences', 'integer'],
  ['autoStartCampaign', 'boolean'],
  ['autoCloseCampaign', 'boolean'],
  ['autoGenerateReport', 'boolean'],
  ['exemptCertifiedAccessConflicts', 'boolean'],
  ['isCampaignScheduleEnabled', 'boolean'],
  ['usePolicyOverride', 'boolean'],
  ['recurrenceRule.startDate', 'date-time'],
  ['recurrenceRule.endDate', 'date-time'],
  ['recurrenceRule.interval', 'integer'],
  ['recurrenceRule.occurrences', 'integer'],
  ['notificationConfig.sendKickoff', 'boolean'],
  ['notificationConfig.sendReminders', 'boolean'],
  ['notificationConfig.sendClose', 'boolean'],
  ['signatureConfig.requireSignature', 'boolean'],
  ['signatureConfig.meaningOfSignature', 'text'],
  ['signatureConfig.stepUpProviderId', 'text'],
  ['signatureConfig.tspUrl', 'text'],
  ['chatChannel.channelId', 'text'],
  ['chatChannel.name', 'text'],
  ['chatChannel.description', 'text'],
  ['chatChannel.isChannelId', 'boolean'],
  ['inclusionScope.userStatuses', 'enum-list', ENUMS.InclusionUserStatus],
  ['inclusionScope.appUserStatuses', 'enum-list', ENUMS.AppUserStatus],
  ['inclusionScope.appUserTypes', 'enum-list', ENUMS.AppUserType],
  ['inclusionScope.noAccountOwners', 'boolean'],
  ['inclusionScope.userIds', 'text-list'],
  ['inclusionScope.managerIds', 'text-list'],
  ['columnConfig.columns', 'enum-list', ENUMS.AccessReviewTaskColumn],
];

const headerKey = (name: string): string =>
  name
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '');

/** A header naming a member the server sets (`recurrenceRule.frequency`, `createdAt`) or the template's id: why it is refused. */
function refusedTemplateColumn(name: string): string | null {
  const key = headerKey(name);
  const readOnly = Object.keys(TEMPLATE_READ_ONLY).find((path) => headerKey(path) === key);
  if (readOnly) return `${readOnly} is set by the server and cannot be imported`;
  if (key === 'id') return "the template is named by the column 'templateId'; its id cannot be changed";
  return null;
}

/** A row's input: the template id, and the fields its non-empty cells set (nested by path). */
function rowUpdate(cells: Record<string, unknown>): Record<string, unknown> {
  const { templateId, ...changes } = cells;
  return { templateId, changes };
}

export interface UpdateTemplateInput extends Record<string, unknown> {
  templateId: string;
  /** What the request sets: the fields, and the members of message fields, that really change. */
  changes: Record<string, unknown>;
  /** Comma-separated camelCase paths of what really changes, down to the members of message fields. */
  updateMask: string;
  /** The synced values at those paths, by path, for review and diff. */
  before: Record<string, unknown>;
}

/** The value at a dotted path. */
export function valueAt(obj: unknown, path: string): unknown {
  return get(obj, ...path.split('.'));
}

/**
 * The user's change without the members the server sets: those holding the synced value (a copy
 * of the synced template carries them) are left out; one given another value is refused.
 */
function withoutServerSet(wanted: Record<string, unknown>, synced: Record<string, unknown>): Record<string, unknown> {
  const present = readOnlyMembersOf(TEMPLATE_READ_ONLY, wanted);
  for (const path of present) {
    if (!sameValue(valueAt(wanted, path), valueAt(synced, path)))
      throw new OutboxValidationError(path, `${path} is set by the server and cannot be changed`);
  }
  return withoutMembers(wanted, present);
}

/** The paths of one field that differ from the synced template, with their new and old values. */
function diffField(key: string, value: unknown, stored: unknown): { path: string; value: unknown; stored: unknown }[] {
  if (!SET_BY_MEMBER.includes(key) || !isPlainObject(value)) return sameValue(value, stored) ? [] : [{ path: key, value, stored }];
  return Object.entries(value)
    .filter(([member, v]) => !sameValue(v, get(stored, member)))
    .map(([member, v]) => ({ path: `${key}.${member}`, value: v, stored: get(stored, member) }));
}

/** Adds a field's differences to what the request sets, its old values and the mask's paths. */
function addDiffs(
  diffs: ReturnType<typeof diffField>,
  changes: Record<string, unknown>,
  before: Record<string, unknown>,
  paths: string[],
): void {
  for (const diff of diffs) {
    const [head, member] = diff.path.split('.') as [string, string | undefined];
    if (member === undefined) changes[head] = diff.value;
    else changes[head] = { ...(changes[head] as Record<string, unknown> | undefined), [member]: diff.value };
    before[diff.path] = diff.stored ?? null;
    paths.push(diff.path);
  }
}

/**
 * An item queued by version 1, which set message fields whole (`recurrenceRule` with the members
 * merged in from the synced template, response-only ones included) and kept the synced values by
 * field: its request is derived again as version 2 builds it, from what it holds. The members the
 * server sets are left out, and a message field is named down to the members that differ from the
 * value it was compared with; a field with no member left that differs is set whole, as it was.
 */
function upgradeFromV1(input: Record<string, unknown>): UpdateTemplateInput {
  const templateId = String(input.templateId);
  const readOnly = Object.keys(TEMPLATE_READ_ONLY);
  const given = withoutMembers(isPlainObject(input.changes) ? input.changes : {}, readOnly);
  const oldBefore = isPlainObject(input.before) ? input.before : {};
  const stored = withoutMembers(Object.fromEntries(Object.keys(given).map((key) => [key, oldBefore[key] ?? null])), readOnly);
  const changes: Record<string, unknown> = {};
  const before: Record<string, unknown> = {};
  const paths: string[] = [];
  for (const [key, value] of Object.entries(given)) {
    const diffs = diffField(key, value, stored[key]);
    addDiffs(diffs.length > 0 ? diffs : [{ path: key, value, stored: stored[key] }], changes, before, paths);
  }
  return { templateId, changes, updateMask: paths.join(','), before };
}

/** The changes with a duration written as people write it (`21d`, `36h`) in the API's form (`1814400s`). */
function readableChanges(given: Record<string, unknown>): Record<string, unknown> {
  const duration = given.accessReviewDuration;
  if (typeof duration !== 'string') return given;
  const api = toApiDuration(duration);
  return api === null ? given : { ...given, accessReviewDuration: api };
}

/** The user's changes, checked and compared with the synced template: what the request sets, the mask and the old values. */
function changesOver(templateId: string, given: Record<string, unknown>, synced: Record<string, unknown>): UpdateTemplateInput {
  const wanted = readableChanges(given);
  const changes: Record<string, unknown> = {};
  const before: Record<string, unknown> = {};
  const paths: string[] = [];
  // Compared with what a client may write: the members the server sets are no change of the user's.
  const writable = withoutMembers(synced, Object.keys(TEMPLATE_READ_ONLY));
  for (const [key, value] of Object.entries(withoutServerSet(wanted, synced))) {
    if (key === 'id') {
      if (value === templateId || value === synced.id) continue;
      throw new OutboxValidationError(key, `id is set by the server and cannot be changed`);
    }
    const check = (TEMPLATE_FIELDS as Record<string, FieldCheck | undefined>)[key];
    // A member this app does not know, as the synced template holds it (a whole copy of it), is no change.
    if (!check && sameValue(value, synced[key])) continue;
    if (!check)
      throw new OutboxValidationError(
        key,
        `'${key}' is not a template field that can be updated (known: ${Object.keys(TEMPLATE_FIELDS).join(', ')})`,
      );
    if (value !== null) check(value, key, synced[key]);
    addDiffs(diffField(key, value, writable[key]), changes, before, paths);
  }
  if (paths.length === 0) {
    throw new OutboxValidationError(
      'changes',
      `nothing to update: every given field already has that value in the synced template ${templateId}`,
    );
  }
  return { templateId, changes, updateMask: paths.join(','), before };
}

export const updateTemplate: KindDescriptor<UpdateTemplateInput> = {
  kind: 'update-template',
  // 2: message fields named down to their members, no member the server sets (1: set whole).
  version: 2,
  upgrade: (input, fromVersion) => (fromVersion < 2 ? upgradeFromV1(input) : input),
  label: 'Update access review template',
  endpoint: 'POST /api/v1/access_review_template/{id}',
  validate(raw, ctx) {
    const obj = asObject(raw, 'update-template');
    const templateId = requiredId(obj, 'templateId');
    const wanted = obj.changes ?? obj.accessReviewTemplate ?? obj.template;
    if (!isPlainObject(wanted)) throw new OutboxValidationError('changes', 'changes must be an object of template fields to set');
    const synced = ctx.synced('templates', templateId);
    if (!synced) {
      throw new OutboxValidationError(
        'templateId',
        `template ${templateId} is not in the local store: sync, or add it by id (\`attest template add ${templateId}\`, ` +
          'or "Add a template by id" on the Templates list), so the change can be compared with it',
      );
    }
    return changesOver(templateId, wanted, synced);
  },
  checkStore(input, ctx) {
    // Known (validate refuses a template the store does not hold): only its name, for previews.
    const c = new StoreChecker(ctx);
    c.find('templateId', 'templates', input.templateId);
    return c.result();
  },
  csv: {
    columns: [
      { name: 'templateId', field: 'templateId', required: true },
      ...CSV_FIELDS.map(([path, type, enumValues]) => ({ name: path, field: path, required: false, type, enumValues })),
    ],
    unknownColumns: 'refuse',
    refusedColumn: refusedTemplateColumn,
    input: rowUpdate,
  },
  request: (i) => ({
    method: 'POST',
    path: `/access_review_template/${seg(i.templateId)}`,
    body: { accessReviewTemplate: { id: i.templateId, ...i.changes }, updateMask: i.updateMask },
  }),
  target: (i) => `template:${i.templateId}`,
  dedupeKey: (i) => `${i.templateId}\u0000${i.updateMask}\u0000${JSON.stringify(i.changes)}`,
  summary: (i) => `update template ${i.templateId}: ${i.updateMask}`,
  overlay: (i) => [
    {
      collection: 'templates',
      objectId: i.templateId,
      effect: 'pending-update',
      data: { updateMask: i.updateMask, changes: i.changes, before: i.before },
    },
  ],
  result: (body, i) => ({ templateId: text(get(body, 'accessReviewTemplate', 'id')) || i.templateId, updateMask: i.updateMask }),
  refresh(body) {
    const t = get(body, 'accessReviewTemplate') as Record<string, unknown> | undefined;
    return t && typeof t.id === 'string' ? [{ collection: 'templates', id: t.id, json: t }] : [];
  },
  reconcileHow: 'reads the template: the masked fields holding the new values means the update was applied',
  async reconcile({ api, input, signal }) {
    const res = await api.request<{ accessReviewTemplate?: Record<string, unknown> }>({
      method: 'GET',
      path: `/access_review_template/${seg(input.templateId)}`,
      signal,
    });
    const answer = res.body?.accessReviewTemplate;
    if (!answer) return { outcome: 'unknown', note: 'the server did not return the template' };
    const t = withoutMembers(answer, Object.keys(TEMPLATE_READ_ONLY));
    const paths = input.updateMask.split(',');
    const equal = paths.filter((p) => sameValue(valueAt(t, p), valueAt(input.changes, p)));
    if (equal.length === paths.length) {
      return {
        outcome: 'applied',
        result: { templateId: input.templateId, updateMask: input.updateMask },
        note: `the template holds the new values of ${input.updateMask}: the update was applied`,
        httpStatus: res.status,
      };
    }
    const stillBefore = paths.filter((p) => sameValue(valueAt(t, p), input.before[p]));
    if (stillBefore.length === paths.length)
      return {
        outcome: 'not-applied',
        note: 'the template still holds the old values: the update was not applied',
        httpStatus: res.status,
      };
    return {
      outcome: 'unknown',
      note: `the template holds other values for ${paths.filter((p) => !equal.includes(p)).join(', ')}: someone else changed it; decide yourself`,
    };
  },
};
