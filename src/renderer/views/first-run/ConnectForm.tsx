import { useEffect, useState } from 'react';
import type { AuthMethod, ChannelResult } from '../../../shared/contract';
import { AttestError, call, errorMessage } from '../../api';
import { useApp } from '../../stores/app';

type Inspection = ChannelResult<'inspectCredentials'>;

/** Paste a client id and secret: what will be used is shown before anything is saved. */
export function ConnectForm({ onCancel }: { onCancel?: () => void }) {
  const workspaceOpened = useApp((s) => s.workspaceOpened);
  const keychainAvailable = useApp((s) => s.info?.keychainAvailable ?? true);
  const [name, setName] = useState('');
  // Without a keychain (or when saving to it failed), the secret can only be held for this run, if the user agrees.
  const [noKeychain, setNoKeychain] = useState(false);
  const [holdForThisRun, setHoldForThisRun] = useState(false);
  const withoutKeychain = !keychainAvailable || noKeychain;
  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  const [serverUrl, setServerUrl] = useState('');
  const [authMethod, setAuthMethod] = useState<AuthMethod>('assertion');
  const [showAdvanced, setShowAdvanced] = useState(false);
  const [inspection, setInspection] = useState<Inspection | null>(null);
  const [testing, setTesting] = useState(false);
  const [testResult, setTestResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);

  useEffect(() => {
    if (!clientId.trim() && !clientSecret.trim()) {
      setInspection(null);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      call('inspectCredentials', {
        clientId: clientId.trim(),
        serverUrl: serverUrl.trim() || null,
        clientSecret: clientSecret.trim() || null,
      })
        .then((result) => live && setInspection(result))
        .catch(
          (error: unknown) =>
            live &&
            setInspection({
              hostname: null,
              tokenUrl: null,
              apiRoot: null,
              loopback: false,
              clientIdError: errorMessage(error),
              secretDomain: null,
              clientSecretError: null,
            }),
        );
    }, 200);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [clientId, clientSecret, serverUrl]);

  useEffect(() => setTestResult(null), [clientId, clientSecret, serverUrl, authMethod]);

  const complete = Boolean(
    clientId.trim() && clientSecret.trim() && inspection && !inspection.clientIdError && !inspection.clientSecretError,
  );
  const args = { clientId: clientId.trim(), clientSecret: clientSecret.trim(), serverUrl: serverUrl.trim() || null, authMethod };

  async function test() {
    setTesting(true);
    setTestResult(null);
    try {
      const result = await call('testConnection', args);
      setTestResult({
        ok: true,
        text: `Connected: got a token in ${Math.round(result.latencyMs)} ms${result.expiresIn ? ` (valid ${result.expiresIn} s)` : ''}.`,
      });
    } catch (error) {
      setTestResult({ ok: false, text: errorMessage(error) });
    } finally {
      setTesting(false);
    }
  }

  async function save() {
    setSaving(true);
    setSaveError(null);
    try {
      const keep = withoutKeychain ? 'this-run' : 'keychain';
      const { connection } = await call('saveConnection', { ...args, name: name.trim() || null, keep });
      setClientSecret('');
      const opened = await call('openWorkspace', { name: connection.name });
      await workspaceOpened(opened.connection, opened.state);
    } catch (error) {
      if (error instanceof AttestError && error.code === 'keychain') setNoKeychain(true);
      setSaveError(errorMessage(error));
    } finally {
      setSaving(false);
    }
  }

  return (
    <form
      className="stack"
      aria-label="Connect a tenant"
      onSubmit={(event) => {
        event.preventDefault();
        if (complete && (!withoutKeychain || holdForThisRun)) void save();
      }}
    >
      <div>
        <label className="label" htmlFor="client-id">
          Client ID
        </label>
        <input
          id="client-id"
          className="field mono"
          placeholder="random-id@tenant.example.com/use-case"
          value={clientId}
          onChange={(e) => setClientId(e.target.value)}
          autoComplete="off"
          spellCheck={false}
        />
        {inspection?.clientIdError && clientId.trim() && <div className="field-error">{inspection.clientIdError}</div>}
      </div>
      <div>
        <label className="label" htmlFor="client-secret">
          Client secret
        </label>
        <input
          id="client-secret"
          className="field mono"
          type="password"
          placeholder="secret-token:…"
          value={clientSecret}
          onChange={(e) => setClientSecret(e.target.value)}
          autoComplete="off"
          spellCheck={false}
        />
        {inspection?.clientSecretError && clientSecret.trim() && <div className="field-error">{inspection.clientSecretError}</div>}
        {!withoutKeychain && <div className="muted small">Stored only in the operating system's keychain, never on disk or in logs.</div>}
      </div>
      {withoutKeychain && <HoldForThisRun checked={holdForThisRun} onChange={setHoldForThisRun} />}

      {inspection && !inspection.clientIdError && inspection.hostname && (
        <dl className="derived" aria-label="What will be used">
          <dt>Host</dt>
          <dd data-testid="derived-host">{inspection.hostname}</dd>
          <dt>Token URL</dt>
          <dd data-testid="derived-token-url">{inspection.tokenUrl}</dd>
          <dt>API root</dt>
          <dd>{inspection.apiRoot}</dd>
          <dt>Auth method</dt>
          <dd data-testid="derived-auth">
            {authMethod === 'assertion' ? 'Signed client assertion (EdDSA JWT)' : 'Client secret in the form body'}
          </dd>
          {inspection.secretDomain && (
            <>
              <dt>Secret domain</dt>
              <dd>{inspection.secretDomain}</dd>
            </>
          )}
          {inspection.loopback && (
            <>
              <dt>Note</dt>
              <dd>Loopback host: plain http is allowed.</dd>
            </>
          )}
        </dl>
      )}

      <button
        type="button"
        className="btn link small"
        onClick={() => setShowAdvanced((v) => !v)}
        aria-expanded={showAdvanced}
        style={{ alignSelf: 'flex-start' }}
      >
        {showAdvanced ? 'Hide' : 'Show'} advanced options
      </button>
      {showAdvanced && (
        <div className="stack">
          <div>
            <label className="label" htmlFor="conn-name">
              Name
            </label>
            <input
              id="conn-name"
              className="field"
              placeholder="from the host name"
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          <div>
            <label className="label" htmlFor="server-url">
              Server URL (overrides the host)
            </label>
            <input
              id="server-url"
              className="field mono"
              placeholder="https://…"
              value={serverUrl}
              onChange={(e) => setServerUrl(e.target.value)}
              spellCheck={false}
            />
          </div>
          <fieldset className="row" style={{ border: 'none', padding: 0, margin: 0 }}>
            <legend className="label">Auth method</legend>
            <label className="row">
              <input type="radio" name="auth" checked={authMethod === 'assertion'} onChange={() => setAuthMethod('assertion')} /> Signed
              assertion
            </label>
            <label className="row">
              <input type="radio" name="auth" checked={authMethod === 'secret'} onChange={() => setAuthMethod('secret')} /> Client secret
            </label>
          </fieldset>
        </div>
      )}

      {testResult && (
        <div
          className={testResult.ok ? 'badge ok' : 'field-error'}
          role="status"
          data-testid="test-result"
          style={{ alignSelf: 'flex-start' }}
        >
          {testResult.text}
        </div>
      )}
      {saveError && (
        <div className="field-error" role="alert">
          {saveError}
        </div>
      )}
      <div className="row">
        <button type="button" className="btn" disabled={!complete || testing} onClick={() => void test()}>
          {testing ? 'Testing…' : 'Test connection'}
        </button>
        <button type="submit" className="btn primary" disabled={!complete || saving || (withoutKeychain && !holdForThisRun)}>
          {saving ? 'Connecting…' : withoutKeychain ? 'Connect for this run' : 'Save and open'}
        </button>
        {onCancel && (
          <button type="button" className="btn" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

/**
 * Where the OS has no keychain Attest can use: said plainly, with the one way to connect anyway,
 * holding the secret in memory until the app quits (asked for again at the next start).
 */
export function HoldForThisRun({ checked, onChange }: { checked: boolean; onChange(checked: boolean): void }) {
  return (
    <div className="card stack" role="note" aria-label="No keychain" data-testid="no-keychain" style={{ gap: 6 }}>
      <strong>The secret can't be kept on this computer.</strong>
      <span className="small">
        There is no keychain Attest can use here, and Attest never writes a secret to disk. It can hold the secret in memory while it runs:
        when you start Attest again, it asks for the secret again.
      </span>
      <label className="row small">
        <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
        Hold the secret for this run only
      </label>
    </div>
  );
}
