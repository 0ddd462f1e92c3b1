/**
 * The collections as the fronts name, filter and list them: the descriptor of each (one entry per
 * collection drives sync, search, lists and reports), the filter words a list accepts, how
 * complete a run's walk of one was, and the shape of a stored object a workspace's store returns.
 */
export {
  COLLECTION_IDS,
  COLLECTIONS,
  collection,
  completenessOf,
  isCollectionId,
  MULTI_SEPARATOR,
  resolveFilter,
  type CollectionDescriptor,
  type CollectionId,
  type ColumnDef,
} from '../collections';
export type { Filters, StoredObject } from '../store/db';
