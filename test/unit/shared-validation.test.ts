import { describe, expect, it } from 'vitest';

import {
  AUTOMATIONS_PAGE_SIZE,
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
  PAGE_SIZE_MIN,
  clampPageSize,
  type Page,
} from '../../src/shared/pagination';
import { SCOPE_VALUE_MAX_BYTES, isScopeTokenChar, validateScopeValue } from '../../src/shared/validate';

describe('clampPageSize (spec "Pagination")', () => {
  it('states the spec figures', () => {
    expect([PAGE_SIZE_MIN, PAGE_SIZE_MAX, PAGE_SIZE_DEFAULT, AUTOMATIONS_PAGE_SIZE]).toEqual([10, 100, 25, 10]);
  });

  it('missing -> 25 (absent, null, NaN, and 0, the protobuf zero value)', () => {
    expect(clampPageSize()).toBe(25);
    expect(clampPageSize(undefined)).toBe(25);
    expect(clampPageSize(null)).toBe(25);
    expect(clampPageSize(Number.NaN)).toBe(25);
    expect(clampPageSize(0)).toBe(25);
  });

  it('below 10 -> 10', () => {
    expect(clampPageSize(1)).toBe(10);
    expect(clampPageSize(9)).toBe(10);
    expect(clampPageSize(-5)).toBe(10);
    expect(clampPageSize(Number.NEGATIVE_INFINITY)).toBe(10);
  });

  it('10 to 100 pass unchanged', () => {
    for (const size of [10, 11, 25, 50, 99, 100]) expect(clampPageSize(size)).toBe(size);
  });

  it('above 100 -> 100', () => {
    expect(clampPageSize(101)).toBe(100);
    expect(clampPageSize(1000)).toBe(100);
    expect(clampPageSize(Number.POSITIVE_INFINITY)).toBe(100);
  });

  it('fractional sizes are cut to whole numbers, then clamped', () => {
    expect(clampPageSize(25.9)).toBe(25);
    expect(clampPageSize(10.5)).toBe(10);
    expect(clampPageSize(99.99)).toBe(99);
    expect(clampPageSize(100.5)).toBe(100);
    expect(clampPageSize(9.99)).toBe(10);
    expect(clampPageSize(0.5)).toBe(10);
    expect(Number.isInteger(clampPageSize(42.42))).toBe(true);
  });

  it('the page envelope is { list, nextPageToken }, both optional', () => {
    const last: Page<{ id: string }> = { list: [{ id: 'a' }] };
    const empty: Page<{ id: string }> = {};
    expect(last.nextPageToken ?? '').toBe('');
    expect(empty.list ?? []).toEqual([]);
  });
});

describe('isScopeTokenChar (RFC 6749 NQCHAR: %x21 / %x23-5B / %x5D-7E)', () => {
  it('matches the grammar over the whole ASCII range and refuses everything above it', () => {
    for (let cp = 0; cp <= 0x7f; cp += 1) {
      const expected = cp === 0x21 || (cp >= 0x23 && cp <= 0x5b) || (cp >= 0x5d && cp <= 0x7e);
      expect(isScopeTokenChar(cp), `U+${cp.toString(16)}`).toBe(expected);
    }
    for (const cp of [0x80, 0xa0, 0xe9, 0x20ac, 0xfeff, 0x1f600]) expect(isScopeTokenChar(cp)).toBe(false);
  });

  it('the boundaries', () => {
    expect([0x20, 0x21, 0x22, 0x23, 0x5b, 0x5c, 0x5d, 0x7e, 0x7f].map(isScopeTokenChar)).toEqual([
      false,
      true,
      false,
      true,
      true,
      false,
      true,
      true,
      false,
    ]);
  });
});

describe('validateScopeValue', () => {
  it('accepts ordinary scope values', () => {
    for (const value of ['payroll:read', 'https://api.example.com/files.read', 'a', '!#$%&()*+,-./:;<=>?@[]^_`{|}~']) {
      expect(validateScopeValue(value), value).toBeNull();
    }
  });

  it('refuses a non-string', () => {
    for (const value of [undefined, null, 42, ['a'], { scope: 'a' }]) {
      expect(validateScopeValue(value)?.code).toBe('scope_value_type');
    }
  });

  it('refuses the empty string', () => {
    const problem = validateScopeValue('');
    expect(problem?.code).toBe('scope_value_empty');
    expect(problem?.message).toMatch(/^scopeValue is empty/);
    expect(problem?.message).toContain('1 to 256 bytes');
    expect(problem?.position).toBeUndefined();
  });

  it('refuses a space, with its position', () => {
    const problem = validateScopeValue('read write');
    expect(problem).toMatchObject({ code: 'scope_value_charset', position: 5 });
    expect(problem?.message).toContain('a space (U+0020) at position 5');
  });

  it('refuses a double quote, with its position', () => {
    const problem = validateScopeValue('say"hi"');
    expect(problem).toMatchObject({ code: 'scope_value_charset', position: 4 });
    expect(problem?.message).toContain(`'"' (U+0022) at position 4`);
  });

  it('refuses a backslash, with its position', () => {
    const problem = validateScopeValue('a\\b');
    expect(problem).toMatchObject({ code: 'scope_value_charset', position: 2 });
    expect(problem?.message).toContain(`'\\' (U+005C) at position 2`);
  });

  it('refuses control characters, with their position', () => {
    expect(validateScopeValue('ab\tc')?.message).toContain('a control character (U+0009) at position 3');
    expect(validateScopeValue('line\n')?.message).toContain('a control character (U+000A) at position 5');
    expect(validateScopeValue('\u0000x')?.message).toContain('a control character (U+0000) at position 1');
    expect(validateScopeValue('del\u007f')).toMatchObject({ code: 'scope_value_charset', position: 4 });
    expect(validateScopeValue('del\u007f')?.message).toContain('a control character (U+007F) at position 4');
  });

  it('refuses non-ASCII characters, with their position', () => {
    const problem = validateScopeValue('café:read');
    expect(problem).toMatchObject({ code: 'scope_value_charset', position: 4 });
    expect(problem?.message).toContain(`'é' (U+00E9) at position 4`);
    expect(validateScopeValue('a\u00a0b')?.message).toContain('(U+00A0) at position 2');
  });

  it('names the first offending character only, and the field it was given', () => {
    const problem = validateScopeValue('ok ok"', 'scopes[3].scopeValue');
    expect(problem?.position).toBe(3);
    expect(problem?.message).toMatch(/^scopes\[3\]\.scopeValue has a space/);
    expect(problem?.message).toContain('RFC 6749');
  });

  it('accepts exactly 256 bytes', () => {
    expect(SCOPE_VALUE_MAX_BYTES).toBe(256);
    expect(validateScopeValue('a'.repeat(256))).toBeNull();
    expect(validateScopeValue(`files:${'x'.repeat(250)}`)).toBeNull();
  });

  it('refuses 257 bytes, saying how long it is', () => {
    const problem = validateScopeValue('a'.repeat(257));
    expect(problem).toMatchObject({ code: 'scope_value_too_long', position: 257 });
    expect(problem?.message).toBe('scopeValue is 257 bytes long; at most 256 are allowed');
    expect(validateScopeValue('a'.repeat(1000))?.message).toContain('1000 bytes');
  });

  it('counts multi-byte characters as one position each (code points, not bytes or UTF-16 units)', () => {
    // 'é' is 2 bytes in UTF-8, '€' 3, '😀' 4 (and 2 UTF-16 units): positions still count characters.
    expect(validateScopeValue('ab€')).toMatchObject({ code: 'scope_value_charset', position: 3 });
    expect(validateScopeValue('ab€')?.message).toContain(`'€' (U+20AC) at position 3`);
    const emoji = validateScopeValue('😀😀x y');
    expect(emoji).toMatchObject({ code: 'scope_value_charset', position: 1 });
    expect(emoji?.message).toContain('(U+1F600) at position 1');
    expect(validateScopeValue('ab😀')?.message).toContain('(U+1F600) at position 3');
  });

  it('a multi-byte character past the byte limit is still reported as a character problem, at its character position', () => {
    // 255 ASCII bytes + 'é' (2 bytes) = 257 bytes: the charset rule speaks first, since no
    // non-ASCII character can ever be valid; the position is the 256th character.
    const value = `${'a'.repeat(255)}é`;
    expect(new TextEncoder().encode(value).length).toBe(257);
    expect(validateScopeValue(value)).toMatchObject({ code: 'scope_value_charset', position: 256 });
    // 128 'é' are 256 bytes but only 128 characters: refused for the character, not for length.
    expect(validateScopeValue('é'.repeat(128))).toMatchObject({ code: 'scope_value_charset', position: 1 });
  });
});
