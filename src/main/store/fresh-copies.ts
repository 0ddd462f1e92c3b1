/**
 * Fresh copies of objects that sent changes returned (a created scope, an updated template, a
 * new campaign, a task read back) or removed (a membership), stored through the collections' own
 * descriptors so they look in views, search and reports exactly as a sync would store them. The
 * outbox asks for this after a send and after a reconcile; the store keeps them as a run of their
 * own (origin `outbox`, see SyncWriter.storeFreshCopies).
 */
import { collection as descriptorOf, isCollectionId, prepareObject, type CollectionId, type PreparedObject } from '../collections';
import type { Store } from './db';
import type { RunOrigin } from './types';

export interface FreshCopy {
  collection: string;
  id: string;
  /** null: the object is gone from the tenant (a removed membership). */
  json: Record<string, unknown> | null;
  /** A related object an answer carried (its `expanded` list): stored only when whole (see isWhole). */
  related?: boolean;
}

export interface FreshCopiesStored {
  /** The run that holds them, or null: nothing new, or a sync run is open and brings them. */
  runId: number | null;
  /** Copies stored (new or changed objects, and objects marked gone). */
  stored: number;
}

/**
 * Whether a related object is the whole object, not a projection of it: the store must hold a
 * current copy (without one, nothing tells a projection from the whole), and the object must carry
 * every member that copy carries. A projection stored as a version would read as members removed.
 * (A member cleared since, and so left out as JSON leaves out defaults, also keeps the object with
 * its item: the next sync brings it.)
 */
function isWhole(store: Pick<Store, 'getObject'>, collection: CollectionId, copy: FreshCopy): boolean {
  const held = store.getObject(collection, copy.id);
  if (!held || held.deleted || copy.json === null) return false;
  const members = (value: unknown) => (value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : []);
  const have = new Set(members(copy.json));
  return members(held.json).every((m) => have.has(m));
}

export function storeFreshCopies(
  store: Pick<Store, 'sync' | 'getObject'>,
  copies: readonly FreshCopy[],
  origin: Exclude<RunOrigin, 'sync'> = 'outbox',
): FreshCopiesStored {
  const prepared: { collection: CollectionId; object: PreparedObject }[] = [];
  const removed: { collection: CollectionId; id: string }[] = [];
  const seen = new Set<string>();
  // The last copy of an object wins (two changes to one template in one send).
  for (const copy of [...copies].reverse()) {
    if (!isCollectionId(copy.collection)) continue;
    const key = `${copy.collection}\u0000${copy.id}`;
    if (seen.has(key)) continue;
    // A projection is kept with its outbox item only: it is no version of the object.
    if (copy.related && !isWhole(store, copy.collection, copy)) continue;
    seen.add(key);
    if (copy.json === null) {
      removed.push({ collection: copy.collection, id: copy.id });
      continue;
    }
    try {
      // The answer was parsed by the client: its object is stored as the JSON of what it carried.
      prepared.push({
        collection: copy.collection,
        object: prepareObject(descriptorOf(copy.collection), { raw: JSON.stringify(copy.json), json: copy.json }),
      });
    } catch {
      // An answer without an id cannot be stored: the next sync brings the object.
    }
  }
  if (prepared.length === 0 && removed.length === 0) return { runId: null, stored: 0 };
  return store.sync.storeFreshCopies(prepared.reverse(), removed, origin) ?? { runId: null, stored: 0 };
}
