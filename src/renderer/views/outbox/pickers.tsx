/**
 * Pickers over the store for the forms that take ids: the objects of a collection whose names (or
 * ids) match what is typed, offered by name with the id shown, narrowed to the app already chosen
 * where the collection belongs to one. And the form's live check: the change checked as the core
 * would queue it (the spec's rules, then the store's), giving the names of the ids typed and the
 * store's warnings before anything is queued.
 */
import { useEffect, useState } from 'react';
import type { ChangePreview, CollectionId, MutationKind } from '../../../shared/contract';
import { AttestError, call, errorMessage } from '../../api';
import type { PickLoader, PickOption } from '../../components/Picker';
import { useDebounced } from '../../components/useQuery';

/** Options per picker (how many match is always said beside them). */
const OPTIONS = 20;

/** What a picker offers: the objects of a synced collection, or the resource servers its scopes are on. */
export type PickFrom = CollectionId | 'resource-servers';

/** Collections that belong to an app: their pickers offer the objects of the app chosen so far. */
const WITHIN_APP = new Set<PickFrom>(['entitlements', 'app-users', 'memberships', 'scopes', 'resource-servers']);

/**
 * Reads the matches of typed text from the whole store: names and ids, as the list's text filter
 * matches them, by name; within `appId` where the collection belongs to an app.
 */
export function pickLoader(from: PickFrom, appId = ''): PickLoader {
  const app = WITHIN_APP.has(from) ? appId.trim() : '';
  if (from === 'resource-servers')
    return async (text) => {
      const page = await call('resourceServers', { appId: app, text, limit: OPTIONS });
      return { options: page.rows.map(resourceServerOption), total: page.total };
    };
  return async (text) => {
    const page = await call('listObjects', {
      collection: from,
      filters: app ? { appId: [app] } : {},
      text,
      // Apps by name (the other collections' lists sort by name, or newest first, already).
      sort: from === 'apps' ? { key: 'displayName', dir: 'asc' } : null,
      offset: 0,
      limit: OPTIONS,
    });
    return { options: page.rows.map((r): PickOption => ({ id: r.id, title: r.title })), total: page.total };
  };
}

/** A resource server has no name of its own: it is told by its app and the scopes on it. */
function resourceServerOption(r: { id: string; appId: string; appName: string; scopeCount: number; scopeValues: string[] }): PickOption {
  const shown = r.scopeValues.slice(0, 4).join(', ');
  const more = r.scopeValues.length > 4 ? `, +${r.scopeValues.length - 4} more` : '';
  return {
    id: r.id,
    title: `${r.appName || r.appId || 'unknown app'} resource server (${r.scopeCount} scope${r.scopeCount === 1 ? '' : 's'})`,
    detail: `${shown}${more}`,
  };
}

export interface LiveCheck {
  preview: ChangePreview | null;
  /** A refusal of the change as it stands (the field it names, when it names one). */
  problem: { field?: string; message: string } | null;
}

/** The change checked by the core as you type (once `ready`), debounced. */
export function useLiveCheck(kind: MutationKind, input: Record<string, unknown>, ready: boolean, editing: string | null): LiveCheck {
  const key = useDebounced(ready ? JSON.stringify(input) : '', 250);
  const [check, setCheck] = useState<LiveCheck>({ preview: null, problem: null });
  useEffect(() => {
    if (!key) {
      setCheck({ preview: null, problem: null });
      return;
    }
    let live = true;
    call('outboxCheck', { kind, input: JSON.parse(key) as Record<string, unknown>, editing }).then(
      (preview) => live && setCheck({ preview, problem: null }),
      (error: unknown) =>
        live &&
        setCheck({
          preview: null,
          problem: { field: error instanceof AttestError ? error.field : undefined, message: errorMessage(error) },
        }),
    );
    return () => {
      live = false;
    };
  }, [kind, key, editing]);
  return check;
}

/** The current policy step of a synced task, to escalate it with (empty when the store does not know it). */
export async function currentStepOf(taskId: string): Promise<string> {
  const found = await call('getObject', { collection: 'tasks', id: taskId });
  if (!found.object) return '';
  try {
    const view = JSON.parse(found.object.raw) as { task?: { policy?: { current?: { id?: unknown } | null } } };
    const id = view.task?.policy?.current?.id;
    return typeof id === 'string' ? id : '';
  } catch {
    return '';
  }
}
