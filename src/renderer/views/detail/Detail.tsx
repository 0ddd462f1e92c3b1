import { useMemo, useState } from 'react';
import type { CollectionId, ColumnInfo } from '../../../shared/contract';
import { call } from '../../api';
import { useApp } from '../../stores/app';
import { COLLECTION_LABELS, COLLECTION_NOUN } from '../../components/collections';
import { Badge, Empty, ErrorState, Loading } from '../../components/States';
import { useQuery } from '../../components/useQuery';
import { FieldChanges } from '../../components/FieldChanges';
import { agoAt, dateTime } from '../../components/format';
import { CopyButton, CopyableId, IdNames, isObject, type JsonObject } from './parts';
import { NamedReferences } from './NamedReferences';
import { Structured } from './structured';
import { EntitlementMembers, TaskActions } from './actions';
import { AppObjects } from './app-objects';
import { EntitlementToolset } from './toolset';
import { CampaignItems } from './campaign-items';
import { ReviewExport, REVIEW_SCOPES } from './review-export';
import { RefreshFromTenant } from '../live/RefreshFromTenant';

type Tab = 'details' | 'json' | 'history';

function History({ collection, id }: { collection: CollectionId; id: string }) {
  const history = useQuery(() => call('objectHistory', { collection, id }), [collection, id]);
  if (history.error) return <ErrorState message={history.error} onRetry={history.reload} />;
  if (!history.data) return <Loading />;
  if (history.data.entries.length === 0) return <Empty title="No history yet" />;
  return (
    <div className="card" style={{ padding: 0 }} data-testid="history">
      {history.data.entries.map((entry) => (
        <div
          key={entry.runId}
          className="row"
          style={{ padding: '10px 16px', borderBottom: '1px solid var(--border)', alignItems: 'flex-start' }}
        >
          <span className="mono small" style={{ width: 70 }}>
            run {entry.runId}
          </span>
          <span className={`change-kind ${entry.change}`}>{entry.change}</span>
          <span className="muted small" style={{ width: 170 }}>
            {dateTime(entry.at)}
          </span>
          <div className="grow small">
            {entry.fields.length > 0 ? (
              <FieldChanges fields={entry.fields} fieldCount={entry.fieldCount} caption={`Values changed in run ${entry.runId}`} />
            ) : (
              entry.changedFields.join(', ')
            )}
          </div>
        </div>
      ))}
    </div>
  );
}

const NO_COLUMNS: ColumnInfo[] = [];
const NO_NAMES: Record<string, string> = {};

/** One object: a structured view by resource kind, its raw JSON as received, and its history. */
export function Detail({ collection, id }: { collection: CollectionId; id: string }) {
  const back = useApp((s) => s.back);
  const navigate = useApp((s) => s.navigate);
  const dataVersion = useApp((s) => s.dataVersion);
  const liveRead = useApp((s) => s.collections.find((c) => c.id === collection)?.liveRead === true);
  const columns = useApp((s) => s.collections.find((c) => c.id === collection)?.columns ?? NO_COLUMNS);
  const [tab, setTab] = useState<Tab>('details');
  const result = useQuery(() => call('getObject', { collection, id }), [collection, id, dataVersion]);
  const object = result.data?.object ?? null;
  const parsed = useMemo((): JsonObject | null => {
    if (!object) return null;
    try {
      const value: unknown = JSON.parse(object.raw);
      return isObject(value) ? value : { value: value as never };
    } catch {
      return null;
    }
  }, [object]);
  const pretty = useMemo(() => (parsed ? JSON.stringify(parsed, null, 2) : (object?.raw ?? '')), [parsed, object]);

  if (result.error && !object)
    return (
      <div className="content">
        <ErrorState message={result.error} onRetry={result.reload} />
      </div>
    );
  if (result.loading && !result.data)
    return (
      <div className="content">
        <Loading />
      </div>
    );
  if (!object)
    return (
      <div className="content" data-screen="detail">
        <Empty title={`${COLLECTION_NOUN[collection]} not found`}>
          <p>
            No object <code>{id}</code> in the local copy of {COLLECTION_LABELS[collection].toLowerCase()}.
          </p>
          <button className="btn" onClick={() => navigate({ view: 'list', collection })}>
            Back to {COLLECTION_LABELS[collection]}
          </button>
        </Empty>
      </div>
    );

  return (
    <div className="content" data-screen="detail" data-collection={collection}>
      <div className="row small muted" style={{ marginBottom: 6 }}>
        <button className="btn link small" onClick={back}>
          ← Back
        </button>
        <span>·</span>
        <button className="btn link small" onClick={() => navigate({ view: 'list', collection })}>
          {COLLECTION_LABELS[collection]}
        </button>
      </div>
      <div className="row wrap" style={{ alignItems: 'baseline' }}>
        <h1 style={{ margin: 0 }}>{object.title || object.id}</h1>
        <span className="badge">{COLLECTION_NOUN[collection]}</span>
        {object.deleted && <Badge tone="bad">deleted in the tenant</Badge>}
        {object.pending && <Badge tone="pending">change pending in the outbox</Badge>}
        {collection === 'templates' && !object.deleted && (
          <button className="btn small" onClick={() => navigate({ view: 'outbox', editTemplate: object.id })}>
            Edit template…
          </button>
        )}
        {liveRead && <RefreshFromTenant key={`${collection}/${id}`} collection={collection} id={object.id} />}
      </div>
      <div className="row small muted" style={{ marginTop: 6 }}>
        <CopyableId value={object.id} />
        {object.fetchedAt && <span>fetched {agoAt(object.fetchedAt)}</span>}
        {object.runId !== null && <span>· stored by run {object.runId}</span>}
      </div>
      <div className="tabs" role="tablist">
        {(['details', 'json', 'history'] as Tab[]).map((name) => (
          <button
            key={name}
            role="tab"
            aria-selected={tab === name}
            className={`tab ${tab === name ? 'active' : ''}`}
            onClick={() => setTab(name)}
          >
            {name === 'details' ? 'Details' : name === 'json' ? 'Raw JSON' : 'History'}
          </button>
        ))}
      </div>
      {tab === 'details' &&
        (parsed ? (
          <div className="stack">
            {collection === 'tasks' && !object.deleted && <TaskActions object={object} raw={parsed} />}
            {collection === 'apps' && <AppObjects appId={object.id} />}
            <NamedReferences object={object} columns={columns} />
            <IdNames.Provider value={object.idNames ?? NO_NAMES}>
              <Structured collection={collection} raw={parsed} />
            </IdNames.Provider>
            {collection === 'campaigns' && <CampaignItems campaignId={object.id} />}
            {collection === 'entitlements' && typeof object.cells.appId === 'string' && (
              <EntitlementToolset appId={object.cells.appId} entitlementId={object.id} />
            )}
            {collection === 'entitlements' && !object.deleted && <EntitlementMembers object={object} raw={parsed} />}
            {REVIEW_SCOPES[collection] && !object.deleted && (
              <ReviewExport scope={REVIEW_SCOPES[collection]} id={object.id} title={object.title || object.id} />
            )}
          </div>
        ) : (
          <ErrorState title="Unreadable JSON" message="The stored JSON could not be parsed; see Raw JSON." />
        ))}
      {tab === 'json' && (
        <div className="stack">
          <div className="row">
            <span className="muted small grow">Exactly as the tenant sent it (pretty-printed here; the stored bytes are unchanged).</span>
            <CopyButton text={object.raw} label="Copy raw JSON" />
          </div>
          <pre className="json" data-testid="raw-json">
            {pretty}
          </pre>
        </div>
      )}
      {tab === 'history' && <History collection={collection} id={id} />}
    </div>
  );
}
