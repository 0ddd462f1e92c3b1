/**
 * The synced collections, one descriptor each (a file per collection beside this one). The sync
 * engine, the store, search, the CLI and the reports all read them; adding a collection is one
 * descriptor file and one entry here.
 */
import { COLLECTION_IDS, type CollectionId } from '../../shared/contract';
import { apps } from './apps';
import { appUsers } from './app-users';
import { automations } from './automations';
import { campaigns } from './campaigns';
import type { CollectionDescriptor } from './descriptor';
import { entitlements } from './entitlements';
import { memberships } from './memberships';
import { policies } from './policies';
import { routingRules } from './routing-rules';
import { scopes } from './scopes';
import { tasks } from './tasks';
import { templates } from './templates';
import { toolsets } from './toolsets';
import { users } from './users';

/** In the order of the contract's COLLECTION_IDS (the order runs walk them and views list them). */
export const COLLECTIONS: readonly CollectionDescriptor[] = [
  campaigns,
  templates,
  automations,
  toolsets,
  routingRules,
  scopes,
  apps,
  entitlements,
  appUsers,
  memberships,
  tasks,
  users,
  policies,
];

const BY_ID = new Map(COLLECTIONS.map((c) => [c.id, c]));

export function isCollectionId(value: string): value is CollectionId {
  return BY_ID.has(value as CollectionId);
}

export function collection(id: string): CollectionDescriptor {
  const found = BY_ID.get(id as CollectionId);
  if (!found) throw new Error(`unknown collection '${id}' (one of: ${COLLECTION_IDS.join(', ')})`);
  return found;
}

/**
 * Bumped whenever a descriptor changes what `searchText` (or the facets text) indexes: the store then rebuilds the
 * search index from the stored raw JSON on its next writable open.
 */
export const SEARCH_TEXT_REVISION = 3;

/**
 * Bumped whenever a descriptor changes which columns it extracts or how: the store then extracts
 * the columns of every stored version again from its raw JSON on its next writable open.
 */
export const COLUMNS_REVISION = 4;
