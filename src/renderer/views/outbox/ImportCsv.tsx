import { useEffect, useState } from 'react';
import type { ImportPreview } from '../../../shared/contract';
import { CSV_IMPORT_MAX_BYTES } from '../../../shared/input-limits';
import { namedSummary } from '../../../shared/named-summary';
import { sizeText } from '../../../shared/sizes';
import { call, errorMessage } from '../../api';
import { useApp } from '../../stores/app';
import { Badge } from '../../components/States';

type Kind = 'create-scope' | 'remove-membership' | 'escalate-task' | 'update-template';

const COLUMNS: Record<Kind, string> = {
  'create-scope': 'app_id, xaa_resource_server_id, scope_value, display_name, description, classification, state',
  'remove-membership': 'app_id, app_entitlement_id, app_user_id',
  'escalate-task': "task_id, comment (the policy step is the synced task's current step; policy_step_id to give another)",
  'update-template':
    'templateId, then one column per field to set, by path: displayName, description, autoStartCampaign, recurrenceRule.endDate, ' +
    'notificationConfig.sendReminders… (an empty cell sets nothing)',
};

/** The refused rows' CSV as a file to download (named after the file imported). */
function rejectsHref(csv: string): string {
  return URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
}

function rejectsName(fileName: string): string {
  return `${fileName.replace(/\.csv$/i, '') || 'import'}-rejected.csv`;
}

/**
 * Bulk CSV: validated whole, previewed (valid rows, line-numbered errors, duplicates), queued in one
 * go; when some rows are refused, the valid ones can be queued all the same (a partial import) and
 * the refused ones downloaded as a CSV with their line and reason, to fix and import again.
 */
export function ImportCsv({ onImported }: { onImported(): void }) {
  const outboxChanged = useApp((s) => s.outboxChanged);
  const [kind, setKind] = useState<Kind>('create-scope');
  const [csv, setCsv] = useState<string | null>(null);
  const [fileName, setFileName] = useState('');
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<string | null>(null);
  // The refused rows of the file chosen: kept after a partial import, so they can still be downloaded.
  const [rejectsCsv, setRejectsCsv] = useState<string | null>(null);

  async function load(file: File, chosenKind = kind) {
    setError(null);
    setResult(null);
    if (file.size > CSV_IMPORT_MAX_BYTES) {
      // Refused before reading, as the CLI does: the same limit.
      setPreview(null);
      setCsv(null);
      setError(`${file.name} is ${sizeText(file.size)}, more than the ${sizeText(CSV_IMPORT_MAX_BYTES)} a CSV import takes.`);
      return;
    }
    const text = await file.text();
    setCsv(text);
    setFileName(file.name);
    try {
      const checked = await call('outboxPreviewImport', { kind: chosenKind, csv: text });
      setPreview(checked);
      setRejectsCsv(checked.rejectsCsv);
    } catch (failure) {
      setPreview(null);
      setRejectsCsv(null);
      setError(errorMessage(failure));
    }
  }

  async function importAll(partial: boolean) {
    if (csv === null) return;
    try {
      const done = await call('outboxImport', { kind, csv, source: fileName || null, partial });
      const refused =
        done.refused > 0
          ? ` ${done.refused} row${done.refused === 1 ? '' : 's'} refused: fix them in the downloaded file and import it again.`
          : '';
      setResult(`${done.queued} change${done.queued === 1 ? '' : 's'} queued from ${fileName}.${refused}`);
      setRejectsCsv(done.rejectsCsv);
      setPreview(null);
      setCsv(null);
      outboxChanged();
      // With rows refused the tab stays, for their file to be downloaded; otherwise on to the queued changes.
      if (done.refused === 0) onImported();
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }

  const blocking = preview ? preview.errors.length > 0 : true;
  // Errors about the file itself (not CSV, its header) stop any import; refused rows only the whole one.
  const fileErrors = preview ? preview.errors.length - preview.refused : 0;
  const [rejects, setRejects] = useState<{ href: string; name: string } | null>(null);
  useEffect(() => {
    if (rejectsCsv === null) return setRejects(null);
    const href = rejectsHref(rejectsCsv);
    setRejects({ href, name: rejectsName(fileName) });
    return () => URL.revokeObjectURL(href);
  }, [rejectsCsv, fileName]);
  return (
    <div className="card stack" aria-label="Import CSV">
      <div className="row wrap">
        <div>
          <label className="label" htmlFor="import-kind">
            Kind
          </label>
          <select
            id="import-kind"
            className="field"
            value={kind}
            onChange={(e) => {
              setKind(e.target.value as Kind);
              setPreview(null);
              setRejectsCsv(null);
              setCsv(null);
            }}
          >
            <option value="create-scope">Create scopes</option>
            <option value="remove-membership">Remove memberships</option>
            <option value="escalate-task">Escalate tasks</option>
            <option value="update-template">Update templates</option>
          </select>
        </div>
        <div className="grow">
          <label className="label" htmlFor="import-file">
            CSV file
          </label>
          <input
            id="import-file"
            type="file"
            accept=".csv,text/csv"
            onChange={(e) => {
              const f = e.target.files?.[0];
              if (f) void load(f);
            }}
          />
        </div>
      </div>
      <div className="muted small">
        Columns: <code>{COLUMNS[kind]}</code>. The whole file is checked first. An id the store's complete sync does not hold is an error;
        rows with errors can be left out and downloaded to fix and import again.
      </div>
      {error && (
        <div className="field-error" role="alert">
          {error}
        </div>
      )}
      {result && <Badge tone="ok">{result}</Badge>}
      {rejects && (
        <div>
          <a className="btn" href={rejects.href} download={rejects.name} data-testid="import-rejects">
            Download the refused rows (CSV, with their line and reason)
          </a>
        </div>
      )}
      {preview && (
        <div className="stack" data-testid="import-preview">
          <div className="row wrap">
            <Badge tone="ok">{preview.valid.length} valid</Badge>
            <Badge tone={preview.errors.length ? 'bad' : undefined}>{preview.errors.length} errors</Badge>
            <Badge tone={preview.duplicatesInFile.length + preview.duplicatesInQueue.length ? 'warn' : undefined}>
              {preview.duplicatesInFile.length + preview.duplicatesInQueue.length} duplicates skipped
            </Badge>
            {preview.rowWarnings.length > 0 && <Badge tone="warn">{preview.rowWarnings.length} warnings</Badge>}
            <span className="muted small">{preview.rows} rows read</span>
          </div>
          {preview.errors.length > 0 && (
            <table className="small" style={{ borderCollapse: 'collapse', width: '100%' }} data-testid="import-errors">
              <thead>
                <tr className="muted" style={{ textAlign: 'left' }}>
                  <th>Line</th>
                  <th>Field</th>
                  <th>Problem</th>
                </tr>
              </thead>
              <tbody>
                {preview.errors.slice(0, 200).map((e, i) => (
                  <tr key={i} style={{ borderTop: '1px solid var(--border)' }}>
                    <td className="mono">
                      {e.line}
                      {e.column ? `:${e.column}` : ''}
                    </td>
                    <td className="mono">{e.field}</td>
                    <td style={{ color: 'var(--bad)' }}>{e.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {preview.rowWarnings.length > 0 && (
            <table className="small" style={{ borderCollapse: 'collapse', width: '100%' }} data-testid="import-warnings">
              <caption className="muted" style={{ textAlign: 'left' }}>
                Queued all the same: the local copy may be older than the tenant.
              </caption>
              <thead>
                <tr className="muted" style={{ textAlign: 'left' }}>
                  <th>Line</th>
                  <th>Field</th>
                  <th>Warning</th>
                </tr>
              </thead>
              <tbody>
                {preview.rowWarnings.slice(0, 200).map((w, i) => (
                  <tr key={i} style={{ borderTop: '1px solid var(--border)' }}>
                    <td className="mono">
                      {w.line}
                      {w.column ? `:${w.column}` : ''}
                    </td>
                    <td className="mono">{w.field}</td>
                    <td>{w.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {preview.valid.length > 0 && (
            <table className="small" style={{ borderCollapse: 'collapse', width: '100%' }} data-testid="import-valid">
              <thead>
                <tr className="muted" style={{ textAlign: 'left' }}>
                  <th>Line</th>
                  <th>Change</th>
                </tr>
              </thead>
              <tbody>
                {preview.valid.slice(0, 200).map((row) => (
                  <tr key={row.line} style={{ borderTop: '1px solid var(--border)' }}>
                    <td className="mono">{row.line}</td>
                    <td>{namedSummary(row.summary, row.input, row.names)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {preview.warnings.map((w, i) => (
            <div key={i} className="muted small">
              {w}
            </div>
          ))}
          <div className="row wrap">
            {!blocking && (
              <button className="btn primary" disabled={preview.valid.length === 0} onClick={() => void importAll(false)}>
                {`Queue ${preview.valid.length} change${preview.valid.length === 1 ? '' : 's'}`}
              </button>
            )}
            {blocking && fileErrors === 0 && (
              <button className="btn primary" disabled={preview.valid.length === 0} onClick={() => void importAll(true)}>
                {`Queue the ${preview.valid.length} valid row${preview.valid.length === 1 ? '' : 's'}, leave out ${preview.refused}`}
              </button>
            )}
            {blocking && fileErrors > 0 && <span className="muted small">Fix the file to import: its errors are not about one row.</span>}
          </div>
        </div>
      )}
    </div>
  );
}
