import { useState } from 'react';
import { MUTATION_KINDS, type OutboxFilter, type OutboxItemView } from '../../../shared/contract';
import { call, errorMessage } from '../../api';
import { useApp } from '../../stores/app';
import { Badge, ProgressBar } from '../../components/States';
import { count } from '../../components/format';
import { Batches } from './Batches';
import { ConfirmPanel } from '../../components/ConfirmPanel';
import { ChangeForm, KIND_LABELS } from './ChangeForms';
import { ImportCsv } from './ImportCsv';
import { ImportReview } from './ImportReview';
import { Journal } from './Journal';
import { NO_FILTER, OutboxItems } from './OutboxItems';

type Tab = 'items' | 'new' | 'import' | 'review' | 'imports' | 'journal';
const TAB_NAMES: Record<Tab, string> = {
  items: 'Changes',
  new: 'New change',
  import: 'Import CSV',
  review: 'Import review decisions',
  imports: 'Imports',
  journal: 'Journal',
};

/** The progress of the running (or last) send; its own component, so progress events re-render only it. */
function SendProgressCard() {
  const sending = useApp((s) => s.sending);
  const progress = useApp((s) => s.sendProgress);
  if (!progress || (!sending && progress.phase !== 'finished')) return null;
  return (
    <div className="card stack" data-testid="send-progress" style={{ gap: 6 }}>
      <div className="row small">
        <span className="grow">
          {sending ? 'Sending…' : 'Last send'} {progress.done} / {progress.total}
        </span>
        <Badge tone="ok">{progress.succeeded} succeeded</Badge>
        <Badge tone={progress.failed ? 'bad' : undefined}>{progress.failed} failed</Badge>
        <Badge tone={progress.uncertain ? 'warn' : undefined}>{progress.uncertain} uncertain</Badge>
      </div>
      <ProgressBar
        label="Send progress"
        value={progress.total ? (100 * progress.done) / progress.total : sending ? null : 100}
        state={sending ? undefined : 'done'}
      />
      {progress.message && <div className="muted small">{progress.message}</div>}
    </div>
  );
}

/** The outbox: every queued change with its state and reason; send all or some with progress; retry, discard, resolve. */
export function OutboxView({ editTemplate }: { editTemplate?: string }) {
  const outboxChanged = useApp((s) => s.outboxChanged);
  const online = useApp((s) => s.connection.online);
  const sending = useApp((s) => s.sending);
  const [tab, setTab] = useState<Tab>(editTemplate ? 'new' : 'items');
  const [filter, setFilter] = useState<OutboxFilter>(NO_FILTER);
  const [actionError, setActionError] = useState<string | null>(null);
  /** The queued item being edited (kept as it was when opened, so the form is not reset by refreshes). */
  const [editing, setEditing] = useState<OutboxItemView | null>(null);

  /** The queued changes by kind, asked before "Send all": what will go out, named with its count. */
  const [confirmSend, setConfirmSend] = useState<{ total: number; kinds: string } | null>(null);
  const askSend = async () => {
    setActionError(null);
    try {
      const byKind = await Promise.all(
        MUTATION_KINDS.map(async (kind) => {
          const page = await call('outboxList', { state: 'queued', kind, batch: null, error: null, limit: 1, offset: 0 });
          return [kind, page.matching] as const;
        }),
      );
      const present = byKind.filter(([, n]) => n > 0);
      const total = present.reduce((sum, [, n]) => sum + n, 0);
      const kinds = present.map(([kind, n]) => `${count(n)} × ${KIND_LABELS[kind].toLowerCase()}`).join(', ');
      setConfirmSend({ total, kinds });
    } catch (error) {
      setActionError(errorMessage(error));
    }
  };
  const send = async (ids: string[] | null) => {
    setActionError(null);
    try {
      await call('outboxSend', { ids });
      useApp.setState({ sending: true });
    } catch (error) {
      setActionError(errorMessage(error));
    }
  };
  const reconcile = async () => {
    setActionError(null);
    try {
      const r = await call('outboxReconcile');
      setActionError(`Checked ${r.examined}: ${r.applied} applied, ${r.requeued} queued again, ${r.unknown} still uncertain.`);
      outboxChanged();
    } catch (error) {
      setActionError(errorMessage(error));
    }
  };
  const counts = useApp((s) => s.outboxCounts);
  const queued = counts.queued ?? 0;

  return (
    <div className="content stack" data-screen="outbox">
      <div className="row">
        <h1 className="grow">Outbox</h1>
        {sending ? (
          <button className="btn" onClick={() => void call('outboxCancelSend')}>
            Stop sending
          </button>
        ) : (
          <>
            {(counts.uncertain ?? 0) > 0 && (
              <button className="btn" disabled={!online} onClick={() => void reconcile()}>
                Check uncertain
              </button>
            )}
            <button
              className="btn primary"
              disabled={!online || queued === 0}
              onClick={() => void askSend()}
              title={online ? undefined : 'The tenant cannot be reached: changes stay queued'}
            >
              Send all queued ({count(queued)})
            </button>
          </>
        )}
      </div>
      {confirmSend && !sending && (
        <ConfirmPanel
          question={`Send ${count(confirmSend.total)} queued change${confirmSend.total === 1 ? '' : 's'} to the tenant now?`}
          detail={confirmSend.kinds}
          confirmLabel={`Send ${count(confirmSend.total)}`}
          onConfirm={() => {
            setConfirmSend(null);
            void send(null);
          }}
          onCancel={() => setConfirmSend(null)}
        />
      )}
      <SendProgressCard />
      {actionError && <div className="banner">{actionError}</div>}
      <div className="tabs" role="tablist">
        {(['items', 'new', 'import', 'review', 'imports', 'journal'] as Tab[]).map((name) => (
          <button
            key={name}
            role="tab"
            aria-selected={tab === name}
            className={`tab ${tab === name ? 'active' : ''}`}
            onClick={() => setTab(name)}
          >
            {TAB_NAMES[name]}
          </button>
        ))}
      </div>
      {tab === 'new' && <ChangeForm onQueued={() => undefined} templateId={editTemplate} />}
      {tab === 'import' && <ImportCsv onImported={() => setTab('items')} />}
      {tab === 'review' && (
        <ImportReview
          onImported={(batch) => {
            // On to the removals just queued: the batch named after the worksheet.
            if (batch !== null) setFilter({ ...NO_FILTER, batch });
            setTab('items');
          }}
        />
      )}
      {tab === 'journal' && <Journal />}
      {tab === 'imports' && (
        <Batches
          onShow={(batch) => {
            setFilter({ ...NO_FILTER, batch: batch.id });
            setTab('items');
          }}
        />
      )}
      {tab === 'items' && editing && (
        <div className="stack" data-testid="edit-item">
          <div className="row">
            <h2 className="grow" style={{ margin: 0 }}>
              Edit: {editing.change}
            </h2>
            <button className="btn" onClick={() => setEditing(null)}>
              Close
            </button>
          </div>
          <ChangeForm
            key={editing.id}
            editing={editing}
            onQueued={() => {
              setEditing(null);
              outboxChanged();
            }}
          />
        </div>
      )}
      {tab === 'items' && (
        <OutboxItems filter={filter} setFilter={setFilter} onEdit={setEditing} onNew={() => setTab('new')} onMessage={setActionError} />
      )}
    </div>
  );
}
