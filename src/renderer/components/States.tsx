import type { ReactNode } from 'react';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="state" role="status" aria-live="polite">
      <div className="spinner" />
      <div>{label}</div>
    </div>
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state" data-state="empty">
      <h2>{title}</h2>
      {children}
    </div>
  );
}

export function ErrorState({
  title = 'Something went wrong',
  message,
  onRetry,
}: {
  title?: string;
  message: string;
  onRetry?: () => void;
}) {
  return (
    <div className="state error" role="alert" data-state="error">
      <h2>{title}</h2>
      <div>{message}</div>
      {onRetry && (
        <button className="btn" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Badge({
  tone,
  children,
  title,
}: {
  tone?: 'ok' | 'warn' | 'bad' | 'pending' | 'unknown';
  children: ReactNode;
  title?: string;
}) {
  return (
    <span className={`badge ${tone ?? ''}`} title={title}>
      {children}
    </span>
  );
}

/** A named progress bar; `value` null while the total is not known (indeterminate). */
export function ProgressBar({ value, state, label }: { value: number | null; state?: string; label: string }) {
  const cls = state === 'done' ? 'done' : state === 'failed' ? 'failed' : value === null ? 'indeterminate' : '';
  return (
    <div
      className={`progress ${cls}`}
      role="progressbar"
      aria-label={label}
      aria-valuenow={value === null ? undefined : Math.round(value)}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuetext={state === 'failed' ? 'failed' : state === 'done' ? 'done' : undefined}
    >
      <div style={value === null ? undefined : { width: `${Math.max(2, Math.min(100, value))}%` }} />
    </div>
  );
}
