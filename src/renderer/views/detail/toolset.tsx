import { call } from '../../api';
import { useApp } from '../../stores/app';
import { Badge, ErrorState, Loading } from '../../components/States';
import { useQuery } from '../../components/useQuery';
import { agoAt } from '../../components/format';
import { isObject, str } from './parts';

function parsed(raw: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(raw);
    return isObject(value) ? value : {};
  } catch {
    return {};
  }
}

/**
 * The MCP toolset of an entitlement: the tenant's own lookup while the connection is online, the
 * synced toolsets otherwise; the page says which answered, and why the store did.
 */
export function EntitlementToolset({ appId, entitlementId }: { appId: string; entitlementId: string }) {
  const navigate = useApp((s) => s.navigate);
  const dataVersion = useApp((s) => s.dataVersion);
  const online = useApp((s) => s.connection.online);
  const answer = useQuery(
    () => call('entitlementToolset', { appId, appEntitlementId: entitlementId }),
    [appId, entitlementId, dataVersion, online],
  );
  if (answer.error && !answer.data) return <ErrorState message={answer.error} onRetry={answer.reload} />;
  if (!answer.data) return <Loading />;
  const { source, toolset, asOf, reason } = answer.data;
  const fields = toolset ? parsed(toolset.raw) : {};
  const tools = typeof fields.toolCount === 'number' ? fields.toolCount : null;
  return (
    <section className="card stack" aria-label="MCP toolset" data-testid="entitlement-toolset" data-source={source}>
      <div className="row wrap" style={{ alignItems: 'baseline' }}>
        <h2 style={{ margin: 0 }}>MCP toolset</h2>
        {source === 'live' ? (
          <Badge tone="ok">
            <span data-testid="toolset-source">Live from the tenant</span>
          </Badge>
        ) : (
          <Badge tone="warn">
            <span data-testid="toolset-source">From the local copy{asOf ? ` (synced ${agoAt(asOf)})` : ' (never synced)'}</span>
          </Badge>
        )}
        <span className="grow" />
        <button className="btn small" onClick={answer.reload} disabled={answer.loading}>
          Look again
        </button>
      </div>
      {reason && (
        <div className="muted small" data-testid="toolset-reason">
          {reason}
        </div>
      )}
      {toolset ? (
        <div className="row wrap small" data-testid="toolset">
          <button className="btn link small" onClick={() => navigate({ view: 'detail', collection: 'toolsets', id: toolset.id })}>
            {toolset.title}
          </button>
          <code className="muted">{toolset.id}</code>
          {tools !== null && <span>{tools === 1 ? '1 tool' : `${tools} tools`}</span>}
          {str(fields.connectorId) && <span className="muted">connector {str(fields.connectorId)}</span>}
          {str(fields.description) && <span className="muted">{str(fields.description)}</span>}
        </div>
      ) : (
        <div className="muted small" data-testid="no-toolset">
          No MCP toolset is linked to this entitlement{source === 'store' ? ' in the local copy' : ''}.
        </div>
      )}
    </section>
  );
}
