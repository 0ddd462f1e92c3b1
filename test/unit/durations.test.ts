/** Durations as people write them, read into the API's form, and back into words. */
import { describe, expect, it } from 'vitest';
import { durationInWords, toApiDuration } from '../../src/shared/durations';

describe('durations', () => {
  it('reads days, hours, minutes, weeks and seconds into the API form', () => {
    expect(toApiDuration('21d')).toBe('1814400s');
    expect(toApiDuration('36h')).toBe('129600s');
    expect(toApiDuration(' 1209600s ')).toBe('1209600s');
    expect(toApiDuration('1209600.250s')).toBe('1209600.250s');
    expect(toApiDuration('21 days')).toBe('1814400s');
    expect(toApiDuration('2W')).toBe('1209600s');
    expect(toApiDuration('45 minutes')).toBe('2700s');
  });

  it('refuses what is no duration, a negative one, or one beyond what the API holds', () => {
    for (const bad of ['', 'd', '21', '-21d', '1.5d', '21 dayz', '1e3s', '400000000000s', '99999999999999999w'])
      expect(toApiDuration(bad), bad).toBeNull();
  });

  it('says a duration in the largest whole unit', () => {
    expect(durationInWords('1814400s')).toBe('3 weeks');
    expect(durationInWords('129600s')).toBe('36 hours');
    expect(durationInWords('86400s')).toBe('1 day');
    expect(durationInWords('61s')).toBe('61 seconds');
    expect(durationInWords('1.5s')).toBe('1.5s');
  });
});
