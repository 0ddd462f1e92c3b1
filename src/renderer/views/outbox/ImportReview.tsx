import { useState } from 'react';
import type { ChannelResult } from '../../../shared/contract';
import { call, errorMessage } from '../../api';
import { useApp } from '../../stores/app';
import { Badge } from '../../components/States';

type ReviewImport = ChannelResult<'importReviewDecisions'>;
type ReviewDecision = ReviewImport['decisions'][number];

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** What a decision does (or would do) in words. */
function outcome(d: ReviewDecision, dryRun: boolean): string {
  if (d.decision === 'Keep') return 'kept';
  if (d.skipped) return `not queued: ${d.skipped}`;
  return dryRun ? 'removal would be queued' : 'removal queued';
}

/** The decisions of a worksheet read, with what each does. */
function Decisions({ read }: { read: ReviewImport }) {
  if (!read.decisions.length) return <div className="muted small">No row has a decision: nothing to record or queue.</div>;
  return (
    <table className="small" style={{ borderCollapse: 'collapse', width: '100%' }} data-testid="review-decisions">
      <thead>
        <tr className="muted" style={{ textAlign: 'left' }}>
          <th>Row</th>
          <th>Subject</th>
          <th>Decision</th>
          <th>Comment</th>
          <th>Outcome</th>
        </tr>
      </thead>
      <tbody>
        {read.decisions.map((d) => (
          <tr key={d.row} style={{ borderTop: '1px solid var(--border)' }} data-decision={d.decision}>
            <td className="mono">{d.row}</td>
            <td>{d.subject ?? <span className="mono">{d.appUserId}</span>}</td>
            <td>{d.decision}</td>
            <td>{d.comment ?? ''}</td>
            <td style={d.skipped ? { color: 'var(--warn, inherit)' } : undefined}>{outcome(d, read.dryRun)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * "Import review" in the Outbox: a returned review worksheet chosen in the open dialog is checked
 * first (a dry run: its decisions, the removals it would queue, the rows it would skip and why, or
 * the refusal naming each changed cell or row); then imported, its Revokes queued as one batch
 * named after the worksheet.
 */
export function ImportReview({ onImported }: { onImported(batchId: number | null): void }) {
  const outboxChanged = useApp((s) => s.outboxChanged);
  const [path, setPath] = useState<string | null>(null);
  const [preview, setPreview] = useState<ReviewImport | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function choose() {
    setError(null);
    setPreview(null);
    setPath(null);
    try {
      const chosen = (
        await call('showOpenDialog', { title: 'Import review decisions', filters: [{ name: 'Excel workbook', extensions: ['xlsx'] }] })
      ).path;
      if (!chosen) return;
      setBusy(true);
      setPreview(await call('importReviewDecisions', { path: chosen, dryRun: true }));
      setPath(chosen);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  async function importIt() {
    if (!path) return;
    setError(null);
    setBusy(true);
    try {
      const done = await call('importReviewDecisions', { path, dryRun: false });
      if (done.refused.length) {
        // Changed since the dry run (another import of it, say): shown as refused, nothing queued.
        setPreview(done);
        return;
      }
      outboxChanged();
      setPreview(null);
      setPath(null);
      onImported(done.batch?.id ?? null);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  const revokes = preview ? preview.decisions.filter((d) => d.decision === 'Revoke') : [];
  const queued = revokes.filter((d) => !d.skipped).length;
  const name = preview ? (preview.worksheet?.name ?? preview.file) : '';
  return (
    <div className="card stack" aria-label="Import review decisions">
      <div className="row wrap">
        <button className="btn" onClick={() => void choose()} disabled={busy}>
          Choose a returned worksheet…
        </button>
        <span className="muted small grow">
          A review worksheet exported from an entitlement, app or campaign page, with its Decision and Comment columns filled. Every other
          cell is checked against what was exported; a re-save by Excel or LibreOffice is fine.
        </span>
      </div>
      {error && (
        <div className="field-error" role="alert">
          {error}
        </div>
      )}
      {preview && preview.refused.length > 0 && (
        <div className="stack" role="alert" data-testid="review-refused">
          <div className="field-error">Refused: {name}. Nothing was queued or recorded.</div>
          <ul className="small" style={{ margin: 0 }}>
            {preview.refused.map((reason, i) => (
              <li key={i} className="mono">
                {reason}
              </li>
            ))}
          </ul>
        </div>
      )}
      {preview && preview.refused.length === 0 && (
        <div className="stack" data-testid="review-preview">
          <div>
            <strong>{name}</strong> · reviewer {preview.worksheet?.reviewer ?? 'not named'} · {preview.worksheet?.scope}
          </div>
          <div className="row wrap">
            <Badge>{plural(preview.decisions.length, 'decision')}</Badge>
            <Badge tone="ok">{preview.decisions.length - revokes.length} keep</Badge>
            <Badge tone={revokes.length ? 'warn' : undefined}>{revokes.length} revoke</Badge>
            <Badge tone={revokes.length - queued ? 'warn' : undefined}>{revokes.length - queued} skipped</Badge>
            {preview.undecided.length > 0 && (
              <span className="muted small">{plural(preview.undecided.length, 'row')} without a decision</span>
            )}
          </div>
          <Decisions read={preview} />
          <div className="row wrap">
            <span className="grow small">
              Dry run: {plural(queued, 'removal')} would be queued as one batch named {name}; every decision is recorded with the reviewer.
            </span>
            <button className="btn primary" onClick={() => void importIt()} disabled={busy || preview.decisions.length === 0}>
              Import: queue {plural(queued, 'removal')}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
