import { isSafeExternalUrl } from '../shell/security';
import { notYet, type Services } from '../services';
import type { Handlers } from './dispatch';

/** The contract's handlers: each one a thin call into the services of the composition root. */
export function createHandlers(services: Services): Handlers {
  const { options } = services;
  return {
    appInfo: () => ({
      version: options.version,
      host: options.host,
      platform: options.platform,
      dataDir: options.dataDir,
      keychainAvailable: false,
    }),
    listConnections: () => ({ connections: [], active: services.activeConnection()?.name ?? null }),
    inspectCredentials: () => notYet('Connecting a tenant'),
    testConnection: () => notYet('Connecting a tenant'),
    saveConnection: () => notYet('Connecting a tenant'),
    removeConnection: () => notYet('Connecting a tenant'),
    openWorkspace: () => notYet('Opening a tenant'),
    openDemoTenant: () => notYet('The demo tenant'),
    connectionState: () => services.connectionState(),
    startSync: () => notYet('Sync'),
    cancelSync: () => ({ cancelled: false }),
    collections: () => notYet('The local store'),
    listRuns: () => ({ runs: [] }),
    listObjects: () => notYet('The local store'),
    getObject: () => notYet('The local store'),
    objectHistory: () => notYet('The local store'),
    search: () => notYet('Search'),
    overview: () => notYet('The local store'),
    openExternal: async ({ url }) => ({ opened: isSafeExternalUrl(url) ? await options.openExternal(url) : false }),
    showOpenDialog: async (args) => ({ path: await options.dialogs.open(args) }),
    showSaveDialog: async (args) => ({ path: await options.dialogs.save(args) }),
  };
}
