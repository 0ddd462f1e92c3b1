import { Bar, BarChart, Cell as ChartCell, Pie, PieChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ChartDatum, CollectionId } from '../../../shared/contract';
import { call } from '../../api';
import { useApp } from '../../stores/app';
import { COLLECTION_LABELS, COLLECTION_ORDER } from '../../components/collections';
import { Badge, Empty, ErrorState, Loading } from '../../components/States';
import { useQuery } from '../../components/useQuery';
import { agoAt, count, dateTime, enumCellText } from '../../components/format';

const PALETTE = ['#3b6cf6', '#1f9d55', '#c27a00', '#d33a3a', '#8a4fd8', '#0e9bb0', '#7a869a', '#e0559b'];

/** A category label of a bar chart, cut to the axis width, whole (with the raw value of an unknown one) on hover. */
function AxisLabel({ x, y, value, hover }: { x: number; y: number; value: string; hover: string }) {
  return (
    <g transform={`translate(${x},${y})`}>
      <title>{hover}</title>
      <text x={-4} y={0} dy={4} textAnchor="end" fill="var(--muted)" fontSize={11}>
        {value.length > 22 ? `${value.slice(0, 21)}…` : value}
      </text>
    </g>
  );
}

function Chart({
  title,
  data,
  enumName,
  kind = 'bar',
}: {
  title: string;
  data: ChartDatum[];
  enumName: string | null;
  kind?: 'bar' | 'pie';
}) {
  const rows = data.map((d) => {
    const text = d.key ? enumCellText(enumName, d.key) : null;
    // The label (a value no enumeration lists: as written and marked), the same on hover.
    return { ...d, label: text?.label ?? '(none)', hover: text?.label ?? '(none)' };
  });
  const hoverOf = (label: string) => rows.find((r) => r.label === label)?.hover ?? label;
  return (
    <section className="card" style={{ minHeight: 260 }} aria-label={title}>
      <h2 className="section-title">{title}</h2>
      {rows.length === 0 ? (
        <div className="muted small">No data yet.</div>
      ) : (
        <div style={{ width: '100%', height: 210 }}>
          <ResponsiveContainer>
            {kind === 'pie' ? (
              <PieChart>
                <Pie
                  data={rows}
                  dataKey="count"
                  nameKey="label"
                  innerRadius={45}
                  outerRadius={80}
                  isAnimationActive={false}
                  label={({ name }) => String(name)}
                >
                  {rows.map((row, i) => (
                    <ChartCell key={row.key} fill={PALETTE[i % PALETTE.length]} />
                  ))}
                </Pie>
                <Tooltip formatter={(value, name) => [value, hoverOf(String(name))]} />
              </PieChart>
            ) : (
              <BarChart data={rows} layout="vertical" margin={{ left: 10, right: 20 }}>
                <XAxis type="number" allowDecimals={false} stroke="var(--muted)" fontSize={11} />
                <YAxis
                  type="category"
                  dataKey="label"
                  interval={0}
                  width={150}
                  stroke="var(--muted)"
                  fontSize={11}
                  tick={(props: { x: string | number; y: string | number; payload: { value: unknown } }) => (
                    <AxisLabel
                      x={Number(props.x)}
                      y={Number(props.y)}
                      value={String(props.payload.value)}
                      hover={hoverOf(String(props.payload.value))}
                    />
                  )}
                />
                <Tooltip cursor={{ fill: 'var(--row-hover)' }} labelFormatter={(label) => hoverOf(String(label))} />
                <Bar dataKey="count" isAnimationActive={false}>
                  {rows.map((row, i) => (
                    <ChartCell key={row.key} fill={PALETTE[i % PALETTE.length]} />
                  ))}
                </Bar>
              </BarChart>
            )}
          </ResponsiveContainer>
        </div>
      )}
    </section>
  );
}

/** Counts per collection, charts, sync history, stale or incomplete collections flagged. */
export function Overview() {
  const dataVersion = useApp((s) => s.dataVersion);
  const navigate = useApp((s) => s.navigate);
  const online = useApp((s) => s.connection.online);
  const syncing = useApp((s) => s.syncing);
  const startSync = useApp((s) => s.startSync);
  const active = useApp((s) => s.active);
  const result = useQuery(() => call('overview'), [dataVersion, active]);

  if (result.error && !result.data)
    return (
      <div className="content" data-screen="overview">
        <ErrorState title="The overview is not available" message={result.error} onRetry={result.reload} />
      </div>
    );
  if (!result.data)
    return (
      <div className="content" data-screen="overview">
        <Loading />
      </div>
    );
  const { counts, charts, runs, status } = result.data;
  const neverSynced = status.every((s) => !s.asOf);
  const staleCutoff = Date.now() - 24 * 3600 * 1000;
  // The newest sync run, when it failed (the runs from sent changes and live reads are not syncs).
  const lastSync = runs.find((r) => r.origin !== 'outbox' && r.origin !== 'live');
  const failedRun = lastSync?.status === 'failed' && !neverSynced ? lastSync : null;
  const failedError = failedRun ? (status.find((x) => x.error)?.error ?? null) : null;

  return (
    <div className="content stack" data-screen="overview">
      <div className="row">
        <h1 className="grow">Overview</h1>
      </div>
      {neverSynced ? (
        <div className="card">
          <Empty title={syncing ? 'Syncing for the first time' : 'Nothing synced yet'}>
            <p>
              {syncing
                ? 'A copy of the tenant is coming to this computer; the Sync panel above shows each collection as it arrives.'
                : online
                  ? 'Sync to bring a copy of the tenant to this computer; after that everything works offline.'
                  : 'The tenant cannot be reached right now. Sync once it is back.'}
            </p>
            <button className="btn primary" disabled={!online || syncing} onClick={() => void startSync()}>
              {syncing ? 'Syncing…' : 'Sync now'}
            </button>
          </Empty>
        </div>
      ) : null}
      {failedRun && (
        <div className="banner" role="status" data-testid="last-sync-failed">
          The last sync (run {failedRun.id}) failed at {dateTime(failedRun.finishedAt ?? failedRun.startedAt)}
          {failedError ? `: ${failedError}` : ''}. The data from the sync before is intact; sync again when the tenant answers.
        </div>
      )}
      <div className="grid cols-3">
        {COLLECTION_ORDER.map((id: CollectionId) => {
          const s = status.find((x) => x.id === id);
          const stale = s?.asOf ? Date.parse(s.asOf) < staleCutoff : false;
          return (
            <button
              key={id}
              className="card"
              style={{ textAlign: 'left', cursor: 'pointer' }}
              onClick={() => navigate({ view: 'list', collection: id })}
              data-testid={`count-${id}`}
            >
              <div className="muted small">{COLLECTION_LABELS[id]}</div>
              <div style={{ fontSize: 26, fontWeight: 700 }}>{count(counts[id] ?? 0)}</div>
              <div className="row small wrap">
                {!s?.asOf ? <Badge tone="warn">never synced</Badge> : <span className="muted">as of {agoAt(s.asOf)}</span>}
                {s?.asOf && !s.complete && <Badge tone="warn">incomplete</Badge>}
                {stale && <Badge tone="warn">stale</Badge>}
                {/* A failed sync leaves the last complete data as it was: said as such, not as data that failed. */}
                {s?.error &&
                  (s.asOf ? (
                    <Badge tone="warn" title={s.error}>
                      last sync failed · data intact
                    </Badge>
                  ) : (
                    <Badge tone="bad" title={s.error}>
                      failed
                    </Badge>
                  ))}
              </div>
            </button>
          );
        })}
      </div>
      <div className="grid cols-2">
        <Chart title="Campaigns by state" data={charts.campaignsByState} enumName="AccessReviewState" />
        <Chart title="Automations by trigger type" data={charts.automationsByTrigger} enumName="TriggerType" />
        <Chart title="Routing rules by action" data={charts.routingRulesByAction} enumName="RoutingRuleAction" kind="pie" />
        <Chart title="Scopes by classification" data={charts.scopesByClassification} enumName="XaaScopeClassification" />
        <Chart title="Scopes by state" data={charts.scopesByState} enumName="XaaScopeState" kind="pie" />
      </div>
      <section className="card">
        <h2 className="section-title">Sync history</h2>
        {runs.length === 0 ? (
          <div className="muted small">No sync yet.</div>
        ) : (
          <table style={{ width: '100%', borderCollapse: 'collapse', fontSize: 13 }} data-testid="sync-history">
            <thead>
              <tr className="muted" style={{ textAlign: 'left' }}>
                <th>Run</th>
                <th>Started</th>
                <th>Finished</th>
                <th>Status</th>
                <th>Collections</th>
              </tr>
            </thead>
            <tbody>
              {runs.slice(0, 10).map((run) => (
                <tr key={run.id} style={{ borderTop: '1px solid var(--border)' }}>
                  <td className="mono">{run.id}</td>
                  <td>{dateTime(run.startedAt)}</td>
                  <td>{dateTime(run.finishedAt)}</td>
                  <td>
                    <Badge tone={run.status === 'completed' || run.status === 'complete' ? 'ok' : run.status === 'failed' ? 'bad' : 'warn'}>
                      {run.status}
                    </Badge>
                  </td>
                  <td className="small">
                    {run.origin === 'outbox' && <Badge tone="pending">from sent changes</Badge>}
                    {run.origin === 'live' && <Badge tone="pending">read from the tenant</Badge>} {run.collections.join(', ')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}
