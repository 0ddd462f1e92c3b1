/** A new campaign's completion date from a date or a duration, and what it takes from a template. */
import { describe, expect, it } from 'vitest';
import { completionDateOf, setupFromTemplate } from '../../src/shared/campaign-setup';

const NOW = new Date('2026-11-28T09:30:00.000Z');

describe('completionDateOf', () => {
  it('reads a date as the start of that day in UTC, and a date-time as given', () => {
    expect(completionDateOf('2026-12-31', NOW)).toBe('2026-12-31T00:00:00Z');
    expect(completionDateOf(' 2026-12-31T17:00:00Z ', NOW)).toBe('2026-12-31T17:00:00Z');
    expect(completionDateOf('2026-12-31t17:00:00+02:00', NOW)).toBe('2026-12-31T17:00:00+02:00');
  });

  it('counts a duration from now, in every form the durations take', () => {
    expect(completionDateOf('21d', NOW)).toBe('2026-12-19T09:30:00Z');
    expect(completionDateOf('36h', NOW)).toBe('2026-11-29T21:30:00Z');
    expect(completionDateOf('1209600s', NOW)).toBe('2026-12-12T09:30:00Z');
    expect(completionDateOf('2 weeks', NOW)).toBe('2026-12-12T09:30:00Z');
  });

  it('is empty for no text, and null for what is neither a date nor a duration', () => {
    expect(completionDateOf('  ', NOW)).toBe('');
    for (const bad of ['three weeks', '2026-02-30', '2026-13-01T00:00:00Z', '31/12/2026', '21x'])
      expect(completionDateOf(bad, NOW), bad).toBeNull();
  });
});

describe('setupFromTemplate', () => {
  it('takes the policy, the scope as scopeV2, the notifications, the description and the length', () => {
    expect(
      setupFromTemplate({
        id: 'tpl-1',
        displayName: 'Quarterly',
        description: 'Every quarter',
        policyId: 'pol-1',
        scope: { allUsers: {} },
        notificationConfig: { sendClose: true, sendKickoff: false, other: 'x' },
        accessReviewDuration: '1814400s',
        autoStartCampaign: true,
      }),
    ).toEqual({
      templateId: 'tpl-1',
      policyId: 'pol-1',
      description: 'Every quarter',
      scopeV2: { allUsers: {} },
      notificationConfig: { sendClose: true, sendKickoff: false },
      duration: '1814400s',
    });
  });

  it('leaves out what the template does not set (an empty scope, no length, an empty policy)', () => {
    expect(setupFromTemplate({ id: 'tpl-2', policyId: '', scope: {}, accessReviewDuration: '0s' })).toEqual({ templateId: 'tpl-2' });
  });
});
