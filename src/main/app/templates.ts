/**
 * Templates added by id. The API has no list of templates, so a sync reads only those campaigns and
 * automations name; an admin adds any other by its id. Each is read now through
 * `GET /access_review_template/{id}`, stored as a fresh copy, and kept among the added ids that
 * every later sync reads along with the referenced ones (see migration 0010-added-ids).
 */
import { ApiError } from '../api/errors';
import { collection as descriptorOf, type ReceivedObject } from '../collections';
import { CoreError, firstLineOf } from '../errors';
import { apiForLiveRead, readOne, storeLiveCopies } from './live-read';
import type { Workspace } from './workspace';

const TEMPLATES = 'templates';

export interface AddedTemplate {
  id: string;
  title: string;
  /** Added by this call; false: it was added before (it is read again and stored all the same). */
  newlyAdded: boolean;
}

export interface AddTemplatesResult {
  added: AddedTemplate[];
  /** Ids the tenant has no template for (404): not added. */
  notFound: string[];
  /** Ids whose read failed otherwise (the tenant went away, refused the call...): not added. */
  failed: { id: string; error: string }[];
  /** The run that holds the fresh copies; null when none changed (or see `note`). */
  runId: number | null;
  note: string | null;
}

/** The ids as given: trimmed, each once, in order; an empty list is refused. */
function idsOf(ids: readonly string[]): string[] {
  const list = [...new Set(ids.map((id) => id.trim()).filter((id) => id !== ''))];
  if (list.length === 0) throw new CoreError('bad_request', 'Give at least one template id.');
  return list;
}

/**
 * Reads each template from the tenant now, stores those found and adds their ids (every later
 * sync reads them). A 404 or a failed read is reported for its id; the other ids are added all
 * the same. Offline (no API client): a clear error, and nothing changes.
 */
export async function addTemplatesById(
  workspace: Workspace,
  ids: readonly string[],
  opts: { signal?: AbortSignal } = {},
): Promise<AddTemplatesResult> {
  const list = idsOf(ids);
  const api = await apiForLiveRead(workspace, 'Adding a template by id');
  const descriptor = descriptorOf(TEMPLATES);
  const found: { id: string; object: ReceivedObject }[] = [];
  const notFound: string[] = [];
  const failed: { id: string; error: string }[] = [];
  for (const id of list) {
    try {
      const object = await readOne(api, TEMPLATES, id, opts.signal);
      if (object) found.push({ id, object });
      else notFound.push(id);
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'auth') throw error;
      failed.push({ id, error: firstLineOf(error, 'the read failed') });
    }
  }
  const stored =
    found.length > 0
      ? storeLiveCopies(
          workspace,
          found.map(({ object }) => ({ collection: TEMPLATES, object })),
        )
      : null;
  const newly = new Set(
    workspace.store.sync.addIds(
      TEMPLATES,
      found.map((f) => f.id),
    ),
  );
  return {
    added: found.map(({ id, object }) => ({ id, title: descriptor.searchText(object.json).title || id, newlyAdded: newly.has(id) })),
    notFound,
    failed,
    runId: stored?.runId ?? null,
    note: stored?.note ?? null,
  };
}

export interface TrackedTemplate {
  id: string;
  /** Its name as stored, or '' when the store holds no current version of it. */
  title: string;
  /** The store holds it now; false: the tenant answered 404 at the last read (gone), or it was never stored. */
  stored: boolean;
  /** Campaigns or automations name it too (a sync would read it anyway). */
  referenced: boolean;
}

/** The templates added by id, each with its stored name, and whether the store holds it now. */
export function addedTemplates(workspace: Workspace): TrackedTemplate[] {
  const { store } = workspace;
  const referenced = new Set(store.sync.referencedIds(TEMPLATES, descriptorOf(TEMPLATES).byIds!.referencedBy));
  return store.sync.addedIds(TEMPLATES).map((id) => {
    const object = store.getObject(TEMPLATES, id);
    const current = object !== null && !object.deleted;
    return { id, title: current ? object.title : '', stored: current, referenced: referenced.has(id) };
  });
}

/**
 * Stops reading templates by id: a template no campaign or automation names is then left out of
 * the next sync's walk (and marked deleted by it, as any template no longer read). Returns the ids
 * that were added; the others are named as not added.
 */
export function removeAddedTemplates(workspace: Workspace, ids: readonly string[]): { removed: string[]; notAdded: string[] } {
  const list = idsOf(ids);
  const removed = workspace.store.sync.removeAddedIds(TEMPLATES, list);
  return { removed, notAdded: list.filter((id) => !removed.includes(id)) };
}
