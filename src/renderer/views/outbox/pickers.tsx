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
import { useDebounced } from '../../components/useQuery';

/** Options per picker. */
const OPTIONS = 20;

export interface PickOption {
  id: string;
  title: string;
}

/** The objects of `collection` matching `text` (names and ids, as the list's text filter matches them), within `appId` when given. */
export function usePickOptions(collection: CollectionId | undefined, text: string, appId: string): PickOption[] {
  const typed = useDebounced(text.trim(), 150);
  const [options, setOptions] = useState<PickOption[]>([]);
  useEffect(() => {
    if (!collection) return;
    let live = true;
    const filters: Record<string, string[]> = appId && collection !== 'apps' && collection !== 'tasks' ? { appId: [appId] } : {};
    call('listObjects', { collection, filters, text: typed, offset: 0, limit: OPTIONS }).then(
      (page) => live && setOptions(page.rows.map((r) => ({ id: r.id, title: r.title }))),
      () => live && setOptions([]),
    );
    return () => {
      live = false;
    };
  }, [collection, typed, appId]);
  return options;
}

/** The options of a picker, for an input's `list`: the name shown, the id as the value. */
export function PickList({ id, options }: { id: string; options: PickOption[] }) {
  return (
    <datalist id={id} data-testid={id}>
      {options.map((o) => (
        <option key={o.id} value={o.id} label={o.title ? `${o.title} (${o.id})` : o.id} />
      ))}
    </datalist>
  );
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
