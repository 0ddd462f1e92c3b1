/**
 * Access review templates: get (for sync) and update with an `updateMask` (spec).
 *
 * The mask is a google.protobuf.FieldMask in its JSON form: comma-separated camelCase paths,
 * dotted into nested messages (`notificationConfig.sendReminders`). Only the named fields change;
 * a named field absent from the body is cleared. Unknown and output-only paths are refused.
 */
import type { AccessReviewTemplate } from '../../shared/api-types';
import {
  ACCESS_REVIEW_TASK_COLUMN_VALUES,
  APP_USER_STATUS_VALUES,
  APP_USER_TYPE_VALUES,
  INCLUSION_USER_STATUS_VALUES,
} from '../../shared/enums';
import { TEMPLATE_READ_ONLY } from '../../shared/read-only-members';
import { badField } from '../errors';
import { isObject, optObject, optString } from '../input';
import { getOr404, param, type RequestContext, type Route } from './common';

type Kind =
  | 'string'
  | 'boolean'
  | 'int'
  | 'duration'
  | 'timestamp'
  | 'stringList'
  | 'stringMap'
  /** A list of objects, stored as given. */
  | 'objectList'
  /** Any JSON object, stored as given (selector markers and maps the spec leaves open). */
  | 'object'
  | { enumList: readonly string[] }
  | { message: Record<string, Kind> };

/** The writable fields of a template and their types (spec "Access review template"). */
const TEMPLATE_FIELDS: Record<string, Kind> = {
  displayName: 'string',
  description: 'string',
  reviewInstructions: 'string',
  accessReviewDuration: 'duration',
  annotations: 'stringMap',
  autoCloseCampaign: 'boolean',
  autoGenerateReport: 'boolean',
  autoStartCampaign: 'boolean',
  exemptCertifiedAccessConflicts: 'boolean',
  isCampaignScheduleEnabled: 'boolean',
  usePolicyOverride: 'boolean',
  columnConfig: { message: { columns: { enumList: ACCESS_REVIEW_TASK_COLUMN_VALUES }, orderedColumns: 'objectList' } },
  inclusionScope: {
    message: {
      appUserStatuses: { enumList: APP_USER_STATUS_VALUES },
      appUserTypes: { enumList: APP_USER_TYPE_VALUES },
      managerIds: 'stringList',
      multiUserProfileAttributes: 'object',
      noAccountOwners: 'boolean',
      userIds: 'stringList',
      userStatuses: { enumList: INCLUSION_USER_STATUS_VALUES },
    },
  },
  nextScheduledCampaignAt: 'timestamp',
  notificationConfig: { message: { sendClose: 'boolean', sendKickoff: 'boolean', sendReminders: 'boolean' } },
  occurrences: 'int',
  policyId: 'string',
  // `frequency` is response-only (spec), so it is not writable.
  recurrenceRule: { message: { startDate: 'timestamp', endDate: 'timestamp', interval: 'int', occurrences: 'int' } },
  reviewerAttributeConfig: { message: { bindings: 'objectList' } },
  scope: 'object',
  signatureConfig: { message: { meaningOfSignature: 'string', requireSignature: 'boolean', stepUpProviderId: 'string', tspUrl: 'string' } },
  chatChannel: { message: { channelId: 'string', description: 'string', name: 'string', isChannelId: 'boolean' } },
};

/** Top-level fields a mask may not name: the id, and those the server sets (the body may not hold these at all). */
const READ_ONLY = new Set<string>(['id', ...Object.keys(TEMPLATE_READ_ONLY).filter((path) => !path.includes('.'))]);
const DURATION = /^-?\d+(\.\d{1,9})?s$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** The value a cleared field takes. */
function empty(kind: Kind): unknown {
  if (kind === 'string') return '';
  if (kind === 'boolean') return false;
  if (kind === 'int') return 0;
  if (kind === 'stringList' || kind === 'objectList' || (typeof kind === 'object' && 'enumList' in kind)) return [];
  if (kind === 'stringMap') return {};
  return null;
}

/** A checked copy of `value` (unknown members of messages are dropped, as the gateway does). */
function check(kind: Kind, value: unknown, path: string): unknown {
  if (value === undefined || value === null) return empty(kind);
  const fail = (what: string): never => {
    throw badField(`accessReviewTemplate.${path}`, what);
  };
  if (kind === 'string') return typeof value === 'string' ? value : fail('must be a string');
  if (kind === 'boolean') return typeof value === 'boolean' ? value : fail('must be true or false');
  if (kind === 'int') return typeof value === 'number' && Number.isInteger(value) ? value : fail('must be a whole number');
  if (kind === 'duration') return typeof value === 'string' && DURATION.test(value) ? value : fail("must be a duration such as '1209600s'");
  if (kind === 'timestamp') {
    return typeof value === 'string' && TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value))
      ? new Date(value).toISOString()
      : fail('must be an RFC 3339 date-time');
  }
  if (kind === 'stringList')
    return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value.slice() : fail('must be a list of strings');
  if (kind === 'objectList')
    return Array.isArray(value) && value.every(isObject) ? structuredClone(value) : fail('must be a list of objects');
  if (kind === 'stringMap') {
    return isObject(value) && Object.values(value).every((v) => typeof v === 'string')
      ? { ...value }
      : fail('must be an object of strings');
  }
  if (kind === 'object') return isObject(value) ? structuredClone(value) : fail('must be an object');
  if ('enumList' in kind) {
    if (!Array.isArray(value)) return fail('must be a list');
    value.forEach((v, i) => {
      if (typeof v !== 'string' || !kind.enumList.includes(v)) fail(`[${i}] '${String(v)}' is not one of ${kind.enumList.join(', ')}`);
    });
    return value.slice();
  }
  if (!isObject(value)) return fail('must be an object');
  const out: Record<string, unknown> = {};
  for (const [member, memberKind] of Object.entries(kind.message)) out[member] = check(memberKind, value[member], `${path}.${member}`);
  return out;
}

/** The kind a mask path names, or a 400 saying why the path is refused. */
function resolve(path: string): Kind {
  const [head, ...rest] = path.split('.');
  if (head === undefined || head === '') throw badField('updateMask', `empty path in '${path}'`);
  if (READ_ONLY.has(head)) throw badField('updateMask', `'${head}' is output only and cannot be updated`);
  let kind: Kind | undefined = TEMPLATE_FIELDS[head];
  if (kind === undefined)
    throw badField(
      'updateMask',
      `unknown path '${path}'; paths are camelCase field names of the template, e.g. displayName or notificationConfig.sendReminders`,
    );
  for (const segment of rest) {
    kind = typeof kind === 'object' && 'message' in kind ? kind.message[segment] : undefined;
    if (kind === undefined) throw badField('updateMask', `unknown path '${path}'`);
  }
  return kind;
}

function getTemplate(ctx: RequestContext) {
  return { accessReviewTemplate: getOr404(ctx.data.templates, param(ctx, 'id'), 'access_review_template') };
}

function updateTemplate(ctx: RequestContext) {
  const id = param(ctx, 'id');
  const template = getOr404(ctx.data.templates, id, 'access_review_template') as AccessReviewTemplate & Record<string, unknown>;
  const mask = optString(ctx.body, 'updateMask');
  if (mask === undefined || mask.trim() === '')
    throw badField(
      'updateMask',
      'is required: name the fields to change, comma-separated (e.g. displayName,notificationConfig.sendReminders)',
    );
  const input = optObject(ctx.body, 'accessReviewTemplate');
  if (input === undefined) throw badField('accessReviewTemplate', 'is required');
  if (typeof input.id === 'string' && input.id !== '' && input.id !== id)
    throw badField('accessReviewTemplate.id', `'${input.id}' does not match the template in the path ('${id}')`);

  // Check every path and value before changing anything: an update applies whole or not at all.
  const changes = mask.split(',').map((raw) => {
    const path = raw.trim();
    const kind = resolve(path);
    let value: unknown = input;
    for (const segment of path.split('.')) value = isObject(value) ? value[segment] : undefined;
    return { path, value: check(kind, value, path) };
  });
  for (const { path, value } of changes) {
    const segments = path.split('.');
    let target: Record<string, unknown> = template;
    for (const segment of segments.slice(0, -1)) {
      if (!isObject(target[segment])) target[segment] = {};
      target = target[segment] as Record<string, unknown>;
    }
    target[segments[segments.length - 1] as string] = value;
  }
  template.updatedAt = new Date().toISOString();
  ctx.data.templates.changed();
  ctx.record(id);
  return { accessReviewTemplate: template };
}

export const templateRoutes: Route[] = [
  { method: 'GET', path: '/api/v1/access_review_template/{id}', handle: getTemplate },
  { method: 'POST', path: '/api/v1/access_review_template/{id}', operation: 'updateTemplate', handle: updateTemplate },
];
