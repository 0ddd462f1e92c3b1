import { COLLECTION_IDS } from '../../../shared/contract';
import type { Session } from '../../app/session';
import { withPending } from '../../outbox/overlay';
import type { Handlers } from '../dispatch';
import { createLatest } from '../latest';
import { campaignItems } from '../../app/certification';
import { compareRuns } from '../../app/changes';
import { entitlementToolset } from '../../app/toolsets';
import { readLive } from '../../app/live-read';
import { addedTemplates, addTemplatesById } from '../../app/templates';
import { findResourceServers } from '../../app/resource-servers';
import { findFilterChoices } from '../../app/filter-choices';
import { searchAutomationsInStore, searchAutomationsLive } from '../../app/automations';
import {
  changedObjectOf,
  collectionInfos,
  detailOf,
  fieldChangeOf,
  filtersOf,
  historyOf,
  hitOf,
  listWindow,
  overviewCharts,
  nameLookup,
  rowOf,
  runOf,
  searchFacets,
  statusOf,
} from '../read-models';

/** Sync, and the synced data: collections, runs, lists, objects, search and the overview. */
export function dataHandlers(
  session: Session,
): Pick<
  Handlers,
  | 'startSync'
  | 'cancelSync'
  | 'collections'
  | 'listRuns'
  | 'listObjects'
  | 'getObject'
  | 'objectHistory'
  | 'entitlementToolset'
  | 'refreshObject'
  | 'addTemplates'
  | 'addedTemplates'
  | 'resourceServers'
  | 'filterChoices'
  | 'searchAutomations'
  | 'compareRuns'
  | 'campaignItems'
  | 'search'
  | 'overview'
> {
  const store = () => session.workspace().store;
  const latest = createLatest();
  return {
    startSync: ({ only }) => ({ started: session.startSync(only) }),
    cancelSync: () => ({ cancelled: session.cancelSync() }),
    collections: () => {
      const open = session.activeConnection() ? store() : null;
      return {
        collections: collectionInfos(open),
        status: open ? open.collectionStatus().map(statusOf) : [],
        syncing: session.syncing(),
      };
    },
    listRuns: () => ({ runs: session.activeConnection() ? store().runs().map(runOf) : [] }),

    listObjects: ({ collection, filters, text, sort, offset, limit, asOfRun }) => {
      const workspace = session.workspace();
      const result = listWindow(workspace.store, collection, {
        filters: filtersOf(filters),
        text,
        sort: sort ? { column: sort.key, dir: sort.dir } : undefined,
        offset,
        limit,
        asOfRun: asOfRun ?? undefined,
      });
      const lookup = nameLookup(workspace.store, asOfRun ?? undefined);
      return { rows: withPending(workspace.outbox, collection, result.rows).map((row) => rowOf(row, lookup)), total: result.total };
    },
    getObject: ({ collection, id, asOfRun }) => {
      const workspace = session.workspace();
      const object = workspace.store.getObject(collection, id, { asOfRun: asOfRun ?? undefined });
      const [withOverlay] = object ? withPending(workspace.outbox, collection, [object]) : [];
      return { object: withOverlay ? detailOf(withOverlay, nameLookup(workspace.store, asOfRun ?? undefined)) : null };
    },
    objectHistory: ({ collection, id }) => ({ entries: historyOf(store().history(collection, id)) }),
    entitlementToolset: async ({ appId, appEntitlementId }) => {
      const workspace = session.workspace();
      const { online } = await session.connectionState();
      return entitlementToolset(workspace, { online, appId, appEntitlementId });
    },
    refreshObject: async ({ collection, id }) => {
      const read = await readLive(session.workspace(), collection, id);
      const { title, readAt, before, runId, note } = read;
      return { title, readAt, before, runId, note, fields: read.changes.map(fieldChangeOf), fieldCount: read.changeCount };
    },
    addTemplates: ({ ids }) => addTemplatesById(session.workspace(), ids),
    addedTemplates: () => ({ templates: session.activeConnection() ? addedTemplates(session.workspace()) : [] }),
    resourceServers: ({ appId, text, limit }) =>
      session.activeConnection() ? findResourceServers(session.workspace(), { appId, text, limit }) : { rows: [], total: 0 },
    filterChoices: ({ collection, column, text, limit, latest: key }) =>
      latest.run(key, () =>
        session.activeConnection()
          ? findFilterChoices(session.workspace(), { collection, column, text, limit })
          : { choices: [], total: 0 },
      ),
    searchAutomations: async ({ live, ...filters }) => {
      const workspace = session.workspace();
      const answer = live ? await searchAutomationsLive(workspace, filters) : searchAutomationsInStore(workspace, filters);
      // The rows without their JSON: a row opens as the store holds it.
      return { ...answer, automations: answer.automations.map(({ raw: _raw, ...a }) => a) };
    },
    campaignItems: ({ campaignId }) => campaignItems(store(), campaignId),
    compareRuns: (args) => {
      const found = compareRuns(store(), args);
      return { ...found, runs: found.runs.map(runOf), changes: found.changes.map(changedObjectOf) };
    },
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
  };
}
