import { getAccessReview, walks } from '../api/endpoints';
import { bool, date, enumCol, idFilter, int, refCol, text, under, type CollectionDescriptor } from './descriptor';
import { celText, getPath, lines, str, unique } from './extract';

const CAMPAIGN = 'accessReview';
const campaignOf = (view: unknown): unknown => getPath(view, CAMPAIGN);

/**
 * Each row of `GET /access_reviews` is the campaign's AccessReviewView (the campaign under
 * `accessReview`, with its permissions and paths): the very member `GET /access_review/{id}` wraps,
 * whose only other member is `expanded` (filled by an expand mask, which the sync does not ask
 * for). So the row is stored as received and no campaign is read again by id.
 */
export const campaigns: CollectionDescriptor = {
  id: 'campaigns',
  title: 'Access review campaigns',
  pageSize: walks.accessReviews.pageSize,
  listKey: walks.accessReviews.listKey,
  fetchPage: (api, req, signal) => walks.accessReviews.fetchPage(api)(req, signal),
  // The wrapper's `accessReview` member is the very view the list rows are.
  readOne: { fetch: (api, id, signal) => getAccessReview(api, id, { signal }), member: CAMPAIGN },
  idOf: (view) => str(getPath(campaignOf(view), 'id')),
  diffRoot: CAMPAIGN,
  columns: under(CAMPAIGN, [
    text('displayName', 'Name'),
    enumCol('state', 'State', 'AccessReviewState'),
    enumCol('errorState', 'Error state', 'AccessReviewErrorState'),
    enumCol('scopeType', 'Scope type', 'AccessReviewScopeType'),
    idFilter('accessReviewTemplateId', 'Template', 'templates'),
    // The campaign's owner in the API's terms: the user who created it (its `createdByUserPath`).
    idFilter('createdById', 'Created by', 'users'),
    refCol('policyId', 'Policy', 'policies'),
    int('expectedTicketCount', 'Expected tickets'),
    bool('autoCloseCampaign', 'Auto-close'),
    date('createdAt', 'Created'),
    date('startedAt', 'Started'),
    date('completionDate', 'Due'),
    date('closedAt', 'Closed'),
    date('updatedAt', 'Updated'),
  ]),
  defaultSort: { column: 'createdAt', dir: 'desc' },
  searchText: (view) => {
    const c = campaignOf(view);
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
  references: (view) => ({ templates: unique([str(getPath(campaignOf(view), 'accessReviewTemplateId'))]) }),
};
