/** Apps. App 0 is the service's own catalog app, whose entitlements are the access profiles. */
import type { App } from '../model';
import type { BuildContext } from './context';

const APP_NAMES = [
  'Okta',
  'GitHub',
  'Salesforce',
  'AWS Production',
  'Snowflake',
  'Workday',
  'Jira',
  'Slack',
  'Google Workspace',
  'Datadog',
  'PagerDuty',
  'Zendesk',
  'NetSuite',
  'Confluence',
  'Azure',
  'GitLab',
  'Tableau',
  'HubSpot',
  'Stripe',
  'Figma',
  'Notion',
  'Databricks',
];

export function apps(ctx: BuildContext, count: number): void {
  const r = ctx.stream('apps');
  // Members added later draw from their own stream, so the ones above keep their values.
  const details = ctx.stream('apps:details');
  for (let i = 0; i < count; i += 1) {
    // App 0 is the service's own catalog app: access profiles are its entitlements.
    const base = i === 0 ? 'Access Profiles' : (APP_NAMES[(i - 1) % APP_NAMES.length] as string);
    const round = i === 0 ? 0 : Math.floor((i - 1) / APP_NAMES.length);
    const displayName = round === 0 ? base : `${base} ${round + 1}`;
    const app: App = {
      id: r.id(),
      displayName,
      description: i === 0 ? 'Access profiles (request catalogs) managed by the service' : `${displayName}, synced by its connector`,
      resourceServerIds: Array.from({ length: r.range(1, 3) }, () => r.id()),
      connectorIds: Array.from({ length: r.range(1, 2) }, () => r.id()),
      grantPolicyId: '',
      revokePolicyId: '',
      certifyPolicyId: '',
      monthlyCostUsd: 0,
      createdAt: ctx.past(r, 900, 400),
      updatedAt: '',
    };
    app.grantPolicyId = details.pick(ctx.policyIds);
    app.revokePolicyId = details.pick(ctx.policyIds);
    app.certifyPolicyId = details.pick(ctx.policyIds);
    app.monthlyCostUsd = i === 0 ? 0 : details.range(0, 40) * 250;
    app.updatedAt = ctx.after(details, app.createdAt, 300);
    ctx.data.apps.set(app.id, app);
    ctx.appList.push(app);
  }
}
