import { useEffect, useState } from 'react';
import type { ConnectionInfo } from '../../../shared/contract';
import { call, errorMessage } from '../../api';
import { useApp } from '../../stores/app';

/**
 * A saved connection's credential replaced in place (the tenant rotated it): paste the new client id
 * and secret, test them (a token is got, nothing is saved), then save. The name, the local data and
 * the outbox stay; the old secret's keychain entry is deleted.
 */
export function ReplaceCredential({ connection, onDone }: { connection: ConnectionInfo; onDone(message: string | null): void }) {
  const keychainAvailable = useApp((s) => s.info?.keychainAvailable ?? true);
  const active = useApp((s) => s.active);
  const refreshConnections = useApp((s) => s.refreshConnections);
  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  const [tested, setTested] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState<'test' | 'save' | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);

  useEffect(() => {
    setTested(null);
    setSaveError(null);
  }, [clientId, clientSecret]);

  const args = {
    clientId: clientId.trim(),
    clientSecret: clientSecret.trim(),
    serverUrl: connection.serverUrl,
    authMethod: connection.authMethod,
  };

  async function test() {
    setBusy('test');
    try {
      const result = await call('testConnection', args);
      setTested({ ok: true, text: `The tenant gave a token in ${Math.round(result.latencyMs)} ms.` });
    } catch (error) {
      setTested({ ok: false, text: errorMessage(error) });
    } finally {
      setBusy(null);
    }
  }

  async function save() {
    setBusy('save');
    try {
      const { state } = await call('replaceCredential', {
        name: connection.name,
        ...args,
        keep: keychainAvailable ? 'keychain' : 'this-run',
      });
      if (connection.name === active) useApp.setState({ connection: state });
      await refreshConnections();
      onDone(`The credential of '${connection.name}' was replaced; its local data and its outbox are kept.`);
    } catch (error) {
      setSaveError(errorMessage(error));
    } finally {
      setBusy(null);
    }
  }

  const complete = args.clientId !== '' && args.clientSecret !== '';
  return (
    <form
      className="stack"
      aria-label={`Replace the credential of ${connection.name}`}
      data-testid="replace-credential"
      onSubmit={(e) => {
        e.preventDefault();
        if (tested?.ok) void save();
      }}
    >
      <div className="muted small">
        Paste the new client ID and secret of {connection.hostname}. They are tested by getting a token before anything is saved.
      </div>
      <div>
        <label className="label" htmlFor={`replace-id-${connection.name}`}>
          New client ID
        </label>
        <input
          id={`replace-id-${connection.name}`}
          className="field mono"
          placeholder={connection.clientId}
          value={clientId}
          onChange={(e) => setClientId(e.target.value)}
          autoComplete="off"
          spellCheck={false}
        />
      </div>
      <div>
        <label className="label" htmlFor={`replace-secret-${connection.name}`}>
          New client secret
        </label>
        <input
          id={`replace-secret-${connection.name}`}
          className="field mono"
          type="password"
          placeholder="secret-token:…"
          value={clientSecret}
          onChange={(e) => setClientSecret(e.target.value)}
          autoComplete="off"
          spellCheck={false}
        />
      </div>
      {tested && (
        <div className={tested.ok ? 'small' : 'field-error'} data-testid="replace-test-result" role="status">
          {tested.text}
        </div>
      )}
      {saveError && (
        <div className="field-error" role="alert">
          {saveError}
        </div>
      )}
      <div className="row">
        <button type="button" className="btn" disabled={!complete || busy !== null} onClick={() => void test()}>
          {busy === 'test' ? 'Testing…' : 'Test'}
        </button>
        <button type="submit" className="btn primary" disabled={!tested?.ok || busy !== null}>
          {busy === 'save' ? 'Saving…' : 'Save credential'}
        </button>
        <button type="button" className="btn" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
