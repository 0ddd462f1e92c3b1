/**
 * Acting on the objects admins act on, from their pages: an entitlement's members (virtualized,
 * multi-select, "Queue removal"; an entitlement whose memberships the service does not manage says
 * why none can be removed), and a task's "Escalate" (offered while the task says its current step
 * allows it, with that step's id taken from the task). Each change goes through the outbox's
 * checks like any other; the outbox sends it.
 */
import { useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { ChangeWarning, ObjectDetail, ObjectRow } from '../../../shared/contract';
import { call, errorMessage } from '../../api';
import { useApp } from '../../stores/app';
import { Badge, Empty, ErrorState, Loading } from '../../components/States';
import { useQuery } from '../../components/useQuery';
import { dateTime } from '../../components/format';
import { ConfirmPanel } from '../../components/ConfirmPanel';
import { ESCALATION_REASON, escalationOf, queueEscalation } from '../../components/escalation';
import { obj, str, VIRTUAL_ROW_HEIGHT, virtualRowStyle, type JsonObject } from './parts';
import { emailOfPersonTitle } from '../../../shared/person-title';

/** Members read per call (the most a window may hold). */
const PAGE = 1000;

/** Every current membership of an entitlement, read window by window. */
async function membersOf(entitlementId: string): Promise<ObjectRow[]> {
  const rows: ObjectRow[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await call('listObjects', {
      collection: 'memberships',
      filters: { appEntitlementId: [entitlementId] },
      sort: { key: 'appUserName', dir: 'asc' },
      offset,
      limit: PAGE,
    });
    rows.push(...page.rows);
    if (page.rows.length < PAGE || rows.length >= page.total) return rows;
  }
}

/** What queuing a batch of changes gave: how many, the warnings, the refusals. */
interface Queued {
  count: number;
  warnings: ChangeWarning[];
  refused: string[];
}

function QueuedNote({ queued }: { queued: Queued }) {
  const navigate = useApp((s) => s.navigate);
  return (
    <div className="stack small" role="status" data-testid="queued-note">
      {queued.count > 0 && (
        <div className="row wrap">
          <Badge tone="ok">
            {queued.count} change{queued.count === 1 ? '' : 's'} queued
          </Badge>
          <button className="btn small" onClick={() => navigate({ view: 'outbox' })}>
            Open the outbox to send
          </button>
        </div>
      )}
      {queued.warnings.map((w, i) => (
        <div key={`w${i}`} className="badge warn" style={{ alignSelf: 'flex-start' }}>
          {w.message}
        </div>
      ))}
      {queued.refused.map((message, i) => (
        <div key={`r${i}`} className="field-error">
          {message}
        </div>
      ))}
    </div>
  );
}

/** The members of an entitlement, to select and queue their removal. */
export function EntitlementMembers({ object, raw }: { object: ObjectDetail; raw: JsonObject }) {
  const dataVersion = useApp((s) => s.dataVersion);
  const outboxVersion = useApp((s) => s.outboxVersion);
  const outboxChanged = useApp((s) => s.outboxChanged);
  const navigate = useApp((s) => s.navigate);
  const entitlement = obj(obj(raw.appEntitlementView).appEntitlement);
  const appId = str(entitlement.appId);
  const type = str(object.cells.entitlementType);
  const managed = object.cells.membershipsManaged === true;
  const members = useQuery(() => membersOf(object.id), [object.id, dataVersion, outboxVersion]);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);
  const [queued, setQueued] = useState<Queued | null>(null);
  const [filter, setFilter] = useState('');
  // The row last clicked: a shift-click selects every row between it and the one clicked.
  const anchor = useRef<number | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const wanted = filter.trim().toLowerCase();
  const rows = (members.data ?? []).filter(
    (r) => !wanted || `${r.title} ${str(r.cells.appUserId)} ${r.names?.identityUserId ?? ''}`.toLowerCase().includes(wanted),
  );
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => VIRTUAL_ROW_HEIGHT,
    overscan: 12,
  });

  const selectable = (row: ObjectRow) => managed && !row.pending;
  const toggle = (index: number, range: boolean) => {
    const from = range && anchor.current !== null ? Math.min(anchor.current, index) : index;
    const to = range && anchor.current !== null ? Math.max(anchor.current, index) : index;
    const on = !selected.has(rows[index]!.id);
    anchor.current = index;
    setSelected((now) => {
      const next = new Set(now);
      for (const row of rows.slice(from, to + 1)) {
        if (!selectable(row)) continue;
        if (on) next.add(row.id);
        else next.delete(row.id);
      }
      return next;
    });
  };

  // Arrows move between the rows, Shift+arrows extend the selection from the focused row (the anchor:
  // the row last clicked or where the extending began); the row moved to gets the focus once rendered.
  const focusIndex = useRef<number | null>(null);
  const [, rendered] = useState(0);
  useLayoutEffect(() => {
    const index = focusIndex.current;
    if (index === null) return;
    const target = scroller.current?.querySelector<HTMLElement>(`[data-testid="member-row"][data-index="${index}"]`);
    const control = target?.querySelector<HTMLElement>('input:not([disabled]), button');
    if (control) {
      focusIndex.current = null;
      control.focus();
    }
  });
  const onRowKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if ((event.key !== 'ArrowDown' && event.key !== 'ArrowUp') || event.altKey || event.ctrlKey || event.metaKey) return;
    const from = Number((event.target as HTMLElement).closest('[data-testid="member-row"]')?.getAttribute('data-index') ?? NaN);
    const to = from + (event.key === 'ArrowDown' ? 1 : -1);
    if (Number.isNaN(from) || to < 0 || to >= rows.length) return;
    event.preventDefault();
    if (event.shiftKey && managed) {
      const start = anchor.current ?? from;
      anchor.current = start;
      // Moving back toward the anchor gives up the row left; moving away takes every row up to the new one.
      const shrinking = Math.abs(to - start) < Math.abs(from - start);
      setSelected((now) => {
        const next = new Set(now);
        if (shrinking) next.delete(rows[from]!.id);
        else for (const row of rows.slice(Math.min(start, to), Math.max(start, to) + 1)) if (selectable(row)) next.add(row.id);
        return next;
      });
    } else {
      // A move without Shift makes the row moved to the anchor: the next range starts at the focused row.
      anchor.current = to;
    }
    focusIndex.current = to;
    virtualizer.scrollToIndex(to, { align: 'auto' });
    rendered((n) => n + 1);
  };

  async function queueRemoval(reason: string) {
    setAsking(false);
    setBusy(true);
    const done: Queued = { count: 0, warnings: [], refused: [] };
    for (const row of rows.filter((r) => selected.has(r.id))) {
      try {
        const input = { appId, appEntitlementId: object.id, appUserId: str(row.cells.appUserId), ...(reason ? { reason } : {}) };
        const { warnings } = await call('outboxEnqueue', { kind: 'remove-membership', input });
        done.count += 1;
        done.warnings.push(...warnings);
      } catch (failure) {
        done.refused.push(`${row.title || row.id}: ${errorMessage(failure)}`);
      }
    }
    setQueued(done);
    setSelected(new Set());
    setBusy(false);
    outboxChanged();
  }

  const notManaged = !managed && (
    <div className="card small" role="note" data-testid="members-not-managed">
      {type ? (
        <>
          This entitlement is a <strong>{type}</strong>: its memberships come from its app, and the service manages only catalog (access
          profile), group and profile memberships, so none of its members can be removed here.
        </>
      ) : (
        <>The tenant did not give this entitlement's type, so whether its memberships can be removed is not known; none are offered.</>
      )}
    </div>
  );

  return (
    <section className="card stack" aria-label="Members" data-testid="entitlement-members">
      <div className="row wrap" style={{ alignItems: 'baseline' }}>
        <h2 style={{ margin: 0 }}>Members</h2>
        <span className="muted small">{members.data ? `${rows.length.toLocaleString('en-US')} in the local copy` : ''}</span>
        <span className="grow" />
        {managed && (
          <>
            <span className="muted small" data-testid="members-selected">
              {selected.size} selected
            </span>
            <button
              className="btn small"
              disabled={rows.length === 0}
              onClick={() => setSelected(selected.size > 0 ? new Set() : new Set(rows.filter(selectable).map((r) => r.id)))}
            >
              {selected.size > 0 ? 'Clear selection' : 'Select all'}
            </button>
            <button className="btn primary small" disabled={busy || asking || selected.size === 0} onClick={() => setAsking(true)}>
              Queue removal{selected.size > 0 ? ` (${selected.size})` : ''}
            </button>
          </>
        )}
      </div>
      {(members.data?.length ?? 0) > 10 && (
        <input
          className="field"
          type="search"
          aria-label="Filter members"
          placeholder="Filter members by name, email or id"
          value={filter}
          onChange={(e) => {
            setFilter(e.target.value);
            anchor.current = null;
          }}
        />
      )}
      {asking && (
        <ConfirmPanel
          question={`Remove ${selected.size} member${selected.size === 1 ? '' : 's'} from ${object.title || object.id}?`}
          detail="The removals are queued in the outbox and sent with the next send."
          reason={{ label: 'Why (kept with each removal and in the journal)', required: false }}
          confirmLabel={`Queue ${selected.size} removal${selected.size === 1 ? '' : 's'}`}
          onConfirm={(reason) => void queueRemoval(reason)}
          onCancel={() => setAsking(false)}
        />
      )}
      {notManaged}
      {queued && <QueuedNote queued={queued} />}
      {members.error && !members.data && <ErrorState message={members.error} onRetry={members.reload} />}
      {!members.data && !members.error && <Loading />}
      {members.data && rows.length === 0 && <Empty title="No members in the local copy" />}
      {rows.length > 0 && (
        <div
          ref={scroller}
          className="members-list"
          role="list"
          aria-label="Members (arrows move, Shift+arrows extend the selection)"
          style={{ maxHeight: 420, overflow: 'auto', position: 'relative' }}
          onKeyDown={onRowKey}
        >
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((item) => {
              const row = rows[item.index]!;
              const userId = str(row.cells.appUserId);
              const person = row.names?.identityUserId;
              const email = emailOfPersonTitle(person);
              return (
                <div
                  key={row.id}
                  role="listitem"
                  data-testid="member-row"
                  data-index={item.index}
                  data-user={userId}
                  className="row small"
                  style={virtualRowStyle(item.start)}
                >
                  {managed && (
                    <input
                      type="checkbox"
                      aria-label={`Select ${row.title || userId}`}
                      checked={selected.has(row.id)}
                      disabled={!selectable(row)}
                      onClick={(e) => toggle(item.index, e.shiftKey)}
                      onChange={() => undefined}
                    />
                  )}
                  <button className="btn link small" onClick={() => navigate({ view: 'detail', collection: 'app-users', id: userId })}>
                    {row.title || userId}
                  </button>
                  {email && (
                    <span className="member-email" data-testid="member-email" title={`Identity user: ${person}`}>
                      {email}
                    </span>
                  )}
                  <code className="muted">{userId}</code>
                  <span className="grow" />
                  {row.pending && <Badge tone="pending">pending removal</Badge>}
                  <span className="muted">{row.cells.grantedAt ? `since ${dateTime(str(row.cells.grantedAt))}` : ''}</span>
                </div>
              );
            })}
          </div>
        </div>
      )}
    </section>
  );
}

/** A task's escalation to emergency access: offered while the task says its current step allows it. */
export function TaskActions({ object, raw }: { object: ObjectDetail; raw: JsonObject }) {
  const outboxChanged = useApp((s) => s.outboxChanged);
  const task = obj(raw.task);
  const stepId = str(obj(obj(task.policy).current).id);
  const emergency = task.emergencyAccess === true;
  const [queued, setQueued] = useState<Queued | null>(null);
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);
  const escalation = escalationOf(object);
  const can = 'input' in escalation;

  async function escalate(reason: string) {
    if (!('input' in escalation)) return;
    setAsking(false);
    setBusy(true);
    try {
      const warnings = await queueEscalation(escalation.input, reason);
      setQueued({ count: 1, warnings, refused: [] });
      outboxChanged();
    } catch (failure) {
      setQueued({ count: 0, warnings: [], refused: [errorMessage(failure)] });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card stack" aria-label="Escalation" data-testid="task-actions">
      <div className="row wrap">
        {emergency ? (
          <Badge tone="warn">
            <span data-testid="emergency-access">Emergency access</span>
          </Badge>
        ) : (
          <span className="muted small">Not in emergency access.</span>
        )}
        {stepId && <span className="muted small">Current step {stepId}</span>}
        <span className="grow" />
        {can && (
          <button className="btn primary small" disabled={busy || asking || queued?.count === 1} onClick={() => setAsking(true)}>
            Escalate to emergency access
          </button>
        )}
        {!can && !emergency && !object.pending && (
          <span className="muted small">The task does not offer escalation at its current step.</span>
        )}
        {object.pending && <Badge tone="pending">escalation pending in the outbox</Badge>}
      </div>
      {asking && (
        <ConfirmPanel
          question="Escalate this task to emergency access?"
          detail="The change is queued in the outbox and sent with the next send."
          reason={ESCALATION_REASON}
          confirmLabel="Escalate"
          onConfirm={(reason) => void escalate(reason)}
          onCancel={() => setAsking(false)}
        />
      )}
      {queued && <QueuedNote queued={queued} />}
    </section>
  );
}
