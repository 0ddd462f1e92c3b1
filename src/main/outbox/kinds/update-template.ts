/** update-template: fields of an access review template changed, compared with the synced copy; reconciled by reading the template. */
import type { TemplateUpdatableField } from '../../../shared/template-fields';
import { ENUMS } from '../../../shared/enums';
import { sameValue } from '../canonical';
import { OutboxValidationError } from '../types';
import type { KindDescriptor } from './descriptor';
import { get, seg, text } from './server';
import {
  asObject,
  bool,
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

/** How each updatable field's value is checked (the list of fields is shared with the editor). */
export const TEMPLATE_FIELDS: Record<TemplateUpdatableField, FieldCheck> = {
  displayName: str,
  description: str,
  reviewInstructions: str,
  accessReviewDuration: (v, p) => {
    if (typeof v !== 'string' || !/^\d+(\.\d{1,9})?s$/.test(v))
      throw new OutboxValidationError(p, `${p} must be a duration in seconds such as '1209600s' (14 days)`);
  },
  annotations: freeObject,
  autoCloseCampaign: bool,
  autoGenerateReport: bool,
  autoStartCampaign: bool,
  exemptCertifiedAccessConflicts: bool,
  isCampaignScheduleEnabled: bool,
  usePolicyOverride: bool,
  columnConfig: message({ columns: enumList(ENUMS.AccessReviewTaskColumn), orderedColumns: freeObject }),
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
  recurrenceRule: message({ startDate: dateTime, endDate: dateTime, interval: int, occurrences: int }, ['frequency']),
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

/** Fields set whole, never merged into the synced value: a selector names one way to scope; annotations are a map. */
const REPLACED_WHOLE = ['scope', 'annotations'];

export const TEMPLATE_RESPONSE_ONLY = [
  'id',
  'accuracyIssueAction',
  'autoCloseDecision',
  'defaultView',
  'scopeType',
  'createdAt',
  'updatedAt',
  'deletedAt',
];

export interface UpdateTemplateInput extends Record<string, unknown> {
  templateId: string;
  /** The fields as the user wants them (only those that differ from the synced template). */
  changes: Record<string, unknown>;
  /** Comma-separated camelCase paths of the fields that really change. */
  updateMask: string;
  /** The synced values of those fields, for review and diff. */
  before: Record<string, unknown>;
}

/** The user's partial object laid over the synced one (objects merge; lists and scalars replace). */
function mergeOver(base: unknown, patch: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(patch)) return patch;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) out[k] = isPlainObject(v) && isPlainObject(base[k]) ? mergeOver(base[k], v) : v;
  return out;
}

export const updateTemplate: KindDescriptor<UpdateTemplateInput> = {
  kind: 'update-template',
  version: 1,
  label: 'Update access review template',
  validate(raw, ctx) {
    const obj = asObject(raw, 'update-template');
    const templateId = requiredId(obj, 'templateId');
    const wanted = obj.changes ?? obj.accessReviewTemplate ?? obj.template;
    if (!isPlainObject(wanted)) throw new OutboxValidationError('changes', 'changes must be an object of template fields to set');
    const synced = ctx.synced('templates', templateId);
    if (!synced) {
      throw new OutboxValidationError(
        'templateId',
        `template ${templateId} is not in the local store: sync templates first, so the change can be compared with it`,
      );
    }
    const changes: Record<string, unknown> = {};
    const before: Record<string, unknown> = {};
    const paths: string[] = [];
    for (const [key, value] of Object.entries(wanted)) {
      const stored = synced[key];
      if (TEMPLATE_RESPONSE_ONLY.includes(key)) {
        if (key === 'id' ? value === templateId || value === synced.id : sameValue(value, stored)) continue;
        throw new OutboxValidationError(key, `${key} is set by the server and cannot be changed`);
      }
      const check = (TEMPLATE_FIELDS as Record<string, FieldCheck | undefined>)[key];
      if (!check)
        throw new OutboxValidationError(
          key,
          `'${key}' is not a template field that can be updated (known: ${Object.keys(TEMPLATE_FIELDS).join(', ')})`,
        );
      if (value !== null) check(value, key, stored);
      const next = value === null ? null : REPLACED_WHOLE.includes(key) ? value : mergeOver(stored, value);
      if (sameValue(next, stored)) continue;
      changes[key] = next;
      before[key] = stored ?? null;
      paths.push(key);
    }
    if (paths.length === 0) {
      throw new OutboxValidationError(
        'changes',
        `nothing to update: every given field already has that value in the synced template ${templateId}`,
      );
    }
    return { templateId, changes, updateMask: paths.join(','), before };
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
    const t = res.body?.accessReviewTemplate;
    if (!t) return { outcome: 'unknown', note: 'the server did not return the template' };
    const paths = input.updateMask.split(',');
    const equal = paths.filter((p) => sameValue(t[p], input.changes[p]));
    if (equal.length === paths.length) {
      return {
        outcome: 'applied',
        result: { templateId: input.templateId, updateMask: input.updateMask },
        note: `the template holds the new values of ${input.updateMask}: the update was applied`,
        httpStatus: res.status,
      };
    }
    const stillBefore = paths.filter((p) => sameValue(t[p], input.before[p]));
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
