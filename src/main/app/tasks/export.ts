import type { ExportProgress as ExportProgressEvent } from '../../../shared/contract';
import { firstLineOf } from '../../errors';
import { exportReport, type ExportOptions, type ExportResult } from '../../reports';
import type { Workspace } from '../workspace';

/**
 * Writing a report workbook from a workspace, for both fronts: its store, its outbox journal and
 * its connection (named on the Evidence sheet). Aborting `signal` leaves nothing at `out`.
 */
export type ExportTaskOptions = Omit<ExportOptions, 'store' | 'journal' | 'connection' | 'onProgress'> & {
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

export async function runExport(workspace: Workspace, { onProgress, ...options }: ExportTaskOptions): Promise<ExportResult> {
  const { connection } = workspace;
  onProgress?.({ phase: 'started', ...idle });
  try {
    const result = await exportReport({
      ...options,
      store: workspace.store,
      journal: () => workspace.outbox.journal(),
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
