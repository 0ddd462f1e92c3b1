import { useState } from 'react';
import { errorMessage } from '../api';
import { useApp } from '../stores/app';

/** The open tenant, and a quick switch to another saved connection or to adding one. */
export function TenantSwitcher() {
  const connections = useApp((s) => s.connections);
  const active = useApp((s) => s.active);
  const openWorkspace = useApp((s) => s.openWorkspace);
  const setAdding = useApp((s) => s.setAddingConnection);
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="row">
      <select
        className="field tenant-select"
        aria-label="Tenant"
        value={active ?? ''}
        onChange={(event) => {
          const value = event.target.value;
          if (value === '__add__') setAdding(true);
          else if (value) void openWorkspace(value).catch((e: unknown) => setError(errorMessage(e)));
        }}
      >
        {connections.map((connection) => (
          <option key={connection.name} value={connection.name}>
            {connection.name}
            {connection.demo ? ' (demo)' : ''}
          </option>
        ))}
        <option value="__add__">Add a tenant…</option>
      </select>
      {error && <span className="field-error">{error}</span>}
    </div>
  );
}
