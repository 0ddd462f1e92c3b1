import type { ChangeKind, CollectionId } from '../../shared/contract';
import { COLLECTIONS } from '../collections';
import { resolveDiffRuns } from '../reports/catalog';
import type { DiffDetail, Store, SyncRun } from '../store/db';
import { memo } from '../store/read-models';

/**
 * What changed between two completed runs, for the app's Changes screen: the runs are chosen as
 * the diff report chooses them (given, or the last two completed), so exporting the report with
 * the same two runs gives the same changes.
 */
export interface CompareArgs {
  fromRun: number | null;
  toRun: number | null;
  collection: CollectionId | null;
  change: ChangeKind | null;
  offset: number;
  limit: number;
}

export interface Comparison {
  runs: SyncRun[];
  fromRun: number | null;
  toRun: number | null;
  counts: { collection: CollectionId; added: number; removed: number; modified: number }[];
  total: number;
  changes: DiffDetail[];
}

export function compareRuns(store: Store, args: CompareArgs): Comparison {
  const runs = store.runs().filter((r) => r.status === 'completed');
  const pair = resolveDiffRuns(store, { filters: {}, fromRun: args.fromRun ?? undefined, toRun: args.toRun ?? undefined });
  if (!pair) return { runs, fromRun: null, toRun: null, counts: [], total: 0, changes: [] };
  const { from, to } = pair;
  // Counting walks every change once; paging through them asks again for each page.
  const found = memo(store, `diff-counts:${from}:${to}`, () => store.diffCounts(from, to));
  const counts = COLLECTIONS.map((d) => {
    const of = (change: ChangeKind) => found.find((c) => c.collection === d.id && c.change === change)?.count ?? 0;
    return { collection: d.id, added: of('added'), removed: of('removed'), modified: of('modified') };
  }).filter((c) => c.added + c.removed + c.modified > 0);
  const total = found
    .filter((c) => (args.collection === null || c.collection === args.collection) && (args.change === null || c.change === args.change))
    .reduce((sum, c) => sum + c.count, 0);
  const changes = store.diffPage(from, to, {
    collection: args.collection ?? undefined,
    change: args.change ?? undefined,
    offset: args.offset,
    limit: args.limit,
  });
  return { runs, fromRun: from, toRun: to, counts, total, changes };
}
