import type { ReactNode } from 'react';

/** Under a form's field: its error (the core's refusal naming it), else its hint. */
export function FieldNote({ id, error, hint }: { id: string; error?: string | null | undefined; hint?: ReactNode }) {
  if (error)
    return (
      <div className="field-error" data-testid={`error-${id}`}>
        {error}
      </div>
    );
  return hint ? <div className="muted small">{hint}</div> : null;
}
