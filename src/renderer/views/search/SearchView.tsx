import { useEffect, useMemo, useRef, useState } from 'react';
import { z } from 'zod';
import { COLLECTION_IDS, type CollectionId } from '../../../shared/contract';
import { call, errorMessage } from '../../api';
import { useApp } from '../../stores/app';
import { useKeptView } from '../../stores/kept-view';
import { COLLECTION_LABELS, COLLECTION_ORDER } from '../../components/collections';
import { Empty, ErrorState, Loading } from '../../components/States';
import { SearchHitRow } from '../../components/SearchHitRow';
import { useDebounced, useQuery } from '../../components/useQuery';
import { matchCount } from '../../components/format';
import { SEARCH_COUNT_CAP } from '../../../shared/search-limits';
import { activeFilterCount, FieldFilters, type FieldFilterValues } from '../../components/FieldFilters';
import { draftOfView } from '../../components/report-draft';

const PAGE = 50;

/** What the search screen keeps when it is left (Back, Forward, a restart). */
const KeptSearch = z.object({
  query: z.string().max(500),
  collection: z.enum(COLLECTION_IDS).nullable(),
  filters: z.record(z.string().max(100), z.array(z.string().max(300)).max(50)),
});
const EMPTY_SEARCH: z.infer<typeof KeptSearch> = { query: '', collection: null, filters: {} };

/**
 * Global offline search: as you type, across collections, with facets per collection and, once a
 * collection is picked, its field filters (the CLI's `--filter`: states, classifications, trigger
 * types, action kinds, enabled). Enum values are searched by their labels and raw names too.
 */
export function SearchView({ initialQuery }: { initialQuery: string }) {
  const navigate = useApp((s) => s.navigate);
  const dataVersion = useApp((s) => s.dataVersion);
  // What the screen showed when it was left comes back with Back, Forward and a restart (a query given by the route wins).
  const { initial: kept, keep } = useKeptView('search', KeptSearch, EMPTY_SEARCH);
  const [query, setQuery] = useState(initialQuery || kept.query);
  const [collection, setCollectionState] = useState<CollectionId | null>(kept.collection);
  const [filters, setFilters] = useState<FieldFilterValues>(kept.filters);
  useEffect(() => keep({ query, collection, filters }), [query, collection, filters, keep]);
  const info = useApp((s) => (collection ? s.collections.find((c) => c.id === collection) : undefined));
  // Field filters belong to one collection: picking another clears them.
  const setCollection = (id: CollectionId | null) => {
    setCollectionState(id);
    setFilters({});
  };
  const [limit, setLimit] = useState(PAGE);
  // Every keystroke asks at once (no debounce): the core drops the calls a newer keystroke
  // replaced before they started, and useQuery ignores answers older than the latest call.
  const typed = query;
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  useEffect(() => setLimit(PAGE), [typed, collection, filters]);

  const result = useQuery(
    // Each answer carries the query it answers, so the screen says which one it shows.
    () =>
      typed.trim()
        ? call('search', { query: typed, collection, filters, limit, latest: 'search-view' }).then((r) => ({ ...r, query: typed }))
        : Promise.resolve(null),
    [typed, collection, filters, limit, dataVersion],
  );
  // Facets count every collection, whichever one is selected: asked for after the hits, so the
  // hits are on screen first.
  const facetQuery = useDebounced(typed, 120);
  const facets = useQuery(
    () =>
      facetQuery.trim()
        ? call('search', { query: facetQuery, limit: 1, facets: true, latest: 'search-view-facets' }).then((r) => r.facets)
        : Promise.resolve(null),
    [facetQuery, dataVersion],
  );
  const data = result.data;
  // The hits are rendered again only when an answer arrives, not on every keystroke.
  const rows = useMemo(
    () =>
      data?.hits.map((hit) => (
        <SearchHitRow
          key={`${hit.collection}/${hit.id}`}
          hit={hit}
          onOpen={() => navigate({ view: 'detail', collection: hit.collection, id: hit.id })}
          testId="search-hit"
        />
      )),
    [data, navigate],
  );
  const facetCounts = facets.data ?? {};
  const [exportError, setExportError] = useState<string | null>(null);
  // Export this view: the query (as a text filter), the collection picked and its field filters become a report's parameters.
  const exportView = () => {
    const name = `a search${collection ? ` of ${COLLECTION_LABELS[collection]}` : ''} for “${typed.trim()}”`;
    void draftOfView(collection, { filters: collection ? filters : {}, sort: null, text: typed, name })
      .then((draft) => navigate({ view: 'reports', draft }))
      .catch((failure: unknown) => setExportError(errorMessage(failure)));
  };
  const allCount = Object.values(facetCounts).reduce((a, b) => a + b, 0);

  return (
    <div
      className="content"
      data-screen="search"
      style={{ display: 'grid', gridTemplateColumns: '200px 1fr', gap: 20, alignItems: 'start' }}
    >
      <h1 className="sr-only">Search</h1>
      <aside className="stack" aria-label="Facets">
        <h2 className="section-title" style={{ marginTop: 48 }}>
          Collections
        </h2>
        <div>
          <button className={`facet ${collection === null ? 'active' : ''}`} onClick={() => setCollection(null)}>
            <span>All</span>
            <span className="muted">
              {typed.trim()
                ? matchCount(
                    allCount,
                    Object.values(facetCounts).some((n) => n >= SEARCH_COUNT_CAP),
                  )
                : ''}
            </span>
          </button>
          {COLLECTION_ORDER.map((id) => (
            <button
              key={id}
              className={`facet ${collection === id ? 'active' : ''}`}
              onClick={() => setCollection(id)}
              data-testid={`facet-${id}`}
            >
              <span>{COLLECTION_LABELS[id]}</span>
              <span className="muted">{typed.trim() ? matchCount(facetCounts[id] ?? 0) : ''}</span>
            </button>
          ))}
        </div>
        {info && (
          <>
            <h3 style={{ marginBottom: 0 }}>Fields</h3>
            <FieldFilters info={info} filters={filters} onChange={setFilters} layout="column" />
            {activeFilterCount(filters) > 0 && (
              <button className="btn small" onClick={() => setFilters({})}>
                Clear filters
              </button>
            )}
          </>
        )}
      </aside>
      <section className="stack" style={{ minWidth: 0 }}>
        <input
          ref={input}
          className="field"
          style={{ fontSize: 16, padding: '10px 12px' }}
          placeholder="Search names, descriptions, scope values, states, conditions and CEL expressions"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          aria-label="Search"
        />
        {!typed.trim() ? (
          <Empty title="Search the local copy">
            <p>
              Type to search every synced collection, offline. Prefixes match: “esc” finds “escalate”. States and classifications match by
              name: “dangerous”, “enabled”, “schedule”.
            </p>
          </Empty>
        ) : result.error && !data ? (
          <ErrorState title={result.offline ? 'Offline' : 'Search failed'} message={result.error} onRetry={result.reload} />
        ) : !data ? (
          <Loading label="Searching…" />
        ) : data.hits.length === 0 ? (
          <div data-results-for={data.query}>
            <Empty title="No match">
              <p>
                Nothing in the local copy matches “{data.query}”{activeFilterCount(filters) > 0 ? ' with these filters' : ''}.
              </p>
            </Empty>
          </div>
        ) : (
          <div className="card" style={{ padding: 0 }} data-results-for={data.query}>
            <div
              className="muted small"
              style={{ padding: '8px 16px', borderBottom: '1px solid var(--border)' }}
              data-testid="search-summary"
            >
              <div className="row">
                <span className="grow">
                  {matchCount(data.total)} results · {data.tookMs.toFixed(0)} ms {result.loading && '· updating…'}
                </span>
                <button className="btn small" onClick={exportView} data-testid="export-view" title="Export a report of these results">
                  Export this view
                </button>
              </div>
              {exportError && (
                <div className="field-error" role="alert">
                  {exportError}
                </div>
              )}
            </div>
            {rows}
            {data.total > data.hits.length && (
              <div style={{ padding: 12 }}>
                <button className="btn" onClick={() => setLimit((n) => Math.min(500, n + PAGE))} disabled={limit >= 500}>
                  {limit >= 500 ? 'Refine the query to see more' : 'Show more'}
                </button>
              </div>
            )}
          </div>
        )}
      </section>
    </div>
  );
}
