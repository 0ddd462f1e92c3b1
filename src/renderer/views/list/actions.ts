import type { CollectionId, ObjectRow } from '../../../shared/contract';
import { call, errorMessage } from '../../api';
import type { ReasonField } from '../../components/ConfirmPanel';
import { ESCALATION_REASON, escalationOf, queueEscalation } from '../../components/escalation';

/** What an action on selected rows did: how many changes it queued, and the rows it left out, each with why. */
export interface ListActionResult {
  queued: number;
  skipped: { name: string; reason: string }[];
}

/** An action on the rows selected in a list: it queues changes in the outbox (nothing is sent). */
export interface ListAction {
  label: (count: number) => string;
  /** Asked before it runs: the question naming the count, and a reason to give with the changes. */
  confirm?: { question(count: number): string; confirmLabel(count: number): string; reason?: ReasonField };
  /** Queues the changes for these objects (with the reason given). Throws naming the object at fault when it queues none. */
  run(ids: string[], reason?: string): Promise<ListActionResult>;
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
    return { queued: inputs.length, skipped: [] };
  },
};

/** The objects of `ids` as the store has them now (ids not in the store left out), read 50 at a time. */
async function rowsOf(collection: CollectionId, ids: string[]): Promise<Map<string, ObjectRow>> {
  const rows = new Map<string, ObjectRow>();
  for (let at = 0; at < ids.length; at += 50) {
    const chunk = ids.slice(at, at + 50);
    const page = await call('listObjects', { collection, filters: { id: chunk }, limit: chunk.length });
    for (const row of page.rows) rows.set(row.id, row);
  }
  return rows;
}

/**
 * Each selected task escalated to emergency access, with its current policy step taken from the
 * task (as its page does). Tasks that cannot be escalated now are left out, each with why; so is a
 * task whose escalation the outbox refuses.
 */
const escalateTasks: ListAction = {
  label: (count) => (count === 1 ? 'Escalate' : `Escalate (${count})`),
  confirm: {
    question: (count) => `Escalate ${count === 1 ? 'this task' : `these ${count} tasks`} to emergency access?`,
    confirmLabel: (count) => `Escalate ${count}`,
    reason: ESCALATION_REASON,
  },
  async run(ids, reason = '') {
    const rows = await rowsOf('tasks', ids);
    const result: ListActionResult = { queued: 0, skipped: [] };
    for (const id of ids) {
      const row = rows.get(id);
      const escalation = row ? escalationOf(row) : { reason: 'not in the local copy' };
      const name = row?.title || id;
      if (!('input' in escalation)) {
        result.skipped.push({ name, reason: escalation.reason });
        continue;
      }
      try {
        await queueEscalation(escalation.input, reason);
        result.queued += 1;
      } catch (failure) {
        result.skipped.push({ name, reason: errorMessage(failure) });
      }
    }
    return result;
  },
};

/** The actions offered on selected rows, per collection. */
export const LIST_ACTIONS: Partial<Record<CollectionId, ListAction[]>> = {
  campaigns: [duplicateCampaigns],
  tasks: [escalateTasks],
};
