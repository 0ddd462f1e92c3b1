/** The renderer's pacing of a send's events: the latest progress at most every 250 ms, refetches at most once a second. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SendProgress } from '../../src/shared/contract';
import { paceSendEvents, PROGRESS_EVERY_MS, REFRESH_EVERY_MS } from '../../src/renderer/stores/send-events';

const event = (phase: SendProgress['phase'], done: number): SendProgress => ({
  phase,
  itemId: null,
  state: null,
  message: null,
  done,
  total: 300,
  succeeded: done,
  failed: 0,
  uncertain: 0,
  ratePerSecond: null,
});

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('paceSendEvents', () => {
  it('folds item events: the latest progress at most every 250 ms, the lists refetched at most once a second, the end at once', () => {
    const shown: number[] = [];
    let refetches = 0;
    let finished = 0;
    const pace = paceSendEvents({
      progress: (e) => shown.push(e.done),
      outboxChanged: () => (refetches += 1),
      finished: () => (finished += 1),
    });
    pace.push(event('started', 0));
    expect(shown).toEqual([0]);
    // 300 items within 1.5 s: one every 5 ms.
    for (let done = 1; done <= 300; done += 1) {
      pace.push(event('item', done));
      vi.advanceTimersByTime(5);
    }
    expect(shown.length).toBeLessThanOrEqual(1 + Math.ceil(1500 / PROGRESS_EVERY_MS));
    expect(shown.at(-1)).toBeGreaterThan(250);
    expect(refetches).toBeLessThanOrEqual(Math.ceil(1500 / REFRESH_EVERY_MS) + 1);
    expect(refetches).toBeGreaterThan(0);
    pace.push(event('finished', 300));
    expect(shown.at(-1)).toBe(300);
    expect(finished).toBe(1);
    const after = refetches;
    vi.advanceTimersByTime(5_000);
    // Nothing left pending after the end.
    expect(refetches).toBe(after);
    expect(shown.at(-1)).toBe(300);
    pace.stop();
  });
});
