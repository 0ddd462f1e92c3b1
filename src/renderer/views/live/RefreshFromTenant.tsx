import { useState } from 'react';
import type { ChannelResult, CollectionId } from '../../../shared/contract';
import { call, errorMessage } from '../../api';
import { useApp } from '../../stores/app';
import { FieldChanges } from '../../components/FieldChanges';
import { dateTime } from '../../components/format';

type Refreshed = ChannelResult<'refreshObject'>;

/** What a refresh found, in words: changed since which version, or nothing new. */
function outcome(read: Refreshed): string {
  const at = `Read from the tenant ${dateTime(read.readAt)}`;
  if (read.note) return `${at}: ${read.note}`;
  if (!read.before) return `${at}: new in the local copy, stored by run ${read.runId ?? '-'}.`;
  if (read.fieldCount === 0) return `${at}: no change since the version of run ${read.before.runId}.`;
  const values = read.fieldCount === 1 ? '1 value' : `${read.fieldCount} values`;
  return `${at}: ${values} changed since the version of run ${read.before.runId}; stored as a fresh copy in run ${read.runId ?? '-'}.`;
}

/**
 * "Refresh from the tenant" on an object's page: reads the one object through its GET now (a
 * campaign through GET /access_review/{id}), stores it as a fresh copy, and shows what changed.
 * Offline or failed, it says why and the local copy stays as it was.
 */
export function RefreshFromTenant({ collection, id }: { collection: CollectionId; id: string }) {
  const online = useApp((s) => s.connection.online);
  const dataChanged = useApp((s) => s.dataChanged);
  const [busy, setBusy] = useState(false);
  const [read, setRead] = useState<Refreshed | null>(null);
  const [error, setError] = useState<string | null>(null);
  const refresh = async () => {
    setBusy(true);
    setError(null);
    try {
      const result = await call('refreshObject', { collection, id });
      setRead(result);
      if (result.runId !== null) dataChanged();
    } catch (failure) {
      setRead(null);
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button
        className="btn small"
        onClick={() => void refresh()}
        disabled={busy || !online}
        title={online ? 'Read this object from the tenant now and store it' : 'Offline: the tenant cannot be reached now'}
        data-testid="refresh-from-tenant"
      >
        {busy ? 'Reading…' : 'Refresh from the tenant'}
      </button>
      {(read || error) && (
        <div className="card stack small" style={{ flexBasis: '100%' }} data-testid="refresh-result" role="status">
          {error ? <div className="field-error">Not refreshed: {error}</div> : <div>{outcome(read!)}</div>}
          {read && <FieldChanges fields={read.fields} fieldCount={read.fieldCount} caption="Values changed since the stored version" />}
        </div>
      )}
    </>
  );
}
