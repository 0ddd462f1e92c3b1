/**
 * The outbox's view of a store: its database, the synced objects, and where fresh copies of what
 * sent changes returned go (see store/fresh-copies.ts).
 */
import { isCollectionId } from '../collections';
import type { OutboxStore } from '../outbox/queue';
import type { Store } from '../store/db';
import { storeFreshCopies } from '../store/fresh-copies';

export function outboxStoreOf(store: Store): OutboxStore {
  return {
    db: store.db,
    getObject: (collection, id) => (isCollectionId(collection) ? store.getObject(collection, id) : null),
    refreshObjects: (copies) => storeFreshCopies(store, copies),
  };
}
