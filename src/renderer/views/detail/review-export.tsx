import { useId, useState } from 'react';
import type { ChannelResult, CollectionId } from '../../../shared/contract';
import { call } from '../../api';
import { useSaveAndExport } from '../../components/ExportReportButton';

type Exported = ChannelResult<'exportReviewWorksheet'>;
export type ReviewScopeKind = 'entitlement' | 'app' | 'campaign';
/** The pages a review worksheet is exported from, and the scope each gives. */
export const REVIEW_SCOPES: Partial<Record<CollectionId, ReviewScopeKind>> = {
  entitlements: 'entitlement',
  apps: 'app',
  campaigns: 'campaign',
};

/** A file name from the object's title: letters, digits and dashes only, so every file system takes it. */
function worksheetName(title: string, id: string): string {
  const slug =
    title
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60)
      .toLowerCase() || id.replace(/[^A-Za-z0-9-]+/g, '').slice(0, 60);
  return `review-${slug}-${new Date().toISOString().slice(0, 10)}.xlsx`;
}

/**
 * "Export review worksheet" on an entitlement's, an app's or a campaign's page: asks who reviews
 * it, then writes the worksheet (offline, from the store) where the save dialog says.
 */
export function ReviewExport({ scope, id, title }: { scope: ReviewScopeKind; id: string; title: string }) {
  const fieldId = useId();
  const [open, setOpen] = useState(false);
  const [reviewer, setReviewer] = useState('');
  const { running, done, error, run: saveAndExport } = useSaveAndExport<Exported>();

  async function run() {
    const written = await saveAndExport({ title: 'Export the review worksheet', defaultName: worksheetName(title, id) }, (path) =>
      call('exportReviewWorksheet', { path, scope, id, reviewer: reviewer.trim() || null }),
    );
    if (written) setOpen(false);
  }

  return (
    <section className="card stack" aria-label="Review worksheet" style={{ gap: 8 }}>
      <div className="row wrap">
        <h2 className="grow" style={{ margin: 0, fontSize: 16 }}>
          Access review
        </h2>
        {!open && (
          <button className="btn" onClick={() => setOpen(true)}>
            Export review worksheet…
          </button>
        )}
      </div>
      <div className="muted small">
        A workbook of every membership of this {scope}, for a reviewer to mark Keep or Revoke offline. Import the returned file in the
        Outbox: its Revokes are queued as removals, and every other cell is checked against what was exported.
      </div>
      {open && (
        <form
          className="row wrap"
          style={{ alignItems: 'flex-end' }}
          onSubmit={(e) => {
            e.preventDefault();
            void run();
          }}
        >
          <div className="grow">
            <label className="label" htmlFor={fieldId}>
              Reviewer
            </label>
            <input
              id={fieldId}
              className="field"
              value={reviewer}
              maxLength={200}
              placeholder="Who reviews it (named on the cover and on every decision)"
              onChange={(e) => setReviewer(e.target.value)}
              autoFocus
            />
          </div>
          <button className="btn primary" type="submit" disabled={running}>
            {running ? 'Exporting…' : 'Save worksheet…'}
          </button>
          <button className="btn" type="button" onClick={() => setOpen(false)} disabled={running}>
            Cancel
          </button>
        </form>
      )}
      {error && (
        <div className="field-error" role="alert">
          {error}
        </div>
      )}
      {done && (
        <div className="stack small" role="status" data-testid="review-export" style={{ gap: 4 }}>
          <div>
            Review worksheet of {done.scope}: {done.rows} membership{done.rows === 1 ? '' : 's'}
            {reviewer.trim() ? `, for ${reviewer.trim()}` : ''}.
          </div>
          <div className="row wrap">
            <span className="mono grow">{done.file}</span>
            <button className="btn small" onClick={() => void call('showInFolder', { path: done.file })}>
              Show in folder
            </button>
          </div>
          <div className="muted mono">SHA-256 {done.sha256}</div>
        </div>
      )}
    </section>
  );
}
