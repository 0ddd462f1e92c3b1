import { useState } from 'react';
import type { OutboxItemView, OutboxState } from '../../../shared/contract';
import { call, errorMessage } from '../../api';
import { useApp } from '../../stores/app';
import { Badge, Empty, ErrorState, Loading, ProgressBar } from '../../components/States';
import { useQuery } from '../../components/useQuery';
import { ago, count, dateTime } from '../../components/format';
import { ChangeForm, KIND_LABELS } from './ChangeForms';
import { ResultLinks } from './ResultLinks';
import { ImportCsv } from './ImportCsv';

type Tab = 'items' | 'new' | 'import' | 'journal';
const STATES: OutboxState[] = ['queued', 'sending', 'failed', 'uncertain', 'succeeded', 'resolved', 'discarded'];
const TONE: Partial<Record<OutboxState, 'ok' | 'warn' | 'bad' | 'pending'>> = {
  queued: 'pending',
  sending: 'pending',
  succeeded: 'ok',
  failed: 'bad',
  uncertain: 'warn',
};

function Actions({ item, onDone, onEdit }: { item: OutboxItemView; onDone(error?: string): void; onEdit(): void }) {
  const act = (run: () => Promise<unknown>) => () =>
    void run().then(
      () => onDone(),
      (e: unknown) => onDone(errorMessage(e)),
    );
  return (
    <div className="row" style={{ gap: 4 }}>
      {item.state === 'queued' && (
        <button className="btn small" onClick={onEdit}>
          Edit
        </button>
      )}
      {(item.state === 'failed' || item.state === 'uncertain') && (
        <>
          <button className="btn small" onClick={act(() => call('outboxRetry', { id: item.id }))}>
            Retry
          </button>
          <button className="btn small" onClick={act(() => call('outboxResolve', { id: item.id, note: 'resolved in the app' }))}>
            Resolve
          </button>
        </>
      )}
      {(item.state === 'queued' || item.state === 'failed' || item.state === 'uncertain') && (
        <button className="btn small danger" onClick={act(() => call('outboxDiscard', { id: item.id }))}>
          Discard
        </button>
      )}
    </div>
  );
}

function Journal() {
  const version = useApp((s) => s.outboxVersion);
  const journal = useQuery(() => call('outboxJournal', { itemId: null, limit: 500 }), [version]);
  if (journal.error) return <ErrorState message={journal.error} onRetry={journal.reload} />;
  if (!journal.data) return <Loading />;
  if (journal.data.entries.length === 0)
    return <Empty title="Nothing sent yet">The journal records every attempt: request digest, status and answer.</Empty>;
  return (
    <div className="card" style={{ padding: 0, overflow: 'auto' }} data-testid="journal">
      <table style={{ width: '100%', borderCollapse: 'collapse', fontSize: 13 }}>
        <thead>
          <tr className="muted" style={{ textAlign: 'left' }}>
            <th style={{ padding: 8 }}>When</th>
            <th>Event</th>
            <th>Kind</th>
            <th>Request</th>
            <th>Status</th>
            <th>Outcome</th>
            <th>Digest</th>
          </tr>
        </thead>
        <tbody>
          {journal.data.entries.map((e) => (
            <tr key={e.seq} style={{ borderTop: '1px solid var(--border)' }}>
              <td style={{ padding: 8 }}>{dateTime(e.at)}</td>
              <td>{e.event}</td>
              <td>{KIND_LABELS[e.kind]}</td>
              <td className="mono small">
                {e.method} {e.path}
              </td>
              <td>{e.httpStatus ?? ''}</td>
              <td>{e.outcome}</td>
              <td className="mono small" title={e.requestDigest ?? ''}>
                {e.requestDigest?.slice(0, 12)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

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
  const version = useApp((s) => s.outboxVersion);
  const outboxChanged = useApp((s) => s.outboxChanged);
  const online = useApp((s) => s.connection.online);
  const sending = useApp((s) => s.sending);
  const [tab, setTab] = useState<Tab>(editTemplate ? 'new' : 'items');
  const [filter, setFilter] = useState<OutboxState | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [actionError, setActionError] = useState<string | null>(null);
  /** The queued item being edited (kept as it was when opened, so the form is not reset by refreshes). */
  const [editing, setEditing] = useState<OutboxItemView | null>(null);
  const list = useQuery(() => call('outboxList', { state: filter, limit: 2000 }), [filter, version]);

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
  const counts = list.data?.counts ?? {};
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
            {selected.size > 0 && (
              <button className="btn" disabled={!online} onClick={() => void send([...selected])}>
                Send selected ({selected.size})
              </button>
            )}
            <button
              className="btn primary"
              disabled={!online || queued === 0}
              onClick={() => void send(null)}
              title={online ? undefined : 'The tenant cannot be reached: changes stay queued'}
            >
              Send all queued ({count(queued)})
            </button>
          </>
        )}
      </div>
      <SendProgressCard />
      {actionError && <div className="banner">{actionError}</div>}
      <div className="tabs" role="tablist">
        {(['items', 'new', 'import', 'journal'] as Tab[]).map((name) => (
          <button
            key={name}
            role="tab"
            aria-selected={tab === name}
            className={`tab ${tab === name ? 'active' : ''}`}
            onClick={() => setTab(name)}
          >
            {name === 'items' ? 'Changes' : name === 'new' ? 'New change' : name === 'import' ? 'Import CSV' : 'Journal'}
          </button>
        ))}
      </div>
      {tab === 'new' && <ChangeForm onQueued={() => undefined} templateId={editTemplate} />}
      {tab === 'import' && <ImportCsv onImported={() => setTab('items')} />}
      {tab === 'journal' && <Journal />}
      {tab === 'items' && editing && (
        <div className="stack" data-testid="edit-item">
          <div className="row">
            <h2 className="grow" style={{ margin: 0 }}>
              Edit: {editing.summary}
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
        <>
          <div className="row wrap">
            <button className={`btn small ${filter === null ? 'primary' : ''}`} onClick={() => setFilter(null)}>
              All
            </button>
            {STATES.map((state) => (
              <button
                key={state}
                className={`btn small ${filter === state ? 'primary' : ''}`}
                onClick={() => setFilter(state)}
                data-testid={`filter-${state}`}
              >
                {state} {counts[state] ? `(${count(counts[state] ?? 0)})` : ''}
              </button>
            ))}
          </div>
          {list.error && !list.data ? (
            <ErrorState message={list.error} onRetry={list.reload} />
          ) : !list.data ? (
            <Loading />
          ) : list.data.items.length === 0 ? (
            <Empty title={filter ? `No ${filter} change` : 'Nothing queued'}>
              <p>Changes you queue (offline or not) wait here until you send them.</p>
              <button className="btn primary" onClick={() => setTab('new')}>
                New change
              </button>
            </Empty>
          ) : (
            <div className="card" style={{ padding: 0, overflow: 'auto' }}>
              <table className="outbox-table" data-testid="outbox-items">
                <colgroup>
                  <col style={{ width: 36 }} />
                  <col style={{ width: 104 }} />
                  <col />
                  <col style={{ width: '30%' }} />
                  <col style={{ width: 52 }} />
                  <col style={{ width: 96 }} />
                  <col style={{ width: 196 }} />
                </colgroup>
                <thead>
                  <tr className="muted" style={{ textAlign: 'left' }}>
                    <th>
                      <span className="sr-only">Select</span>
                    </th>
                    <th>State</th>
                    <th>Change</th>
                    <th>Reason</th>
                    <th>Tries</th>
                    <th>Updated</th>
                    <th>
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.data.items.map((item) => (
                    <tr key={item.id} style={{ borderTop: '1px solid var(--border)' }} data-testid="outbox-item" data-state={item.state}>
                      <td style={{ padding: 8 }}>
                        {item.state === 'queued' && (
                          <input
                            type="checkbox"
                            aria-label={`Select ${item.summary}`}
                            checked={selected.has(item.id)}
                            onChange={(e) =>
                              setSelected((s) => {
                                const next = new Set(s);
                                if (e.target.checked) next.add(item.id);
                                else next.delete(item.id);
                                return next;
                              })
                            }
                          />
                        )}
                      </td>
                      <td>
                        <Badge tone={TONE[item.state]}>{item.state}</Badge>
                      </td>
                      <td>
                        <div>{item.summary}</div>
                        <ResultLinks item={item} />
                        <div className="muted small mono">
                          {KIND_LABELS[item.kind]} · {item.request.method} {item.request.path}
                        </div>
                      </td>
                      <td className="small">
                        {item.lastError ? (
                          <span style={{ color: 'var(--bad)' }}>
                            {item.lastStatus ? `${item.lastStatus}: ` : ''}
                            {item.lastError}
                          </span>
                        ) : (
                          (item.note ?? '')
                        )}
                      </td>
                      <td>{item.attempts}</td>
                      <td className="small" title={item.updatedAt}>
                        {ago(item.updatedAt)}
                      </td>
                      <td>
                        <Actions
                          item={item}
                          onEdit={() => setEditing(item)}
                          onDone={(error) => {
                            setActionError(error ?? null);
                            outboxChanged();
                          }}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </div>
  );
}
