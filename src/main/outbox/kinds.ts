/**
 * One descriptor per mutation kind: its version, local validation (by the spec, before anything is
 * queued), the exact request, what a success records, how an uncertain attempt is reconciled by
 * reading the server, and the "pending" overlay shown in views and search. Adding a kind is one
 * entry here.
 */
import { ENUMS, isKnownEnumValue } from '../../shared/enums';
import { validateScopeValue } from '../../shared/validate';
import type { TemplateUpdatableField } from '../../shared/template-fields';
import { readApiError, type OutboxApi } from './api-shape';
import { requestDigest, sameValue } from './canonical';
import { OutboxValidationError, type MutationKind, type OutboxItem, type OutboxRequest, type OverlayEffect } from './types';

// ---------------------------------------------------------------------------------------------
// Descriptor shape

export interface ValidationContext {
  /** The synced copy of an object in the local store (its JSON), or null. */
  synced(collection: string, id: string): Record<string, unknown> | null;
}

export interface OverlayRow {
  collection: string;
  objectId: string;
  effect: OverlayEffect;
  data: Record<string, unknown>;
}

/** `resent`: the check itself sent the request again (kinds whose resend is the read). */
export type ReconcileVerdict =
  | { outcome: 'applied'; result: Record<string, unknown>; note: string; httpStatus?: number; resent?: boolean }
  | { outcome: 'not-applied'; note: string; httpStatus?: number; resent?: boolean }
  | { outcome: 'unknown'; note: string; httpStatus?: number; resent?: boolean };

export interface ReconcileContext {
  api: OutboxApi;
  item: OutboxItem;
  signal?: AbortSignal;
}

/** A fresh copy of an object to keep in the store after a success. */
export interface RefreshedObject {
  collection: string;
  id: string;
  json: Record<string, unknown>;
}

export interface KindDescriptor<I extends Record<string, unknown> = Record<string, unknown>> {
  kind: MutationKind;
  /** Bumped when the stored input shape changes; older items are upgraded before they are sent. */
  version: number;
  label: string;
  /** Validates and normalizes; throws OutboxValidationError naming the field. */
  validate(input: unknown, ctx: ValidationContext): I;
  request(input: I): OutboxRequest;
  /** The object this item touches; items with the same target go out in queue order. */
  target(input: I): string;
  /** Two items with the same key are the same change (duplicates). */
  dedupeKey(input: I): string;
  summary(input: I): string;
  overlay(input: I, itemId: string): OverlayRow[];
  /** What a success records (ids the server created, flags it set). */
  result(body: unknown, input: I): Record<string, unknown>;
  /** Objects to refresh in the store after a success, when the answer carries them. */
  refresh?(body: unknown, input: I): RefreshedObject[];
  /** How an uncertain attempt is settled by reading the server. */
  reconcile(ctx: ReconcileContext & { input: I }): Promise<ReconcileVerdict>;
  /** How reconciliation works for this kind, in one sentence (shown to the user). */
  reconcileHow: string;
  upgrade?(input: Record<string, unknown>, fromVersion: number): Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------
// Field helpers

function asObject(input: unknown, what: string): Record<string, unknown> {
  if (!input || typeof input !== 'object' || Array.isArray(input))
    throw new OutboxValidationError('input', `${what}: the input must be an object`);
  return input as Record<string, unknown>;
}

function requiredId(obj: Record<string, unknown>, field: string): string {
  const value = obj[field];
  if (value === undefined || value === null || value === '') throw new OutboxValidationError(field, `${field} is required`);
  if (typeof value !== 'string') throw new OutboxValidationError(field, `${field} must be a string id`);
  const trimmed = value.trim();
  if (trimmed === '') throw new OutboxValidationError(field, `${field} is required (it is blank)`);
  if (trimmed.includes('/') || /[\s?#%]/u.test(trimmed)) {
    throw new OutboxValidationError(field, `${field} '${value}' is not a valid id: it may not contain '/', '?', '#', '%' or spaces`);
  }
  return trimmed;
}

function optionalString(obj: Record<string, unknown>, field: string, max = 4096): string | undefined {
  const value = obj[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new OutboxValidationError(field, `${field} must be a string`);
  if (value.length > max) throw new OutboxValidationError(field, `${field} is ${value.length} characters long; at most ${max} are allowed`);
  return value;
}

function optionalBoolean(obj: Record<string, unknown>, field: string, path = field): boolean | undefined {
  const value = obj[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new OutboxValidationError(path, `${path} must be true or false`);
  return value;
}

const RFC3339 =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d{1,9})?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/i;

/** A date-time by RFC 3339 (the spec: ISO 8601 / RFC 3339, UTC), and a real calendar date. */
export function checkDateTime(value: unknown, path: string): string {
  if (typeof value !== 'string' || !RFC3339.test(value) || Number.isNaN(Date.parse(value))) {
    throw new OutboxValidationError(
      path,
      `${path} must be an RFC 3339 date-time such as 2025-06-30T17:00:00Z (got ${JSON.stringify(value)})`,
    );
  }
  const [y, m, d] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  const probe = new Date(Date.UTC(y, m - 1, d));
  if (probe.getUTCMonth() !== m - 1) throw new OutboxValidationError(path, `${path}: ${value.slice(0, 10)} is not a calendar date`);
  return value;
}

/**
 * An enum value the user typed into a request: it must be one of the known values. (Values the
 * service sends us are kept even when unknown; `allowed` lists such values already stored.)
 */
function checkEnum(values: readonly string[], value: unknown, path: string, allowed: readonly unknown[] = []): string {
  if (typeof value !== 'string') throw new OutboxValidationError(path, `${path} must be a string`);
  if (isKnownEnumValue(values, value) || allowed.includes(value)) return value;
  throw new OutboxValidationError(
    path,
    `${path} '${value}' is not a known value (known: ${values.join(', ')}); a value the app does not know cannot be sent in a change`,
  );
}

function checkStringArray(value: unknown, path: string): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    throw new OutboxValidationError(path, `${path} must be a list of strings`);
  return value as string[];
}

function checkIdArray(value: unknown, path: string): string[] {
  const list = checkStringArray(value, path);
  list.forEach((v, i) => {
    if (v.trim() === '') throw new OutboxValidationError(`${path}[${i}]`, `${path}[${i}] is blank: every id must be non-empty`);
  });
  return list;
}

function seg(id: string): string {
  return encodeURIComponent(id);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function get(obj: unknown, ...path: string[]): unknown {
  let cur = obj;
  for (const key of path) {
    if (!cur || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/** The rows, on every page (bounded) of a list or search endpoint answering `{list, nextPageToken}`, that `keep` accepts. */
async function findInList(
  api: OutboxApi,
  requestFor: (pageToken: string) => Parameters<OutboxApi['request']>[0],
  keep: (row: unknown) => boolean,
  maxPages = 500,
): Promise<unknown[]> {
  const kept: unknown[] = [];
  let token = '';
  for (let page = 0; page < maxPages; page += 1) {
    const res = await api.request<{ list?: unknown[]; nextPageToken?: string }>(requestFor(token));
    for (const row of res.body?.list ?? []) if (keep(row)) kept.push(row);
    token = res.body?.nextPageToken ?? '';
    if (!token) break;
  }
  return kept;
}

// ---------------------------------------------------------------------------------------------
// create-scope

export interface CreateScopeInput extends Record<string, unknown> {
  appId: string;
  xaaResourceServerId: string;
  scopeValue: string;
  displayName?: string;
  description?: string;
  classification?: string;
  state?: string;
}

const createScope: KindDescriptor<CreateScopeInput> = {
  kind: 'create-scope',
  version: 1,
  label: 'Create scope',
  validate(raw) {
    const obj = asObject(raw, 'create-scope');
    const appId = requiredId(obj, 'appId');
    const xaaResourceServerId = requiredId(obj, 'xaaResourceServerId');
    const problem = validateScopeValue(obj.scopeValue, 'scopeValue');
    if (problem) throw new OutboxValidationError('scopeValue', problem.message);
    const out: CreateScopeInput = { appId, xaaResourceServerId, scopeValue: obj.scopeValue as string };
    const displayName = optionalString(obj, 'displayName', 1024);
    if (displayName !== undefined) out.displayName = displayName;
    const description = optionalString(obj, 'description', 8192);
    if (description !== undefined) out.description = description;
    if (obj.classification !== undefined && obj.classification !== '' && obj.classification !== null) {
      out.classification = checkEnum(ENUMS.XaaScopeClassification, obj.classification, 'classification');
    }
    if (obj.state !== undefined && obj.state !== '' && obj.state !== null) out.state = checkEnum(ENUMS.XaaScopeState, obj.state, 'state');
    return out;
  },
  request(input) {
    const body: Record<string, unknown> = { xaaResourceServerId: input.xaaResourceServerId, scopeValue: input.scopeValue };
    for (const key of ['displayName', 'description', 'classification', 'state'] as const)
      if (input[key] !== undefined) body[key] = input[key];
    return { method: 'POST', path: `/apps/${seg(input.appId)}/xaa/scopes`, body };
  },
  target: (i) => `scope:${i.appId}/${i.xaaResourceServerId}/${i.scopeValue}`,
  dedupeKey: (i) => `${i.appId}\u0000${i.xaaResourceServerId}\u0000${i.scopeValue}`,
  summary: (i) => `create scope '${i.scopeValue}' on resource server ${i.xaaResourceServerId} (app ${i.appId})`,
  overlay: (i, itemId) => [
    {
      collection: 'scopes',
      objectId: `pending:${itemId}`,
      effect: 'pending-creation',
      data: { ...i, displayName: i.displayName ?? i.scopeValue },
    },
  ],
  result(body) {
    const scope = get(body, 'scope') as Record<string, unknown> | undefined;
    return { scopeId: text(scope?.id), appEntitlementId: text(scope?.appEntitlementId), state: text(scope?.state) };
  },
  refresh(body) {
    const scope = get(body, 'scope') as Record<string, unknown> | undefined;
    return scope && typeof scope.id === 'string' ? [{ collection: 'scopes', id: scope.id, json: scope }] : [];
  },
  reconcileHow: 'searches the server for a scope with the same scopeValue on the same resource server',
  async reconcile({ api, input, item, signal }) {
    const matches = (await findInList(
      api,
      (pageToken) => ({
        method: 'POST',
        path: '/search/xaa/scopes',
        mutation: false,
        body: {
          appIds: [input.appId],
          xaaResourceServerIds: [input.xaaResourceServerId],
          query: input.scopeValue,
          pageSize: 100,
          pageToken,
        },
        signal,
      }),
      (row) => {
        const r = row as Record<string, unknown>;
        return (
          r.scopeValue === input.scopeValue &&
          r.xaaResourceServerId === input.xaaResourceServerId &&
          (!r.appId || r.appId === input.appId) &&
          !r.deletedAt
        );
      },
    )) as Record<string, unknown>[];
    const found = matches[0];
    if (!found)
      return {
        outcome: 'not-applied',
        note: `no scope '${input.scopeValue}' on resource server ${input.xaaResourceServerId}: it was not created`,
      };
    const created = typeof found.createdAt === 'string' ? Date.parse(found.createdAt) : NaN;
    const firstSent = item.firstSentAt ? Date.parse(item.firstSentAt) : NaN;
    if (!Number.isNaN(created) && !Number.isNaN(firstSent) && created < firstSent - 10 * 60_000) {
      return {
        outcome: 'unknown',
        note: `scope ${text(found.id)} with this value already existed before the first attempt (created ${String(found.createdAt)}): this change did not create it; resolve or discard it`,
      };
    }
    return {
      outcome: 'applied',
      result: { scopeId: text(found.id), appEntitlementId: text(found.appEntitlementId), state: text(found.state) },
      note: `found scope ${text(found.id)} with this scopeValue on the server: it was created`,
    };
  },
};

// ---------------------------------------------------------------------------------------------
// remove-membership

export interface RemoveMembershipInput extends Record<string, unknown> {
  appId: string;
  appEntitlementId: string;
  appUserId: string;
}

const removeMembership: KindDescriptor<RemoveMembershipInput> = {
  kind: 'remove-membership',
  version: 1,
  label: 'Remove entitlement membership',
  validate(raw) {
    const obj = asObject(raw, 'remove-membership');
    return {
      appId: requiredId(obj, 'appId'),
      appEntitlementId: requiredId(obj, 'appEntitlementId'),
      appUserId: requiredId(obj, 'appUserId'),
    };
  },
  request: (i) => ({
    method: 'DELETE',
    path: `/apps/${seg(i.appId)}/entitlements/${seg(i.appEntitlementId)}/remove-membership`,
    body: { appUserId: i.appUserId },
  }),
  target: (i) => `membership:${i.appId}/${i.appEntitlementId}/${i.appUserId}`,
  dedupeKey: (i) => `${i.appId}\u0000${i.appEntitlementId}\u0000${i.appUserId}`,
  summary: (i) => `remove user ${i.appUserId} from entitlement ${i.appEntitlementId} (app ${i.appId})`,
  overlay: (i) => [
    { collection: 'memberships', objectId: `${i.appId}/${i.appEntitlementId}/${i.appUserId}`, effect: 'pending-removal', data: { ...i } },
  ],
  result: (body) => ({ revokeTaskId: text(get(body, 'revokeTaskId')) }),
  reconcileHow:
    'no read of memberships exists, but a removal cannot apply twice: it is sent again, and a server that no longer finds the membership confirms it is gone',
  async reconcile({ api, item, signal }) {
    // Removing a membership is idempotent on the server: a second removal of the same membership
    // changes nothing and is refused as not found. So the resend is the read.
    try {
      const res = await api.request({ ...item.request, signal, mutation: true });
      return {
        outcome: 'applied',
        result: removeMembership.result(res.body, item.input as RemoveMembershipInput),
        note: 'sent again: the membership was removed now',
        httpStatus: res.status,
        resent: true,
      };
    } catch (error) {
      const e = readApiError(error);
      if (e.kind === 'not_found' || (e.kind === 'conflict' && e.grpcCode === 9)) {
        return {
          outcome: 'applied',
          result: { revokeTaskId: '', alreadyRemoved: true },
          note: `the server no longer has this membership (${e.message}): it was removed`,
          httpStatus: e.status ?? undefined,
          resent: true,
        };
      }
      throw error;
    }
  },
};

// ---------------------------------------------------------------------------------------------
// escalate-task

export interface EscalateTaskInput extends Record<string, unknown> {
  taskId: string;
  policyStepId: string;
  comment?: string;
}

function emergencyAccessOf(body: unknown): boolean | null {
  const value = get(body, 'taskView', 'task', 'emergencyAccess') ?? get(body, 'task', 'emergencyAccess');
  return typeof value === 'boolean' ? value : value === undefined ? null : Boolean(value);
}

const escalateTask: KindDescriptor<EscalateTaskInput> = {
  kind: 'escalate-task',
  version: 1,
  label: 'Escalate task to emergency access',
  validate(raw) {
    const obj = asObject(raw, 'escalate-task');
    const out: EscalateTaskInput = { taskId: requiredId(obj, 'taskId'), policyStepId: requiredId(obj, 'policyStepId') };
    const comment = optionalString(obj, 'comment', 8192);
    if (comment !== undefined && comment !== '') out.comment = comment;
    return out;
  },
  request: (i) => ({
    method: 'POST',
    path: `/tasks/${seg(i.taskId)}/action/escalate`,
    body: { policyStepId: i.policyStepId, ...(i.comment !== undefined ? { comment: i.comment } : {}) },
  }),
  target: (i) => `task:${i.taskId}`,
  dedupeKey: (i) => `${i.taskId}\u0000${i.policyStepId}`,
  summary: (i) => `escalate task ${i.taskId} (policy step ${i.policyStepId}) to emergency access`,
  overlay: (i) => [{ collection: 'tasks', objectId: i.taskId, effect: 'pending-escalation', data: { ...i } }],
  result: (body, i) => ({
    taskId: text(get(body, 'taskView', 'task', 'id')) || i.taskId,
    emergencyAccess: emergencyAccessOf(body) ?? false,
  }),
  reconcileHow: 'reads the task: emergencyAccess set means the escalation was applied',
  async reconcile({ api, input, signal }) {
    const res = await api.request({ method: 'GET', path: `/tasks/${seg(input.taskId)}`, signal });
    const emergency = emergencyAccessOf(res.body);
    if (emergency === true)
      return {
        outcome: 'applied',
        result: { taskId: input.taskId, emergencyAccess: true },
        note: 'the task is in emergency access: the escalation was applied',
        httpStatus: res.status,
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

// ---------------------------------------------------------------------------------------------
// update-template

/** Template fields a request may change, with how each is checked. */
type FieldCheck = (value: unknown, path: string, stored: unknown) => void;

const str: FieldCheck = (v, p) => {
  if (typeof v !== 'string') throw new OutboxValidationError(p, `${p} must be a string`);
};
const bool: FieldCheck = (v, p) => {
  if (typeof v !== 'boolean') throw new OutboxValidationError(p, `${p} must be true or false`);
};
const int: FieldCheck = (v, p) => {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
    throw new OutboxValidationError(p, `${p} must be a whole number of 0 or more`);
};
const dateTime: FieldCheck = (v, p) => {
  if (v !== null) checkDateTime(v, p);
};
const stringList: FieldCheck = (v, p) => void checkStringArray(v, p);
const freeObject: FieldCheck = (v, p) => {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new OutboxValidationError(p, `${p} must be an object`);
};
function enumList(values: readonly string[]): FieldCheck {
  return (v, p, stored) => {
    const list = checkStringArray(v, p);
    const storedValues = Array.isArray(stored) ? stored : [];
    list.forEach((item, i) => checkEnum(values, item, `${p}[${i}]`, storedValues));
  };
}
function message(members: Record<string, FieldCheck>, responseOnly: string[] = []): FieldCheck {
  return (v, p, stored) => {
    freeObject(v, p, stored);
    for (const [key, value] of Object.entries(v as Record<string, unknown>)) {
      const path = `${p}.${key}`;
      if (responseOnly.includes(key)) {
        if (sameValue(value, get(stored, key))) continue;
        throw new OutboxValidationError(path, `${path} is set by the server and cannot be changed`);
      }
      const check = members[key];
      if (!check) throw new OutboxValidationError(path, `${path} is not a field of ${p} (known: ${Object.keys(members).join(', ')})`);
      if (value === null) continue;
      check(value, path, get(stored, key));
    }
  };
}

const notificationConfig = message({ sendClose: bool, sendKickoff: bool, sendReminders: bool });
const SCOPE_SELECTOR_MEMBERS = [
  'accountCelExpression',
  'accountCriteria',
  'allAccessConflicts',
  'allAccounts',
  'allGrants',
  'allUsers',
  'appAccess',
  'appSelectionCriteria',
  'celExpression',
  'excludedResourceTypeSelections',
  'excludedSpecificResources',
  'grantsByCriteria',
  'principalTypeFilter',
  'resourceSelection',
  'resourceTypeSelections',
  'scopeRoleSelection',
  'selectedUsers',
  'specificAccessConflicts',
  'specificResources',
  'userCriteria',
];
const scopeSelector: FieldCheck = (v, p, stored) => {
  freeObject(v, p, stored);
  for (const [key, value] of Object.entries(v as Record<string, unknown>)) {
    const path = `${p}.${key}`;
    if (!SCOPE_SELECTOR_MEMBERS.includes(key))
      throw new OutboxValidationError(path, `${path} is not a member of the scope selector (known: ${SCOPE_SELECTOR_MEMBERS.join(', ')})`);
    if (key === 'principalTypeFilter') {
      if (!sameValue(value, get(stored, key))) throw new OutboxValidationError(path, `${path} is set by the server and cannot be changed`);
      continue;
    }
    if (value !== null) freeObject(value, path, undefined);
  }
};

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

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/** The user's partial object laid over the synced one (objects merge; lists and scalars replace). */
function mergeOver(base: unknown, patch: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(patch)) return patch;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) out[k] = isPlainObject(v) && isPlainObject(base[k]) ? mergeOver(base[k], v) : v;
  return out;
}

const updateTemplate: KindDescriptor<UpdateTemplateInput> = {
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

// ---------------------------------------------------------------------------------------------
// create-campaign

export interface CreateCampaignInput extends Record<string, unknown> {
  displayName: string;
  ownerIds: string[];
  description?: string;
  policyId?: string;
  completionDate?: string;
  duplicateFrom?: string;
  notificationConfig?: Record<string, boolean>;
  scopeV2?: Record<string, unknown>;
  expandMask?: { paths: string[] };
}

/** The campaign itself, from the wrapper `{ accessReview: { accessReview: <campaign> } }` or a bare row. */
function campaignOf(row: unknown): Record<string, unknown> | undefined {
  const inner = get(row, 'accessReview', 'accessReview') ?? get(row, 'accessReview') ?? row;
  return isPlainObject(inner) ? inner : undefined;
}

function ownersOf(row: unknown, campaign: Record<string, unknown>): string[] | null {
  for (const candidate of [campaign.ownerIds, get(row, 'accessReview', 'ownerIds'), get(campaign, 'bindings', 'ownerIds')]) {
    if (Array.isArray(candidate)) return candidate.filter((v): v is string => typeof v === 'string');
  }
  return null;
}

const createCampaign: KindDescriptor<CreateCampaignInput> = {
  kind: 'create-campaign',
  version: 1,
  label: 'Create access review campaign',
  validate(raw) {
    const obj = asObject(raw, 'create-campaign');
    const displayName = optionalString(obj, 'displayName', 1024)?.trim();
    if (!displayName) throw new OutboxValidationError('displayName', 'displayName is required: the campaign needs a name');
    if (obj.ownerIds === undefined || obj.ownerIds === null)
      throw new OutboxValidationError('ownerIds', 'ownerIds is required: at least one owner');
    const ownerIds = checkIdArray(obj.ownerIds, 'ownerIds').map((v) => v.trim());
    if (ownerIds.length === 0) throw new OutboxValidationError('ownerIds', 'ownerIds is empty: a campaign needs at least one owner');
    const out: CreateCampaignInput = { displayName, ownerIds };
    const description = optionalString(obj, 'description', 8192);
    if (description) out.description = description;
    if (obj.policyId !== undefined && obj.policyId !== '') out.policyId = requiredId(obj, 'policyId');
    if (obj.duplicateFrom !== undefined && obj.duplicateFrom !== '') out.duplicateFrom = requiredId(obj, 'duplicateFrom');
    if (obj.completionDate !== undefined && obj.completionDate !== null && obj.completionDate !== '')
      out.completionDate = checkDateTime(obj.completionDate, 'completionDate');
    if (obj.notificationConfig !== undefined && obj.notificationConfig !== null) {
      notificationConfig(obj.notificationConfig, 'notificationConfig', undefined);
      const nc = obj.notificationConfig as Record<string, unknown>;
      out.notificationConfig = {};
      for (const k of ['sendClose', 'sendKickoff', 'sendReminders'] as const) {
        const b = optionalBoolean(nc, k, `notificationConfig.${k}`);
        if (b !== undefined) out.notificationConfig[k] = b;
      }
    }
    if (obj.scopeV2 !== undefined && obj.scopeV2 !== null) {
      scopeSelector(obj.scopeV2, 'scopeV2', undefined);
      out.scopeV2 = obj.scopeV2 as Record<string, unknown>;
    }
    if (obj.expandMask !== undefined && obj.expandMask !== null) {
      const paths = get(obj.expandMask, 'paths');
      out.expandMask = { paths: checkStringArray(paths ?? [], 'expandMask.paths') };
    }
    for (const key of Object.keys(obj)) {
      if (
        ![
          'displayName',
          'ownerIds',
          'description',
          'policyId',
          'duplicateFrom',
          'completionDate',
          'notificationConfig',
          'scopeV2',
          'expandMask',
        ].includes(key)
      ) {
        throw new OutboxValidationError(
          key,
          `'${key}' is not a field of a new campaign (known: displayName, description, ownerIds, policyId, duplicateFrom, completionDate, notificationConfig, scopeV2, expandMask)`,
        );
      }
    }
    return out;
  },
  request: (i) => ({ method: 'POST', path: '/access_review', body: { ...i } }),
  target: (i) => `campaign-name:${i.displayName}`,
  dedupeKey: (i) => `${i.displayName}\u0000${[...i.ownerIds].sort().join(',')}`,
  summary: (i) =>
    `create campaign '${i.displayName}' owned by ${i.ownerIds.join(', ')}${i.duplicateFrom ? ` (duplicate of ${i.duplicateFrom})` : ''}`,
  overlay: (i, itemId) => [{ collection: 'campaigns', objectId: `pending:${itemId}`, effect: 'pending-creation', data: { ...i } }],
  result(body) {
    const c = campaignOf(body);
    return { campaignId: text(c?.id), state: text(c?.state) };
  },
  refresh(body) {
    const c = campaignOf(body);
    // The campaigns collection keeps each campaign's AccessReviewView: the `accessReview` member of the create's answer.
    const view = get(body, 'accessReview');
    return c && typeof c.id === 'string' && isPlainObject(view) ? [{ collection: 'campaigns', id: c.id, json: view }] : [];
  },
  reconcileHow:
    'lists the campaigns: one with the same name (and owners, where shown) created since the first attempt means it was created',
  async reconcile({ api, input, item, signal }) {
    const since = item.firstSentAt ? Date.parse(item.firstSentAt) - 10 * 60_000 : 0;
    const matches = (
      await findInList(
        api,
        (pageToken) => ({
          method: 'GET',
          path: '/access_reviews',
          query: { page_size: 100, ...(pageToken ? { page_token: pageToken } : {}) },
          signal,
        }),
        (row) => {
          const c = campaignOf(row);
          if (!c || c.displayName !== input.displayName) return false;
          const created = typeof c.createdAt === 'string' ? Date.parse(c.createdAt) : NaN;
          if (!Number.isNaN(created) && created < since) return false;
          const owners = ownersOf(row, c);
          return !owners || input.ownerIds.every((o) => owners.includes(o));
        },
      )
    ).map((row) => campaignOf(row)!);
    if (matches.length === 0)
      return { outcome: 'not-applied', note: `no campaign named '${input.displayName}' was created since the first attempt` };
    if (matches.length > 1)
      return {
        outcome: 'unknown',
        note: `${matches.length} campaigns named '${input.displayName}' were created since the first attempt; decide which is ours`,
      };
    const c = matches[0] as Record<string, unknown>;
    return {
      outcome: 'applied',
      result: { campaignId: text(c.id), state: text(c.state) },
      note: `found campaign ${text(c.id)} with this name: it was created`,
    };
  },
};

// ---------------------------------------------------------------------------------------------

export const KINDS = {
  'create-scope': createScope,
  'remove-membership': removeMembership,
  'escalate-task': escalateTask,
  'update-template': updateTemplate,
  'create-campaign': createCampaign,
} as const satisfies Record<MutationKind, { kind: MutationKind; version: number }>;

export function descriptorOf(kind: string): KindDescriptor {
  const d = (KINDS as Record<string, unknown>)[kind];
  if (!d) throw new OutboxValidationError('kind', `unknown change kind '${kind}' (known: ${Object.keys(KINDS).join(', ')})`);
  return d as KindDescriptor;
}

/** A validated change, ready to be written. */
export interface PreparedChange {
  kind: MutationKind;
  version: number;
  input: Record<string, unknown>;
  request: OutboxRequest;
  digest: string;
  target: string;
  dedupeKey: string;
  summary: string;
}

export function prepareChange(kind: MutationKind, raw: unknown, ctx: ValidationContext): PreparedChange {
  const d = descriptorOf(kind);
  const input = d.validate(raw, ctx);
  const request = d.request(input);
  return {
    kind,
    version: d.version,
    input,
    request,
    digest: requestDigest(request),
    target: d.target(input),
    dedupeKey: d.dedupeKey(input),
    summary: d.summary(input),
  };
}
