/**
 * Durations as people write them and as the API wants them. The API's JSON form of a
 * google.protobuf.Duration is seconds with an `s` (`1209600s`, fractions to nanoseconds); people
 * write `21d`, `36h`, `90m`, `2w`. Every front (forms, CSV, the CLI) reads the same words here, and
 * the request always carries the API's form.
 */

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };
const UNIT_WORDS: Record<string, string> = {
  sec: 's',
  secs: 's',
  second: 's',
  seconds: 's',
  min: 'm',
  mins: 'm',
  minute: 'm',
  minutes: 'm',
  hour: 'h',
  hours: 'h',
  hr: 'h',
  hrs: 'h',
  day: 'd',
  days: 'd',
  week: 'w',
  weeks: 'w',
};

/** The largest duration the API's Duration holds: 10,000 years, in seconds. */
const MAX_SECONDS = 315_576_000_000;

export const DURATION_EXAMPLES = "'21d', '36h', '90m', '2w' or seconds such as '1209600s'";

/**
 * A duration in the API's form (`1814400s`), from `1209600s`, `1209600.5s`, `21d`, `36h`, `90m`,
 * `2w`, `21 days`; null when the text is none of these (or beyond what the API holds).
 */
export function toApiDuration(text: string): string | null {
  const v = text.trim().toLowerCase();
  const exact = /^(\d+)(\.\d{1,9})?\s*s$/.exec(v);
  if (exact) return Number(exact[1]) <= MAX_SECONDS ? `${exact[1]}${exact[2] ?? ''}s` : null;
  const m = /^(\d+)\s*([a-z]+)$/.exec(v);
  if (!m) return null;
  const unit = UNIT_SECONDS[m[2]!] !== undefined ? m[2]! : UNIT_WORDS[m[2]!];
  if (!unit) return null;
  const seconds = Number(m[1]) * UNIT_SECONDS[unit]!;
  return Number.isSafeInteger(seconds) && seconds <= MAX_SECONDS ? `${seconds}s` : null;
}

/** A duration in the API's form for people: '1814400s' -> '21 days', '129600s' -> '36 hours'; other text as it is. */
export function durationInWords(api: string): string {
  const m = /^(\d+)s$/.exec(api);
  if (!m) return api;
  const seconds = Number(m[1]);
  for (const [size, word] of [
    [604_800, 'week'],
    [86_400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ] as const) {
    if (seconds >= size && seconds % size === 0) {
      const n = seconds / size;
      return `${n} ${word}${n === 1 ? '' : 's'}`;
    }
  }
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}
