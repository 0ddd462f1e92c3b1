import type { OutboxBatchView } from '../../../shared/contract';
import { call } from '../../api';
import { useApp } from '../../stores/app';
import { Badge, Empty, ErrorState, Loading } from '../../components/States';
import { useQuery } from '../../components/useQuery';
import { count, dateTime } from '../../components/format';
import { KIND_LABELS } from './ChangeForms';
import { STATES } from './OutboxItems';

const TONE = { succeeded: 'ok', failed: 'bad', uncertain: 'warn', queued: 'pending', sending: 'pending' } as const;

/** The CSV imports, newest first: the file's name, when, how many rows, and where their changes are now. */
export function Batches({ onShow }: { onShow(batch: OutboxBatchView): void }) {
  const version = useApp((s) => s.outboxVersion);
  const batches = useQuery(() => call('outboxBatches'), [version]);
  if (batches.error) return <ErrorState message={batches.error} onRetry={batches.reload} />;
  if (!batches.data) return <Loading />;
  if (batches.data.batches.length === 0)
    return <Empty title="No import yet">Each CSV you import is kept here as a batch, with where its changes are now.</Empty>;
  return (
    <div className="card" style={{ padding: 0, overflow: 'auto' }}>
      <table className="outbox-table" data-testid="batches">
        <thead>
          <tr className="muted" style={{ textAlign: 'left' }}>
            <th>File</th>
            <th>Imported</th>
            <th>Kind</th>
            <th>Rows</th>
            <th>Now</th>
            <th>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {batches.data.batches.map((b) => (
            <tr key={b.id} style={{ borderTop: '1px solid var(--border)' }} data-testid="batch">
              <td>{b.name}</td>
              <td className="small">{dateTime(b.createdAt)}</td>
              <td className="small">{KIND_LABELS[b.kind]}</td>
              <td>{count(b.rows)}</td>
              <td>
                <div className="row wrap" style={{ gap: 4 }}>
                  {STATES.filter((s) => (b.counts[s] ?? 0) > 0).map((s) => (
                    <Badge key={s} tone={s in TONE ? TONE[s as keyof typeof TONE] : undefined}>
                      {count(b.counts[s] ?? 0)} {s}
                    </Badge>
                  ))}
                </div>
              </td>
              <td>
                <button className="btn small" onClick={() => onShow(b)} aria-label={`Show the changes of ${b.name}`}>
                  Show changes
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
