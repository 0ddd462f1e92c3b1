import type { ExportProgress as ExportProgressEvent } from '../../../shared/contract';
import { firstLineOf } from '../../errors';
import { exportReport, type ExportOptions, type ExportResult } from '../../reports';
import { reviewDecisionRows } from '../../reports/review-import';
import type { Workspace } from '../workspace';

// The report catalogue and the export's outcome, as the fronts name them.
export { ExportCancelled, isReportKind, REPORT_KINDS, REPORTS, type ExportResult } from '../../reports';

/**
 * Writing a report workbook from a workspace, for both fronts: its store, its outbox journal and
 * its connection (named on the Evidence sheet). Aborting `signal` leaves nothing at `out`.
 */
export type ExportTaskOptions = Omit<ExportOptions, 'store' | 'journal' | 'reviewDecisions' | 'connection' | 'onProgress'> & {
  /** 'started', one 'sheet' event per batch of rows, then one 'finished' (with the error, or 'cancelled'). */
  onProgress?: ((event: ExportProgressEvent) => void) | undefined;
};

/** The URL the connection talks to: the one it was given, else the one its client id names. */
function serverUrlOf(connection: Workspace['connection']): string | null {
  if (connection.serverUrl) return connection.serverUrl;
  if (connection.apiRoot) return connection.apiRoot.replace(/\/api\/v1\/?$/, '');
  return null;
}

const idle = { sheet: null, sheetIndex: 0, sheetCount: 0, rows: 0, total: null, error: null } as const;

export async function runExport(workspace: Workspace, { onProgress: listener, ...options }: ExportTaskOptions): Promise<ExportResult> {
  const onProgress = listener ? withEstimate(listener) : undefined;
  const { connection } = workspace;
  onProgress?.({ phase: 'started', ...idle });
  try {
    const result = await exportReport({
      ...options,
      store: workspace.store,
      journal: () => workspace.outbox.journalInWords({}).entries,
      reviewDecisions: () => reviewDecisionRows(workspace.store, (id) => workspace.outbox.get(id)),
      connection: {
        name: connection.name,
        tenantHost: connection.hostname,
        clientId: connection.clientId,
        serverUrl: serverUrlOf(connection),
      },
      onProgress: onProgress
        ? (p) =>
            onProgress({
              phase: 'sheet',
              ...idle,
              sheet: p.sheet,
              sheetIndex: p.sheetIndex,
              sheetCount: p.sheetCount,
              rows: p.rows,
              total: p.total ?? null,
              rowsTotal: p.rowsTotal ?? null,
            })
        : undefined,
    });
    const rows = result.sheets.reduce((sum, sheet) => sum + sheet.rows, 0);
    onProgress?.({ phase: 'finished', ...idle, sheetIndex: result.sheets.length, sheetCount: result.sheets.length, rows });
    return result;
  } catch (error) {
    onProgress?.({ phase: 'finished', ...idle, error: options.signal?.aborted ? 'cancelled' : firstLineOf(error, 'The export failed.') });
    throw error;
  }
}

type Estimate = Pick<ExportProgressEvent, 'rowsWritten' | 'rowsTotal' | 'elapsedMs' | 'etaSeconds'>;

/**
 * Adds to each event the rows written in the whole workbook so far against the rows to export (the
 * sheets that know their size, one per collection, plus what the derived sheets, steps, journal or
 * diff, wrote so far), the time since the export began, and the time left at the pace so far.
 */
function withEstimate(
  listener: (event: ExportProgressEvent) => void,
): (event: Omit<ExportProgressEvent, keyof Estimate> & Partial<Pick<Estimate, 'rowsTotal'>>) => void {
  const started = performance.now();
  const written = new Map<number, { rows: number; total: number | null }>();
  let known: number | null = null;
  return (event) => {
    if (event.phase === 'sheet') written.set(event.sheetIndex, { rows: event.rows, total: event.total });
    known = event.rowsTotal ?? known;
    const sheets = [...written.values()];
    const done = sheets.reduce((sum, sheet) => sum + sheet.rows, 0);
    // The rows of sheets of no stated size, and those a sheet wrote beyond its size (objects
    // synced meanwhile), count in the total as they come: the rows written never exceed it.
    const unsized = sheets.reduce((sum, sheet) => sum + (sheet.total === null ? sheet.rows : Math.max(0, sheet.rows - sheet.total)), 0);
    const finished = event.phase === 'finished' && !event.error;
    const rowsWritten = finished ? event.rows : done;
    const rowsTotal = finished ? event.rows : known === null ? null : known + unsized;
    const elapsedMs = performance.now() - started;
    const left = event.phase === 'sheet' && rowsTotal !== null && rowsWritten > 0 ? rowsTotal - rowsWritten : 0;
    listener({ ...event, rowsWritten, rowsTotal, elapsedMs, etaSeconds: left > 0 ? (elapsedMs / 1000 / rowsWritten) * left : null });
  };
}
