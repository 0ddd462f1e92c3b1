import { useState } from 'react';
import type { ConnectionState } from '../../../shared/contract';
import { call, errorMessage } from '../../api';
import { useApp } from '../../stores/app';
import { useThemeChoice, type ThemeChoice } from '../../components/theme';
import { Badge } from '../../components/States';
import { ReplaceCredential } from './ReplaceCredential';
import { AutoRun } from './AutoRun';

/** The open connection, as its state is now: a refused credential is not shown as fine. */
function OpenBadge({ status }: { status: ConnectionState['status'] }) {
  if (status === 'credentials-refused') return <Badge tone="bad">open · credentials refused</Badge>;
  if (status === 'offline') return <Badge tone="warn">open · offline</Badge>;
  return <Badge tone="ok">open</Badge>;
}

/** Connections (add, test, remove, replace a credential, what each runs on its own), the data folder, and the theme. */
export function Settings() {
  const connections = useApp((s) => s.connections);
  const active = useApp((s) => s.active);
  const info = useApp((s) => s.info);
  const refreshConnections = useApp((s) => s.refreshConnections);
  const setAdding = useApp((s) => s.setAddingConnection);
  const openWorkspace = useApp((s) => s.openWorkspace);
  const theme = useThemeChoice((s) => s.theme);
  const setTheme = useThemeChoice((s) => s.setTheme);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const status = useApp((s) => s.connection.status);
  const refused = status === 'credentials-refused';
  // The open connection's credential refused: its replacement form is what Settings is opened for.
  const [replacing, setReplacing] = useState<string | null>(refused ? active : null);
  const [notice, setNotice] = useState<string | null>(null);

  async function remove(name: string) {
    setError(null);
    try {
      await call('removeConnection', { name });
      setConfirming(null);
      await refreshConnections();
      if (name === active) window.location.reload();
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }

  return (
    <div className="content stack" data-screen="settings" style={{ maxWidth: 900 }}>
      <h1>Settings</h1>
      <section className="card stack">
        <div className="row">
          <h2 className="grow" style={{ margin: 0 }}>
            Connections
          </h2>
          <button className="btn" onClick={() => setAdding(true)}>
            Add a tenant
          </button>
        </div>
        {error && <div className="field-error">{error}</div>}
        {notice && (
          <div className="small" role="status" data-testid="settings-notice">
            {notice}
          </div>
        )}
        {connections.map((connection) => (
          <div key={connection.name} className="stack" style={{ borderTop: '1px solid var(--border)', paddingTop: 10 }}>
            <div className="row" data-testid={`connection-${connection.name}`}>
              <div className="grow">
                <div>
                  <strong>{connection.name}</strong> {connection.name === active && <OpenBadge status={status} />}{' '}
                  {connection.demo && <Badge>demo</Badge>}
                </div>
                <div className="muted small mono">
                  {connection.clientId} · {connection.tokenUrl} ·{' '}
                  {connection.authMethod === 'assertion' ? 'signed assertion' : 'client secret'}
                </div>
              </div>
              {connection.name !== active && (
                <button
                  className="btn small"
                  onClick={() => void openWorkspace(connection.name).catch((e: unknown) => setError(errorMessage(e)))}
                >
                  Open
                </button>
              )}
              {!connection.demo && replacing !== connection.name && (
                <button
                  className="btn small"
                  onClick={() => {
                    setNotice(null);
                    setReplacing(connection.name);
                  }}
                >
                  Replace credential
                </button>
              )}
              {confirming === connection.name ? (
                <>
                  <span className="small">Remove it and delete its keychain entry?</span>
                  <button className="btn small danger" onClick={() => void remove(connection.name)}>
                    Remove
                  </button>
                  <button className="btn small" onClick={() => setConfirming(null)}>
                    Keep
                  </button>
                </>
              ) : (
                <button className="btn small danger" onClick={() => setConfirming(connection.name)}>
                  Remove…
                </button>
              )}
            </div>
            <AutoRun connection={connection} />
            {replacing === connection.name && (
              <ReplaceCredential
                connection={connection}
                onDone={(message) => {
                  setReplacing(null);
                  setNotice(message);
                }}
              />
            )}
          </div>
        ))}
      </section>
      <section className="card stack">
        <h2 style={{ margin: 0 }}>Data folder</h2>
        <div className="mono small">{info?.dataDir}</div>
        <div className="muted small">
          One local database per connection lives here. Secrets are in the operating system's keychain (
          {info?.keychainAvailable ? 'available' : 'not available'}).
        </div>
      </section>
      <section className="card stack">
        <h2 style={{ margin: 0 }}>Appearance</h2>
        <div className="row">
          {(['system', 'light', 'dark'] as ThemeChoice[]).map((choice) => (
            <label key={choice} className="row">
              <input type="radio" name="theme" checked={theme === choice} onChange={() => setTheme(choice)} />
              {choice === 'system' ? 'Follow the system' : choice === 'light' ? 'Light' : 'Dark'}
            </label>
          ))}
        </div>
      </section>
      <section className="card">
        <div className="muted small">
          Attest {info?.version} · {info?.host === 'browser' ? 'browser host (development)' : 'desktop'} · {info?.platform}
        </div>
      </section>
    </div>
  );
}
