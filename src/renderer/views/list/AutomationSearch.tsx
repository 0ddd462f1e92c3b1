import { useState } from 'react';
import type { ChannelArgs, ChannelResult } from '../../../shared/contract';
import { ENUMS } from '../../../shared/enums';
import { call, errorMessage } from '../../api';
import { useApp } from '../../stores/app';
import { ago, enumText } from '../../components/format';
import { Badge } from '../../components/States';

type Answer = ChannelResult<'searchAutomations'>;
type Filters = Omit<ChannelArgs<'searchAutomations'>, 'live'>;

const TRIGGER_TYPES = ENUMS.TriggerType.filter((t) => !t.endsWith('_UNSPECIFIED'));
const STATUSES = [
  { value: 'AUTOMATION_STATUS_FILTER_ON', label: 'On' },
  { value: 'AUTOMATION_STATUS_FILTER_OFF', label: 'Off' },
];

const listOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((v) => v.trim())
    .filter((v) => v !== '');

function TypeChoice({ id, label, value, onChange }: { id: string; label: string; value: string[]; onChange(v: string[]): void }) {
  return (
    <div>
      <label className="label" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className="field"
        multiple
        size={4}
        value={value}
        onChange={(e) => onChange([...e.target.selectedOptions].map((o) => o.value))}
      >
        {TRIGGER_TYPES.map((t) => (
          <option key={t} value={t}>
            {enumText('TriggerType', t).label}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * The spec's automation search with each of its filters, answered by the store (each filter as the
 * server means it, plus the store's own "any trigger type") or, while online, by the tenant; the
 * answer says which, and as of when.
 */
export function AutomationSearch() {
  const online = useApp((s) => s.connection.online);
  const navigate = useApp((s) => s.navigate);
  const [query, setQuery] = useState('');
  const [apps, setApps] = useState('');
  const [draft, setDraft] = useState<'' | 'true' | 'false'>('');
  const [statuses, setStatuses] = useState<string[]>([]);
  const [triggerTypes, setTriggerTypes] = useState<string[]>([]);
  const [anyTriggerTypes, setAnyTriggerTypes] = useState<string[]>([]);
  const [refs, setRefs] = useState('');
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [error, setError] = useState<string | null>(null);

  const filters: Filters = {
    ...(query.trim() ? { query: query.trim() } : {}),
    ...(listOf(apps).length > 0 ? { appIds: listOf(apps) } : {}),
    ...(draft ? { isDraft: draft === 'true' } : {}),
    ...(statuses.length > 0 ? { statuses } : {}),
    ...(triggerTypes.length > 0 ? { triggerTypes } : {}),
    ...(anyTriggerTypes.length > 0 ? { anyTriggerTypes } : {}),
    ...(listOf(refs).length > 0 ? { refs: listOf(refs) } : {}),
  };

  async function run(live: boolean) {
    setBusy(true);
    setError(null);
    try {
      setAnswer(await call('searchAutomations', { live, ...filters }));
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  const liveBlocked = !online
    ? 'Offline: the tenant cannot be asked now'
    : anyTriggerTypes.length > 0
      ? '"Any trigger type" is the store\'s own filter'
      : '';
  return (
    <details className="card stack automation-search" data-testid="automation-search">
      <summary className="label">Search with the spec&apos;s filters (store, or the tenant while online)</summary>
      <div className="grid cols-2">
        <div>
          <label className="label" htmlFor="as-query">
            Name or description contains
          </label>
          <input id="as-query" className="field" value={query} onChange={(e) => setQuery(e.target.value)} />
        </div>
        <div>
          <label className="label" htmlFor="as-apps">
            App ids (any of)
          </label>
          <input id="as-apps" className="field mono" value={apps} onChange={(e) => setApps(e.target.value)} placeholder="id, id…" />
        </div>
        <div>
          <label className="label" htmlFor="as-draft">
            Drafts
          </label>
          <select id="as-draft" className="field" value={draft} onChange={(e) => setDraft(e.target.value as typeof draft)}>
            <option value="">Drafts and published</option>
            <option value="true">Drafts only</option>
            <option value="false">Published only</option>
          </select>
        </div>
        <fieldset style={{ border: 'none', padding: 0, margin: 0 }}>
          <legend className="label">Status</legend>
          <div className="row">
            {STATUSES.map((s) => (
              <label key={s.value} className="row small">
                <input
                  type="checkbox"
                  checked={statuses.includes(s.value)}
                  onChange={(e) => setStatuses((now) => (e.target.checked ? [...now, s.value] : now.filter((v) => v !== s.value)))}
                />
                {s.label}
              </label>
            ))}
          </div>
        </fieldset>
        <TypeChoice id="as-trigger" label="Primary trigger type (as the server matches)" value={triggerTypes} onChange={setTriggerTypes} />
        <TypeChoice id="as-any-trigger" label="Any trigger type (store only)" value={anyTriggerTypes} onChange={setAnyTriggerTypes} />
        <div>
          <label className="label" htmlFor="as-refs">
            Automation ids
          </label>
          <input id="as-refs" className="field mono" value={refs} onChange={(e) => setRefs(e.target.value)} placeholder="id, id…" />
        </div>
      </div>
      <div className="row wrap">
        <button className="btn small" disabled={busy} onClick={() => void run(false)} data-testid="search-store">
          Search the store
        </button>
        <button
          className="btn primary small"
          disabled={busy || liveBlocked !== ''}
          title={liveBlocked || 'Ask the tenant now (POST /search/automations)'}
          onClick={() => void run(true)}
          data-testid="search-tenant"
        >
          Search the tenant
        </button>
        {answer && (
          <Badge tone={answer.complete ? undefined : 'warn'} title={answer.asOf ?? undefined}>
            <span data-testid="automation-search-source">
              {answer.source === 'live'
                ? `${answer.automations.length} from the tenant, asked ${ago(answer.asOf)} (${answer.pages} page${answer.pages === 1 ? '' : 's'}${
                    answer.complete ? '' : '; more remain'
                  })`
                : `${answer.automations.length} from the store, synced ${answer.asOf ? ago(answer.asOf) : 'never'}`}
            </span>
          </Badge>
        )}
      </div>
      {error && (
        <div className="field-error" role="alert">
          {error}
        </div>
      )}
      {answer && answer.automations.length > 0 && (
        <table className="field-changes" style={{ tableLayout: 'auto' }} data-testid="automation-search-results">
          <thead>
            <tr>
              <th>Name</th>
              <th>App</th>
              <th>Trigger type</th>
              <th>Enabled</th>
              <th>Draft</th>
            </tr>
          </thead>
          <tbody>
            {answer.automations.map((a) => (
              <tr key={a.id}>
                <td>
                  <button className="btn link small" onClick={() => navigate({ view: 'detail', collection: 'automations', id: a.id })}>
                    {a.name || a.id}
                  </button>
                </td>
                <td title={a.appId}>{a.appName || a.appId}</td>
                <td>{enumText('TriggerType', a.primaryTriggerType).label}</td>
                <td>{a.enabled ? 'yes' : 'no'}</td>
                <td>{a.isDraft ? 'yes' : 'no'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </details>
  );
}
