import { useState } from 'react';
import type { CollectionId } from '../../../shared/contract';
import { errorMessage } from '../../api';
import { useApp } from '../../stores/app';
import { ConfirmPanel } from '../../components/ConfirmPanel';
import { LIST_ACTIONS, type ListAction, type ListActionResult } from './actions';

/** What an action did, in words: the changes queued, then the rows left out grouped by why ("2 skipped (…): A, B."). */
function resultText({ queued, skipped }: ListActionResult): string {
  const parts = [`Queued ${queued} ${queued === 1 ? 'change' : 'changes'} in the outbox.`];
  const byReason = new Map<string, string[]>();
  for (const s of skipped) byReason.set(s.reason, [...(byReason.get(s.reason) ?? []), s.name]);
  for (const [reason, names] of byReason) {
    const shown = names.slice(0, 5).join(', ') + (names.length > 5 ? ` and ${names.length - 5} more` : '');
    parts.push(`${names.length} skipped (${reason}): ${shown}.`);
  }
  return parts.join(' ');
}

/** What is selected in a list, and what can be done with it: each action queues changes in the outbox. */
export function SelectionBar({
  collection,
  selected,
  onClear,
}: {
  collection: CollectionId;
  /** id -> title of each selected row. */
  selected: Map<string, string>;
  onClear(): void;
}) {
  const navigate = useApp((s) => s.navigate);
  const outboxChanged = useApp((s) => s.outboxChanged);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; queued: boolean } | null>(null);
  // The action waiting for its confirmation (and reason), with the rows it was asked for.
  const [asking, setAsking] = useState<{ action: ListAction; ids: string[] } | null>(null);
  const actions = LIST_ACTIONS[collection] ?? [];
  const start = (action: ListAction, ids: string[], reason?: string) => {
    setBusy(true);
    setMessage(null);
    setAsking(null);
    action
      .run(ids, reason)
      .then((result) => {
        setMessage({ text: resultText(result), queued: result.queued > 0 });
        if (result.queued > 0) outboxChanged();
        onClear();
      })
      .catch((failure: unknown) => setMessage({ text: errorMessage(failure), queued: false }))
      .finally(() => setBusy(false));
  };
  const names = [...selected.values()];
  if (selected.size === 0 && !message) return null;

  return (
    <div className="toolbar selection-bar" role="region" aria-label="Selection" data-testid="selection-bar">
      <strong>{selected.size > 0 ? `${selected.size} selected` : 'Nothing selected'}</strong>
      <span
        className="muted small grow"
        title={names.join('\n')}
        style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
      >
        {names.join(', ')}
      </span>
      {actions.map((action) => (
        <button
          key={action.label(1)}
          className="btn small primary"
          disabled={busy || selected.size === 0}
          onClick={() => {
            const ids = [...selected.keys()];
            if (action.confirm) setAsking({ action, ids });
            else start(action, ids);
          }}
        >
          {action.label(selected.size)}
        </button>
      ))}
      {selected.size > 0 && (
        <button className="btn small" onClick={onClear}>
          Clear selection
        </button>
      )}
      {asking?.action.confirm && (
        <ConfirmPanel
          question={asking.action.confirm.question(asking.ids.length)}
          detail={names.slice(0, 5).join(', ') + (names.length > 5 ? ` and ${names.length - 5} more` : '')}
          reason={asking.action.confirm.reason}
          confirmLabel={asking.action.confirm.confirmLabel(asking.ids.length)}
          onConfirm={(reason) => start(asking.action, asking.ids, reason)}
          onCancel={() => setAsking(null)}
        />
      )}
      <div role="status" className={message && !message.queued ? 'field-error' : 'small'}>
        {message?.text}
        {message?.queued && (
          <>
            {' '}
            <button className="btn link small" onClick={() => navigate({ view: 'outbox' })}>
              Open the outbox
            </button>
          </>
        )}
      </div>
    </div>
  );
}
