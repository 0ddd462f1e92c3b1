/**
 * The synced collections: one descriptor per collection, the readers they extract with, the facet
 * text of the search index, and the preparation of an object for storage. Both the store and the
 * sync read this module; neither imports the other.
 */
export { COLLECTION_IDS, type CollectionId } from '../../shared/contract';
export type { CollectionDescriptor, ColumnDef, ColumnType, ColumnValue, References, SearchText, SplitPart } from './descriptor';
export { COLLECTIONS, collection, COLUMNS_REVISION, isCollectionId, SEARCH_TEXT_REVISION } from './registry';
export { columnPosition, decodeColumns, encodeColumns, extractColumns } from './columns';
export { columnValues, MULTI_SEPARATOR, resolveFilter, type FilterAlias } from './descriptor';
export { compactWord, FACET_COLUMNS, facetToken, facetsText, valueWords } from './facets';
export { hashOf, prepareObject, type PreparedObject, type ReceivedObject } from './prepare';
export { celExpressions, getPath, isRecord, lines, str, targets, type CelExpression } from './extract';
export {
  completenessOf,
  gatheringOf,
  overallCompleteness,
  snapshotCompleteness,
  type Completeness,
  type Gathering,
  type WalkState,
} from './completeness';
export { arrayElementMemberSlices, arrayMemberSlices, checkObject, memberSlice, RawJsonError } from './raw-json';
export { entitlementType, MANAGED_ENTITLEMENT_TYPES, membershipsManaged } from './entitlements';
export { membershipId } from './memberships';
export { canEscalate, ESCALATE_ACTION } from './tasks';
