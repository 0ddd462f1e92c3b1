/**
 * What a collection descriptor says: where the collection comes from (a paged list, a paged list
 * plus one GET per row, or ids referenced by other collections), how to find an object's id, which
 * columns to extract for lists, filters, sorting and reports, and which text the offline search
 * indexes. Plus the column constructors the descriptors are written with.
 */
import type { CollectionId } from '../../shared/contract';
import type { ApiClient, ApiResponse } from '../api/client';
import type { PageRequest } from '../api/paginate';
import type { EnumName } from '../../shared/enums';
import type { KindsName } from '../../shared/oneof-kinds';

export type ColumnType = 'text' | 'enum' | 'bool' | 'int' | 'date';
/** An extracted column value (absent: null). */
export type ColumnValue = string | number | boolean | null;

export interface ColumnDef {
  /** Key in StoredObject.columns, in filters and in sorts. */
  name: string;
  label: string;
  /** Dotted path in the stored object the value is read from. */
  path: string;
  type: ColumnType;
  /** Offered as a filter (the main enum and boolean columns). */
  filter?: boolean;
  /**
   * For enum columns: the enumeration of src/shared/enums.ts its values come from (labels, search
   * words, filter choices), or for a oneof's kind the kinds this version knows (src/shared/oneof-kinds.ts).
   */
  enumName?: EnumName | KindsName;
  /** A computed value instead of the value at `path` (e.g. the kind of a oneof). */
  value?(obj: unknown): ColumnValue;
  /**
   * The value is a list (each value once, joined by MULTI_SEPARATOR): a filter matches an object
   * when any of its values is one of the filter's, and each value is a facet of its own.
   */
  multi?: boolean;
  /**
   * An id column naming objects of this synced collection: its filter choices, and the reports' cells
   * beside it, show them by their names.
   */
  refersTo?: CollectionId;
}

/** Between the values of a `multi` column. */
export const MULTI_SEPARATOR = ', ';

/** The values of a column value (a `multi` column's list; one value otherwise; none when absent). */
export function columnValues(column: Pick<ColumnDef, 'multi'>, value: ColumnValue | undefined): (string | number | boolean)[] {
  if (value === null || value === undefined || value === '') return [];
  if (column.multi && typeof value === 'string') return value.split(MULTI_SEPARATOR).filter((v) => v !== '');
  return [value];
}

export interface FilterAlias {
  column: string;
  values?: Record<string, string>;
}

/** A filter given as `key=value` in a collection's terms: its aliases resolved (the key and value as given otherwise). */
export function resolveFilter(
  d: Pick<CollectionDescriptor, 'filterAliases'>,
  key: string,
  value: string,
): { column: string; value: string } {
  const alias = d.filterAliases && Object.hasOwn(d.filterAliases, key) ? d.filterAliases[key] : undefined;
  if (!alias) return { column: key, value };
  return { column: alias.column, value: alias.values && Object.hasOwn(alias.values, value) ? alias.values[value]! : value };
}

export interface SearchText {
  title: string;
  body: string;
}

/** Ids this object refers to in other collections (templates gather theirs from these). */
export type References = Partial<Record<CollectionId, string[]>>;

/** One of the independent walks of a split collection: its key in the walk's checkpoint, and its pages. */
export interface SplitPart {
  key: string;
  fetchPage(api: ApiClient, req: PageRequest, signal?: AbortSignal): Promise<ApiResponse<unknown>>;
}

export interface CollectionDescriptor {
  id: CollectionId;
  title: string;
  /** The page size asked for (the largest the endpoint allows), or the ids per batch for `byIds`. */
  pageSize: number;
  /** A paged list: one page of the collection. */
  fetchPage?(api: ApiClient, req: PageRequest, signal?: AbortSignal): Promise<ApiResponse<unknown>>;
  /** The member of a page that holds its rows (for `byIds`: the member of the GET answer that is the object). */
  listKey: string;
  /**
   * Store only this member of each list row, byte-exact (a grant row's `appEntitlementUserBinding`:
   * the entitlement the row also carries is synced on its own). A row without it is a bad page.
   */
  rowMember?: string;
  /**
   * Rows point at related objects of the page's `expanded` list through JSONPath members
   * (`"appResourceTypePath": "expanded[2]"`, asked for with an expand mask). Each row is then stored
   * beside them as `{"<rowAs>": <the row>, "<name>": <the related object, or null>}`, every part
   * byte-exact as received: `members` maps each path member of the row to its `name`.
   */
  withExpanded?: { rowAs: string; members: Record<string, string> };
  /**
   * Rows of the list are summaries: each object is then fetched by id and stored exactly as that
   * GET returns it (campaigns: the `GET /access_review/{id}` wrapper).
   */
  detail?: {
    idOfListItem(item: unknown): string;
    fetch(api: ApiClient, id: string, signal?: AbortSignal): Promise<ApiResponse<unknown>>;
  };
  /**
   * Independent walks of the list whose union is provably the whole collection, walked at the same
   * time under one checkpoint instead of one cursor through `fetchPage`: either fixed `parts`
   * (filters the API documents as exhaustive together), or parts known once another collection is
   * stored (`by`). An object none of them returned is read by id (`fetchOne`) before it counts as
   * deleted: it may have moved from one filter to another while the walks ran.
   */
  split?: {
    parts?: SplitPart[];
    /**
     * The objects of each of `groups` groups of the current `from` objects (grants by app), used
     * when the walk of `from` completed in the same run, so those are all of them; otherwise the
     * collection is walked as one.
     */
    by?: {
      from: CollectionId;
      groups: number;
      fetchPage(api: ApiClient, req: PageRequest, ids: readonly string[], signal?: AbortSignal): Promise<ApiResponse<unknown>>;
    };
    fetchOne(api: ApiClient, id: string, signal?: AbortSignal): Promise<ApiResponse<unknown>>;
    /** The member of fetchOne's answer that is the object; null: the answer is a list page, and the object its row of that id. */
    member: string | null;
  };
  /** No list exists: the ids are those the current objects of `referencedBy` point at, fetched one by one. */
  byIds?: {
    referencedBy: CollectionId[];
    fetch(api: ApiClient, id: string, signal?: AbortSignal): Promise<ApiResponse<unknown>>;
  };
  /**
   * The API's GET of one object, where it has one (campaigns: the spec's `GET /access_review/{id}`
   * wrapper; the vendor's GETs of a template, an automation, a task): `member` is the member of its
   * answer that is the object as this collection stores it. Used to read one object live.
   */
  readOne?: {
    fetch(api: ApiClient, id: string, signal?: AbortSignal): Promise<ApiResponse<unknown>>;
    member: string;
  };
  idOf(obj: unknown): string;
  /** Where the object itself sits inside what is stored, when that is a wrapper ('' or absent: the top). */
  diffRoot?: string;
  columns: ColumnDef[];
  defaultSort: { column: string; dir: 'asc' | 'desc' };
  /**
   * The names of the spec's search filters that columns of this collection stand for, offline
   * (`triggerTypes` -> triggerType), with the filter's values in the column's terms where they differ
   * (`statuses` ON/OFF -> enabled true/false).
   */
  filterAliases?: Record<string, FilterAlias>;
  searchText(obj: unknown): SearchText;
  references?(obj: unknown): References;
}

export const text = (name: string, label: string, path = name): ColumnDef => ({ name, label, path, type: 'text' });
export const date = (name: string, label: string, path = name): ColumnDef => ({ name, label, path, type: 'date' });
export const int = (name: string, label: string, path = name): ColumnDef => ({ name, label, path, type: 'int' });
export const enumCol = (name: string, label: string, enumName: EnumName, path = name): ColumnDef => ({
  name,
  label,
  path,
  type: 'enum',
  filter: true,
  enumName,
});
/** A list of enum values (see `multi`), computed by `values`: a filter on it matches any of them. */
export const enumList = (name: string, label: string, enumName: EnumName, path: string, values: (obj: unknown) => string[]): ColumnDef => ({
  name,
  label,
  path,
  type: 'enum',
  filter: true,
  enumName,
  multi: true,
  value: (obj) => {
    const list = [...new Set(values(obj).filter((v) => v !== ''))];
    return list.length > 0 ? list.join(MULTI_SEPARATOR) : null;
  },
});
/** The app an object belongs to: an id, offered as a filter (the search filters `appId`/`appIds`). */
export const appCol = (path = 'appId'): ColumnDef => ({ name: 'appId', label: 'App', path, type: 'text', filter: true, refersTo: 'apps' });
/** An id offered as a filter (the template of a campaign, the resource server of a scope), shown by name where `refersTo` is synced. */
export const idFilter = (name: string, label: string, refersTo?: CollectionId, path = name): ColumnDef => ({
  name,
  label,
  path,
  type: 'text',
  filter: true,
  ...(refersTo ? { refersTo } : {}),
});
/** An id of an object of another synced collection (a policy, a person), shown by its name where that collection is synced. */
export const refCol = (name: string, label: string, refersTo: CollectionId, path = name): ColumnDef => ({
  ...text(name, label, path),
  refersTo,
});
/** An enum-like filter column whose values belong to no enumeration of src/shared/enums.ts (a type's display name, a oneof kind). */
export const valueCol = (name: string, label: string, path = name): ColumnDef => ({ name, label, path, type: 'enum', filter: true });
export const bool = (name: string, label: string, path = name): ColumnDef => ({ name, label, path, type: 'bool', filter: true });

/** Prefixes every column path (campaign fields live at `accessReview.*` of the view). */
export const under = (prefix: string, columns: ColumnDef[]): ColumnDef[] => columns.map((c) => ({ ...c, path: `${prefix}.${c.path}` }));
