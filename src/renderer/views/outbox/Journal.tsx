import { useState } from 'react';
import type { MutationKind } from '../../../shared/contract';
import { call } from '../../api';
import { useApp } from '../../stores/app';
import { Empty, ErrorState, Loading } from '../../components/States';
import { useQuery } from '../../components/useQuery';
import { count, dateTime } from '../../components/format';
import { KIND_LABELS } from './ChangeForms';
import { AnySelect, batchChoices, KIND_CHOICES } from './filter-fields';

const PAGE = 50;
const OUTCOMES = ['succeeded', 'failed', 'uncertain', 'queued', 'resolved', 'discarded'];

interface JournalFilter {
  kind: MutationKind | null;
  outcome: string | null;
  batch: number | null;
  /** Days, as the date inputs give them (YYYY-MM-DD, UTC). */
  from: string;
  to: string;
}
const NO_FILTER: JournalFilter = { kind: null, outcome: null, batch: null, from: '', to: '' };

/** The day after `day` (YYYY-MM-DD), as the start of it in UTC: "to" includes its whole day. */
function dayAfter(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString();
}

function Filters({ filter, set }: { filter: JournalFilter; set(f: JournalFilter): void }) {
  const version = useApp((s) => s.outboxVersion);
  const batches = useQuery(() => call('outboxBatches'), [version]);
  return (
    <div className="row wrap" role="group" aria-label="Journal filters">
      <AnySelect
        id="journal-kind"
        label="Kind"
        value={filter.kind}
        choices={KIND_CHOICES}
        onChange={(kind) => set({ ...filter, kind: kind as MutationKind | null })}
      />
      <AnySelect
        id="journal-outcome"
        label="Outcome"
        value={filter.outcome}
        choices={OUTCOMES.map((o) => ({ value: o, label: o }))}
        onChange={(outcome) => set({ ...filter, outcome })}
      />
      <AnySelect
        id="journal-batch"
        label="Import"
        value={filter.batch}
        choices={batchChoices(batches.data?.batches ?? [])}
        onChange={(batch) => set({ ...filter, batch: batch ? Number(batch) : null })}
        maxWidth={320}
      />
      <label className="small" htmlFor="journal-from">
        From
      </label>
      <input
        id="journal-from"
        className="field"
        type="date"
        style={{ width: 'auto' }}
        value={filter.from}
        onChange={(e) => set({ ...filter, from: e.target.value })}
      />
      <label className="small" htmlFor="journal-to">
        To
      </label>
      <input
        id="journal-to"
        className="field"
        type="date"
        style={{ width: 'auto' }}
        value={filter.to}
        onChange={(e) => set({ ...filter, to: e.target.value })}
      />
    </div>
  );
}

/** The journal as evidence: every attempt and decision, newest first, its change in words, filtered and paged. */
export function Journal() {
  const version = useApp((s) => s.outboxVersion);
  const [filter, setFilter] = useState<JournalFilter>(NO_FILTER);
  const [page, setPage] = useState(0);
  const journal = useQuery(
    () =>
      call('outboxJournal', {
        kind: filter.kind,
        outcome: filter.outcome,
        batch: filter.batch,
        since: filter.from ? `${filter.from}T00:00:00.000Z` : null,
        until: filter.to ? dayAfter(filter.to) : null,
        limit: PAGE,
        offset: page * PAGE,
      }),
    [filter, page, version],
  );
  const change = (f: JournalFilter) => {
    setFilter(f);
    setPage(0);
  };
  const data = journal.data;
  const filtered = filter !== NO_FILTER;
  return (
    <div className="stack">
      <Filters filter={filter} set={change} />
      {journal.error && !data ? (
        <ErrorState message={journal.error} onRetry={journal.reload} />
      ) : !data ? (
        <Loading />
      ) : data.entries.length === 0 ? (
        <Empty title={filtered ? 'No entry matches' : 'Nothing sent yet'}>
          The journal records every attempt: the change, request digest, status and answer.
        </Empty>
      ) : (
        <>
          <div className="card" style={{ padding: 0, overflow: 'auto' }} data-testid="journal">
            <table className="outbox-table" style={{ width: '100%', borderCollapse: 'collapse', fontSize: 13 }}>
              <thead>
                <tr className="muted" style={{ textAlign: 'left' }}>
                  <th>When</th>
                  <th>Event</th>
                  <th>Change</th>
                  <th>Request</th>
                  <th>Status</th>
                  <th>Outcome</th>
                  <th>Digest</th>
                </tr>
              </thead>
              <tbody>
                {data.entries.map((e) => (
                  <tr key={e.seq} style={{ borderTop: '1px solid var(--border)' }} data-testid="journal-entry">
                    <td className="small">{dateTime(e.at)}</td>
                    <td>{e.event}</td>
                    <td>
                      <div>{e.change}</div>
                      <div className="muted small">{KIND_LABELS[e.kind]}</div>
                      {/* What the user or a read said of it (a reason, a note, what a reconcile found); a send's answer is the tenant's JSON. */}
                      {e.event !== 'send' && e.answer && <div className="small">{e.answer}</div>}
                    </td>
                    <td className="mono small">
                      {e.method} {e.path}
                    </td>
                    <td>{e.httpStatus ?? ''}</td>
                    <td>{e.outcome}</td>
                    <td className="mono small" title={e.requestDigest ?? ''}>
                      {e.requestDigest?.slice(0, 12)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {data.total > PAGE && (
            <nav className="row small" aria-label="Pages of the journal">
              <span className="grow">
                {count(page * PAGE + 1)}–{count(page * PAGE + data.entries.length)} of {count(data.total)}, newest first
              </span>
              <button className="btn small" disabled={page === 0} onClick={() => setPage(page - 1)}>
                Previous
              </button>
              <button className="btn small" disabled={(page + 1) * PAGE >= data.total} onClick={() => setPage(page + 1)}>
                Next
              </button>
            </nav>
          )}
        </>
      )}
    </div>
  );
}
