import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { CollectionId, ColumnInfo, ObjectRow } from '../../../shared/contract';
import { call, errorMessage } from '../../api';
import { useApp } from '../../stores/app';
import { COLLECTION_LABELS } from '../../components/collections';
import { Cell } from '../../components/Cell';
import { Badge, Empty, ErrorState, Loading } from '../../components/States';
import { agoAt, count } from '../../components/format';
import { useDebounced } from '../../components/useQuery';
import { draftOfView } from '../../components/report-draft';
import { FieldFilters } from '../../components/FieldFilters';
import { AutomationSearch } from './AutomationSearch';
import { SelectionBar } from './SelectionBar';
import { AddTemplateById } from '../live/AddTemplateById';
import { useKeptList } from './kept-list';
import { defaultTrack, useListLayout } from './prefs';

const PAGE = 200;
const ROW_HEIGHT = 36;

type Sort = { key: string; dir: 'asc' | 'desc' } | null;

function nextSort(sort: Sort, key: string): Sort {
  if (sort?.key !== key) return { key, dir: 'asc' };
  return sort.dir === 'asc' ? { key, dir: 'desc' } : null;
}

/** Drags a column's right edge to resize it (double-click: back to the default width). */
function ResizeHandle({ onResize }: { onResize(width: number | null): void }) {
  return (
    <span
      className="col-resize"
      aria-hidden="true"
      data-testid="column-resize"
      onPointerDown={(event) => {
        event.preventDefault();
        const cell = event.currentTarget.parentElement;
        if (!cell) return;
        const start = event.clientX;
        const startWidth = cell.getBoundingClientRect().width;
        const move = (e: PointerEvent) => onResize(Math.max(60, Math.round(startWidth + e.clientX - start)));
        const up = () => {
          window.removeEventListener('pointermove', move);
          window.removeEventListener('pointerup', up);
        };
        window.addEventListener('pointermove', move);
        window.addEventListener('pointerup', up);
      }}
      onDoubleClick={() => onResize(null)}
    />
  );
}

function HeaderCell({
  column,
  sort,
  onSort,
  onResize,
}: {
  column: ColumnInfo;
  sort: Sort;
  onSort(): void;
  onResize(width: number | null): void;
}) {
  const dir = sort?.key === column.key ? sort.dir : null;
  return (
    <div
      role="columnheader"
      data-column={column.key}
      title={column.label}
      aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : column.sortable ? 'none' : undefined}
    >
      {column.sortable ? (
        <button type="button" className="sort-button" onClick={onSort}>
          {column.label}
          <span aria-hidden="true">{dir === 'asc' ? ' ▲' : dir === 'desc' ? ' ▼' : ''}</span>
        </button>
      ) : (
        column.label
      )}
      <ResizeHandle onResize={onResize} />
    </div>
  );
}

/** Which columns the list shows, remembered per list; at least one stays. */
function ColumnChooser({ columns, hidden, onChange }: { columns: ColumnInfo[]; hidden: string[]; onChange(hidden: string[]): void }) {
  const shown = columns.filter((c) => !hidden.includes(c.key)).length;
  return (
    <details className="column-chooser">
      <summary className="btn small">Columns</summary>
      <fieldset className="card">
        <legend className="sr-only">Columns shown</legend>
        {columns.map((column) => {
          const visible = !hidden.includes(column.key);
          return (
            <label key={column.key} className="row small">
              <input
                type="checkbox"
                checked={visible}
                disabled={visible && shown === 1}
                onChange={() => onChange(visible ? [...hidden, column.key] : hidden.filter((k) => k !== column.key))}
              />
              {column.label}
            </label>
          );
        })}
      </fieldset>
    </details>
  );
}

/** The values of the row that has the focus, in full (cells cut to their column width show all here). */
function RowPreview({ columns, row }: { columns: ColumnInfo[]; row: ObjectRow }) {
  return (
    <div className="row-preview" data-testid="row-preview" aria-hidden="true">
      {columns.map((column) => {
        const value = column.key === 'title' ? row.title : row.cells[column.key];
        if (value === null || value === undefined || value === '') return null;
        return (
          <span key={column.key}>
            <span className="muted">{column.label}:</span> <Cell column={column} value={value} name={row.names?.[column.key]} />
          </span>
        );
      })}
    </div>
  );
}

/**
 * A collection as a virtualized grid driven by its descriptor's columns: only the visible rows are
 * in the DOM, and rows are fetched a page at a time as they scroll into view, so a million rows stay
 * smooth. One Tab stop for the rows (roving tabindex): arrows, Page Up/Down, Home and End move,
 * Enter opens, Space selects. Sortable headers are buttons; filters on the enum columns; pending
 * changes marked; actions on the selected rows.
 */
export function CollectionList({ collection }: { collection: CollectionId }) {
  const info = useApp((s) => s.collections.find((c) => c.id === collection));
  const status = useApp((s) => s.status.find((c) => c.id === collection));
  const statusError = useApp((s) => s.statusError);
  const refreshStatus = useApp((s) => s.refreshStatus);
  const dataVersion = useApp((s) => s.dataVersion);
  // A change queued or sent marks its rows (pending): the rows read so far are read again.
  const outboxVersion = useApp((s) => s.outboxVersion);
  const navigate = useApp((s) => s.navigate);
  const syncing = useApp((s) => s.syncing);
  const online = useApp((s) => s.connection.online);
  const startSync = useApp((s) => s.startSync);
  // Filters, sort, selection and scroll as the list was left (Back, Forward, a restart).
  const kept = useKeptList(collection);
  const [sort, setSort] = useState<Sort>(kept.initial.sort);
  const [filters, setFilters] = useState<Record<string, string[]>>(kept.initial.filters);
  const [typed, setTyped] = useState(kept.initial.typed);
  const text = useDebounced(typed, 150);
  const [total, setTotal] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<Map<string, string>>(() => new Map(kept.initial.selected));
  const [active, setActive] = useState(kept.initial.active);
  const pages = useRef(new Map<number, ObjectRow[]>());
  const inflight = useRef(new Set<number>());
  const generation = useRef(0);
  const [, setTick] = useState(0);
  const scroller = useRef<HTMLDivElement>(null);
  const focusIndex = useRef<number | null>(null);

  const [layout, setLayout] = useListLayout(collection);
  const [gridFocused, setGridFocused] = useState(false);
  const allColumns: ColumnInfo[] = useMemo(() => info?.columns ?? [], [info]);
  const columns = useMemo(() => allColumns.filter((c) => !layout.hidden.includes(c.key)), [allColumns, layout.hidden]);
  const [template, minWidth] = useMemo(() => {
    const tracks = columns.map((c) => (layout.widths[c.key] ? `${layout.widths[c.key]}px` : defaultTrack(c).track));
    const width = columns.reduce((sum, c) => sum + (layout.widths[c.key] ?? defaultTrack(c).min), 34);
    return [`34px ${tracks.join(' ')}`, width];
  }, [columns, layout.widths]);
  const resize = (key: string, width: number | null) =>
    setLayout((l) => {
      const widths = { ...l.widths };
      if (width === null) delete widths[key];
      else widths[key] = width;
      return { ...l, widths };
    });

  const loadPage = useCallback(
    (page: number) => {
      if (pages.current.has(page) || inflight.current.has(page)) return;
      inflight.current.add(page);
      const ticket = generation.current;
      call('listObjects', { collection, filters, text, sort, offset: page * PAGE, limit: PAGE })
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
    [collection, filters, text, sort],
  );

  useEffect(() => {
    generation.current += 1;
    pages.current = new Map();
    inflight.current = new Set();
    setTotal(null);
    setError(null);
    loadPage(0);
  }, [loadPage, dataVersion]);
  const seenOutbox = useRef(outboxVersion);
  useEffect(() => {
    if (seenOutbox.current === outboxVersion) return;
    seenOutbox.current = outboxVersion;
    generation.current += 1;
    // The pages read and those still being read (their answers are dropped: they may predate the change).
    const read = new Set([0, ...pages.current.keys(), ...inflight.current]);
    pages.current = new Map();
    inflight.current = new Set();
    for (const page of read) loadPage(page);
  }, [outboxVersion, loadPage]);
  // Another filter or sort: the tab stop goes back to the first row (not when the list opens as it was left).
  const opened = useRef(true);
  useEffect(() => {
    if (opened.current) opened.current = false;
    else setActive(0);
  }, [filters, text, sort]);
  const { keep } = kept;
  useEffect(() => keep({ sort, filters, typed, selected: [...selected], active }), [keep, sort, filters, typed, selected, active]);
  // Kept a moment after scrolling stops (for a restart) and when the list is left (for Back).
  const scrollTop = useRef(kept.initial.scrollTop);
  const scrollSave = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const onScroll = () => {
    clearTimeout(scrollSave.current);
    scrollTop.current = scroller.current?.scrollTop ?? 0;
    scrollSave.current = setTimeout(() => keep({ scrollTop: scrollTop.current }), 150);
  };
  useEffect(
    () => () => {
      clearTimeout(scrollSave.current);
      keep({ scrollTop: scrollTop.current });
    },
    [keep],
  );

  const virtualizer = useVirtualizer({
    count: total ?? 0,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  // The scroll position comes back once the rows are counted (the scroller has its height then).
  const restoreScroll = useRef(kept.initial.scrollTop);
  useEffect(() => {
    if (!total || restoreScroll.current === 0) return;
    virtualizer.scrollToOffset(restoreScroll.current);
    restoreScroll.current = 0;
  }, [total, virtualizer]);
  useEffect(() => {
    const first = items[0];
    const last = items.at(-1);
    if (!first || !last) return;
    for (let page = Math.floor(first.index / PAGE); page <= Math.floor(last.index / PAGE); page += 1) loadPage(page);
  }, [items, loadPage]);

  // A row the keyboard moved to gets the focus once it is rendered.
  useLayoutEffect(() => {
    const index = focusIndex.current;
    if (index === null) return;
    const element = scroller.current?.querySelector<HTMLElement>(`[data-testid="list-row"][data-index="${index}"]`);
    if (element) {
      focusIndex.current = null;
      element.focus();
    }
  });

  // Back (or Forward) to the list: the focus returns to the row it was left from (the one opened),
  // once the rows are read and scrolled as they were, if that row is in view (a list scrolled away
  // from its active row keeps its scroll and the heading keeps the focus).
  const returning = useRef(useApp.getState().arrival !== 'new');
  useEffect(() => {
    if (!returning.current || total === null) return;
    returning.current = false;
    let frame = 0;
    let tries = 0;
    const focusRow = () => {
      const area = scroller.current;
      const row = area?.querySelector<HTMLElement>(`[data-testid="list-row"][data-index="${kept.initial.active}"]`);
      if (area && row) {
        const shown = area.getBoundingClientRect();
        const box = row.getBoundingClientRect();
        if (box.top >= shown.top && box.bottom <= shown.bottom) row.focus({ preventScroll: true });
        return;
      }
      tries += 1;
      if (tries < 60) frame = requestAnimationFrame(focusRow);
    };
    frame = requestAnimationFrame(focusRow);
    return () => cancelAnimationFrame(frame);
  }, [total, kept.initial.active]);

  const rowAt = (index: number): ObjectRow | undefined => pages.current.get(Math.floor(index / PAGE))?.[index % PAGE];
  const filterable = columns.filter((c) => c.filterable);
  const activeFilters = Object.values(filters).filter((v) => v.length).length + (text.trim() ? 1 : 0);
  const count_ = total ?? 0;
  const activeIndex = Math.min(active, Math.max(0, count_ - 1));
  const activeRendered = items.some((item) => item.index === activeIndex);

  const open = (row: ObjectRow | undefined) => row && navigate({ view: 'detail', collection, id: row.id });
  // Export this view: its filters, text and sort become the parameters of its collection's report.
  const exportView = () =>
    void draftOfView(collection, { filters, sort, text: typed, name: `the ${COLLECTION_LABELS[collection]} list` })
      .then((draft) => navigate({ view: 'reports', draft }))
      .catch((failure: unknown) => setError(errorMessage(failure)));
  const toggle = (row: ObjectRow | undefined) =>
    row &&
    setSelected((s) => {
      const next = new Map(s);
      if (next.has(row.id)) next.delete(row.id);
      else next.set(row.id, row.title || row.id);
      return next;
    });
  const moveTo = (index: number) => {
    if (count_ === 0) return;
    const target = Math.max(0, Math.min(count_ - 1, index));
    setActive(target);
    focusIndex.current = target;
    virtualizer.scrollToIndex(target, { align: 'auto' });
    setTick((t) => t + 1);
  };
  const onGridKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? ROW_HEIGHT * 10) / ROW_HEIGHT) - 2);
    const keys: Record<string, () => void> = {
      ArrowDown: () => moveTo(activeIndex + 1),
      ArrowUp: () => moveTo(activeIndex - 1),
      PageDown: () => moveTo(activeIndex + page),
      PageUp: () => moveTo(activeIndex - page),
      Home: () => moveTo(0),
      End: () => moveTo(count_ - 1),
      Enter: () => open(rowAt(activeIndex)),
      ' ': () => toggle(rowAt(activeIndex)),
    };
    const action = keys[event.key];
    // Keys on a row (or its checkbox) only: the header's buttons keep theirs.
    const onRow = event.target === event.currentTarget || (event.target as HTMLElement).closest('[data-testid="list-row"]');
    if (!action || !onRow || event.altKey || event.metaKey) return;
    event.preventDefault();
    action();
  };

  const header = (
    <div className="toolbar">
      <h1 style={{ margin: 0 }}>{COLLECTION_LABELS[collection]}</h1>
      <span className="muted" data-testid="list-total">
        {total === null ? '' : `${count(total)} ${total === 1 ? 'object' : 'objects'}`}
      </span>
      {status && (
        <Badge tone={status.asOf ? (status.complete ? undefined : 'warn') : 'warn'} title={status.asOf ?? undefined}>
          {status.asOf ? `as of ${agoAt(status.asOf)}${status.complete ? '' : ' · incomplete'}` : 'never synced'}
        </Badge>
      )}
      <div className="grow" />
      <input
        type="search"
        className="field list-filter"
        placeholder={`Filter ${COLLECTION_LABELS[collection].toLowerCase()}…`}
        aria-label={`Filter ${COLLECTION_LABELS[collection].toLowerCase()} by text`}
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
        data-testid="list-text-filter"
      />
      {info && <FieldFilters info={info} shown={filterable} filters={filters} onChange={setFilters} />}
      {activeFilters > 0 && (
        <button
          className="btn small"
          onClick={() => {
            setFilters({});
            setTyped('');
          }}
        >
          Clear filters
        </button>
      )}
      <button
        className="btn small"
        onClick={exportView}
        data-testid="export-view"
        title="Export a report with these filters, text and sort"
      >
        Export this view
      </button>
      <ColumnChooser columns={allColumns} hidden={layout.hidden} onChange={(hidden) => setLayout((l) => ({ ...l, hidden }))} />
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
        onScroll={onScroll}
        className="grid-scroller"
        data-testid="virtual-scroller"
        role="grid"
        aria-label={COLLECTION_LABELS[collection]}
        aria-rowcount={total + 1}
        aria-colcount={columns.length + 1}
        aria-multiselectable="true"
        // The rows' one Tab stop is the active row; while it is scrolled out of the DOM the grid
        // itself takes the Tab stop and hands the focus on to it.
        tabIndex={activeRendered ? undefined : 0}
        onFocus={(event) => {
          setGridFocused(true);
          if (event.target === event.currentTarget) moveTo(activeIndex);
        }}
        onBlur={(event) => !event.currentTarget.contains(event.relatedTarget as Node | null) && setGridFocused(false)}
        onKeyDown={onGridKey}
      >
        <div className="table-head-group" role="rowgroup">
          <div
            className="table-head"
            style={{ gridTemplateColumns: template, minWidth: columns.length * 130 }}
            role="row"
            aria-rowindex={1}
          >
            <div role="columnheader">
              <span className="sr-only">Selected</span>
            </div>
            {columns.map((column) => (
              <HeaderCell
                key={column.key}
                column={column}
                sort={sort}
                onSort={() => setSort((s) => nextSort(s, column.key))}
                onResize={(width) => resize(column.key, width)}
              />
            ))}
          </div>
        </div>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative', minWidth }} role="rowgroup">
          {items.map((item) => {
            const row = rowAt(item.index);
            const isSelected = row ? selected.has(row.id) : false;
            return (
              <div
                key={item.key}
                className={`table-row ${row?.deleted ? 'deleted' : ''} ${isSelected ? 'selected' : ''}`}
                style={{ gridTemplateColumns: template, height: item.size, transform: `translateY(${item.start}px)` }}
                role="row"
                aria-rowindex={item.index + 2}
                aria-selected={isSelected}
                tabIndex={item.index === activeIndex ? 0 : -1}
                data-testid="list-row"
                data-index={item.index}
                data-loaded={row ? 'true' : 'false'}
                onFocus={(event) => event.target === event.currentTarget && setActive(item.index)}
                onClick={() => open(row)}
              >
                <div role="gridcell" className="select-cell">
                  {row && (
                    <input
                      type="checkbox"
                      tabIndex={-1}
                      checked={isSelected}
                      aria-label={`Select ${row.title || row.id}`}
                      onClick={(event) => event.stopPropagation()}
                      onChange={() => toggle(row)}
                    />
                  )}
                  {row?.pending ? (
                    <span title="A change to this object is waiting in the outbox">
                      <span className="dot" style={{ background: 'var(--pending)' }} aria-hidden="true" />
                      <span className="sr-only">Change pending</span>
                    </span>
                  ) : null}
                </div>
                {columns.map((column) => (
                  <div key={column.key} role="gridcell">
                    {row ? (
                      <Cell
                        column={column}
                        value={column.key === 'title' ? row.title : row.cells[column.key]}
                        name={row.names?.[column.key]}
                      />
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
      {collection === 'templates' && <AddTemplateById />}
      {collection === 'automations' && <AutomationSearch />}
      <SelectionBar collection={collection} selected={selected} onClear={() => setSelected(new Map())} />
      {error && total !== null && <div className="banner error">{error}</div>}
      {body}
      {gridFocused && rowAt(activeIndex) && <RowPreview columns={columns} row={rowAt(activeIndex)!} />}
    </div>
  );
}
