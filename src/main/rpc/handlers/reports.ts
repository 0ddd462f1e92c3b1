import type { Session } from '../../app/session';
import { REPORTS, REPORT_KINDS, collectionsOf, filterKeys } from '../../reports/catalog';
import type { Handlers } from '../dispatch';

/** The report catalog, exports (to a file a dialog granted), verification, and showing a file. */
export function reportHandlers(
  session: Session,
): Pick<Handlers, 'reportCatalog' | 'exportReport' | 'cancelExport' | 'verifyWorkbook' | 'showInFolder'> {
  return {
    reportCatalog: () => ({
      reports: REPORT_KINDS.map((kind) => {
        const collections = collectionsOf(kind);
        return { kind, title: REPORTS[kind].title, collections, filterKeys: [...new Set(collections.flatMap((c) => filterKeys(c)))] };
      }),
    }),
    exportReport: async (args) => {
      // The duration reported is the wall time of the whole request, to the file being ready at its path.
      const asked = performance.now();
      const result = await session.exportReport(args);
      const ms = Math.round(performance.now() - asked);
      return {
        file: result.file,
        kind: result.kind,
        sheets: result.sheets.map((sheet) => ({ name: sheet.name, rows: sheet.rows, sha256: sheet.sha256 })),
        overallSha256: result.overallSha256,
        signedBy: result.signedBy,
        bytes: result.bytes,
        complete: result.complete,
        generatedAt: result.generatedAt,
        ms,
      };
    },
    cancelExport: () => ({ cancelled: session.cancelExport() }),
    verifyWorkbook: async ({ path, key }) => {
      const result = await session.verifyWorkbook(path, key);
      return {
        file: result.file,
        status: result.status,
        reason: result.reason ?? null,
        ok: result.ok,
        notice: result.notice,
        problems: result.problems,
        warnings: result.warnings,
        signature: result.signature,
        sheets: result.sheets.map((sheet) => ({
          name: sheet.name,
          status: sheet.status,
          expectedRows: sheet.expectedRows ?? null,
          actualRows: sheet.actualRows ?? null,
        })),
        manifest: result.manifest,
        resaved: result.resaved,
        changes: result.changes,
        located: result.located,
      };
    },
    showInFolder: async ({ path }) => ({ shown: await session.showInFolder(path) }),
  };
}
