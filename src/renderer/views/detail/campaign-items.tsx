import type { ChannelResult } from '../../../shared/contract';
import { call } from '../../api';
import { ExportReportButton } from '../../components/ExportReportButton';
import { useApp } from '../../stores/app';
import { Badge, ErrorState, Loading } from '../../components/States';
import { useQuery } from '../../components/useQuery';
import { count, dateTime } from '../../components/format';

type Item = ChannelResult<'campaignItems'>['items'][number];

const DECISION: Record<Item['decision'], { label: string; tone: 'ok' | 'warn' | 'bad' | undefined }> = {
  certified: { label: 'Certified', tone: 'ok' },
  revoked: { label: 'Revoked', tone: 'bad' },
  outstanding: { label: 'Outstanding', tone: 'warn' },
  other: { label: 'Other', tone: undefined },
};

/** What happened to a revoke decision: its revoke task, and whether the access is gone in the synced data. */
function Remediation({ item }: { item: Item }) {
  const navigate = useApp((s) => s.navigate);
  if (item.decision !== 'revoked') return null;
  return (
    <span className="small">
      {item.revokeTaskId ? (
        <button className="btn link small" onClick={() => navigate({ view: 'detail', collection: 'tasks', id: item.revokeTaskId! })}>
          Revoke task{item.revokeTaskState ? ` (${item.revokeTaskState})` : ''}
        </button>
      ) : (
        <span className="muted">No revoke task</span>
      )}{' '}
      {item.accessGone ? <Badge tone="ok">Access gone</Badge> : <Badge tone="bad">Access still held</Badge>}
    </span>
  );
}

/** Exports the certification report of this campaign to a file chosen in the save dialog. */
function ExportCertification({ campaignId }: { campaignId: string }) {
  return (
    <ExportReportButton
      label="Export certification report…"
      dialogTitle="Export the certification report"
      defaultName={`attest-certification-${campaignId}.xlsx`}
      exportTo={(path) => call('exportReport', { kind: 'certification', path, campaign: campaignId, view: "the campaign's page" })}
      testId="certification-export"
      className="btn small"
    />
  );
}

/**
 * A campaign's reviewed items: one row per certify task with the subject, app, entitlement,
 * reviewers, decision and when, and for a revoke its remediation; the rows of the certification
 * report, which the button exports for this campaign.
 */
export function CampaignItems({ campaignId }: { campaignId: string }) {
  const navigate = useApp((s) => s.navigate);
  const dataVersion = useApp((s) => s.dataVersion);
  const answer = useQuery(() => call('campaignItems', { campaignId }), [campaignId, dataVersion]);
  if (answer.error && !answer.data) return <ErrorState message={answer.error} onRetry={answer.reload} />;
  if (!answer.data) return <Loading />;
  const { items, summary } = answer.data;
  return (
    <section className="card stack" aria-label="Reviewed items" data-testid="campaign-items">
      <div className="row wrap" style={{ alignItems: 'baseline' }}>
        <h2 style={{ margin: 0 }}>Reviewed items</h2>
        {summary && (
          <span className="small muted" data-testid="campaign-summary">
            {count(summary.population)} items · {count(summary.decided)} decided ({count(summary.certified)} certified,{' '}
            {count(summary.revoked)} revoked) · {count(summary.outstanding)} outstanding
            {summary.overdue > 0 ? ` (${count(summary.overdue)} overdue)` : ''}
            {summary.revoked > 0 ? ` · ${count(summary.revokesGone)} of ${count(summary.revoked)} revokes done` : ''}
          </span>
        )}
        <span className="grow" />
        <ExportCertification campaignId={campaignId} />
      </div>
      {items.length === 0 ? (
        <div className="muted small">No certify task of this campaign is in the local copy.</div>
      ) : (
        <table
          className="outbox-table"
          data-testid="campaign-items-table"
          style={{ width: '100%', borderCollapse: 'collapse', fontSize: 13 }}
        >
          <thead>
            <tr>
              <th scope="col">Subject</th>
              <th scope="col">App</th>
              <th scope="col">Entitlement</th>
              <th scope="col">Reviewers</th>
              <th scope="col">Decision</th>
              <th scope="col">Decided at</th>
              <th scope="col">Comments</th>
              <th scope="col">Remediation</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={item.taskId} data-task={item.taskId} data-decision={item.decision}>
                <td>
                  <button className="btn link small" onClick={() => navigate({ view: 'detail', collection: 'tasks', id: item.taskId })}>
                    {item.subject ?? item.appUserId ?? item.taskId}
                  </button>
                  {item.subjectEmail && <div className="muted small">{item.subjectEmail}</div>}
                </td>
                <td>{item.app ?? <span className="muted">unknown app</span>}</td>
                <td>{item.entitlement ?? <span className="mono small">{item.entitlementId}</span>}</td>
                <td className="small">{item.reviewers.join(', ') || <span className="muted">none</span>}</td>
                <td>
                  <Badge tone={DECISION[item.decision].tone}>{DECISION[item.decision].label}</Badge>
                  {item.decidedBy && <div className="muted small">by {item.decidedBy}</div>}
                </td>
                <td className="small">{item.decidedAt ? dateTime(item.decidedAt) : ''}</td>
                <td className="small">{item.comments ?? ''}</td>
                <td>
                  <Remediation item={item} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
