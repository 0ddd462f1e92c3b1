/**
 * Items queued by an older version of their kind (`kind_version` below the descriptor's `version`)
 * are brought up to date when the outbox is opened and before a send reads them: the kind upgrades the stored input (`upgrade`),
 * and the request, digest, target, key, summary and overlay are derived again from it, in one
 * transaction with a journal entry per item. So a queued item sends what its kind builds now, not
 * the request an older version stored.
 */
import type { ItemRow, OutboxDb } from './items';
import { buildChange, descriptorOf, type KindDescriptor, type PreparedChange } from './kinds';
import type { MutationKind } from './types';

/** The change an upgraded input makes, or null when the kind cannot build a request from it (the item is left as stored). */
function derive(kind: MutationKind, d: KindDescriptor, row: ItemRow): PreparedChange | null {
  try {
    const stored = JSON.parse(row.input_json) as Record<string, unknown>;
    const input = d.upgrade ? d.upgrade(stored, row.kind_version) : stored;
    // A request carrying a member the server sets is refused (thrown) like any other build failure.
    return buildChange(kind, d, input);
  } catch {
    return null;
  }
}

/** Upgrades the queued items of older kind versions; returns how many were upgraded. */
export function upgradeQueued(o: OutboxDb, now = new Date().toISOString()): number {
  // Nothing to write, most of the time: no transaction (nor write lock) is taken then.
  if (o.rowsOlderThanKinds('queued').length === 0) return 0;
  return o.durable(() => {
    let upgraded = 0;
    for (const row of o.rowsOlderThanKinds('queued')) {
      const kind = row.kind as MutationKind;
      const d = descriptorOf(kind);
      const change = derive(kind, d, row);
      if (!change) continue;
      o.updateChange(row.id, change, now);
      o.writeOverlays(row.id, d, change.input);
      o.journal.append({
        itemId: row.id,
        kind,
        target: change.target,
        attempt: row.attempts,
        event: 'upgrade',
        requestDigest: change.digest,
        outcome: 'queued',
        at: now,
      });
      upgraded += 1;
    }
    return upgraded;
  }, true);
}
