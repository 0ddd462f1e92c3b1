import { useState } from 'react';
import type { ChannelResult } from '../../shared/contract';
import { call, errorMessage } from '../api';

type Exported = ChannelResult<'exportReport'>;

/**
 * A report exported from where the user is (a campaign's page, the Changes screen): the save dialog
 * first, then the export; the file written with "Show in folder", or why it failed.
 */
export function ExportReportButton({
  label,
  dialogTitle,
  defaultName,
  exportTo,
  testId,
  className = 'btn',
}: {
  label: string;
  dialogTitle: string;
  defaultName: string;
  /** Exports to the path chosen. */
  exportTo(path: string): Promise<Exported>;
  /** The test id of the note naming the file written. */
  testId: string;
  className?: string;
}) {
  const [running, setRunning] = useState(false);
  const [done, setDone] = useState<Exported | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function run() {
    setError(null);
    setDone(null);
    try {
      const { path } = await call('showSaveDialog', {
        title: dialogTitle,
        defaultName,
        filters: [{ name: 'Excel workbook', extensions: ['xlsx'] }],
      });
      if (!path) return;
      setRunning(true);
      setDone(await exportTo(path));
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setRunning(false);
    }
  }
  return (
    <div className="stack" style={{ gap: 6, alignItems: 'flex-end' }}>
      <button className={className} onClick={() => void run()} disabled={running} data-testid={`${testId}-button`}>
        {running ? 'Exporting…' : label}
      </button>
      {error && (
        <div className="field-error" role="alert">
          {error}
        </div>
      )}
      {done && (
        <div className="row small" role="status" data-testid={testId}>
          <span className="mono">{done.file}</span>
          <button className="btn small" onClick={() => void call('showInFolder', { path: done.file })}>
            Show in folder
          </button>
        </div>
      )}
    </div>
  );
}
