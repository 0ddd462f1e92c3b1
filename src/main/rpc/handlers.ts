import { COLLECTION_IDS } from '../../shared/contract';
import { isSafeExternalUrl } from '../shell/security';
import type { Services } from '../services';
import { REPORTS, REPORT_KINDS, collectionsOf, filterKeys } from '../reports/catalog';
import type { Handlers } from './dispatch';
import { createLatest } from './latest';
import { withPending } from '../outbox/overlay';
import {
  collectionInfos,
  detailOf,
  listWindow,
  filtersOf,
  historyOf,
  hitOf,
  itemOf,
  journalOf,
  overviewCharts,
  previewOf,
  rowOf,
  runOf,
  searchFacets,
  statusOf,
} from './read-models';

/** The contract's handlers: each one a thin call into the services of the composition root. */
export function createHandlers(services: Services): Handlers {
  const { options } = services;
  const store = () => services.workspace().store;
  const latest = createLatest();
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
      const workspace = services.workspace();
      const result = listWindow(workspace.store, collection, {
        filters: filtersOf(filters),
        sort: sort ? { column: sort.key, dir: sort.dir } : undefined,
        offset,
        limit,
        asOfRun: asOfRun ?? undefined,
      });
      return { rows: withPending(services.workspace().outbox, collection, result.rows).map(rowOf), total: result.total };
    },
    getObject: ({ collection, id, asOfRun }) => {
      const object = store().getObject(collection, id, { asOfRun: asOfRun ?? undefined });
      const [withOverlay] = object ? withPending(services.workspace().outbox, collection, [object]) : [];
      return { object: withOverlay ? detailOf(withOverlay) : null };
    },
    objectHistory: ({ collection, id }) => ({ entries: historyOf(store().history(collection, id)) }),
    search: ({ query, collection, filters, limit, offset, facets: withFacets, latest: key }) =>
      latest.run(key, () => {
        const started = performance.now();
        const s = store();
        const result = s.search(query, {
          collection: collection ?? undefined,
          filters: filtersOf(filters),
          limit,
          offset,
          highlight: ['[[', ']]'],
        });
        const facets = withFacets ? searchFacets(s, query) : null;
        return { hits: result.hits.map(hitOf), total: result.total, facets, tookMs: performance.now() - started };
      }),
    overview: () => {
      const s = store();
      const status = s.collectionStatus().map(statusOf);
      const counts = Object.fromEntries(COLLECTION_IDS.map((id) => [id, status.find((x) => x.id === id)?.count ?? 0]));
      return { counts, charts: overviewCharts(s), runs: s.runs().slice(0, 20).map(runOf), status };
    },

    outboxList: ({ state, limit }) => {
      const { outbox } = services.workspace();
      const items = outbox.list({ state: state ?? undefined, limit }).map(itemOf);
      return { items, counts: outbox.counts(), pending: outbox.pendingCount(), sending: services.sending() };
    },
    outboxEnqueue: ({ kind, input }) => ({ item: itemOf(services.workspace().outbox.enqueue(kind, input, { source: 'app' })) }),
    outboxCheck: ({ kind, input, editing }) => services.workspace().outbox.check(kind, input, { editing: editing ?? undefined }),
    outboxEdit: ({ id, input }) => ({ item: itemOf(services.workspace().outbox.edit(id, input)) }),
    outboxDiscard: ({ id }) => {
      services.workspace().outbox.discard(id);
      return {};
    },
    outboxRetry: ({ id }) => {
      services.workspace().outbox.retry(id);
      return {};
    },
    outboxResolve: ({ id, note }) => {
      services.workspace().outbox.resolve(id, note ?? undefined);
      return {};
    },
    outboxPreviewImport: ({ kind, csv }) => previewOf(services.workspace().outbox.previewImport(csv, kind)),
    outboxImport: ({ kind, csv, source }) => {
      const result = services.workspace().outbox.importCsv(csv, kind, { source: source ?? 'csv import' });
      return { ...previewOf(result), queued: result.queued, itemIds: result.itemIds };
    },
    outboxSend: ({ ids }) => ({ started: services.startSend(ids) }),
    outboxCancelSend: () => ({ cancelled: services.cancelSend() }),
    outboxReconcile: async () => {
      const workspace = services.workspace();
      if (!workspace.api) return { examined: 0, applied: 0, requeued: 0, unknown: 0 };
      const summary = await workspace.outbox.reconcile(workspace.api);
      return { examined: summary.examined, applied: summary.applied, requeued: summary.requeued, unknown: summary.unknown };
    },
    outboxJournal: ({ itemId, limit }) => ({
      entries: services
        .workspace()
        .outbox.journal({ itemId: itemId ?? undefined, limit })
        .map(journalOf),
    }),

    reportCatalog: () => ({
      reports: REPORT_KINDS.map((kind) => {
        const collections = collectionsOf(kind);
        return { kind, title: REPORTS[kind].title, collections, filterKeys: [...new Set(collections.flatMap((c) => filterKeys(c)))] };
      }),
    }),
    exportReport: async (args) => {
      const result = await services.exportReport(args);
      return {
        file: result.file,
        kind: result.kind,
        sheets: result.sheets.map((sheet) => ({ name: sheet.name, rows: sheet.rows, sha256: sheet.sha256 })),
        overallSha256: result.overallSha256,
        signedBy: result.signedBy,
        bytes: result.bytes,
        complete: result.complete,
        generatedAt: result.generatedAt,
        ms: result.ms,
      };
    },
    cancelExport: () => ({ cancelled: services.cancelExport() }),
    verifyWorkbook: async ({ path, key }) => {
      const result = await services.verifyWorkbook(path, key);
      return {
        file: result.file,
        status: result.status,
        reason: result.reason ?? null,
        ok: result.ok,
        notice: result.notice,
        problems: result.problems,
        warnings: result.warnings,
        signature: result.signature,
        sheets: result.sheets.map((sheet) => ({
          name: sheet.name,
          status: sheet.status,
          expectedRows: sheet.expectedRows ?? null,
          actualRows: sheet.actualRows ?? null,
        })),
        manifest: result.manifest,
      };
    },
    showInFolder: async ({ path }) => ({ shown: await services.showInFolder(path) }),

    openExternal: async ({ url }) => ({ opened: isSafeExternalUrl(url) ? await options.openExternal(url) : false }),
    showOpenDialog: async (args) => ({ path: await services.chooseFile('open', args) }),
    showSaveDialog: async (args) => ({ path: await services.chooseFile('save', args) }),
  };
}
