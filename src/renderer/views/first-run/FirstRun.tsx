import { useState } from 'react';
import { call, errorMessage } from '../../api';
import { useApp } from '../../stores/app';
import { ConnectForm } from './ConnectForm';

export function DemoCard() {
  const workspaceOpened = useApp((s) => s.workspaceOpened);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function openDemo() {
    setBusy(true);
    setError(null);
    try {
      const { connection, state } = await call('openDemoTenant');
      await workspaceOpened(connection, state);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="card stack">
      <h2>Just looking?</h2>
      <p className="muted" style={{ margin: 0 }}>
        Open the demo tenant: a reference server starts on this computer with sample campaigns, automations, toolsets, routing rules and
        scopes. Nothing leaves your machine.
      </p>
      {error && (
        <div className="field-error" role="alert">
          {error}
        </div>
      )}
      <div>
        <button className="btn primary" onClick={() => void openDemo()} disabled={busy}>
          {busy ? 'Starting the demo tenant…' : 'Open demo tenant'}
        </button>
      </div>
    </div>
  );
}

export function FirstRun() {
  const info = useApp((s) => s.info);
  const connections = useApp((s) => s.connections);
  const openWorkspace = useApp((s) => s.openWorkspace);
  const navigate = useApp((s) => s.navigate);
  const setAbout = useApp((s) => s.setAbout);
  const [openError, setOpenError] = useState<string | null>(null);
  return (
    <main className="first-run" data-screen="first-run">
      <div className="inner stack">
        <div>
          <h1>Welcome to Attest</h1>
          <p className="muted" style={{ marginTop: 0 }}>
            Browse, search and report on an identity-governance tenant, online or offline. Connect a tenant with an API credential, or try
            the demo.
          </p>
          <div className="row small">
            <button className="btn small" onClick={() => navigate({ view: 'help' })}>
              Documentation
            </button>
            <button className="btn small" onClick={() => setAbout(true)}>
              About Attest
            </button>
          </div>
        </div>
        {connections.length > 0 && (
          <div className="card stack">
            <h2>Saved connections</h2>
            {openError && <div className="field-error">{openError}</div>}
            {connections.map((connection) => (
              <div key={connection.name} className="row">
                <div className="grow">
                  <strong>{connection.name}</strong> <span className="muted small mono">{connection.hostname}</span>
                </div>
                <button
                  className="btn"
                  onClick={() => void openWorkspace(connection.name).catch((e: unknown) => setOpenError(errorMessage(e)))}
                >
                  Open
                </button>
              </div>
            ))}
          </div>
        )}
        <div className="grid cols-2" style={{ alignItems: 'start' }}>
          <div className="card stack">
            <h2>Connect a tenant</h2>
            <p className="muted small" style={{ margin: 0 }}>
              Paste the Client ID and Client Secret of an API credential (Settings → API credentials in the tenant).
            </p>
            {info && !info.keychainAvailable && (
              <div className="field-error" role="alert">
                The operating system's keychain is not available, so secrets cannot be stored. Start a Secret Service (gnome-keyring) and
                try again.
              </div>
            )}
            <ConnectForm />
          </div>
          <DemoCard />
        </div>
      </div>
    </main>
  );
}
