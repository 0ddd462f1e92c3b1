/**
 * Queue-time checks of a new campaign against the store: its owners (users), its policy, the
 * campaign it duplicates and the template it was set up from, each named in the preview; an id a
 * complete collection does not hold is refused, one a partial collection (templates, gathered by
 * reference) does not hold is a warning. The template is kept with the change, never sent.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OutboxValidationError } from '../../src/main/outbox/queue';
import { openTestOutbox, type TestOutbox } from './outbox.fake';

let t: TestOutbox;
const AS_OF = '2025-06-01T10:00:00.000Z';

beforeEach(() => {
  t = openTestOutbox();
  for (const c of ['users', 'policies', 'campaigns', 'templates']) t.asOf.set(c, AS_OF);
  t.complete.set('users', { runId: 7, finishedAt: AS_OF });
  t.complete.set('policies', { runId: 7, finishedAt: AS_OF });
  t.synced.set('users/u-ada', { user: { id: 'u-ada', displayName: 'Ada Lovelace', email: 'ada@example.com' } });
  t.synced.set('users/u-alan', { user: { id: 'u-alan', displayName: 'Alan Turing', email: 'alan@example.com' } });
  t.synced.set('policies/pol-1', { id: 'pol-1', displayName: 'Manager review' });
  t.synced.set('templates/tpl-1', { id: 'tpl-1', displayName: 'Quarterly finance' });
});
afterEach(() => t.close());

function refusal(fn: () => unknown): OutboxValidationError {
  try {
    fn();
  } catch (error) {
    if (error instanceof OutboxValidationError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

const campaign = (over: Record<string, unknown> = {}) => ({ displayName: 'Q3 finance', ownerIds: ['u-ada', 'u-alan'], ...over });

describe('create-campaign against the store', () => {
  it('names the owners, the policy and the template in the preview and the summary; the template is not sent', () => {
    const preview = t.outbox.check('create-campaign', campaign({ policyId: 'pol-1', templateId: 'tpl-1' }));
    expect(preview.warnings).toEqual([]);
    expect(preview.names).toEqual({
      'ownerIds[0]': 'Ada Lovelace <ada@example.com>',
      'ownerIds[1]': 'Alan Turing <alan@example.com>',
      policyId: 'Manager review',
      templateId: 'Quarterly finance',
    });
    expect(preview.input.templateId).toBe('tpl-1');
    expect(preview.request.body).toEqual({ displayName: 'Q3 finance', ownerIds: ['u-ada', 'u-alan'], policyId: 'pol-1' });
    const item = t.outbox.enqueue('create-campaign', campaign({ templateId: 'tpl-1' }));
    expect(t.outbox.summariesInWords([item]).get(item.id)).toBe(
      "create campaign 'Q3 finance' owned by Ada Lovelace <ada@example.com> (u-ada), Alan Turing <alan@example.com> (u-alan) " +
        'from template Quarterly finance (tpl-1)',
    );
  });

  it('refuses an owner or a policy the complete users and policies do not hold, naming the field; nothing is queued', () => {
    const owner = refusal(() => t.outbox.enqueue('create-campaign', campaign({ ownerIds: ['u-ada', 'u-ghost'] })));
    expect([owner.field, owner.message]).toEqual([
      'ownerIds[1]',
      'unknown user u-ghost: not in the tenant as of run 7 (2025-06-01 10:00; sync again if it is newer)',
    ]);
    const policy = refusal(() => t.outbox.enqueue('create-campaign', campaign({ policyId: 'pol-x' })));
    expect([policy.field, policy.message.split(':')[0]]).toEqual(['policyId', 'unknown policy pol-x']);
    expect(t.outbox.list()).toEqual([]);
  });

  it('warns of a template the store does not hold (templates are gathered by reference) and queues the change', () => {
    const preview = t.outbox.check('create-campaign', campaign({ templateId: 'tpl-new' }));
    expect(preview.warnings).toHaveLength(1);
    expect(preview.warnings[0]!.field).toBe('templateId');
    expect(preview.warnings[0]!.message).toMatch(/^unknown template tpl-new: not in the store \(synced 2025-06-01 10:00\)/);
    expect(preview.warnings[0]!.message).toContain('attest template add ID');
    const { warnings } = t.outbox.enqueue('create-campaign', campaign({ templateId: 'tpl-new' }));
    expect(warnings.map((w) => w.field)).toEqual(['templateId']);
    expect(t.outbox.list()).toHaveLength(1);
  });

  it('warns of a campaign to duplicate that the partial campaigns do not hold, and of a template gone at the last sync', () => {
    t.gone.add('templates/tpl-1');
    const preview = t.outbox.check('create-campaign', campaign({ duplicateFrom: 'c-x', templateId: 'tpl-1' }));
    expect(preview.warnings.map((w) => [w.field, w.message.split(':')[0]])).toEqual([
      ['duplicateFrom', 'unknown campaign c-x'],
      ['templateId', 'template tpl-1 (Quarterly finance) was gone from the tenant at the last sync (2025-06-01 10'],
    ]);
  });

  it('refuses a template id that is not an id', () => {
    const error = refusal(() => t.outbox.check('create-campaign', campaign({ templateId: 'a/b' })));
    expect(error.field).toBe('templateId');
  });
});
