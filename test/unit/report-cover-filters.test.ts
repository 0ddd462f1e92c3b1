import { describe, expect, it } from 'vitest';
import { filtersInWords } from '../../src/main/reports/cover';

describe("the cover's filters in words", () => {
  it('names each column by its label and key, and each enum value by its label and exact value', () => {
    expect(
      filtersInWords({
        scopes: { state: ['XAA_SCOPE_STATE_ENABLED', 'XAA_SCOPE_STATE_QUARANTINED'], appId: 'app-1' },
        campaigns: { autoCloseCampaign: true },
      }),
    ).toBe(
      'Cross-app scopes: State (state) = Enabled (XAA_SCOPE_STATE_ENABLED) or XAA_SCOPE_STATE_QUARANTINED; App (appId) = app-1. ' +
        'Access review campaigns: Auto-close (autoCloseCampaign) = true',
    );
  });

  it('says when there is no filter', () => {
    expect(filtersInWords({})).toBe('none: every object of each collection');
    expect(filtersInWords({ scopes: {} })).toBe('none: every object of each collection');
  });
});
