/**
 * Pending changes shown in views and search: a synced object with a queued change carries it as
 * `pending` ("pending removal", "pending update"...), and objects queued for creation appear as
 * rows of their own ("pending creation") until the change succeeds and the next sync brings them.
 */
import type { Outbox } from './queue';
import type { OverlayEffect, PendingOverlay } from './types';

const LABELS: Record<OverlayEffect, string> = {
  'pending-creation': 'pending creation',
  'pending-removal': 'pending removal',
  'pending-update': 'pending update',
  'pending-escalation': 'pending escalation',
};

/** A short label for a pending change, with its state when it needs attention ("pending removal (failed)"). */
export function overlayLabel(o: Pick<PendingOverlay, 'effect' | 'state'>): string {
  const base = LABELS[o.effect] ?? o.effect;
  return o.state === 'queued' || o.state === 'sending' ? base : `${base} (${o.state})`;
}

/** Attaches the pending changes of `collection` to the rows that have one (`pending`: the overlays, queue order). */
export function withPending<T extends { id: string; pending?: unknown }>(
  outbox: Pick<Outbox, 'overlays'>,
  collection: string,
  rows: T[],
): T[] {
  if (rows.length === 0) return rows;
  const byId = new Map<string, PendingOverlay[]>();
  for (const o of outbox.overlays(
    collection,
    rows.map((r) => r.id),
  )) {
    const list = byId.get(o.objectId) ?? [];
    list.push(o);
    byId.set(o.objectId, list);
  }
  return rows.map((r) => (byId.has(r.id) ? { ...r, pending: byId.get(r.id) } : r));
}

/** Objects queued for creation in `collection` (not on the server yet), for views and search. */
export function pendingCreations(outbox: Pick<Outbox, 'overlays'>, collection: string): PendingOverlay[] {
  return outbox.overlays(collection).filter((o) => o.effect === 'pending-creation');
}

/** Pending creations whose text matches a search query (case-insensitive, every word). */
export function searchPendingCreations(outbox: Pick<Outbox, 'overlays'>, collection: string, query: string): PendingOverlay[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return pendingCreations(outbox, collection).filter((o) => {
    const text = Object.values(o.data)
      .filter((v) => typeof v === 'string')
      .join(' ')
      .toLowerCase();
    return words.every((w) => text.includes(w));
  });
}
