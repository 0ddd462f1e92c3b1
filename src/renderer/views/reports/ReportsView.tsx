import { useEffect, useState } from 'react';
import type { ChannelResult, ExportProgress } from '../../../shared/contract';
import { call, errorMessage, subscribe } from '../../api';
import { useApp } from '../../stores/app';
import { Badge, ErrorState, Loading, ProgressBar } from '../../components/States';
import { useQuery } from '../../components/useQuery';
import { count, dateTime, duration, timeLeft } from '../../components/format';
import type { ReportDraft } from '../../components/report-draft';

type Exported = ChannelResult<'exportReport'>;
const PREPARED_BY_KEY = 'attest.preparedBy';
type Verified = ChannelResult<'verifyWorkbook'>;
const XLSX = [{ name: 'Excel workbook', extensions: ['xlsx'] }];

const SIGNATURE_LABEL: Record<Verified['signature']['status'], string> = {
  'not-signed': 'Not signed',
  valid: 'Signature valid',
  invalid: 'Signature does not match',
  'other-key': 'Signed by another key',
};

function VerifyResult({ result }: { result: Verified }) {
  const verdict =
    result.status === 'not-attest'
      ? 'Not an Attest workbook'
      : result.status === 'altered'
        ? 'Altered'
        : !result.ok
          ? 'Hashes match, but not signed by the key given'
          : result.resaved
            ? 'Data intact: re-saved by another program, nothing shown changed'
            : 'Intact: every hash matches';
  return (
    <div className="stack" data-testid="verify-result" style={{ gap: 8 }}>
      <div className="row">
        <Badge tone={result.ok ? 'ok' : 'bad'}>{verdict}</Badge>
        {result.status !== 'not-attest' && (
          <Badge tone={result.signature.status === 'valid' ? 'ok' : result.signature.status === 'not-signed' ? 'warn' : 'bad'}>
            {SIGNATURE_LABEL[result.signature.status]}
          </Badge>
        )}
        <span className="mono small grow">{result.file}</span>
      </div>
      {result.reason && <div className="field-error">{result.reason}</div>}
      {result.resaved && (
        <div className="small" data-testid="verify-resaved">
          Re-saved after export: the file names {result.resaved.application ?? 'no program'}
          {result.resaved.modifiedBy ? `, last modified by ${result.resaved.modifiedBy}` : ''}
          {result.resaved.modified ? ` at ${dateTime(result.resaved.modified)}` : ''}.
        </div>
      )}
      {result.changes.length > 0 && (
        <table className="small" data-testid="verify-changes" style={{ borderCollapse: 'collapse' }}>
          <thead>
            <tr>
              <th scope="col" style={{ textAlign: 'left' }}>
                Where
              </th>
              <th scope="col" style={{ textAlign: 'left' }}>
                As exported
              </th>
              <th scope="col" style={{ textAlign: 'left' }}>
                Now
              </th>
            </tr>
          </thead>
          <tbody>
            {result.changes.map((change) => (
              <tr key={`${change.sheet} ${change.where}`} style={{ borderTop: '1px solid var(--border)' }}>
                <td style={{ padding: '4px 12px 4px 0' }}>
                  {change.sheet} {change.where}
                  {change.kind === 'changed' ? '' : ` (${change.kind})`}
                </td>
                <td className="mono">{change.old === undefined ? '(not at hand)' : (change.old ?? '(empty)')}</td>
                <td className="mono">{change.new ?? '(empty)'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {result.located && result.status === 'altered' && <div className="small muted">{result.located}</div>}
      {result.problems.length > 0 && (
        <ul className="field-error small" data-testid="verify-problems" style={{ margin: 0 }}>
          {result.problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
      {result.warnings.map((warning) => (
        <div key={warning} className="small muted">
          Warning: {warning}
        </div>
      ))}
      {result.status !== 'not-attest' && (
        <div className="small" data-testid="verify-notice">
          {result.notice}
        </div>
      )}
      <table className="small" style={{ borderCollapse: 'collapse' }}>
        <tbody>
          {result.sheets.map((sheet) => (
            <tr key={sheet.name} style={{ borderTop: '1px solid var(--border)' }}>
              <td style={{ padding: '4px 12px 4px 0' }}>{sheet.name}</td>
              <td>
                <Badge tone={sheet.status === 'intact' ? 'ok' : 'bad'}>{sheet.status}</Badge>
              </td>
              <td className="muted" style={{ paddingLeft: 12 }}>
                {sheet.actualRows ?? sheet.expectedRows ?? ''} rows
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {Object.keys(result.manifest).length > 0 && (
        <dl className="kv small">
          {Object.entries(result.manifest).map(([key, value]) => (
            <div key={key} style={{ display: 'contents' }}>
              <dt>{key}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}

/**
 * Pick a report, filters, sort, text filter and an as-of run; export with progress to a file
 * chosen in the save dialog; verify a workbook. `draft`: the parameters of a view of the app
 * ("Export this view" on a list or a search), the cover then names that view.
 */
export function ReportsView({ draft }: { draft?: ReportDraft | undefined }) {
  const dataVersion = useApp((s) => s.dataVersion);
  const catalog = useQuery(() => call('reportCatalog'), []);
  const runs = useQuery(() => call('listRuns'), [dataVersion]);
  const [kind, setKind] = useState(draft?.kind ?? 'evidence');
  const [asOf, setAsOf] = useState<number | null>(null);
  const [filters, setFilters] = useState(draft?.filters.join('\n') ?? '');
  const [sort, setSort] = useState(draft?.sort ?? '');
  const [text, setText] = useState(draft?.text ?? '');
  // The view the parameters came from: named on the cover while they are as the view left them.
  const [view, setView] = useState(draft?.view ?? null);
  const [sign, setSign] = useState(false);
  // Who prepared the workbooks this computer exports: kept between runs; empty means the OS account's full name.
  const [preparedBy, setPreparedBy] = useState(() => localStorage.getItem(PREPARED_BY_KEY) ?? '');
  const [key, setKey] = useState('');
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const [running, setRunning] = useState(false);
  const [exported, setExported] = useState<Exported | null>(null);
  // Wall time from the click that started the export (Save in the dialog) to the file being ready.
  const [wallMs, setWallMs] = useState<number | null>(null);
  const [verified, setVerified] = useState<Verified | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => subscribe('exportProgress', setProgress), []);

  async function runExport() {
    setError(null);
    setExported(null);
    setVerified(null);
    const stamp = new Date().toISOString().slice(0, 10);
    const { path } = await call('showSaveDialog', {
      title: 'Export the report',
      defaultName: `attest-${kind}-${stamp}.xlsx`,
      filters: XLSX,
    });
    if (!path) return;
    const asked = performance.now();
    setWallMs(null);
    setRunning(true);
    try {
      const lines = filters
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean);
      setExported(
        await call('exportReport', {
          kind,
          path,
          asOfRun: asOf,
          filters: lines,
          sort: sort.trim() || null,
          text: text.trim() || null,
          view,
          sign,
          preparedBy: preparedBy.trim() || null,
        }),
      );
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setWallMs(performance.now() - asked);
      setRunning(false);
    }
  }

  async function verify(path?: string) {
    setError(null);
    setVerified(null);
    try {
      const chosen = path ?? (await call('showOpenDialog', { title: 'Verify a workbook', filters: XLSX })).path;
      if (!chosen) return;
      setVerified(await call('verifyWorkbook', { path: chosen, key: key.trim() || null }));
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }

  if (catalog.error)
    return (
      <div className="content">
        <ErrorState message={catalog.error} onRetry={catalog.reload} />
      </div>
    );
  if (!catalog.data)
    return (
      <div className="content">
        <Loading />
      </div>
    );
  const chosen = catalog.data.reports.find((r) => r.kind === kind);
  const completed = (runs.data?.runs ?? []).filter((r) => r.status === 'completed');

  return (
    <div className="content stack" data-screen="reports" style={{ maxWidth: 1000 }}>
      <h1>Reports</h1>
      <section className="card stack">
        <h2 style={{ margin: 0 }}>Export evidence</h2>
        <div className="grid cols-3" role="radiogroup" aria-label="Report">
          {catalog.data.reports.map((report) => (
            <label
              key={report.kind}
              className="card row"
              style={{ cursor: 'pointer', padding: 10, borderColor: report.kind === kind ? 'var(--accent)' : undefined }}
            >
              <input
                type="radio"
                name="report"
                checked={report.kind === kind}
                onChange={() => {
                  setKind(report.kind);
                  setView(null);
                }}
              />
              <span>{report.title}</span>
            </label>
          ))}
        </div>
        <div className="grid cols-2">
          <div>
            <label className="label" htmlFor="as-of">
              Data as of
            </label>
            <select
              id="as-of"
              className="field"
              value={asOf ?? ''}
              onChange={(e) => setAsOf(e.target.value ? Number(e.target.value) : null)}
            >
              <option value="">The latest data</option>
              {completed.map((run) => (
                <option key={run.id} value={run.id}>
                  {run.origin === 'outbox' ? 'Sent changes' : run.origin === 'live' ? 'Read from the tenant' : 'Sync run'} {run.id} ·{' '}
                  {dateTime(run.finishedAt ?? run.startedAt)}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label className="label" htmlFor="filters">
              Filters (one per line)
            </label>
            <textarea
              id="filters"
              className="field mono"
              rows={2}
              value={filters}
              onChange={(e) => {
                setFilters(e.target.value);
                setView(null);
              }}
              placeholder={chosen?.filterKeys.length ? `${chosen.filterKeys[0]}=…` : 'none for this report'}
            />
            {chosen && chosen.filterKeys.length > 0 && (
              <details className="muted small">
                <summary>Filter keys ({chosen.filterKeys.length})</summary>
                {chosen.filterKeys.join(', ')}
              </details>
            )}
          </div>
        </div>
        <div className="grid cols-2">
          <div>
            <label className="label" htmlFor="report-sort">
              Sort (column, or column:desc)
            </label>
            <input
              id="report-sort"
              className="field mono"
              value={sort}
              placeholder="by id"
              spellCheck={false}
              onChange={(e) => {
                setSort(e.target.value);
                setView(null);
              }}
            />
          </div>
          <div>
            <label className="label" htmlFor="report-text">
              Text filter (objects whose text holds every word)
            </label>
            <input
              id="report-text"
              className="field"
              value={text}
              placeholder="none"
              onChange={(e) => {
                setText(e.target.value);
                setView(null);
              }}
            />
          </div>
        </div>
        {view && (
          <div className="small muted" data-testid="report-view">
            The filters, sort and text of {view}: the cover names that view.
          </div>
        )}
        <div>
          <label className="label" htmlFor="prepared-by">
            Prepared by (named on the cover)
          </label>
          <input
            id="prepared-by"
            className="field"
            maxLength={200}
            value={preparedBy}
            placeholder="this computer's account name"
            onChange={(e) => {
              setPreparedBy(e.target.value);
              localStorage.setItem(PREPARED_BY_KEY, e.target.value);
            }}
          />
        </div>
        <label className="row small" style={{ gap: 6 }}>
          <input type="checkbox" checked={sign} onChange={(e) => setSign(e.target.checked)} />
          Sign with this computer's signing key (kept in the OS keychain), so recipients who hold its fingerprint can tell who exported it
        </label>
        <div className="row">
          <button className="btn primary" disabled={running} onClick={() => void runExport()}>
            {running ? 'Exporting…' : 'Export…'}
          </button>
          {running && (
            <button className="btn" onClick={() => void call('cancelExport')}>
              Cancel
            </button>
          )}
        </div>
        {running && progress && (
          <div className="stack" style={{ gap: 4 }} data-testid="export-progress">
            <div className="small muted" data-testid="export-progress-text">
              {progress.sheet ? `Sheet ${progress.sheetIndex + 1} of ${progress.sheetCount}: ${progress.sheet} · ` : 'Starting… · '}
              {progress.rowsTotal
                ? `${count(progress.rowsWritten)} of ${count(progress.rowsTotal)} rows`
                : `${count(progress.rowsWritten)} rows`}
              {` · ${duration(progress.elapsedMs)}`}
              {progress.etaSeconds !== null && ` · ${timeLeft(progress.etaSeconds)}`}
            </div>
            <ProgressBar
              label="Export progress"
              value={
                progress.rowsTotal
                  ? Math.min(99, (100 * progress.rowsWritten) / progress.rowsTotal)
                  : progress.sheetCount
                    ? (100 * progress.sheetIndex) / progress.sheetCount
                    : null
              }
            />
          </div>
        )}
        {error && (
          <div className="field-error" role="alert">
            {error}
          </div>
        )}
        {exported && (
          <div className="stack" data-testid="export-result" style={{ gap: 8 }}>
            <div className="row wrap">
              <Badge tone={exported.complete ? 'ok' : 'warn'}>{exported.complete ? 'Complete' : 'Some collections incomplete'}</Badge>
              <span className="mono small grow">{exported.file}</span>
              <button className="btn small" onClick={() => void call('showInFolder', { path: exported.file })}>
                Show in folder
              </button>
              <button className="btn small" onClick={() => void verify(exported.file)}>
                Verify
              </button>
            </div>
            <div className="small muted">
              {exported.sheets.length} sheets · {count(exported.bytes)} bytes ·{' '}
              <span data-testid="export-duration" title="From the click to the file being ready">
                {duration(wallMs ?? exported.ms)}
              </span>{' '}
              · SHA-256 <code>{exported.overallSha256.slice(0, 16)}…</code>
            </div>
            <div className="small" data-testid="export-signature">
              {exported.signedBy ? (
                <>
                  Signed with the key <code className="mono">{exported.signedBy}</code>: give this fingerprint to whoever verifies it.
                </>
              ) : (
                'Not signed: the hashes show the cells are unchanged since export, not who exported them.'
              )}
            </div>
          </div>
        )}
      </section>
      <section className="card stack">
        <div className="row">
          <h2 className="grow" style={{ margin: 0 }}>
            Verify a workbook
          </h2>
          <button className="btn" onClick={() => void verify()}>
            Choose a workbook…
          </button>
        </div>
        <div className="muted small">
          Recomputes the SHA-256 of every sheet, of the document properties and of the whole, compares them with the Evidence sheet, and
          refuses what Attest never writes (formulas, hidden sheets or rows, extra parts), what no one can see and what programs read two
          ways. A re-save by another program that changes nothing shown is data intact; an edit is named cell by cell.
        </div>
        <div>
          <label className="label" htmlFor="verify-key">
            Exporter's key fingerprint (optional: the workbook must then be signed by it)
          </label>
          <input
            id="verify-key"
            className="field mono"
            value={key}
            onChange={(e) => setKey(e.target.value)}
            placeholder="SHA256:…"
            spellCheck={false}
          />
        </div>
        {verified && <VerifyResult result={verified} />}
      </section>
    </div>
  );
}
