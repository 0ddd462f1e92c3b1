import { useState, type FormEvent } from 'react';
import type { ChannelResult } from '../../../shared/contract';
import { call, errorMessage } from '../../api';
import { useApp } from '../../stores/app';
import { useQuery } from '../../components/useQuery';

type Added = ChannelResult<'addTemplates'>;

/**
 * "Add a template by id" on the Templates list. The API has no list of templates: a sync reads
 * those campaigns and automations name; any other is added here by its id, read from the tenant
 * now, and read by every later sync. Also lists the templates added so far.
 */
export function AddTemplateById() {
  const online = useApp((s) => s.connection.online);
  const dataVersion = useApp((s) => s.dataVersion);
  const dataChanged = useApp((s) => s.dataChanged);
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Added | null>(null);
  const [error, setError] = useState<string | null>(null);
  const added = useQuery(() => call('addedTemplates', {}), [dataVersion]);
  const ids = text.split(/[\s,]+/).filter((id) => id !== '');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (ids.length === 0) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await call('addTemplates', { ids });
      setResult(answer);
      if (answer.added.length > 0) {
        setText('');
        dataChanged();
      }
    } catch (failure) {
      setResult(null);
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  const tracked = added.data?.templates ?? [];
  return (
    <div className="card stack small" style={{ margin: '0 16px 8px' }} data-testid="add-template-by-id">
      <div className="row wrap">
        <span className="muted grow">
          The API has no list of templates: a sync reads those campaigns and automations name
          {tracked.length > 0 ? `, and the ${tracked.length === 1 ? 'one' : tracked.length} added by id` : ''}.
        </span>
        <button className="btn small" onClick={() => setOpen(!open)} aria-expanded={open}>
          Add a template by id
        </button>
      </div>
      {open && (
        <form className="row wrap" onSubmit={(event) => void submit(event)}>
          <input
            className="field grow"
            placeholder="Template id (several: separated by spaces or commas)"
            aria-label="Template ids"
            value={text}
            onChange={(event) => setText(event.target.value)}
            data-testid="template-ids"
          />
          <button className="btn primary small" type="submit" disabled={busy || !online || ids.length === 0}>
            {busy ? 'Reading…' : 'Add'}
          </button>
          {!online && <span className="muted">Offline: adding reads the template from the tenant.</span>}
        </form>
      )}
      {error && <div className="field-error">{error}</div>}
      {result && (
        <div className="stack" data-testid="add-template-result" role="status">
          {result.added.map((t) => (
            <div key={t.id}>
              Added <strong>{t.title}</strong> <code className="muted">{t.id}</code>
              {t.newlyAdded ? '' : ' (added before; read again)'}
            </div>
          ))}
          {result.notFound.map((id) => (
            <div key={id} className="field-error">
              The tenant has no template <code>{id}</code> (404): not added.
            </div>
          ))}
          {result.failed.map((f) => (
            <div key={f.id} className="field-error">
              <code>{f.id}</code> was not read: {f.error}
            </div>
          ))}
          {result.note && <div className="muted">{result.note}</div>}
        </div>
      )}
      {open && tracked.length > 0 && (
        <ul className="muted" data-testid="added-templates">
          {tracked.map((t) => (
            <li key={t.id}>
              <code>{t.id}</code> {t.stored ? t.title : '(not in the local copy: the tenant answered 404 at the last sync)'}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
