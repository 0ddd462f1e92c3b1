import { useEffect, useState } from 'react';
import type {
  BulkAction,
  BulkResultView,
  MutationKind,
  OutboxBatchView,
  OutboxFilter,
  OutboxItemView,
  OutboxState,
} from '../../../shared/contract';
import { call, errorMessage } from '../../api';
import { useApp } from '../../stores/app';
import { Badge, Empty, ErrorState, Loading } from '../../components/States';
import { useDebounced, useQuery } from '../../components/useQuery';
import { ago, count } from '../../components/format';
import { KIND_LABELS } from './ChangeForms';
import { ResultLinks } from './ResultLinks';
import { AnySelect, batchChoices, KIND_CHOICES } from './filter-fields';

export const STATES: OutboxState[] = ['queued', 'sending', 'failed', 'uncertain', 'succeeded', 'resolved', 'discarded'];
export const NO_FILTER: OutboxFilter = { state: null, kind: null, batch: null, error: null };
const PAGE = 100;
const TONE: Partial<Record<OutboxState, 'ok' | 'warn' | 'bad' | 'pending'>> = {
  queued: 'pending',
  sending: 'pending',
  succeeded: 'ok',
  failed: 'bad',
  uncertain: 'warn',
};
/** The states each bulk action applies to (the core refuses the others, and says so). */
const APPLIES: Record<BulkAction | 'send', OutboxState[]> = {
  send: ['queued'],
  retry: ['failed', 'uncertain'],
  resolve: ['failed', 'uncertain'],
  discard: ['queued', 'failed', 'uncertain'],
};
const SELECTABLE = new Set<OutboxState>(['queued', 'failed', 'uncertain']);
const VERB: Record<BulkAction, string> = { retry: 'Retried', resolve: 'Resolved', discard: 'Discarded' };

/** What is selected: some items (with their states), or every item matching the filter. */
type Selection = { all: false; items: Map<string, OutboxState> } | { all: true; counts: Record<string, number>; total: number };
const NOTHING: Selection = { all: false, items: new Map() };

function selectedCount(selection: Selection, action: BulkAction | 'send'): number {
  const states = APPLIES[action];
  if (selection.all) return states.reduce((n, s) => n + (selection.counts[s] ?? 0), 0);
  return [...selection.items.values()].filter((s) => states.includes(s)).length;
}

function plural(n: number, word = 'change'): string {
  return `${count(n)} ${word}${n === 1 ? '' : 's'}`;
}

/** The sentence a bulk action's result is told in. */
export function bulkSentence(r: BulkResultView): string {
  const done =
    r.changed === 0
      ? `No change was ${VERB[r.action].toLowerCase()}.`
      : r.action === 'resolve'
        ? `Marked ${plural(r.changed)} resolved.`
        : `${VERB[r.action]} ${plural(r.changed)}.`;
  const refused = r.refused.map((g) => `${count(g.count)} ${g.state} left as ${g.count === 1 ? 'it was' : 'they were'} (${g.reason}).`);
  return [r.action === 'retry' && r.reconciled && r.changed === 0 ? '' : done, readSentence(r.reconciled), ...refused]
    .filter(Boolean)
    .join(' ');
}

/** What reading uncertain items before a retry found: none is queued again without it. */
function readSentence(read: BulkResultView['reconciled']): string {
  if (!read) return '';
  const parts = [
    `Read ${plural(read.examined)} from the tenant first:`,
    `${count(read.applied)} found applied (now succeeded),`,
    `${count(read.requeued)} not applied (queued again),`,
    `${count(read.unknown)} still uncertain.`,
  ];
  return `${parts.join(' ')}${read.paused ? ` ${read.paused}` : ''}`;
}

function RowActions({ item, onDone, onEdit }: { item: OutboxItemView; onDone(error?: string): void; onEdit(): void }) {
  const act = (run: () => Promise<unknown>) => () =>
    void run().then(
      () => onDone(),
      (e: unknown) => onDone(errorMessage(e)),
    );
  return (
    <div className="row" style={{ gap: 4 }}>
      {item.state === 'queued' && (
        <button className="btn small" onClick={onEdit}>
          Edit
        </button>
      )}
      {(item.state === 'failed' || item.state === 'uncertain') && (
        <>
          <button
            className="btn small"
            onClick={() =>
              void call('outboxRetry', { id: item.id }).then(
                // Said when the retry did not simply queue it again: a read found it applied, or could not tell.
                (r) => onDone(r.refused.length > 0 || (r.reconciled && r.reconciled.requeued === 0) ? bulkSentence(r) : undefined),
                (e: unknown) => onDone(errorMessage(e)),
              )
            }
          >
            Retry
          </button>
          <button className="btn small" onClick={act(() => call('outboxResolve', { id: item.id, note: 'resolved in the app' }))}>
            Resolve
          </button>
        </>
      )}
      {SELECTABLE.has(item.state) && (
        <button className="btn small danger" onClick={act(() => call('outboxDiscard', { id: item.id }))}>
          Discard
        </button>
      )}
    </div>
  );
}

function FilterBar({ filter, setFilter, counts, batches }: FilterBarProps) {
  const [text, setText] = useState(filter.error ?? '');
  const typed = useDebounced(text.trim(), 300);
  useEffect(() => {
    if ((filter.error ?? '') !== typed) setFilter({ ...filter, error: typed || null });
    // Only the typed text drives this; the rest of the filter is read as it is now.
  }, [typed]);
  return (
    <div className="stack" style={{ gap: 8 }}>
      <div className="row wrap" role="group" aria-label="State">
        <button className={`btn small ${filter.state === null ? 'primary' : ''}`} onClick={() => setFilter({ ...filter, state: null })}>
          All
        </button>
        {STATES.map((state) => (
          <button
            key={state}
            className={`btn small ${filter.state === state ? 'primary' : ''}`}
            onClick={() => setFilter({ ...filter, state })}
            data-testid={`filter-${state}`}
          >
            {state} {counts[state] ? `(${count(counts[state] ?? 0)})` : ''}
          </button>
        ))}
      </div>
      <div className="row wrap">
        <AnySelect
          id="outbox-filter-kind"
          label="Kind"
          value={filter.kind}
          choices={KIND_CHOICES}
          onChange={(kind) => setFilter({ ...filter, kind: kind as MutationKind | null })}
        />
        <AnySelect
          id="outbox-filter-batch"
          label="Import"
          value={filter.batch}
          choices={batchChoices(batches)}
          onChange={(batch) => setFilter({ ...filter, batch: batch ? Number(batch) : null })}
          maxWidth={320}
        />
        <label className="small" htmlFor="outbox-filter-error">
          Reason contains
        </label>
        <input
          id="outbox-filter-error"
          className="field"
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          style={{ width: 180 }}
        />
      </div>
    </div>
  );
}

interface FilterBarProps {
  filter: OutboxFilter;
  setFilter(filter: OutboxFilter): void;
  counts: Record<string, number>;
  batches: OutboxBatchView[];
}

/** Selection controls and the bulk actions on what is selected; resolve asks for one note, discard asks to confirm. */
function BulkBar(props: {
  selection: Selection;
  onScreen: OutboxItemView[];
  matching: number;
  matchingCounts: Record<string, number>;
  setSelection(s: Selection): void;
  run(action: BulkAction | 'send', note?: string): Promise<void>;
  online: boolean;
}) {
  const { selection, onScreen, matching, matchingCounts, setSelection, run, online } = props;
  const [asking, setAsking] = useState<'resolve' | 'discard' | null>(null);
  const [note, setNote] = useState('');
  const selectable = onScreen.filter((i) => SELECTABLE.has(i.state));
  const size = selection.all ? selection.total : selection.items.size;
  const n = (action: BulkAction | 'send') => selectedCount(selection, action);
  if (selectable.length === 0 && size === 0) return null;
  return (
    <div className="card stack" style={{ gap: 8, padding: 8 }} data-testid="bulk-bar">
      <div className="row wrap" style={{ gap: 6 }}>
        <button className="btn small" onClick={() => setSelection({ all: false, items: new Map(selectable.map((i) => [i.id, i.state])) })}>
          Select all on screen ({count(selectable.length)})
        </button>
        {matching > onScreen.length || size === 0 ? (
          <button className="btn small" onClick={() => setSelection({ all: true, counts: matchingCounts, total: matching })}>
            Select all {count(matching)} matching
          </button>
        ) : null}
        {size > 0 && (
          <>
            <span className="small grow" role="status" data-testid="selected-count">
              {selection.all ? `All ${count(size)} matching selected` : `${count(size)} selected`}
            </span>
            {n('send') > 0 && !selection.all && (
              <button className="btn small" disabled={!online} onClick={() => void run('send')}>
                Send selected ({count(n('send'))})
              </button>
            )}
            <button className="btn small" disabled={n('retry') === 0} onClick={() => void run('retry')}>
              Retry ({count(n('retry'))})
            </button>
            <button className="btn small" disabled={n('resolve') === 0} onClick={() => setAsking('resolve')}>
              Resolve ({count(n('resolve'))})…
            </button>
            <button className="btn small danger" disabled={n('discard') === 0} onClick={() => setAsking('discard')}>
              Discard ({count(n('discard'))})…
            </button>
            <button className="btn small" onClick={() => setSelection(NOTHING)}>
              Clear selection
            </button>
          </>
        )}
      </div>
      {asking && size > 0 && (
        <form
          className="row wrap"
          style={{ gap: 6 }}
          aria-label={asking === 'resolve' ? 'Mark resolved' : 'Discard'}
          onSubmit={(e) => {
            e.preventDefault();
            void run(asking, asking === 'resolve' ? note.trim() : undefined).then(() => {
              setAsking(null);
              setNote('');
            });
          }}
        >
          {asking === 'resolve' ? (
            <>
              <label className="small" htmlFor="bulk-resolve-note">
                Note for all {count(n('resolve'))}
              </label>
              <input
                id="bulk-resolve-note"
                className="field"
                style={{ width: 'auto', flex: '1 1 200px' }}
                value={note}
                onChange={(e) => setNote(e.target.value)}
                required
                maxLength={2000}
              />
            </>
          ) : (
            <span className="small grow">Discard {plural(n('discard'))}? They will not be sent.</span>
          )}
          <button
            className={`btn small ${asking === 'discard' ? 'danger' : 'primary'}`}
            type="submit"
            disabled={asking === 'resolve' && !note.trim()}
          >
            {asking === 'resolve' ? `Mark ${count(n('resolve'))} resolved` : `Discard ${count(n('discard'))}`}
          </button>
          <button className="btn small" type="button" onClick={() => setAsking(null)}>
            Cancel
          </button>
        </form>
      )}
    </div>
  );
}

/** The outbox's changes: filtered (state, kind, import, reason), a page at a time, selectable for bulk actions. */
export function OutboxItems(props: {
  filter: OutboxFilter;
  setFilter(filter: OutboxFilter): void;
  onEdit(item: OutboxItemView): void;
  onNew(): void;
  onMessage(message: string | null): void;
}) {
  const { filter, setFilter, onEdit, onNew, onMessage } = props;
  const version = useApp((s) => s.outboxVersion);
  const outboxChanged = useApp((s) => s.outboxChanged);
  const online = useApp((s) => s.connection.online);
  const [page, setPage] = useState(0);
  const [selection, setSelection] = useState<Selection>(NOTHING);
  const list = useQuery(() => call('outboxList', { ...filter, limit: PAGE, offset: page * PAGE }), [filter, page, version]);
  const batches = useQuery(() => call('outboxBatches'), [version]);
  const changeFilter = (next: OutboxFilter) => {
    setFilter(next);
    setPage(0);
    setSelection(NOTHING);
  };

  const run = async (action: BulkAction | 'send', note?: string) => {
    onMessage(null);
    try {
      if (action === 'send') {
        if (selection.all) return;
        await call('outboxSend', { ids: [...selection.items.keys()] });
        useApp.setState({ sending: true });
      } else {
        const target = selection.all ? { ids: null, filter } : { ids: [...selection.items.keys()], filter: null };
        onMessage(bulkSentence(await call('outboxBulk', { action, ...target, note: note ?? null })));
      }
      setSelection(NOTHING);
      outboxChanged();
    } catch (error) {
      onMessage(errorMessage(error));
    }
  };

  const toggle = (item: OutboxItemView, on: boolean) =>
    setSelection((s) => {
      const items = new Map(s.all ? [] : s.items);
      if (on) items.set(item.id, item.state);
      else items.delete(item.id);
      return { all: false, items };
    });

  const data = list.data;
  const filtered = filter.state !== null || filter.kind !== null || filter.batch !== null || filter.error !== null;
  return (
    <>
      <FilterBar filter={filter} setFilter={changeFilter} counts={data?.matchingCounts ?? {}} batches={batches.data?.batches ?? []} />
      {list.error && !data ? (
        <ErrorState message={list.error} onRetry={list.reload} />
      ) : !data ? (
        <Loading />
      ) : data.items.length === 0 ? (
        <Empty title={filtered ? 'No change matches' : 'Nothing queued'}>
          <p>Changes you queue (offline or not) wait here until you send them.</p>
          <button className="btn primary" onClick={onNew}>
            New change
          </button>
        </Empty>
      ) : (
        <>
          <BulkBar
            selection={selection}
            onScreen={data.items}
            matching={data.matching}
            matchingCounts={selectableCounts(data.matchingCounts, filter.state)}
            setSelection={setSelection}
            run={run}
            online={online}
          />
          <ItemsTable
            items={data.items}
            selected={(id) => selection.all || selection.items.has(id)}
            toggle={toggle}
            onEdit={onEdit}
            onDone={(error) => {
              onMessage(error ?? null);
              outboxChanged();
            }}
          />
          <Pager page={page} setPage={setPage} shown={data.items.length} matching={data.matching} />
        </>
      )}
    </>
  );
}

/** Matching items per state, restricted to the state filter when there is one. */
function selectableCounts(counts: Record<string, number>, state: OutboxState | null): Record<string, number> {
  return state ? { [state]: counts[state] ?? 0 } : counts;
}

function Pager({ page, setPage, shown, matching }: { page: number; setPage(p: number): void; shown: number; matching: number }) {
  if (matching <= PAGE) return null;
  const first = page * PAGE + 1;
  return (
    <nav className="row small" aria-label="Pages of changes">
      <span className="grow">
        {count(first)}–{count(first + shown - 1)} of {count(matching)}
      </span>
      <button className="btn small" disabled={page === 0} onClick={() => setPage(page - 1)}>
        Previous
      </button>
      <button className="btn small" disabled={first + shown - 1 >= matching} onClick={() => setPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}

function ItemsTable(props: {
  items: OutboxItemView[];
  selected(id: string): boolean;
  toggle(item: OutboxItemView, on: boolean): void;
  onEdit(item: OutboxItemView): void;
  onDone(error?: string): void;
}) {
  const { items, selected, toggle, onEdit, onDone } = props;
  return (
    <div className="card outbox-table-box" style={{ padding: 0, overflow: 'auto' }}>
      <table className="outbox-table" data-testid="outbox-items">
        <colgroup>
          <col style={{ width: 36 }} />
          <col style={{ width: 104 }} />
          <col />
          <col className="outbox-reason" style={{ width: '22%' }} />
          <col style={{ width: 52 }} />
          <col style={{ width: 96 }} />
          <col style={{ width: 196 }} />
        </colgroup>
        <thead>
          <tr className="muted" style={{ textAlign: 'left' }}>
            <th>
              <span className="sr-only">Select</span>
            </th>
            <th>State</th>
            <th>Change</th>
            <th className="outbox-reason">Reason</th>
            <th>Tries</th>
            <th>Updated</th>
            <th>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => {
            const reason = item.lastError ? (
              <span style={{ color: 'var(--bad)' }}>
                {item.lastStatus ? `${item.lastStatus}: ` : ''}
                {item.lastError}
              </span>
            ) : (
              (item.note ?? '')
            );
            return (
              <tr key={item.id} style={{ borderTop: '1px solid var(--border)' }} data-testid="outbox-item" data-state={item.state}>
                <td className="outbox-select" style={{ padding: 8 }}>
                  {SELECTABLE.has(item.state) && (
                    <input
                      type="checkbox"
                      aria-label={`Select ${item.change}`}
                      checked={selected(item.id)}
                      onChange={(e) => toggle(item, e.target.checked)}
                    />
                  )}
                </td>
                <td>
                  <Badge tone={TONE[item.state]}>{item.state}</Badge>
                </td>
                <td className="outbox-change" data-testid="outbox-change">
                  <div>{item.change}</div>
                  <ResultLinks item={item} />
                  <details className="muted small">
                    <summary>{KIND_LABELS[item.kind]}</summary>
                    <span className="mono">
                      {item.request.method} {item.request.path}
                    </span>
                  </details>
                  {/* Where the window has no room for a Reason column, the reason reads under the change. */}
                  {reason && <div className="small outbox-reason-folded">{reason}</div>}
                </td>
                <td className="small outbox-reason">{reason}</td>
                <td className="outbox-tries">
                  <span className="outbox-stacked-label">Tries </span>
                  {item.attempts}
                </td>
                <td className="small outbox-updated" title={item.updatedAt}>
                  {ago(item.updatedAt)}
                </td>
                <td className="outbox-actions">
                  <RowActions item={item} onEdit={() => onEdit(item)} onDone={onDone} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
