import { describe, expect, it } from 'vitest';
import { ago, agoAt } from '../../src/renderer/components/format';

describe('freshness stamps', () => {
  const now = Date.parse('2026-11-28T07:00:30Z');

  it('give the absolute UTC time beside the relative one', () => {
    expect(agoAt('2026-11-28T06:50:10Z', now)).toBe('10 min ago (2026-11-28 06:50 UTC)');
    expect(agoAt('2026-11-28T07:00:20Z', now)).toBe('just now (2026-11-28 07:00 UTC)');
    expect(agoAt('2026-11-26T07:00:00Z', now)).toBe('2 d ago (2026-11-26 07:00 UTC)');
    // Past a week the relative stamp is the date: the time is added once.
    expect(ago('2026-10-01T12:34:00Z', now)).toBe('2026-10-01');
    expect(agoAt('2026-10-01T12:34:00Z', now)).toBe('2026-10-01 12:34 UTC');
    expect(agoAt(null, now)).toBe('never');
  });
});
