/** Page-size rules of the API's LIST and SEARCH operations (spec, "Pagination"). */
export const PAGE_SIZE_MIN = 10;
export const PAGE_SIZE_MAX = 100;
export const PAGE_SIZE_DEFAULT = 25;
/** Search automations: rows carry full triggers and steps, so the spec recommends 10 or less. */
export const AUTOMATIONS_PAGE_SIZE = 10;

/** The page size the server will use for a requested size: missing -> 25, below 10 -> 10, above 100 -> 100. */
export function clampPageSize(requested?: number | null): number {
  if (requested === undefined || requested === null || Number.isNaN(requested)) return PAGE_SIZE_DEFAULT;
  // Zero is the protobuf default of an unset int32: the service treats it as "not given".
  if (requested === 0) return PAGE_SIZE_DEFAULT;
  const whole = Math.trunc(requested);
  return Math.min(PAGE_SIZE_MAX, Math.max(PAGE_SIZE_MIN, whole));
}

/** The page envelope of every LIST and SEARCH answer. An empty `nextPageToken` ends the walk. */
export interface Page<T> {
  list?: T[];
  nextPageToken?: string;
}
