import { PAGE_SIZE_MAX } from '../../shared/pagination';
import { getAccessReviewTemplate } from '../api/endpoints';
import { bool, date, enumCol, refCol, text, type CollectionDescriptor } from './descriptor';
import { celText, getPath, lines, str } from './extract';

/** No list exists: the templates the current campaigns and automations name, read one by one. */
export const templates: CollectionDescriptor = {
  id: 'templates',
  title: 'Access review templates',
  pageSize: PAGE_SIZE_MAX,
  listKey: 'accessReviewTemplate',
  byIds: {
    referencedBy: ['campaigns', 'automations'],
    fetch: (api, id, signal) => getAccessReviewTemplate(api, id, { signal }),
  },
  readOne: { fetch: (api, id, signal) => getAccessReviewTemplate(api, id, { signal }), member: 'accessReviewTemplate' },
  idOf: (t) => str(getPath(t, 'id')),
  columns: [
    text('displayName', 'Name'),
    enumCol('scopeType', 'Scope type', 'AccessReviewScopeType'),
    text('accessReviewDuration', 'Duration'),
    bool('isCampaignScheduleEnabled', 'Scheduled'),
    bool('autoStartCampaign', 'Auto-start'),
    refCol('policyId', 'Policy', 'policies'),
    date('nextScheduledCampaignAt', 'Next campaign'),
    date('createdAt', 'Created'),
    date('updatedAt', 'Updated'),
  ],
  defaultSort: { column: 'displayName', dir: 'asc' },
  searchText: (t) => ({
    title: str(getPath(t, 'displayName')),
    body: lines(str(getPath(t, 'description')), str(getPath(t, 'reviewInstructions')), str(getPath(t, 'id')), celText(t)),
  }),
};
