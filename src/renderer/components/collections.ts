import { COLLECTION_IDS, type CollectionId } from '../../shared/contract';

/** Sidebar labels of the collections. */
export const COLLECTION_LABELS: Record<CollectionId, string> = {
  campaigns: 'Campaigns',
  templates: 'Templates',
  automations: 'Automations',
  toolsets: 'Toolsets',
  'routing-rules': 'Routing rules',
  scopes: 'Scopes',
  apps: 'Apps',
  entitlements: 'Entitlements',
  'app-users': 'App users',
  memberships: 'Memberships',
  tasks: 'Tasks',
  users: 'Users',
  policies: 'Policies',
};
/** The sidebar's order: the contract's, which lists the collections in the order users think of them. */
export const COLLECTION_ORDER: readonly CollectionId[] = COLLECTION_IDS;

/** The singular noun of an object of a collection. */
export const COLLECTION_NOUN: Record<CollectionId, string> = {
  campaigns: 'Campaign',
  templates: 'Template',
  automations: 'Automation',
  toolsets: 'Toolset',
  'routing-rules': 'Routing rule',
  scopes: 'Scope',
  apps: 'App',
  entitlements: 'Entitlement',
  'app-users': 'App user',
  memberships: 'Membership',
  tasks: 'Task',
  users: 'User',
  policies: 'Policy',
};
