import { useState } from 'react';
import type { ChangeKind, ChannelResult, CollectionId, SyncRun } from '../../../shared/contract';
import { call } from '../../api';
import { ExportReportButton } from '../../components/ExportReportButton';
import { useApp } from '../../stores/app';
import { COLLECTION_LABELS, COLLECTION_NOUN } from '../../components/collections';
import { FieldChanges } from '../../components/FieldChanges';
import { Empty, ErrorState, Loading } from '../../components/States';
import { useQuery } from '../../components/useQuery';
import { count, dateTime } from '../../components/format';

const PAGE = 50;
const KINDS: ChangeKind[] = ['added', 'removed', 'modified'];

function runLabel(run: SyncRun): string {
  const from = run.origin === 'outbox' ? 'Sent changes' : run.origin === 'live' ? 'Read from the tenant' : 'Sync';
  return `${from} run ${run.id} · ${dateTime(run.finishedAt ?? run.startedAt)}`;
}

/** Picks the two runs compared; any completed run can be either end. */
function RunPicker({ runs, from, to, onChange }: { runs: SyncRun[]; from: number; to: number; onChange(from: number, to: number): void }) {
  return (
    <div className="row wrap" style={{ gap: 16 }}>
      <div>
        <label className="label" htmlFor="changes-from">
          From
        </label>
        <select id="changes-from" className="field" value={from} onChange={(e) => onChange(Number(e.target.value), to)}>
          {runs
            .filter((r) => r.id < to)
            .map((run) => (
              <option key={run.id} value={run.id}>
                {runLabel(run)}
              </option>
            ))}
        </select>
      </div>
      <div>
        <label className="label" htmlFor="changes-to">
          To
        </label>
        <select id="changes-to" className="field" value={to} onChange={(e) => onChange(from, Number(e.target.value))}>
          {runs
            .filter((r) => r.id > from)
            .map((run) => (
              <option key={run.id} value={run.id}>
                {runLabel(run)}
              </option>
            ))}
        </select>
      </div>
    </div>
  );
}

/** Exports the diff report of the same two runs to a file chosen in the save dialog. */
function ExportDiff({ from, to }: { from: number; to: number }) {
  return (
    <ExportReportButton
      label="Export diff report…"
      dialogTitle="Export the changes"
      defaultName={`attest-diff-run${from}-run${to}.xlsx`}
      exportTo={(path) => call('exportReport', { kind: 'diff', path, fromRun: from, toRun: to })}
      testId="diff-export"
    />
  );
}

/** What changed on the tenant between two completed runs: per collection, each object, each value before and after. */
export function ChangesView({ fromRun, toRun }: { fromRun?: number; toRun?: number }) {
  const dataVersion = useApp((s) => s.dataVersion);
  const navigate = useApp((s) => s.navigate);
  const online = useApp((s) => s.connection.online);
  const syncing = useApp((s) => s.syncing);
  const startSync = useApp((s) => s.startSync);
  const [runs, setRuns] = useState<{ from: number | null; to: number | null }>({ from: fromRun ?? null, to: toRun ?? null });
  const [collection, setCollection] = useState<CollectionId | null>(null);
  const [change, setChange] = useState<ChangeKind | null>(null);
  const [offset, setOffset] = useState(0);
  const result = useQuery(
    () => call('compareRuns', { fromRun: runs.from, toRun: runs.to, collection, change, offset, limit: PAGE }),
    [runs.from, runs.to, collection, change, offset, dataVersion],
  );
  const data = result.data;
  const choose = (next: { collection?: CollectionId | null; change?: ChangeKind | null }) => {
    if (next.collection !== undefined) setCollection(next.collection);
    if (next.change !== undefined) setChange(next.change);
    setOffset(0);
  };

  if (result.error && !data)
    return (
      <div className="content" data-screen="changes">
        <ErrorState message={result.error} onRetry={result.reload} />
      </div>
    );
  if (!data)
    return (
      <div className="content" data-screen="changes">
        <Loading />
      </div>
    );
  if (data.fromRun === null || data.toRun === null)
    return (
      <div className="content" data-screen="changes">
        <h1>Changes</h1>
        <Empty title="Nothing to compare yet">
          <p>
            Changes compares two completed syncs. {data.runs.length === 0 ? 'Sync once, then again later' : 'Sync again'} to see what
            changed on the tenant in between.
          </p>
          <button className="btn primary" disabled={!online || syncing} onClick={() => void startSync()}>
            Sync now
          </button>
        </Empty>
      </div>
    );

  const from = data.fromRun;
  const to = data.toRun;
  const totals = KINDS.map((kind) => data.counts.reduce((sum, c) => sum + c[kind], 0));
  return (
    <div className="content stack" data-screen="changes" style={{ maxWidth: 1100 }}>
      <div className="row wrap" style={{ alignItems: 'flex-end' }}>
        <div className="grow">
          <h1>Changes</h1>
          <div className="muted small" data-testid="changes-summary">
            {count(totals[0]!)} added · {count(totals[1]!)} removed · {count(totals[2]!)} modified
          </div>
        </div>
        <ExportDiff from={from} to={to} />
      </div>
      <RunPicker runs={data.runs} from={from} to={to} onChange={(f, t) => (setRuns({ from: f, to: t }), setOffset(0))} />
      {result.error && (
        <div className="field-error" role="alert">
          {result.error}
        </div>
      )}
      {data.counts.length === 0 ? (
        <Empty title="No changes">
          <p>
            The tenant's objects were the same in run {from} and run {to}.
          </p>
        </Empty>
      ) : (
        <CountsTable counts={data.counts} collection={collection} change={change} onChoose={choose} />
      )}
      {data.changes.length > 0 && (
        <section className="stack" aria-label="Changed objects" data-testid="changed-objects">
          {data.changes.map((item) => (
            <article
              key={`${item.collection}/${item.id}`}
              className="card stack"
              style={{ gap: 8 }}
              data-testid="changed-object"
              data-id={item.id}
            >
              <div className="row wrap">
                <span className={`change-kind ${item.change}`}>{item.change}</span>
                <span className="muted small">{COLLECTION_NOUN[item.collection]}</span>
                <button
                  className="btn link"
                  onClick={() => navigate({ view: 'detail', collection: item.collection, id: item.id })}
                  title={`Open ${item.title || item.id}`}
                >
                  {item.title || item.id}
                </button>
                <code className="muted small grow">{item.id}</code>
              </div>
              <FieldChanges fields={item.fields} fieldCount={item.fieldCount} caption={`Changed values of ${item.title || item.id}`} />
            </article>
          ))}
          <Pager offset={offset} total={data.total} onOffset={setOffset} />
        </section>
      )}
    </div>
  );
}

function CountsTable({
  counts,
  collection,
  change,
  onChoose,
}: {
  counts: ChannelResult<'compareRuns'>['counts'];
  collection: CollectionId | null;
  change: ChangeKind | null;
  onChoose(next: { collection: CollectionId | null; change: ChangeKind | null }): void;
}) {
  const pressed = (c: CollectionId | null, k: ChangeKind | null) => collection === c && change === k;
  return (
    <table className="field-changes" data-testid="changes-counts" style={{ tableLayout: 'auto' }}>
      <caption className="sr-only">Changes per collection; choose a count to list those objects</caption>
      <thead>
        <tr>
          <th scope="col">Collection</th>
          {KINDS.map((kind) => (
            <th key={kind} scope="col">
              {kind.charAt(0).toUpperCase() + kind.slice(1)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        <tr>
          <th scope="row">
            <button className="btn link" aria-pressed={pressed(null, null)} onClick={() => onChoose({ collection: null, change: null })}>
              Every collection
            </button>
          </th>
          {KINDS.map((kind) => (
            <td key={kind}>
              <button className="btn link" aria-pressed={pressed(null, kind)} onClick={() => onChoose({ collection: null, change: kind })}>
                {count(counts.reduce((sum, c) => sum + c[kind], 0))}
                <span className="sr-only"> {kind} in every collection</span>
              </button>
            </td>
          ))}
        </tr>
        {counts.map((row) => (
          <tr key={row.collection} data-collection={row.collection}>
            <th scope="row">
              <button
                className="btn link"
                aria-pressed={pressed(row.collection, null)}
                onClick={() => onChoose({ collection: row.collection, change: null })}
              >
                {COLLECTION_LABELS[row.collection]}
              </button>
            </th>
            {KINDS.map((kind) => (
              <td key={kind}>
                <button
                  className="btn link"
                  aria-pressed={pressed(row.collection, kind)}
                  disabled={row[kind] === 0}
                  onClick={() => onChoose({ collection: row.collection, change: kind })}
                >
                  {count(row[kind])}
                  <span className="sr-only">
                    {' '}
                    {kind} in {COLLECTION_LABELS[row.collection]}
                  </span>
                </button>
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Pager({ offset, total, onOffset }: { offset: number; total: number; onOffset(offset: number): void }) {
  if (total <= PAGE) return null;
  return (
    <nav className="row" aria-label="Pages of changes">
      <button className="btn" disabled={offset === 0} onClick={() => onOffset(Math.max(0, offset - PAGE))}>
        Previous
      </button>
      <span className="muted small">
        {count(offset + 1)}–{count(Math.min(total, offset + PAGE))} of {count(total)}
      </span>
      <button className="btn" disabled={offset + PAGE >= total} onClick={() => onOffset(offset + PAGE)}>
        Next
      </button>
    </nav>
  );
}
