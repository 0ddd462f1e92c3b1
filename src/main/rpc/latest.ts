import { CoreError } from '../errors';

/**
 * As-you-type calls (the Search view, the palette) name a key; of the calls with the same key,
 * one that has not started when a newer one arrives is never run: it is answered 'busy' (the
 * renderer ignores answers older than its latest call anyway). The core answers one call at a time
 * on its thread, so without this every keystroke's query would run to completion, in order,
 * before the newest one. Calls without a key run as they come.
 */
export interface Latest {
  run<T>(key: string | undefined, call: () => T | Promise<T>): Promise<T>;
}

/** Lets the calls already received be read before deciding (they queue while a query runs). */
const received = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export function createLatest(wait: () => Promise<void> = received): Latest {
  const newest = new Map<string, number>();
  let tickets = 0;
  return {
    async run(key, call) {
      if (key === undefined) return call();
      const ticket = (tickets += 1);
      newest.set(key, ticket);
      await wait();
      if (newest.get(key) !== ticket) throw new CoreError('busy', 'A newer call replaced this one before it started.');
      try {
        return await call();
      } finally {
        if (newest.get(key) === ticket) newest.delete(key);
      }
    },
  };
}
