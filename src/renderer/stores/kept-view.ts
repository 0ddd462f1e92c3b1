import { useCallback, useMemo, useRef } from 'react';
import type { z } from 'zod';
import { useApp } from './app';

/**
 * What a screen shows (a list's filters, sort, selection and scroll; a search's words and filters),
 * kept in the app's store across Back and Forward, and on this computer per connection and screen,
 * so that a restart opens the screen as it was left.
 */
const storageKey = (connection: string, key: string) => `attest-view:${connection}:${key}`;

/** As left: in this run (Back and Forward), else as the last run left it, else `empty`. Anything unreadable: `empty`. */
function readKept<T>(connection: string | null, key: string, schema: z.ZodType<T>, empty: T): T {
  const inRun = schema.safeParse(useApp.getState().views[key]);
  if (inRun.success) return inRun.data;
  if (!connection) return empty;
  try {
    const stored = schema.safeParse(JSON.parse(localStorage.getItem(storageKey(connection, key)) ?? 'null'));
    return stored.success ? stored.data : empty;
  } catch {
    return empty;
  }
}

/** The screen's state as it was left (read once, when the screen opens), and `keep` to record what it shows now. */
export function useKeptView<T extends object>(key: string, schema: z.ZodType<T>, empty: T): { initial: T; keep(state: Partial<T>): void } {
  const connection = useApp((s) => s.active);
  const setView = useApp((s) => s.setView);
  // Read once: later changes come from the screen itself.
  const initial = useMemo(() => readKept(connection, key, schema, empty), []);
  const current = useRef<T>(initial);
  const keep = useCallback(
    (state: Partial<T>) => {
      current.current = { ...current.current, ...state };
      setView(key, current.current);
      if (connection) localStorage.setItem(storageKey(connection, key), JSON.stringify(current.current));
    },
    [key, connection, setView],
  );
  return { initial, keep };
}
