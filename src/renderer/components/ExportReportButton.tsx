import { useState } from 'react';
import type { ChannelResult } from '../../shared/contract';
import { call, errorMessage } from '../api';

type Exported = ChannelResult<'exportReport'>;

/**
 * An export to a workbook the user places: the save dialog, then `exportTo` the path chosen (nothing
 * when the dialog is cancelled), with whether it runs, what it wrote, or why it failed.
 */
export function useSaveAndExport<T>() {
  const [running, setRunning] = useState(false);
  const [done, setDone] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function run(dialog: { title: string; defaultName: string }, exportTo: (path: string) => Promise<T>): Promise<boolean> {
    setError(null);
    setDone(null);
    try {
      const { path } = await call('showSaveDialog', { ...dialog, filters: [{ name: 'Excel workbook', extensions: ['xlsx'] }] });
      if (!path) return false;
      setRunning(true);
      setDone(await exportTo(path));
      return true;
    } catch (failure) {
      setError(errorMessage(failure));
      return false;
    } finally {
      setRunning(false);
    }
  }
  return { running, done, error, run };
}

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
  const { running, done, error, run } = useSaveAndExport<Exported>();
  return (
    <div className="stack" style={{ gap: 6, alignItems: 'flex-end' }}>
      <button
        className={className}
        onClick={() => void run({ title: dialogTitle, defaultName }, exportTo)}
        disabled={running}
        data-testid={`${testId}-button`}
      >
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
