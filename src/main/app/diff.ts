import type { CollectionId } from '../collections';
import { resolveDiffRuns } from '../reports/catalog';
import { changesInWords, type ChangeInWords } from '../reports/diff-values';
import type { Store } from '../store/db';

export { fieldLabel, valueWords, type ChangeInWords, type ValueChange } from '../reports/diff-values';

/**
 * What changed between two sync runs, in words, for `attest diff`: the runs chosen as the diff
 * report chooses them (given, else the two latest completed syncs), each changed value with its
 * label, old and new value, and the app and entitlement of what changed. Null runs: fewer than
 * two syncs to compare.
 */
export function describeDiff(
  store: Store,
  args: { fromRun?: number | undefined; toRun?: number | undefined; collection?: CollectionId | undefined },
): { from: number | null; to: number | null; changes: ChangeInWords[] } {
  const runs = resolveDiffRuns(store, { filters: {}, fromRun: args.fromRun, toRun: args.toRun });
  if (!runs) {
    const to = args.toRun ?? store.runs().find((r) => r.status === 'completed' && r.origin === 'sync')?.id ?? null;
    return { from: null, to, changes: [] };
  }
  return { ...runs, changes: changesInWords(store, runs.from, runs.to, args.collection ? { collection: args.collection } : {}) };
}
