import { useEffect, useId, useRef, useState } from 'react';

/** The reason asked for at the moment of acting (an escalation's justification): kept with the change. */
export interface ReasonField {
  label: string;
  /** Break-glass needs a justification: the confirm button stays off until one is written. */
  required: boolean;
}

/**
 * A confirmation at the moment of acting, in place (no modal): what will happen, named with its
 * count and kinds, an optional reason, and the two choices. Focus moves to the reason (or the
 * confirm button) when it opens; Escape cancels.
 */
export function ConfirmPanel({
  question,
  detail,
  reason,
  confirmLabel,
  onConfirm,
  onCancel,
}: {
  question: string;
  detail?: string | undefined;
  reason?: ReasonField | undefined;
  confirmLabel: string;
  onConfirm(reason: string): void;
  onCancel(): void;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const first = useRef<HTMLTextAreaElement & HTMLButtonElement>(null);
  useEffect(() => first.current?.focus(), []);
  const missing = reason?.required === true && text.trim() === '';
  return (
    <div
      role="alertdialog"
      aria-labelledby={`${id}-q`}
      className="card stack"
      data-testid="confirm-panel"
      onKeyDown={(e) => {
        if (e.key === 'Escape') onCancel();
      }}
    >
      <strong id={`${id}-q`}>{question}</strong>
      {detail && <div className="small">{detail}</div>}
      {reason && (
        <div>
          <label className="label" htmlFor={`${id}-reason`}>
            {reason.label}
            {reason.required ? ' (required)' : ''}
          </label>
          <textarea
            id={`${id}-reason`}
            ref={first}
            className="field"
            rows={2}
            maxLength={2000}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        </div>
      )}
      <div className="row wrap">
        <button ref={reason ? undefined : first} className="btn primary" disabled={missing} onClick={() => onConfirm(text.trim())}>
          {confirmLabel}
        </button>
        <button className="btn" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
