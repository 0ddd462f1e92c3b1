import { useEffect, useRef, useState } from 'react';
import { call } from '../api';
import type { SearchHit } from '../../shared/contract';
import { useApp } from '../stores/app';
import { SearchHitRow } from '../components/SearchHitRow';
import { useDebounced } from '../components/useQuery';
import { matchCount } from '../components/format';

/** Ctrl/Cmd+K: search everything as you type; arrows and Enter open a result. */
export function Palette() {
  const navigate = useApp((s) => s.navigate);
  const setPalette = useApp((s) => s.setPalette);
  const [query, setQuery] = useState('');
  const [hits, setHits] = useState<SearchHit[]>([]);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState(0);
  const debounced = useDebounced(query, 60);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => input.current?.focus(), []);
  useEffect(() => {
    if (!debounced.trim()) {
      setHits([]);
      setTotal(0);
      return;
    }
    let live = true;
    call('search', { query: debounced, limit: 12, latest: 'palette' })
      .then((result) => {
        if (!live) return;
        setHits(result.hits);
        setTotal(result.total);
        setSelected(0);
        setError(null);
      })
      .catch((failure: unknown) => live && setError(failure instanceof Error ? failure.message : String(failure)));
    return () => {
      live = false;
    };
  }, [debounced]);

  const open = (hit: SearchHit) => navigate({ view: 'detail', collection: hit.collection, id: hit.id });

  return (
    <div className="overlay" onMouseDown={(event) => event.target === event.currentTarget && setPalette(false)}>
      <div className="palette" role="dialog" aria-label="Quick search">
        <input
          ref={input}
          placeholder="Search campaigns, automations, scopes, CEL…"
          value={query}
          aria-label="Quick search"
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'ArrowDown') {
              event.preventDefault();
              setSelected((i) => Math.min(hits.length - 1, i + 1));
            } else if (event.key === 'ArrowUp') {
              event.preventDefault();
              setSelected((i) => Math.max(0, i - 1));
            } else if (event.key === 'Enter') {
              const hit = hits[selected];
              if (hit) open(hit);
              else if (query.trim()) navigate({ view: 'search', query });
            }
          }}
        />
        <div style={{ maxHeight: '55vh', overflowY: 'auto' }}>
          {error && (
            <div className="field-error" style={{ padding: 12 }}>
              {error}
            </div>
          )}
          {hits.map((hit, index) => (
            <SearchHitRow
              key={`${hit.collection}/${hit.id}`}
              hit={hit}
              selected={index === selected}
              onHover={() => setSelected(index)}
              onOpen={() => open(hit)}
            />
          ))}
          {debounced.trim() && !error && hits.length === 0 && (
            <div className="muted" style={{ padding: 16 }}>
              No match in the local copy.
            </div>
          )}
          {total > hits.length && (
            <button className="hit" onClick={() => navigate({ view: 'search', query })}>
              <span className="muted">Show all {matchCount(total)} results →</span>
            </button>
          )}
        </div>
      </div>
    </div>
  );
}
