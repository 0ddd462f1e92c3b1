import { COLLECTION_IDS } from '../../shared/contract';
import { isSafeExternalUrl } from '../shell/security';
import type { Services } from '../services';
import type { Handlers } from './dispatch';
import { collectionInfos, detailOf, filtersOf, historyOf, hitOf, overviewCharts, rowOf, runOf, searchFacets, statusOf } from './read-models';

/** The contract's handlers: each one a thin call into the services of the composition root. */
export function createHandlers(services: Services): Handlers {
  const { options } = services;
  const store = () => services.workspace().store;
  return {
    appInfo: async () => ({
      version: options.version,
      host: options.host,
      platform: options.platform,
      dataDir: options.dataDir,
      keychainAvailable: await services.keychainAvailable(),
    }),
    listConnections: () => {
      const active = services.activeConnection();
      const saved = services.listConnections();
      // A workspace opened from a bare store file (ui-host --store) is listed too.
      const connections = active && !saved.some((c) => c.name === active.name) ? [...saved, active] : saved;
      return { connections, active: active?.name ?? null, lastUsed: services.lastUsedConnection() };
    },
    inspectCredentials: (args) => services.inspectCredentials(args),
    testConnection: (args) => services.testConnection(args),
    saveConnection: async (args) => ({ connection: await services.saveConnection(args) }),
    removeConnection: async ({ name }) => {
      await services.removeConnection(name);
      return {};
    },
    openWorkspace: async ({ name }) => {
      const workspace = await services.openWorkspace(name);
      return { connection: workspace.connection, state: await services.connectionState() };
    },
    openDemoTenant: async () => {
      const workspace = await services.openDemoTenant();
      return { connection: workspace.connection, state: await services.connectionState() };
    },
    connectionState: ({ recheck }) => services.connectionState(recheck),

    startSync: ({ only }) => ({ started: services.startSync(only) }),
    cancelSync: () => ({ cancelled: services.cancelSync() }),
    collections: () => {
      const open = services.activeConnection() ? store() : null;
      return {
        collections: collectionInfos(open),
        status: open ? open.collectionStatus().map(statusOf) : [],
        syncing: services.syncing(),
      };
    },
    listRuns: () => ({ runs: services.activeConnection() ? store().runs().map(runOf) : [] }),

    listObjects: ({ collection, filters, sort, offset, limit, asOfRun }) => {
      const result = store().listObjects(collection, {
        filters: filtersOf(filters),
        sort: sort ? { column: sort.key, dir: sort.dir } : undefined,
        offset,
        limit,
        asOfRun: asOfRun ?? undefined,
      });
      return { rows: result.rows.map(rowOf), total: result.total };
    },
    getObject: ({ collection, id, asOfRun }) => {
      const object = store().getObject(collection, id, { asOfRun: asOfRun ?? undefined });
      return { object: object ? detailOf(object) : null };
    },
    objectHistory: ({ collection, id }) => ({ entries: historyOf(store().history(collection, id)) }),
    search: ({ query, collection, filters, limit, offset }) => {
      const started = performance.now();
      const s = store();
      const result = s.search(query, { collection: collection ?? undefined, filters: filtersOf(filters), limit, offset, highlight: ['[[', ']]'] });
      const facets = searchFacets(s, query);
      return { hits: result.hits.map(hitOf), total: result.total, facets, tookMs: performance.now() - started };
    },
    overview: () => {
      const s = store();
      const status = s.collectionStatus().map(statusOf);
      const counts = Object.fromEntries(COLLECTION_IDS.map((id) => [id, status.find((x) => x.id === id)?.count ?? 0]));
      return { counts, charts: overviewCharts(s), runs: s.runs().slice(0, 20).map(runOf), status };
    },

    openExternal: async ({ url }) => ({ opened: isSafeExternalUrl(url) ? await options.openExternal(url) : false }),
    showOpenDialog: async (args) => ({ path: await options.dialogs.open(args) }),
    showSaveDialog: async (args) => ({ path: await options.dialogs.save(args) }),
  };
}
