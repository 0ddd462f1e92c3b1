/**
 * What a collection's local copy can claim: how it was gathered (a full walk of the API's list,
 * or only the objects other collections name and those added by id, where the API has no list), and whether it is
 * complete. Only a full walk that ended is complete; a collection gathered by reference is
 * partial by nature, however its fetches went. The Evidence sheet and `attest runs` say it in
 * these words.
 */
import { collection as descriptorOf } from './registry';
import type { CollectionId } from '../../shared/contract';

/** What the store knows of a collection's sync (a subset of the store's CollectionStatus). */
export interface WalkState {
  lastCompletedRunId: number | null;
  /** The objects are exactly those of that completed walk (no later walk stopped half-way). */
  complete: boolean;
  interrupted: boolean;
  error: string | null;
}

export type Gathering = 'full walk' | 'referenced or added';

export interface Completeness {
  gathering: Gathering;
  /** How the collection was gathered, in words ("full walk of the list", "referenced or added: …"). */
  gathered: string;
  /** A full walk of the whole list ended, and nothing later stopped half-way. */
  complete: boolean;
  /** Why it is not complete, or "complete as of run N". */
  note: string;
}

/** How a collection is gathered, by its descriptor. */
export function gatheringOf(id: CollectionId): { gathering: Gathering; gathered: string } {
  const d = descriptorOf(id);
  if (d.byIds) {
    const by = d.byIds.referencedBy.map((c) => descriptorOf(c).title.toLowerCase());
    const noun = d.title.replace(/^Access review /, '').toLowerCase();
    return {
      gathering: 'referenced or added',
      gathered: `referenced or added: the API has no list of ${noun}; those named by ${by.join(' and ')}, and those added by id, are fetched one by one`,
    };
  }
  return { gathering: 'full walk', gathered: 'full walk of the list' };
}

/** Completeness of a collection's current data, from its walk state. */
export function completenessOf(id: CollectionId, state: WalkState | undefined): Completeness {
  const { gathering, gathered } = gatheringOf(id);
  const never = !state || state.lastCompletedRunId === null;
  const partial = gathering === 'referenced or added';
  const walkEnded = !never && state.complete && !state.interrupted;
  const note = never
    ? 'never fully synced'
    : state.interrupted
      ? `a later sync stopped half-way${state.error ? ` (${state.error})` : ''}; data from run ${state.lastCompletedRunId}, the next sync resumes it`
      : !state.complete
        ? `not complete${state.error ? ` (${state.error})` : ''}`
        : partial
          ? `partial: ${gathered.replace(/;.*$/, '')} (as of run ${state.lastCompletedRunId})`
          : `complete as of run ${state.lastCompletedRunId}`;
  return { gathering, gathered, complete: walkEnded && !partial, note };
}

/** Completeness of a collection in the snapshot of a completed run. */
export function snapshotCompleteness(id: CollectionId, runId: number, walked: boolean): Completeness {
  const { gathering, gathered } = gatheringOf(id);
  const partial = gathering === 'referenced or added';
  const note = !walked
    ? `run ${runId} did not sync this collection`
    : partial
      ? `partial: ${gathered.replace(/;.*$/, '')} (snapshot of completed run ${runId})`
      : `snapshot of completed run ${runId}`;
  return { gathering, gathered, complete: walked && !partial, note };
}

/** The overall line: "yes", or "NO: " and each partial collection with why. */
export function overallCompleteness(entries: readonly { title: string; complete: boolean; note: string }[]): string {
  const partial = entries.filter((e) => !e.complete);
  return partial.length === 0 ? 'yes' : `NO: ${partial.map((e) => `${e.title} (${e.note})`).join('; ')}`;
}
