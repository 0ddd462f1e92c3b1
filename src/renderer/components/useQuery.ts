import { useEffect, useRef, useState } from 'react';
import { errorMessage, isOfflineError } from '../api';

export interface QueryState<T> {
  data: T | null;
  loading: boolean;
  error: string | null;
  offline: boolean;
  reload(): void;
}

/** Runs an async read when its inputs change; keeps the previous data while reloading; drops stale answers. */
export function useQuery<T>(run: () => Promise<T>, deps: readonly unknown[]): QueryState<T> {
  const [data, setData] = useState<T | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [offline, setOffline] = useState(false);
  const [nonce, setNonce] = useState(0);
  const latest = useRef(0);
  useEffect(() => {
    const ticket = ++latest.current;
    setLoading(true);
    // Reruns on the caller-given inputs (deps), like a React Query key.
    run()
      .then((value) => {
        if (ticket !== latest.current) return;
        setData(value);
        setError(null);
        setOffline(false);
      })
      .catch((failure: unknown) => {
        if (ticket !== latest.current) return;
        setError(errorMessage(failure));
        setOffline(isOfflineError(failure));
      })
      .finally(() => ticket === latest.current && setLoading(false));
  }, [...deps, nonce]);
  return { data, loading, error, offline, reload: () => setNonce((n) => n + 1) };
}

export function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}
