import { describe, expect, it } from 'vitest';
import { fieldLabel, valueWords } from '../../src/main/reports/diff-values';

describe('a changed value in words', () => {
  it("labels a field by its column's label, else by its path in words (items numbered from 1)", () => {
    expect(fieldLabel('campaigns', 'state')).toBe('State');
    expect(fieldLabel('campaigns', 'completionDate')).toBe('Due');
    expect(fieldLabel('scopes', 'displayName')).toBe('Name');
    expect(fieldLabel('campaigns', 'reviewInstructions')).toBe('Review instructions');
    expect(fieldLabel('automations', 'automationSteps[2].sendEmail.subject')).toBe('Automation steps 3 › Send email › Subject');
    // A member of the wrapper, outside the campaign itself, keeps its whole path.
    expect(fieldLabel('campaigns', 'objectPermissions.edit')).toBe('Object permissions › Edit');
  });

  it('gives a time in UTC, an enum value its label, an absent value as empty, and a list or object as JSON', () => {
    expect(valueWords('updatedAt', '2026-03-01T09:00:00.123Z')).toBe('2026-03-01 09:00:00.123 UTC');
    expect(valueWords('state', 'ACCESS_REVIEW_STATE_OPEN')).toBe('Open');
    expect(valueWords('description', undefined)).toBeNull();
    expect(valueWords('priority', 999)).toBe(999);
    expect(valueWords('userIds', ['u1', 'u2'])).toBe('["u1","u2"]');
    expect(String(valueWords('data', { text: 'x'.repeat(5000) })).length).toBe(2000);
  });
});
