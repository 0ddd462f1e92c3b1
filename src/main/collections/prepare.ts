/**
 * One object made ready for the store, outside any write transaction: its id, extracted columns,
 * search text and facets, references, and the hash that tells an unchanged object. A sync prepares
 * every object of a page this way, and so do fresh copies that sent changes returned, so both are
 * stored alike.
 */
import { createHash } from 'node:crypto';
import { ApiError } from '../api/errors';
import { encodeColumns, extractColumns } from './columns';
import type { CollectionDescriptor } from './descriptor';
import { facetsText } from './facets';

/** An object as received from the tenant. */
export interface ReceivedObject {
  /** Exactly as received. */
  raw: string;
  json: unknown;
}

/** One object, ready to store (parsed, hashed and extracted outside the transaction). */
export interface PreparedObject {
  id: string;
  /** Exactly as received. */
  raw: string;
  /** SHA-1 of `raw`: an unchanged object is not stored again. */
  hash: Buffer;
  title: string;
  /** The extracted columns as stored (see encodeColumns). */
  cols: string;
  /** Search body text. */
  body: string;
  /** Search facet tokens (collection and filterable column values); derived from `cols` when absent. */
  facets?: string;
  /** JSON `{collection: [ids]}` or null. */
  refs: string | null;
}

/** SHA-1 of an object's text as received: equal hashes, unchanged object. */
export function hashOf(raw: string): Buffer {
  return createHash('sha1').update(raw).digest();
}

/** Hashes (unless `hash` is given), extracts and indexes one object. An object without an id is a bad answer. */
export function prepareObject(descriptor: CollectionDescriptor, obj: ReceivedObject, hash?: Buffer): PreparedObject {
  const id = descriptor.idOf(obj.json);
  if (id === '') throw new ApiError('bad_response', `${descriptor.id}: an object without an id`);
  const text = descriptor.searchText(obj.json);
  const refs = descriptor.references?.(obj.json);
  const hasRefs = refs !== undefined && Object.values(refs).some((ids) => ids !== undefined && ids.length > 0);
  const columns = extractColumns(descriptor, obj.json);
  return {
    id,
    raw: obj.raw,
    hash: hash ?? hashOf(obj.raw),
    title: text.title,
    cols: encodeColumns(descriptor, columns),
    body: text.body,
    facets: facetsText(descriptor.id, columns),
    refs: hasRefs ? JSON.stringify(refs) : null,
  };
}
