import type { Session } from '../../app/session';
import type { Handlers } from '../dispatch';

/** Spreadsheet access reviews: a worksheet out (to a file a dialog granted), its decisions in. */
export function reviewHandlers(session: Session): Pick<Handlers, 'exportReviewWorksheet' | 'importReviewDecisions'> {
  return {
    exportReviewWorksheet: ({ path, scope, id, reviewer }) =>
      session.exportReviewWorksheet(
        path,
        scope === 'entitlement' ? { entitlements: [id] } : scope === 'app' ? { apps: [id] } : { campaign: id },
        reviewer,
      ),
    importReviewDecisions: async ({ path, dryRun }) => {
      const result = await session.importReviewDecisions(path, dryRun);
      return {
        ...result,
        decisions: result.decisions.map((d) => ({
          row: d.row,
          appId: d.appId,
          entitlementId: d.entitlementId,
          appUserId: d.appUserId,
          subject: d.subject,
          removable: d.removable,
          decision: d.decision,
          comment: d.comment,
          itemId: d.itemId,
          skipped: d.skipped,
        })),
      };
    },
  };
}
