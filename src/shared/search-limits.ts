/** Search counts matches up to this many (the total and the per-collection counts); at it, the screen says "10,000+". */
export const SEARCH_COUNT_CAP = 10_000;

/** The longest search, in characters, in the CLI and the app alike. */
export const QUERY_MAX_CHARS = 500;
/** The most words one search holds (each is one more posting list for the index to walk). */
export const QUERY_MAX_WORDS = 32;

/** Why a search is refused (too long, too many words), or null. Cheap on any input: the length is checked first. */
export function queryProblem(query: string): string | null {
  if (query.length > QUERY_MAX_CHARS) {
    const chars = [...query].length;
    if (chars > QUERY_MAX_CHARS)
      return `the search is ${chars.toLocaleString('en-US')} characters long; at most ${QUERY_MAX_CHARS} are searched`;
  }
  const words = query.match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
  if (words > QUERY_MAX_WORDS) return `the search has ${words.toLocaleString('en-US')} words; at most ${QUERY_MAX_WORDS} are searched`;
  return null;
}
