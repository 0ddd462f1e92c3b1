import { useId, useState } from 'react';
import type { ConnectionInfo } from '../../../shared/contract';
import { SYNC_EVERY_MAX_MINUTES, SYNC_EVERY_MIN_MINUTES, syncEveryProblem } from '../../../shared/auto-run';
import { call, errorMessage } from '../../api';
import { useApp } from '../../stores/app';
import { clockTime } from '../../components/format';

/**
 * What a connection runs on its own (off by default), run by the app's main process: its queued
 * changes sent when the tenant is reachable again, and a sync every N minutes while online. For the
 * open connection, when the next run is due.
 */
export function AutoRun({ connection }: { connection: ConnectionInfo }) {
  const active = useApp((s) => s.active);
  const status = useApp((s) => (s.autoRun?.connection === connection.name ? s.autoRun : null));
  const online = useApp((s) => s.connection.online);
  const queued = useApp((s) => s.outboxCounts.queued ?? 0);
  const refreshConnections = useApp((s) => s.refreshConnections);
  const saved = connection.autoRun;
  const [send, setSend] = useState(saved.sendWhenOnline);
  const [sync, setSync] = useState(saved.syncEveryMinutes !== null);
  const [minutes, setMinutes] = useState(String(saved.syncEveryMinutes ?? 60));
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const every = sync ? (minutes.trim() === '' ? Number.NaN : Number(minutes)) : null;
  const problem = sync ? syncEveryProblem(every) : null;
  const changed = send !== saved.sendWhenOnline || every !== saved.syncEveryMinutes;

  async function save() {
    setError(null);
    setDone(null);
    setBusy(true);
    try {
      await call('setAutoRun', { name: connection.name, sendWhenOnline: send, syncEveryMinutes: every });
      await refreshConnections();
      setDone('Saved.');
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  const due: string[] = [];
  if (connection.name === active && status) {
    if (status.sendWhenOnline)
      due.push(
        !online && queued > 0 ? `${queued} queued: sends when the tenant is reachable again` : 'Sends queued changes when it goes online',
      );
    if (status.nextSyncAt) due.push(`Next sync due at ${clockTime(status.nextSyncAt)}`);
    else if (status.syncEveryMinutes !== null) due.push('Syncs when online');
  }

  return (
    <fieldset className="stack" data-testid={`auto-run-${connection.name}`} style={{ border: 0, padding: 0, margin: 0 }}>
      <legend className="small">
        <strong>On its own</strong> <span className="muted">(run by the app while it is open)</span>
      </legend>
      <label className="row small">
        <input type="checkbox" checked={send} onChange={(event) => setSend(event.target.checked)} />
        Send queued changes when online
      </label>
      <div className="row small">
        <label className="row">
          <input type="checkbox" checked={sync} onChange={(event) => setSync(event.target.checked)} />
          Sync every
        </label>
        <input
          className="field"
          style={{ width: 80 }}
          type="number"
          min={SYNC_EVERY_MIN_MINUTES}
          max={SYNC_EVERY_MAX_MINUTES}
          step={1}
          value={minutes}
          disabled={!sync}
          aria-label="Sync every N minutes"
          aria-invalid={problem !== null}
          aria-describedby={problem ? `${id}-problem` : undefined}
          onChange={(event) => setMinutes(event.target.value)}
        />
        <span>minutes while online</span>
        <button className="btn small" disabled={!changed || problem !== null || busy} onClick={() => void save()}>
          Save
        </button>
      </div>
      {problem && (
        <div className="field-error" id={`${id}-problem`}>
          {problem}
        </div>
      )}
      {error && (
        <div className="field-error" role="alert">
          {error}
        </div>
      )}
      {done && !changed && (
        <div className="small" role="status">
          {done}
        </div>
      )}
      {due.length > 0 && (
        <div className="muted small" data-testid="auto-run-due">
          {due.join(' · ')}
        </div>
      )}
    </fieldset>
  );
}
