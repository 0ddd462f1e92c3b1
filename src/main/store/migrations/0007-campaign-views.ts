import type { Database } from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { memberSlice, RawJsonError } from '../../collections';

/**
 * Campaigns are kept as the AccessReviewView rows of `GET /access_reviews` (the sync no longer
 * reads each one again by id). The versions stored before kept the `GET /access_review/{id}`
 * answer, `{accessReview: <view>, expanded}`: each becomes its `accessReview` member, cut from the
 * stored text byte for byte, with the hash of the new text, so the next sync finds unchanged
 * campaigns unchanged and diffs compare like with like. Columns, titles, references and the
 * search entries hold the same values and stay. A version whose text has no such member is left
 * as it is (the next sync brings the campaign again).
 */
export const version = 7;
export const name = 'campaign-views';

export function up(db: Database): void {
  const versions = db.prepare(
    "SELECT v.vid, v.raw FROM object_versions v JOIN objects o ON o.oid = v.oid WHERE o.collection = 'campaigns' AND v.vid > ? ORDER BY v.vid LIMIT 1000",
  );
  const rewrite = db.prepare('UPDATE object_versions SET raw = ?, hash = ? WHERE vid = ?');
  for (let after = 0; ;) {
    const rows = versions.all(after) as { vid: number; raw: string }[];
    if (rows.length === 0) return;
    for (const { vid, raw } of rows) {
      const view = viewOf(raw);
      if (view !== null) rewrite.run(view, createHash('sha1').update(view).digest(), vid);
    }
    after = rows[rows.length - 1]!.vid;
  }
}

/** The `accessReview` member of a stored GET answer, when it is one (an object holding an object `accessReview`). */
function viewOf(raw: string): string | null {
  try {
    const view = memberSlice(raw, 'accessReview');
    return view !== null && view.startsWith('{') && memberSlice(view, 'accessReview')?.startsWith('{') ? view : null;
  } catch (error) {
    if (error instanceof RawJsonError) return null;
    throw error;
  }
}

export default { version, name, up };
