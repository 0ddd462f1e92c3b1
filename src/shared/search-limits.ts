/** Search counts matches up to this many (the total and the per-collection counts); at it, the screen says "10,000+". */
export const SEARCH_COUNT_CAP = 10_000;
