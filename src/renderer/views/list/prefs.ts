import { useCallback, useState } from 'react';
import type { CollectionId } from '../../../shared/contract';

/** How one list is laid out, remembered on this computer: column widths (px) and hidden columns. */
export interface ListLayout {
  widths: Record<string, number>;
  hidden: string[];
}

const EMPTY: ListLayout = { widths: {}, hidden: [] };
const storageKey = (collection: CollectionId) => `attest-list-layout:${collection}`;

function read(collection: CollectionId): ListLayout {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(storageKey(collection)) ?? 'null');
    if (!value || typeof value !== 'object') return EMPTY;
    const { widths, hidden } = value as Partial<ListLayout>;
    return {
      widths: Object.fromEntries(
        Object.entries(widths && typeof widths === 'object' ? widths : {}).filter(
          (entry): entry is [string, number] => typeof entry[1] === 'number' && entry[1] > 0,
        ),
      ),
      hidden: Array.isArray(hidden) ? hidden.filter((k): k is string => typeof k === 'string') : [],
    };
  } catch {
    // Unreadable: the default layout.
    return EMPTY;
  }
}

/** The list's layout and a setter that keeps it for the next time (per list). */
export function useListLayout(collection: CollectionId): [ListLayout, (update: (layout: ListLayout) => ListLayout) => void] {
  const [layout, setLayout] = useState<ListLayout>(() => read(collection));
  const update = useCallback(
    (change: (layout: ListLayout) => ListLayout) =>
      setLayout((current) => {
        const next = change(current);
        localStorage.setItem(storageKey(collection), JSON.stringify(next));
        return next;
      }),
    [collection],
  );
  return [layout, update];
}

/** The default width track of a column, by kind. */
export function defaultTrack(column: { key: string; kind: string }): { track: string; min: number } {
  if (column.kind === 'date') return { track: '170px', min: 170 };
  if (column.kind === 'bool') return { track: '90px', min: 90 };
  if (column.kind === 'enum') return { track: 'minmax(140px, 1fr)', min: 140 };
  if (column.key === 'title' || column.key === 'displayName') return { track: 'minmax(220px, 2fr)', min: 220 };
  return { track: 'minmax(120px, 1fr)', min: 120 };
}
