import type { CollectionId } from '../../../shared/contract';
import { call } from '../../api';

/** An action on the rows selected in a list: it queues changes in the outbox (nothing is sent). */
export interface ListAction {
  label: (count: number) => string;
  /** Queues the changes for these objects; answers how many were queued. Throws naming the object at fault. */
  run(ids: string[]): Promise<number>;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** A stored campaign is its AccessReviewView: the campaign is its `accessReview` member. */
function campaignOf(raw: string): Record<string, unknown> | undefined {
  const view = record(JSON.parse(raw));
  return record(view?.accessReview) ?? view;
}

/**
 * Each selected campaign duplicated as a new campaign (`duplicateFrom`). Its owners are the
 * original's (`bindings.ownerIds`), or its creator where it names none; the queued change can be
 * edited in the outbox before it is sent.
 */
const duplicateCampaigns: ListAction = {
  label: (count) => (count === 1 ? 'Queue a copy of this campaign' : `Queue a copy of each (${count})`),
  async run(ids) {
    const inputs = [];
    for (const id of ids) {
      const { object } = await call('getObject', { collection: 'campaigns', id });
      const campaign = object ? campaignOf(object.raw) : undefined;
      if (!object || !campaign) throw new Error(`The campaign ${id} is not in the local copy any more.`);
      const bindings = record(campaign.bindings);
      const owners = [bindings?.ownerIds, campaign.ownerIds].find((v) => Array.isArray(v) && v.length > 0) as unknown[] | undefined;
      const ownerIds = (owners ?? [campaign.createdById]).filter((o): o is string => typeof o === 'string' && o !== '');
      if (ownerIds.length === 0)
        throw new Error(`“${object.title || id}” names no owner and no creator: queue its copy from the New change form.`);
      inputs.push({ displayName: `${object.title || id} (copy)`, ownerIds, duplicateFrom: id });
    }
    // Every change checked as queuing would check it before any is queued: a refusal queues none.
    for (const input of inputs) await call('outboxCheck', { kind: 'create-campaign', input, editing: null });
    for (const input of inputs) await call('outboxEnqueue', { kind: 'create-campaign', input });
    return inputs.length;
  },
};

/** The actions offered on selected rows, per collection. */
export const LIST_ACTIONS: Partial<Record<CollectionId, ListAction[]>> = {
  campaigns: [duplicateCampaigns],
};
