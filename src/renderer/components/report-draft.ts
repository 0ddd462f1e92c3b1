import type { CollectionId } from '../../shared/contract';
import { call } from '../api';

/** A report's parameters taken from a view of the app (a list, a search), for the Reports screen to export. */
export interface ReportDraft {
  kind: string;
  /** `key=value`, one per filter value. */
  filters: string[];
  /** `column:asc|desc`, or null: by id. */
  sort: string | null;
  /** The list's filter words, or the search's query. */
  text: string;
  /** The view, as the cover names it: "the Cross-app scopes list", "a search for “okta”". */
  view: string;
}

/**
 * The report of a view: the report of its collection (the evidence report for a search across
 * every collection), with the view's filters, sort and text as its parameters.
 */
export async function draftOfView(
  collection: CollectionId | null,
  view: { filters: Record<string, readonly string[]>; sort: { key: string; dir: 'asc' | 'desc' } | null; text: string; name: string },
): Promise<ReportDraft> {
  const { reports } = await call('reportCatalog');
  const report = collection ? reports.find((r) => r.collections.length === 1 && r.collections[0] === collection) : undefined;
  return {
    kind: report?.kind ?? 'evidence',
    filters: Object.entries(view.filters).flatMap(([key, values]) => values.map((value) => `${key}=${value}`)),
    sort: view.sort ? `${view.sort.key}:${view.sort.dir}` : null,
    text: view.text.trim(),
    view: view.name,
  };
}
