/** create-campaign: a new access review campaign; reconciled by listing the campaigns. */
import { SCOPE_SELECTOR_READ_ONLY, withoutMembers } from '../../../shared/read-only-members';
import { OutboxValidationError } from '../types';
import type { KindDescriptor } from './descriptor';
import { findInList, get, text } from './server';
import { StoreChecker } from './store-checks';
import {
  asObject,
  checkDateTime,
  checkIdArray,
  checkStringArray,
  isPlainObject,
  notificationConfig,
  optionalBoolean,
  optionalString,
  requiredId,
  scopeSelector,
} from './validation';

export interface CreateCampaignInput extends Record<string, unknown> {
  displayName: string;
  ownerIds: string[];
  description?: string;
  policyId?: string;
  completionDate?: string;
  duplicateFrom?: string;
  /** The template the campaign was set up from: kept with the change, never sent (the create request has no such member). */
  templateId?: string;
  notificationConfig?: Record<string, boolean>;
  scopeV2?: Record<string, unknown>;
  expandMask?: { paths: string[] };
}

/** The fields a new campaign may have (in the order the refusal of another one lists them). */
const CAMPAIGN_FIELDS = [
  'displayName',
  'description',
  'ownerIds',
  'policyId',
  'duplicateFrom',
  'completionDate',
  'notificationConfig',
  'scopeV2',
  'expandMask',
  'templateId',
];
const CAMPAIGN_FIELDS_TEXT = CAMPAIGN_FIELDS.join(', ');

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

export const createCampaign: KindDescriptor<CreateCampaignInput> = {
  kind: 'create-campaign',
  version: 1,
  label: 'Create access review campaign',
  endpoint: 'POST /api/v1/access_review',
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
    if (obj.templateId !== undefined && obj.templateId !== '') out.templateId = requiredId(obj, 'templateId');
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
      // A scope copied from a synced campaign carries members the server sets (principalTypeFilter,
      // grantsByCriteria.typeFilter...): they are no choice of the user's, and never sent.
      const scope = isPlainObject(obj.scopeV2) ? withoutMembers(obj.scopeV2, Object.keys(SCOPE_SELECTOR_READ_ONLY)) : obj.scopeV2;
      scopeSelector(scope, 'scopeV2', undefined);
      out.scopeV2 = scope as Record<string, unknown>;
    }
    if (obj.expandMask !== undefined && obj.expandMask !== null) {
      const paths = get(obj.expandMask, 'paths');
      out.expandMask = { paths: checkStringArray(paths ?? [], 'expandMask.paths') };
    }
    const unknown = Object.keys(obj).find((key) => !CAMPAIGN_FIELDS.includes(key));
    if (unknown !== undefined) {
      throw new OutboxValidationError(unknown, `'${unknown}' is not a field of a new campaign (known: ${CAMPAIGN_FIELDS_TEXT})`);
    }
    return out;
  },
  checkStore(input, ctx) {
    const c = new StoreChecker(ctx);
    input.ownerIds.forEach((owner, i) => c.find(`ownerIds[${i}]`, 'users', owner));
    if (input.policyId) c.find('policyId', 'policies', input.policyId);
    if (input.duplicateFrom) c.find('duplicateFrom', 'campaigns', input.duplicateFrom);
    if (input.templateId) c.find('templateId', 'templates', input.templateId);
    return c.result();
  },
  request: ({ templateId: _local, ...body }) => ({ method: 'POST', path: '/access_review', body }),
  target: (i) => `campaign-name:${i.displayName}`,
  dedupeKey: (i) => `${i.displayName}\u0000${[...i.ownerIds].sort().join(',')}`,
  summary: (i) =>
    `create campaign '${i.displayName}' owned by ${i.ownerIds.join(', ')}` +
    (i.templateId ? ` from template ${i.templateId}` : '') +
    (i.duplicateFrom ? ` (duplicate of ${i.duplicateFrom})` : ''),
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
