import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { CollectionId, ColumnInfo, ObjectRow } from '../../../shared/contract';
import { call, errorMessage } from '../../api';
import { useApp } from '../../stores/app';
import { COLLECTION_LABELS } from '../../components/collections';
import { Cell } from '../../components/Cell';
import { Badge, Empty, ErrorState, Loading } from '../../components/States';
import { ago, count, enumText } from '../../components/format';

const PAGE = 200;
const ROW_HEIGHT = 36;

type Sort = { key: string; dir: 'asc' | 'desc' } | null;

/**
 * A collection as a virtualized table driven by its descriptor's columns: only the visible rows
 * are in the DOM, and rows are fetched a page at a time as they scroll into view, so a million
 * rows stay smooth. Sortable headers, filters on the enum columns, pending changes marked.
 */
export function CollectionList({ collection }: { collection: CollectionId }) {
  const info = useApp((s) => s.collections.find((c) => c.id === collection));
  const status = useApp((s) => s.status.find((c) => c.id === collection));
  const statusError = useApp((s) => s.statusError);
  const refreshStatus = useApp((s) => s.refreshStatus);
  const dataVersion = useApp((s) => s.dataVersion);
  const navigate = useApp((s) => s.navigate);
  const syncing = useApp((s) => s.syncing);
  const online = useApp((s) => s.connection.online);
  const startSync = useApp((s) => s.startSync);
  const [sort, setSort] = useState<Sort>(null);
  const [filters, setFilters] = useState<Record<string, string[]>>({});
  const [total, setTotal] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const pages = useRef(new Map<number, ObjectRow[]>());
  const inflight = useRef(new Set<number>());
  const generation = useRef(0);
  const [, setTick] = useState(0);
  const scroller = useRef<HTMLDivElement>(null);

  const columns: ColumnInfo[] = useMemo(() => info?.columns ?? [], [info]);
  const template = useMemo(
    () =>
      `28px ${columns.map((c) => (c.kind === 'date' ? '170px' : c.kind === 'bool' ? '90px' : c.kind === 'enum' ? 'minmax(140px, 1fr)' : c.key === 'title' || c.key === 'displayName' ? 'minmax(220px, 2fr)' : 'minmax(120px, 1fr)')).join(' ')}`,
    [columns],
  );

  const loadPage = useCallback(
    (page: number) => {
      if (pages.current.has(page) || inflight.current.has(page)) return;
      inflight.current.add(page);
      const ticket = generation.current;
      call('listObjects', { collection, filters, sort, offset: page * PAGE, limit: PAGE })
        .then((result) => {
          if (ticket !== generation.current) return;
          pages.current.set(page, result.rows);
          setTotal(result.total);
          setError(null);
          setTick((t) => t + 1);
        })
        .catch((failure: unknown) => ticket === generation.current && setError(errorMessage(failure)))
        .finally(() => inflight.current.delete(page));
    },
    [collection, filters, sort],
  );

  useEffect(() => {
    generation.current += 1;
    pages.current = new Map();
    inflight.current = new Set();
    setTotal(null);
    setError(null);
    loadPage(0);
  }, [loadPage, dataVersion]);

  const virtualizer = useVirtualizer({
    count: total ?? 0,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  useEffect(() => {
    const first = items[0];
    const last = items.at(-1);
    if (!first || !last) return;
    for (let page = Math.floor(first.index / PAGE); page <= Math.floor(last.index / PAGE); page += 1) loadPage(page);
  }, [items, loadPage]);

  const rowAt = (index: number): ObjectRow | undefined => pages.current.get(Math.floor(index / PAGE))?.[index % PAGE];
  const filterable = columns.filter((c) => c.filterable);
  const activeFilters = Object.values(filters).filter((v) => v.length).length;

  const header = (
    <div className="toolbar">
      <h1 style={{ margin: 0 }}>{COLLECTION_LABELS[collection]}</h1>
      <span className="muted" data-testid="list-total">
        {total === null ? '' : `${count(total)} ${total === 1 ? 'object' : 'objects'}`}
      </span>
      {status && (
        <Badge tone={status.asOf ? (status.complete ? undefined : 'warn') : 'warn'} title={status.asOf ?? undefined}>
          {status.asOf ? `as of ${ago(status.asOf)}${status.complete ? '' : ' · incomplete'}` : 'never synced'}
        </Badge>
      )}
      <div className="grow" />
      {filterable.map((column) => {
        const choices = info?.filterValues[column.key] ?? [];
        if (choices.length === 0) return null;
        return (
          <select
            key={column.key}
            className="field"
            style={{ width: 'auto', maxWidth: 220 }}
            aria-label={`Filter by ${column.label}`}
            value={filters[column.key]?.[0] ?? ''}
            onChange={(event) => setFilters((f) => ({ ...f, [column.key]: event.target.value ? [event.target.value] : [] }))}
          >
            <option value="">{column.label}: all</option>
            {choices.map((choice) => (
              <option key={choice} value={choice}>
                {column.kind === 'enum' ? enumText(column.enumName, choice).label : choice}
              </option>
            ))}
          </select>
        );
      })}
      {activeFilters > 0 && (
        <button className="btn small" onClick={() => setFilters({})}>
          Clear filters
        </button>
      )}
    </div>
  );

  if (!info) {
    return (
      <div className="content" data-screen="list">
        {statusError ? (
          <ErrorState title="The local store is not available" message={statusError} onRetry={() => void refreshStatus()} />
        ) : (
          <Loading />
        )}
      </div>
    );
  }

  let body;
  if (error && total === null) body = <ErrorState message={error} onRetry={() => loadPage(0)} />;
  else if (total === null) body = <Loading />;
  else if (total === 0 && activeFilters > 0) body = <Empty title="Nothing matches these filters" />;
  else if (total === 0)
    body = (
      <Empty title={status?.asOf ? `No ${COLLECTION_LABELS[collection].toLowerCase()} in this tenant` : 'Not synced yet'}>
        {!status?.asOf && (
          <>
            <p>
              {online
                ? 'Sync to bring this collection to your computer.'
                : 'Connect to the tenant, then sync to bring this collection to your computer.'}
            </p>
            <button className="btn primary" disabled={!online || syncing} onClick={() => void startSync()}>
              Sync now
            </button>
          </>
        )}
      </Empty>
    );
  else
    body = (
      <div
        ref={scroller}
        style={{ overflow: 'auto', flex: 1, minHeight: 0 }}
        data-testid="virtual-scroller"
        role="grid"
        aria-label={COLLECTION_LABELS[collection]}
        aria-rowcount={total + 1}
        aria-colcount={columns.length + 1}
      >
        <div className="table-head-group" role="rowgroup">
          <div
            className="table-head"
            style={{ gridTemplateColumns: template, minWidth: columns.length * 130 }}
            role="row"
            aria-rowindex={1}
          >
            <div role="columnheader">
              <span className="sr-only">Pending change</span>
            </div>
            {columns.map((column) => (
              <div
                key={column.key}
                className={column.sortable ? 'sortable' : ''}
                role="columnheader"
                aria-sort={sort?.key === column.key ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
                onClick={() =>
                  column.sortable &&
                  setSort((s) =>
                    s?.key === column.key ? (s.dir === 'asc' ? { key: column.key, dir: 'desc' } : null) : { key: column.key, dir: 'asc' },
                  )
                }
              >
                {column.label}
                {sort?.key === column.key ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}
              </div>
            ))}
          </div>
        </div>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative', minWidth: columns.length * 130 }} role="rowgroup">
          {items.map((item) => {
            const row = rowAt(item.index);
            return (
              <div
                key={item.key}
                className={`table-row ${row?.deleted ? 'deleted' : ''}`}
                style={{ gridTemplateColumns: template, height: item.size, transform: `translateY(${item.start}px)` }}
                role="row"
                aria-rowindex={item.index + 2}
                tabIndex={0}
                data-testid="list-row"
                data-index={item.index}
                data-loaded={row ? 'true' : 'false'}
                onClick={() => row && navigate({ view: 'detail', collection, id: row.id })}
                onKeyDown={(event) => event.key === 'Enter' && row && navigate({ view: 'detail', collection, id: row.id })}
              >
                <div role="gridcell" title={row?.pending ? 'A change to this object is waiting in the outbox' : undefined}>
                  {row?.pending ? (
                    <>
                      <span className="dot" style={{ background: 'var(--pending)' }} aria-hidden="true" />
                      <span className="sr-only">Change pending</span>
                    </>
                  ) : null}
                </div>
                {columns.map((column) => (
                  <div key={column.key} role="gridcell">
                    {row ? (
                      <Cell column={column} value={column.key === 'title' ? row.title : row.cells[column.key]} />
                    ) : (
                      <span className="muted">…</span>
                    )}
                  </div>
                ))}
              </div>
            );
          })}
        </div>
      </div>
    );

  return (
    <div data-screen="list" data-collection={collection} style={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 }}>
      {header}
      {error && total !== null && <div className="banner error">{error}</div>}
      {body}
    </div>
  );
}
