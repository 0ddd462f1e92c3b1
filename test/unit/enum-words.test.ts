import { describe, expect, it } from 'vitest';
import { enumWords, UNKNOWN_ENUM_MARK } from '../../src/shared/enum-words';

describe('enumWords: an enum value as every front writes it', () => {
  it('a listed value as its label, of the enumeration named or of the one that lists it', () => {
    expect(enumWords('ACCESS_REVIEW_STATE_OPEN', 'AccessReviewState')).toEqual({
      text: 'Open',
      raw: 'ACCESS_REVIEW_STATE_OPEN',
      known: true,
    });
    expect(enumWords('APP_USER_STATUS_ENABLED')?.text).toBe('Enabled');
    expect(enumWords('ACCESS_REVIEW_TASK_COLUMN_APP')?.text).toBe('App');
  });

  it('a value no enumeration lists: as written, marked, flagged unknown', () => {
    expect(enumWords('XAA_SCOPE_CLASSIFICATION_QUANTUM', 'XaaScopeClassification')).toEqual({
      text: `XAA_SCOPE_CLASSIFICATION_QUANTUM${UNKNOWN_ENUM_MARK}`,
      raw: 'XAA_SCOPE_CLASSIFICATION_QUANTUM',
      known: false,
    });
    expect(enumWords('SOMETHING_NEW')?.known).toBe(false);
    // In a field that holds an enumeration, any unlisted value; elsewhere, only what looks like a constant.
    expect(enumWords('custom value', 'XaaScopeState')?.text).toBe(`custom value${UNKNOWN_ENUM_MARK}`);
    expect(enumWords('custom value')).toEqual({ text: 'custom value', raw: 'custom value', known: true });
  });

  it('nothing for an absent value', () => {
    expect(enumWords('')).toBeNull();
    expect(enumWords(null, 'XaaScopeState')).toBeNull();
    expect(enumWords(undefined)).toBeNull();
  });
});
