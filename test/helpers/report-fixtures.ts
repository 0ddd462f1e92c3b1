import type { Store } from '../../src/main/store/db';
import {
  collection as descriptorOf,
  prepareObject as prepareReceived,
  type CollectionId,
  type PreparedObject,
} from '../../src/main/collections';

/**
 * Stores objects through the store's own sync writer (the path a real sync takes), for report
 * tests and the export bench that need exact, known contents or millions of rows quickly.
 */
export function prepareObject(collection: CollectionId, obj: unknown, raw = JSON.stringify(obj)): PreparedObject {
  return prepareReceived(descriptorOf(collection), { json: obj, raw });
}

/** One completed run that walked `data`'s collections and saw exactly these objects, ended as a sync ends it. */
export function storeRun(store: Store, data: Partial<Record<CollectionId, Iterable<unknown>>>, pageSize = 5_000): number {
  const collections = Object.keys(data) as CollectionId[];
  const { runId } = store.sync.beginRun(collections);
  for (const c of collections) {
    store.sync.startWalk(runId, c);
    const walk = store.sync.walk(runId, c).walk;
    let page: PreparedObject[] = [];
    let n = 0;
    const flush = (last: boolean): void => {
      store.sync.commitPage(runId, c, walk, page, last ? '' : `page-${(n += 1)}`, new Date().toISOString());
      page = [];
    };
    for (const obj of data[c] ?? []) {
      page.push(prepareObject(c, obj));
      if (page.length >= pageSize) flush(false);
    }
    flush(true);
    store.sync.completeWalk(runId, c, walk);
  }
  store.sync.finishRun(runId);
  // As the sync engine ends a run that stored pages: search expands prefixes through this list.
  store.sync.refreshSearchTerms();
  return runId;
}
