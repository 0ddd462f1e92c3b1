/**
 * Access review campaigns: list and get (the nested wrapper, built on read from the stored
 * campaign) and create (spec), with `duplicateFrom` copying an existing campaign's setup.
 */
import type { AccessReview, AccessReviewView } from '../../shared/api-types';
import { ACCESS_REVIEW_SCOPE_TYPE_VALUES } from '../../shared/enums';
import { badField } from '../errors';
import { optBoolean, optEnum, optExpandMask, optObject, optString, optStringArray, optTimestamp } from '../input';
import { Random } from '../random';
import { FULL_PERMISSIONS, getOr404, listPage, param, type RequestContext, type Route } from './common';

export function campaignView(campaign: AccessReview): AccessReviewView {
  return { accessReview: campaign, createdByUserPath: '', objectPermissions: FULL_PERMISSIONS, policyPath: '' };
}

function listCampaigns(ctx: RequestContext) {
  const page = listPage(ctx, { collection: ctx.data.campaigns });
  return { list: page.items.map(campaignView), nextPageToken: page.nextPageToken, expanded: [] };
}

function getCampaign(ctx: RequestContext) {
  const campaign = getOr404(ctx.data.campaigns, param(ctx, 'id'), 'access_review');
  return { accessReview: campaignView(campaign), expanded: [] };
}

function createCampaign(ctx: RequestContext) {
  const body = ctx.body;
  const ownerIds = optStringArray(body, 'ownerIds') ?? [];
  if (ownerIds.length === 0) throw badField('ownerIds', 'is required: name at least one owner');
  ownerIds.forEach((owner, i) => {
    if (owner.trim() === '') throw badField(`ownerIds[${i}]`, 'is empty');
  });
  const displayName = optString(body, 'displayName');
  const description = optString(body, 'description');
  const completionDate = optTimestamp(body, 'completionDate');
  const policyId = optString(body, 'policyId');
  const scopeType = optEnum(body, 'scopeType', ACCESS_REVIEW_SCOPE_TYPE_VALUES);
  const scopeV2 = optObject(body, 'scopeV2');
  const notificationInput = optObject(body, 'notificationConfig');
  const notificationConfig = notificationInput && {
    sendClose: optBoolean(notificationInput, 'sendClose', 'notificationConfig.sendClose') ?? false,
    sendKickoff: optBoolean(notificationInput, 'sendKickoff', 'notificationConfig.sendKickoff') ?? false,
    sendReminders: optBoolean(notificationInput, 'sendReminders', 'notificationConfig.sendReminders') ?? false,
  };
  optExpandMask(body);
  const duplicateFrom = optString(body, 'duplicateFrom');
  const source = duplicateFrom ? getOr404(ctx.data.campaigns, duplicateFrom, 'access_review') : undefined;

  const id = ctx.data.newId();
  const now = new Date().toISOString();
  const createdById = ctx.data.identityUserIds[0] ?? '';
  // A copy keeps the source's setup (template, scope, configuration) and starts over as a draft.
  const base: AccessReview = source
    ? { ...structuredClone(source), displayName: `Copy of ${source.displayName ?? ''}`.trim() }
    : ctx.data.build.campaign(new Random(ctx.data.seed, `campaign:${id}`), {
        id,
        createdAt: now,
        displayName: 'Untitled access review',
        description: '',
      });
  const campaign: AccessReview = {
    ...base,
    id,
    createdById,
    state: 'ACCESS_REVIEW_STATE_DRAFT',
    errorState: 'ACCESS_REVIEW_ERROR_STATE_UNSPECIFIED',
    createdAt: now,
    updatedAt: now,
    startedAt: null,
    closedAt: null,
    scheduledStartDate: null,
    connectorSourcesFrozenAt: null,
    expectedTicketCount: 0,
    campaignHealth: { checkedAt: now, phantomLockedCount: 0 },
    campaignInsights: { markdown: '' },
    bindings: { ownerIds },
    ...(displayName !== undefined && displayName !== '' ? { displayName } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(completionDate !== undefined ? { completionDate } : {}),
    ...(policyId !== undefined && policyId !== '' ? { policyId } : {}),
    ...(scopeType !== undefined ? { scopeType } : {}),
    ...(scopeV2 !== undefined ? { scopeV2 } : {}),
    ...(notificationConfig ? { notificationConfig } : {}),
  };
  ctx.data.campaigns.set(id, campaign);
  ctx.record(id);
  return { accessReview: campaignView(campaign), expanded: [] };
}

export const campaignRoutes: Route[] = [
  { method: 'GET', path: '/api/v1/access_reviews', handle: listCampaigns },
  { method: 'GET', path: '/api/v1/access_review/{id}', handle: getCampaign },
  { method: 'POST', path: '/api/v1/access_review', operation: 'createCampaign', handle: createCampaign },
];
