import { getAccessReview, walks } from '../api/endpoints';
import { bool, date, enumCol, int, text, under, type CollectionDescriptor } from './descriptor';
import { celText, getPath, lines, str, unique } from './extract';

const CAMPAIGN = 'accessReview.accessReview';
const campaignOf = (wrapper: unknown): unknown => getPath(wrapper, CAMPAIGN);

/** Listed as summaries; each campaign is stored as the wrapper `GET /access_review/{id}` returns. */
export const campaigns: CollectionDescriptor = {
  id: 'campaigns',
  title: 'Access review campaigns',
  pageSize: walks.accessReviews.pageSize,
  listKey: walks.accessReviews.listKey,
  fetchPage: (api, req, signal) => walks.accessReviews.fetchPage(api)(req, signal),
  detail: {
    idOfListItem: (item) => str(getPath(item, 'accessReview.id')),
    fetch: (api, id, signal) => getAccessReview(api, id, { signal }),
  },
  idOf: (wrapper) => str(getPath(campaignOf(wrapper), 'id')),
  diffRoot: CAMPAIGN,
  columns: under(CAMPAIGN, [
    text('displayName', 'Name'),
    enumCol('state', 'State'),
    enumCol('errorState', 'Error state'),
    enumCol('scopeType', 'Scope type'),
    text('accessReviewTemplateId', 'Template'),
    text('policyId', 'Policy'),
    int('expectedTicketCount', 'Expected tickets'),
    bool('autoCloseCampaign', 'Auto-close'),
    date('createdAt', 'Created'),
    date('startedAt', 'Started'),
    date('completionDate', 'Due'),
    date('closedAt', 'Closed'),
    date('updatedAt', 'Updated'),
  ]),
  defaultSort: { column: 'createdAt', dir: 'desc' },
  searchText: (wrapper) => {
    const c = campaignOf(wrapper);
    return {
      title: str(getPath(c, 'displayName')),
      body: lines(
        str(getPath(c, 'description')),
        str(getPath(c, 'reviewInstructions')),
        str(getPath(c, 'campaignInsights.markdown')),
        str(getPath(c, 'id')),
        celText(c),
      ),
    };
  },
  references: (wrapper) => ({ templates: unique([str(getPath(campaignOf(wrapper), 'accessReviewTemplateId'))]) }),
};
