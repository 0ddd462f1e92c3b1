import { useState } from 'react';
import { call, errorMessage } from '../api';
import { useApp } from '../stores/app';

/**
 * The open connection has no secret: its keychain entry is gone, or there is no keychain and the
 * secret was held for an earlier run only. The local copy stays browsable; pasting the secret connects.
 */
export function SecretPrompt() {
  const connection = useApp((s) => s.connection);
  const keychainAvailable = useApp((s) => s.info?.keychainAvailable ?? true);
  const workspaceOpened = useApp((s) => s.workspaceOpened);
  const [secret, setSecret] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function connect() {
    setBusy(true);
    setError(null);
    try {
      const opened = await call('provideSecret', { clientSecret: secret.trim(), keep: keychainAvailable ? 'keychain' : 'this-run' });
      setSecret('');
      await workspaceOpened(opened.connection, opened.state);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="banner offline stack"
      style={{ alignItems: 'stretch', gap: 6 }}
      aria-label="Connect with the secret"
      data-testid="secret-prompt"
      onSubmit={(event) => {
        event.preventDefault();
        if (secret.trim()) void connect();
      }}
    >
      <div>
        <strong>Not connected.</strong> {connection.reason} You are browsing the local copy meanwhile.
      </div>
      {!keychainAvailable && (
        <div className="small">
          Attest holds the secret in memory until it quits, never on disk: you will be asked again at the next start.
        </div>
      )}
      <div className="row">
        <label className="sr-only" htmlFor="secret-again">
          Client secret of {connection.connection}
        </label>
        <input
          id="secret-again"
          className="field mono grow"
          type="password"
          placeholder="secret-token:…"
          autoComplete="off"
          spellCheck={false}
          value={secret}
          onChange={(event) => setSecret(event.target.value)}
        />
        <button type="submit" className="btn primary" disabled={!secret.trim() || busy}>
          {busy ? 'Connecting…' : keychainAvailable ? 'Connect' : 'Connect for this run'}
        </button>
      </div>
      {error && (
        <div className="field-error" role="alert">
          {error}
        </div>
      )}
    </form>
  );
}
